using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace BinaryXml.Benchmarks;

/// <summary>
/// Runs the suite side by side with the in-box encoder, in process (no per-benchmark build). <c>--quick</c> is
/// BenchmarkDotNet's short job, <c>--dry</c> one invocation of each (checks the guards); otherwise the default job.
/// Other arguments go to BenchmarkDotNet (<c>--filter *W1*</c>).
/// </summary>
internal static class Program
{
    private static void Main(string[] args)
    {
        Job job = args.Contains("--dry") ? Job.Dry : args.Contains("--quick") ? Job.ShortRun : Job.Default;
        IConfig config = ManualConfig.Create(DefaultConfig.Instance)
            .AddJob(job.WithToolchain(InProcessEmitToolchain.Instance))
            .WithOptions(ConfigOptions.JoinSummary);
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args.Where(a => a is not ("--quick" or "--dry")).ToArray(), config);
    }
}
