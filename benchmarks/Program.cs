using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;
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
/// run 251). <c>--targets</c> runs only the cases the targets name, one parameter set a target (with
/// <c>--job short</c>, the quick pass). Every summary has a Target and a Met column (<see cref="Targets"/>). Other
/// arguments go to BenchmarkDotNet (<c>--filter *W1*</c>).
/// </summary>
internal static class Program
{
    private static void Main(string[] args)
    {
        // BenchmarkDotNet's --job would add a second job beside this one: it is taken here instead.
        string? named = null;
        bool inProcess = false, targets = false;
        var rest = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] is "--job" or "-j" && i + 1 < args.Length) named = args[++i].ToLowerInvariant();
            else if (args[i] is "--quick") named = "quick";
            else if (args[i] is "--dry") named = "dry";
            else if (args[i] is "--inprocess") inProcess = true;
            else if (args[i] is "--targets") targets = true;
            else rest.Add(args[i]);
        }
        // A case's own process is started with the affinity given (--affinity 1 here): its runtime then sees one CPU,
        // and on one CPU it waits ten times longer (DOTNET_TC_DelaySingleProcMultiplier, 10) before it recompiles hot
        // methods. Code, the framework's precompiled code as well as ours, then ran at an earlier tier for tens of
        // seconds, inside the timed iterations: in-box's W4 16 ints at 75-85 ns for 72 of 100 iterations, then 45 (run
        // 889; with dynamic PGO off, 100-120 ns, then 66, run 895), R3's streamed base64 text through the drop-in
        // reader 2-6 times its steady time (run 887). The wait is therefore the runtime's on more than one CPU, as on a
        // server: DOTNET_TC_DelaySingleProcMultiplier=1 is given to every case's process unless the command line
        // gives it (runs 888 and 890: both sides at their steady level within the first iterations). Out of process the
        // short job warms up until steady, as the default job does, and times three iterations (run 264: three
        // warm-ups timed W1's native rows at 96-114 ns instead of 7-8). In process the host's runtime started before
        // the affinity was set.
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
        // The quick pass's classes are summarized one by one: in a joined summary BenchmarkDotNet's Ratio column takes
        // one baseline for the rows of all classes without parameters.
        IConfig config = ManualConfig.Create(DefaultConfig.Instance)
            .AddJob(inProcess ? job.WithToolchain(InProcessEmitToolchain.Instance) : job)
            .AddColumn(TargetColumn.Target, TargetColumn.Met);
        if (targets)
        {
            config = config.AddFilter(new SimpleFilter(Targets.InQuickPass));
            if (!rest.Any(a => a is "--filter" or "-f")) rest.AddRange(["--filter", "*"]);
        }
        else
        {
            config = config.WithOptions(ConfigOptions.JoinSummary);
        }
        if (!inProcess) WithRuntimeWait(rest);
        Summary[] summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(rest.ToArray(), config).ToArray();
        // With --targets, a case of a target without a measurement fails the run (CI runs the pass's guards: --dry).
        if (Targets.Report(summaries, Console.Out) > 0 && targets) Environment.ExitCode = 1;
    }

    private const string SingleProcessorWait = "DOTNET_TC_DelaySingleProcMultiplier";

    /// <summary>
    /// Adds <c>DOTNET_TC_DelaySingleProcMultiplier:1</c> to BenchmarkDotNet's <c>--envVars</c> (each case's process),
    /// unless the arguments set that variable themselves.
    /// </summary>
    private static void WithRuntimeWait(List<string> args)
    {
        int envVars = args.FindIndex(a => a.Equals("--envVars", StringComparison.OrdinalIgnoreCase));
        string wait = SingleProcessorWait + ":1";
        if (envVars < 0)
        {
            args.Add("--envVars");
            args.Add(wait);
            return;
        }
        int end = envVars + 1;
        while (end < args.Count && !args[end].StartsWith('-')) end++;
        if (!args.Skip(envVars + 1).Take(end - envVars - 1).Any(v => v.StartsWith(SingleProcessorWait + ":", StringComparison.Ordinal)))
            args.Insert(end, wait);
    }
}
