using System.Globalization;
using FsCheck;
using Microsoft.FSharp.Core;

namespace BinaryXml.Tests;

/// <summary>
/// FsCheck settings shared by every property: a fixed seed so that CI is repeatable, overridable to explore or to
/// replay a failure (BINARYXML_FSCHECK_SEED=seed,gamma as FsCheck prints it), and a case count that
/// BINARYXML_FSCHECK_SCALE multiplies for longer runs.
/// </summary>
internal static class PropertyConfig
{
    /// <summary>Checks a property with <see cref="Create"/>; a failure throws with the counterexample and the seed.</summary>
    public static void Verify(Property property, int maxTest) => Check.One(Create(maxTest), property);

    public static Config Create(int maxTest)
    {
        ulong seed = 20261121, gamma = 0x9E3779B97F4A7C15;
        string? replay = Environment.GetEnvironmentVariable("BINARYXML_FSCHECK_SEED");
        if (!string.IsNullOrEmpty(replay))
        {
            string[] parts = replay.Trim('(', ')').Split(',');
            seed = ulong.Parse(parts[0], CultureInfo.InvariantCulture);
            if (parts.Length > 1) gamma = ulong.Parse(parts[1], CultureInfo.InvariantCulture);
        }
        int scale = int.TryParse(Environment.GetEnvironmentVariable("BINARYXML_FSCHECK_SCALE"), out int s) && s > 0 ? s : 1;
        return Config.QuickThrowOnFailure
            .WithMaxTest(maxTest * scale)
            .WithQuietOnSuccess(true)
            .WithReplay(FSharpOption<Replay>.Some(new Replay(new Rnd(seed, gamma | 1), FSharpOption<int>.None)));
    }
}
