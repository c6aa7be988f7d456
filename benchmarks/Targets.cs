using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace BinaryXml.Benchmarks;

/// <summary>What a target's time is measured against.</summary>
internal enum TargetReference
{
    /// <summary>The mean of the scenario's <c>InBox</c> row with the same parameters.</summary>
    InBox,

    /// <summary>The mean of the scenario's <c>Limit</c> row (a span copy) with the same parameters.</summary>
    Limit,

    /// <summary>A throughput in MB/s of the scenario's document (R2: 1 GB/s).</summary>
    Throughput,
}

/// <summary>What a target asks of a row's allocation per operation.</summary>
internal enum AllocationTarget
{
    /// <summary>Nothing allocated in steady state (the native writer and reader).</summary>
    None,

    /// <summary>Never more than the <c>InBox</c> row (the drop-in types).</summary>
    NotAboveInBox,

    /// <summary>At most a tenth of the <c>InBox</c> row (W7: a native writer created per message).</summary>
    TenthOfInBox,
}

/// <summary>
/// One target of the benchmarks issue's table: the row's time at most <see cref="Bound"/> times its reference (for
/// <see cref="TargetReference.Throughput"/>, at least <see cref="Bound"/> MB/s), and its allocation as asked.
/// </summary>
internal readonly record struct Target(TargetReference Reference, double Bound, AllocationTarget Allocation)
{
    /// <summary>The target as the Target column shows it, e.g. "≤ 0.25 × InBox, 0 B".</summary>
    public override string ToString()
    {
        string time = Reference switch
        {
            TargetReference.Throughput => $"≥ {Bound.ToString("N0", CultureInfo.InvariantCulture)} MB/s",
            _ => $"≤ {Bound.ToString("0.00", CultureInfo.InvariantCulture)} × {Reference}",
        };
        string allocation = Allocation switch
        {
            AllocationTarget.None => "0 B",
            AllocationTarget.NotAboveInBox => "B ≤ InBox",
            _ => "B ≤ InBox / 10",
        };
        return time + ", " + allocation;
    }
}

/// <summary>
/// The targets of the benchmarks issue (`RESULTS.md`, "At a glance"), the case by case, and the quick pass over the
/// cases they name (<c>--targets</c>): one parameter set a target, every row of it (InBox, Adapter, Native, Limit).
/// </summary>
internal static class Targets
{
    private const int Mi = 1 << 20;

    /// <summary>The target of a case, or null where the issue sets none (InBox and Limit rows, parameters it does not name).</summary>
    public static Target? For(BenchmarkCase benchmarkCase)
    {
        string method = benchmarkCase.Descriptor.WorkloadMethod.Name;
        bool native = method is "Native" or "NativeElementValue" or "NativeElementContent";
        if (!native && method != "Adapter") return null;
        AllocationTarget allocation = native ? AllocationTarget.None : AllocationTarget.NotAboveInBox;
        Target? Ratio(double? nativeBound, double adapterBound) =>
            (native ? nativeBound : adapterBound) is double bound ? new Target(TargetReference.InBox, bound, allocation) : null;
        Target? OfLimit() => new Target(TargetReference.Limit, native ? 1.2 : 1.3, allocation);

        return benchmarkCase.Descriptor.Type.Name switch
        {
            nameof(W1_PrimitiveValues) => Ratio(0.25, 0.50),
            nameof(W2_Strings) => Parameter<int>(benchmarkCase, "Length") switch
            {
                <= 64 => Ratio(0.33, 0.50),
                >= 4096 => Ratio(0.67, 0.77),
                _ => null,
            },
            nameof(W3_Names) => Ratio(0.25, 0.50),
            nameof(W4_Arrays) => Parameter<int>(benchmarkCase, "Items") switch
            {
                16 => Ratio(0.33, 0.50),
                Mi => OfLimit(),
                _ => null,
            },
            nameof(W6_SoapMessage) => Ratio(0.25, 0.33),
            nameof(W6_EndToEnd) => Ratio(null, 0.77),
            nameof(W7_CreatePerMessage) => native
                ? new Target(TargetReference.InBox, 0.20, AllocationTarget.TenthOfInBox)
                : Ratio(null, 0.33),
            nameof(R1_PrimitiveElements) => Ratio(0.20, 0.50),
            nameof(R2_Scan) => native ? new Target(TargetReference.Throughput, 1000, allocation) : Ratio(null, 0.50),
            nameof(R4_Arrays) => Parameter<int>(benchmarkCase, "Items") == Mi ? OfLimit() : null,
            // The strings the scenario asks for are allocated by every row: the native one as well is held to in-box's bytes.
            nameof(R5_SoapHeaders) => native ? new Target(TargetReference.InBox, 0.25, AllocationTarget.NotAboveInBox) : Ratio(0.25, 0.33),
            nameof(R5_DataContractBody) => Ratio(null, 0.77),
            _ => null,
        };
    }

    /// <summary>
    /// Whether the quick pass (<c>--targets</c>) runs a case: every row of one parameter set a target (W1 int; W2 8 and
    /// 4,096 ASCII characters; W3's three kinds of name; W4 16 and 1 Mi ints, R4 1 Mi; W6 and R5 with MC-NBFS, the
    /// serializer's rows on the index message; W7, R1, R2 and R5's headers whole).
    /// </summary>
    public static bool InQuickPass(BenchmarkCase benchmarkCase)
    {
        string? Text(string name) => Parameter<object>(benchmarkCase, name)?.ToString();
        return benchmarkCase.Descriptor.Type.Name switch
        {
            nameof(W1_PrimitiveValues) => Text("Kind") == "int",
            nameof(W2_Strings) => Text("Text") == "ascii" && Parameter<int>(benchmarkCase, "Length") is 8 or 4096,
            nameof(W3_Names) => Text("Names") is "inline" or "dictionary" or "session",
            nameof(W4_Arrays) => Text("Type") == "int" && Parameter<int>(benchmarkCase, "Items") is 16 or Mi,
            nameof(W6_SoapMessage) => Text("Names") == "nbfs",
            nameof(W6_EndToEnd) or nameof(R5_DataContractBody) => Text("Dictionary") == "nbfs" && Text("Payload") == "index",
            nameof(W7_CreatePerMessage) or nameof(R1_PrimitiveElements) or nameof(R2_Scan) or nameof(R5_SoapHeaders) => true,
            nameof(R4_Arrays) => Text("Type") == "int" && Parameter<int>(benchmarkCase, "Items") == Mi,
            _ => false,
        };
    }

    private static T? Parameter<T>(BenchmarkCase benchmarkCase, string name)
    {
        foreach (var parameter in benchmarkCase.Parameters.Items)
            if (parameter.Name == name && parameter.Value is T value) return value;
        return default;
    }

    /// <summary>
    /// Whether a case's measurement meets its target, and the figures it was judged by (e.g. "yes: 0.22", "no: 0.40",
    /// "no: 0.22, 24 B"); null where the case has no target or a row it needs did not run.
    /// </summary>
    public static string? Verdict(Summary summary, BenchmarkCase benchmarkCase)
    {
        if (For(benchmarkCase) is not Target target) return null;
        if (Mean(summary, benchmarkCase) is not double mean) return null;
        BenchmarkCase? inBox = Sibling(summary, benchmarkCase, "InBox");
        var figures = new List<string>();
        bool met;
        switch (target.Reference)
        {
            case TargetReference.Throughput:
                double megabytesPerSecond = R2_Scan.DocumentLength / mean * 1000;
                met = megabytesPerSecond >= target.Bound;
                figures.Add(megabytesPerSecond.ToString("N0", CultureInfo.InvariantCulture) + " MB/s");
                break;
            default:
                BenchmarkCase? reference = target.Reference == TargetReference.InBox ? inBox : Sibling(summary, benchmarkCase, "Limit");
                if (reference is null || Mean(summary, reference) is not double referenceMean) return null;
                double ratio = mean / referenceMean;
                met = ratio <= target.Bound;
                figures.Add(ratio.ToString("0.00", CultureInfo.InvariantCulture));
                break;
        }
        long? allocated = Allocated(summary, benchmarkCase);
        long? inBoxAllocated = inBox is null ? null : Allocated(summary, inBox);
        long slack = MeasurementBytes(summary, benchmarkCase);
        bool allocationMet = target.Allocation switch
        {
            AllocationTarget.None => allocated <= slack,
            AllocationTarget.NotAboveInBox => allocated is not null && inBoxAllocated is not null && allocated <= inBoxAllocated + slack,
            _ => allocated is not null && inBoxAllocated is not null && allocated * 10 <= inBoxAllocated + slack,
        };
        if (!allocationMet) figures.Add(allocated is null ? "allocation not measured" : allocated.Value.ToString("N0", CultureInfo.InvariantCulture) + " B");
        return (met && allocationMet ? "yes: " : "no: ") + string.Join(", ", figures);
    }

    /// <summary>
    /// Writes every case of the summaries that has a target, with its verdict, and how many of them met it: the quick
    /// pass's answer in one table, after BenchmarkDotNet's own. Returns how many of them have no measurement (a guard
    /// failed in their setup, or the case did not run).
    /// </summary>
    public static int Report(IReadOnlyList<Summary> summaries, TextWriter output)
    {
        var rows = new List<(string Case, string Target, string Verdict)>();
        foreach (Summary summary in summaries)
            foreach (BenchmarkCase benchmarkCase in summary.BenchmarksCases)
                if (For(benchmarkCase) is Target target)
                {
                    string parameters = benchmarkCase.HasParameters ? " " + benchmarkCase.Parameters.DisplayInfo : "";
                    rows.Add(($"{benchmarkCase.Descriptor.Type.Name}.{benchmarkCase.Descriptor.WorkloadMethod.Name}{parameters}",
                        target.ToString(), Verdict(summary, benchmarkCase) ?? "not measured"));
                }
        if (rows.Count == 0) return 0;
        int caseWidth = rows.Max(r => r.Case.Length), targetWidth = rows.Max(r => r.Target.Length);
        output.WriteLine();
        output.WriteLine("// * Targets *");
        foreach (var (name, target, verdict) in rows)
            output.WriteLine($"{name.PadRight(caseWidth)}  {target.PadRight(targetWidth)}  {verdict}");
        int unmeasured = rows.Count(r => r.Verdict == "not measured");
        output.WriteLine($"// {rows.Count(r => r.Verdict.StartsWith("yes", StringComparison.Ordinal))} of {rows.Count} rows met their targets"
            + (unmeasured > 0 ? $"; {unmeasured} not measured (a guard failed or the case did not run: see above)" : ""));
        return unmeasured;
    }

    /// <summary>
    /// What BenchmarkDotNet's own bytes can add to a row's allocation per operation: it counts everything the process
    /// allocated over a measurement, up to about 4 KB of its own (736–2,752 B in the runs of `RESULTS.md`, "How these were
    /// measured"), divided among the measurement's operations.
    /// </summary>
    private static long MeasurementBytes(Summary summary, BenchmarkCase benchmarkCase) =>
        summary[benchmarkCase] is { GcStats.TotalOperations: > 0 and var operations } ? (4096 + operations - 1) / operations : 0;

    private static double? Mean(Summary summary, BenchmarkCase benchmarkCase) => summary[benchmarkCase]?.ResultStatistics?.Mean;

    private static long? Allocated(Summary summary, BenchmarkCase benchmarkCase) =>
        summary[benchmarkCase] is { } report ? report.GcStats.GetBytesAllocatedPerOperation(benchmarkCase) : null;

    /// <summary>The row <paramref name="method"/> of the same scenario, parameters and job as <paramref name="benchmarkCase"/>.</summary>
    private static BenchmarkCase? Sibling(Summary summary, BenchmarkCase benchmarkCase, string method) =>
        summary.BenchmarksCases.FirstOrDefault(c =>
            c.Descriptor.Type == benchmarkCase.Descriptor.Type && c.Descriptor.WorkloadMethod.Name == method
            && c.Job == benchmarkCase.Job && c.Parameters.Equals(benchmarkCase.Parameters));
}

/// <summary>A summary column: a case's target (<see cref="Target"/>), or whether it was met (<see cref="Targets.Verdict"/>).</summary>
internal sealed class TargetColumn(bool verdict) : IColumn
{
    /// <summary>The column of each case's target.</summary>
    public static readonly IColumn Target = new TargetColumn(verdict: false);

    /// <summary>The column that says whether each case met its target, with the figures it was judged by.</summary>
    public static readonly IColumn Met = new TargetColumn(verdict: true);

    public string Id => verdict ? "TargetMet" : "Target";
    public string ColumnName => verdict ? "Met" : "Target";
    public bool AlwaysShow => true;
    public ColumnCategory Category => ColumnCategory.Custom;
    public int PriorityInCategory => verdict ? 1 : 0;
    public bool IsNumeric => false;
    public UnitType UnitType => UnitType.Dimensionless;
    public string Legend => verdict
        ? "Whether the row met its target: its ratio (or MB/s), and its bytes allocated where they missed (BenchmarkDotNet's own 4 KB a measurement, spread over its operations, allowed)"
        : "The issue's target for the row (RESULTS.md, At a glance); blank where it sets none";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => verdict
        ? Targets.Verdict(summary, benchmarkCase) ?? "-"
        : Targets.For(benchmarkCase)?.ToString() ?? "-";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) => GetValue(summary, benchmarkCase);
    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;
    public bool IsAvailable(Summary summary) => summary.BenchmarksCases.Any(c => Targets.For(c) is not null);
}
