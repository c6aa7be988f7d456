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
/// is one launch and three timed iterations (see below), <c>--quick</c> (or <c>--job quick</c>) a quicker look (the
/// short job with iterations of 100 ms: most means within tens of per cent, not for the record), <c>--dry</c> (or
/// <c>--job dry</c>) one invocation of each (checks the guards); otherwise the default job (the recorded runs since
/// run 251). Other arguments go to BenchmarkDotNet (<c>--filter *W1*</c>).
/// </summary>
internal static class Program
{
    private static void Main(string[] args)
    {
        // BenchmarkDotNet's --job would add a second job beside this one: it is taken here instead.
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
        // A case's own process is started with the affinity given (--affinity 1 here): its runtime sees one CPU and
        // waits ten times longer before it recompiles hot methods, and BenchmarkDotNet's short job, three warm-ups,
        // timed some cases before that (run 264: W1's native rows 96–114 ns instead of 7–8). Out of process the short
        // job warms up until steady, as the default job does, and times three iterations. The runtime's wait is kept:
        // shortened (DOTNET_TC_DelaySingleProcMultiplier=1), it profiled the setup's calls through the in-box writer
        // and compiled the drop-in writer's Guid loop for that writer (run 266: 26.2 ns, 11.1 in run 251). In process
        // the host's runtime started before the affinity was set.
        Job shortJob = inProcess ? Job.ShortRun : new Job("ShortRun").WithLaunchCount(1).WithIterationCount(3);
        Job job = named switch
        {
            null or "default" => Job.Default,
            "short" or "shortrun" => shortJob,
            "quick" => (inProcess ? shortJob.WithWarmupCount(2) : shortJob).WithIterationTime(Perfolizer.Horology.TimeInterval.FromMilliseconds(100)),
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
