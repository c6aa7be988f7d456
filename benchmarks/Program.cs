using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace BinaryXml.Benchmarks;

/// <summary>
/// Runs the suite side by side with the in-box encoder, in process (no per-benchmark build). <c>--job short</c> is
/// BenchmarkDotNet's short job (the recorded runs), <c>--quick</c> (or <c>--job quick</c>) a quicker look (the short
/// job with two warm-ups and iterations of 100 ms: most means within tens of per cent, not for the record),
/// <c>--dry</c> (or <c>--job dry</c>) one invocation of each (checks the guards); otherwise the default job. Other
/// arguments go to BenchmarkDotNet (<c>--filter *W1*</c>).
/// </summary>
internal static class Program
{
    private static void Main(string[] args)
    {
        // BenchmarkDotNet's --job would add an out-of-process job beside the in-process one: it is taken here instead.
        string? named = null;
        var rest = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] is "--job" or "-j" && i + 1 < args.Length) named = args[++i].ToLowerInvariant();
            else if (args[i] is "--quick") named = "quick";
            else if (args[i] is "--dry") named = "dry";
            else rest.Add(args[i]);
        }
        Job job = named switch
        {
            null or "default" => Job.Default,
            "short" or "shortrun" => Job.ShortRun,
            "quick" => Job.ShortRun.WithWarmupCount(2).WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(100)),
            "dry" => Job.Dry,
            "medium" or "mediumrun" => Job.MediumRun,
            "long" or "longrun" => Job.LongRun,
            _ => throw new ArgumentException($"Unknown job '{named}': use default, short, quick, medium, long or dry."),
        };
        IConfig config = ManualConfig.Create(DefaultConfig.Instance)
            .AddJob(job.WithToolchain(InProcessEmitToolchain.Instance))
            .WithOptions(ConfigOptions.JoinSummary);
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(rest.ToArray(), config);
    }
}
