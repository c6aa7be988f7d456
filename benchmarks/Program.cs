using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace BinaryXml.Benchmarks;

/// <summary>
/// Runs the suite side by side with the in-box encoder, each case in a process of its own (BenchmarkDotNet's own
/// toolchain: one build of a generated project per run), as an application runs one writer or reader: in one process
/// the code a case shares with the cases run before it (the framework's <c>XmlWriter</c> overloads that call the
/// virtual methods, the library's code under the drop-in types) is compiled with their profile. <c>--inprocess</c>
/// runs every case of a run in this process instead (no build; the recorded form up to run 249). <c>--job short</c>
/// is BenchmarkDotNet's short job (the recorded runs), <c>--quick</c> (or <c>--job quick</c>) a quicker look (the
/// short job with two warm-ups and iterations of 100 ms: most means within tens of per cent, not for the record),
/// <c>--dry</c> (or <c>--job dry</c>) one invocation of each (checks the guards); otherwise the default job. Other
/// arguments go to BenchmarkDotNet (<c>--filter *W1*</c>).
/// </summary>
internal static class Program
{
    private static void Main(string[] args)
    {
        // BenchmarkDotNet's --job would add an out-of-process job beside the in-process one: it is taken here instead.
        string? named = null;
        bool inProcess = false;
        var rest = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] is "--job" or "-j" && i + 1 < args.Length) named = args[++i].ToLowerInvariant();
            else if (args[i] is "--quick") named = "quick";
            else if (args[i] is "--dry") named = "dry";
            else if (args[i] is "--inprocess") inProcess = true;
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
            .AddJob(inProcess ? job.WithToolchain(InProcessEmitToolchain.Instance) : job)
            .WithOptions(ConfigOptions.JoinSummary);
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(rest.ToArray(), config);
    }
}
