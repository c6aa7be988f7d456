using System.Text;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Golden files produced by the in-box writer (InBox/golden.txt): our writer must reproduce every scenario byte for
/// byte, and the in-box writer must still produce what was recorded (so a runtime change shows up as a failure
/// here, not as a silent drift). Set BINARYXML_REGENERATE_GOLDEN=1 to rewrite the recorded bytes from the in-box
/// writer (tests/GoldenBytes/regenerate-golden.sh).
/// </summary>
public sealed class InBoxGoldenTests
{
    public sealed record Scenario(string Name, string Calls, bool Session, string Hex)
    {
        public override string ToString() => Name;
    }

    private const string FileName = "golden.txt";

    private static readonly Lazy<List<Scenario>> s_scenarios = new(() => Parse(File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "InBox", FileName), Encoding.UTF8)));

    private static List<Scenario> Parse(string[] lines)
    {
        var result = new List<Scenario>();
        for (int i = 0; i < lines.Length; i++)
        {
            if (!lines[i].StartsWith("== ", StringComparison.Ordinal)) continue;
            string[] header = lines[i][3..].Split(' ');
            result.Add(new Scenario(header[0], lines[i + 1], header.Contains("session"), lines[i + 2][3..]));
        }
        return result;
    }

    public static TheoryData<string> Names() => new(s_scenarios.Value.Select(s => s.Name));

    private static (byte[] Bytes, Exception? Error) Run(Scenario s, bool inBox)
    {
        var context = new ScriptContext(useSession: s.Session);
        List<Call> calls = WriterScript.Parse(s.Calls);
        return inBox ? WriterScript.RunInBox(calls, context) : WriterScript.RunNative(calls, context);
    }

    [Fact]
    public void There_are_at_least_sixty_distinct_scenarios()
    {
        Assert.True(s_scenarios.Value.Count >= 60);
        Assert.Equal(s_scenarios.Value.Count, s_scenarios.Value.Select(s => s.Name).Distinct().Count());
        Assert.DoesNotContain(s_scenarios.Value, s => s.Hex == "?");
    }

    [Theory]
    [MemberData(nameof(Names))]
    public void Our_writer_reproduces_the_golden_bytes(string name)
    {
        Scenario s = s_scenarios.Value.Single(x => x.Name == name);
        (byte[] bytes, Exception? error) = Run(s, inBox: false);
        Assert.Null(error);
        Assert.Equal(s.Hex, Hex.Format(bytes));
    }

    [Theory]
    [MemberData(nameof(Names))]
    public void The_in_box_writer_still_produces_the_golden_bytes(string name)
    {
        Scenario s = s_scenarios.Value.Single(x => x.Name == name);
        (byte[] bytes, Exception? error) = Run(s, inBox: true);
        Assert.Null(error);
        Assert.Equal(s.Hex, Hex.Format(bytes));
    }

    [Fact]
    public void Regenerate_when_asked()
    {
        if (Environment.GetEnvironmentVariable("BINARYXML_REGENERATE_GOLDEN") != "1") return;
        string source = Path.Combine(FindRepositoryRoot(), "tests", "GoldenBytes", "InBox", FileName);
        string[] lines = File.ReadAllLines(source, Encoding.UTF8);
        List<Scenario> scenarios = Parse(lines);
        int k = 0;
        for (int i = 0; i < lines.Length; i++)
        {
            if (!lines[i].StartsWith("== ", StringComparison.Ordinal)) continue;
            (byte[] bytes, Exception? error) = Run(scenarios[k++], inBox: true);
            if (error is not null) throw new InvalidOperationException($"Scenario '{scenarios[k - 1].Name}' failed in the in-box writer", error);
            lines[i + 2] = "-> " + Hex.Format(bytes);
        }
        File.WriteAllText(source, string.Join("\n", lines) + "\n", new UTF8Encoding(false));
    }

    private static string FindRepositoryRoot()
    {
        for (DirectoryInfo? d = new(AppContext.BaseDirectory); d is not null; d = d.Parent)
        {
            if (File.Exists(Path.Combine(d.FullName, "BinaryXml.sln"))) return d.FullName;
        }
        throw new InvalidOperationException("BinaryXml.sln not found above " + AppContext.BaseDirectory);
    }
}
