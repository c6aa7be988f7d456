using System.Xml;
using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;

namespace BinaryXml.Fuzz;

/// <summary>
/// A self-contained, feedback-driven mutational fuzzer for every BinaryXml decoder.
/// <c>dotnet run --project fuzz -c Release -- [--target all|native|adapter|session|nmf|renderer|tool] [--seconds 60] [--seed N] [--save-corpus DIR]</c>
/// </summary>
internal static class Program
{
    private const string Usage = "usage: BinaryXml.Fuzz [--target all|<target>] [--seconds 60] [--seed N] [--max-length 65536] [--save-corpus DIR] [--ci]";

    private static int Main(string[] args)
    {
        Options options;
        try
        {
            options = Options.Parse(args);
        }
        catch (Exception e) when (e is ArgumentException or FormatException or OverflowException)
        {
            // A bad command line: what was wrong and the usage, not a crash.
            Console.Error.WriteLine($"fuzz: {e.Message}");
            Console.Error.WriteLine(Usage);
            return 2;
        }
        if (options.Help)
        {
            Console.WriteLine(Usage);
            Console.WriteLine($"targets: {string.Join(", ", BinaryXml.Fuzz.Targets.All.Select(t => t.Name))}");
            return 0;
        }
        string root = FindRoot();
        List<byte[]> seeds = Seeds.Load(root);
        Console.WriteLine($"binxml fuzz: {seeds.Count} seeds, seed {options.Seed}, {(options.Ci ? "CI executions" : options.Seconds + " s")}, targets {string.Join(",", options.Targets.Select(t => t.Name))}");
        int findings = 0;
        double perTarget = options.Seconds / (double)options.Targets.Length;
        foreach (Target target in options.Targets)
        {
            var campaign = new Campaign(target, seeds, options.Seed, Path.Combine(root, "fuzz", "findings"), options.MaxLength);
            if (options.Ci) campaign.Run(TimeSpan.FromSeconds(options.Seconds), target.CiExecutions);
            else campaign.Run(TimeSpan.FromSeconds(perTarget), long.MaxValue);
            Console.WriteLine(campaign.Report());
            findings += campaign.Findings;
            if (options.SaveCorpus is not null) campaign.SaveCorpus(Path.Combine(options.SaveCorpus, target.Name));
        }
        Console.WriteLine(findings == 0 ? "fuzz: no findings" : $"fuzz: {findings} finding(s) written to fuzz/findings");
        return findings == 0 ? 0 : 1;
    }

    private static string FindRoot()
    {
        foreach (string start in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
        {
            for (DirectoryInfo? d = new(start); d is not null; d = d.Parent)
            {
                if (File.Exists(Path.Combine(d.FullName, "BinaryXml.sln"))) return d.FullName;
            }
        }
        throw new InvalidOperationException("Run from inside the repository (BinaryXml.sln not found).");
    }
}

/// <param name="Ci">The deterministic CI run: each target's fixed number of executions (time only as a safety cap).</param>
/// <param name="Help">Asked for the usage (<c>--help</c>): nothing is run.</param>
internal sealed record Options(Target[] Targets, double Seconds, int Seed, string? SaveCorpus, int MaxLength, bool Ci, bool Help = false)
{
    public static Options Parse(string[] args)
    {
        string target = "all";
        double seconds = 60;
        int seed = 20261121, maxLength = 1 << 16;
        string? save = null;
        bool ci = false;
        for (int i = 0; i < args.Length; i++)
        {
            string option = args[i];
            string Value() => ++i < args.Length ? args[i] : throw new ArgumentException($"{option} needs a value");
            switch (option)
            {
                case "--target": target = Value(); break;
                case "--seconds": seconds = double.Parse(Value(), CultureInfo.InvariantCulture); break;
                case "--seed": seed = int.Parse(Value(), CultureInfo.InvariantCulture); break;
                case "--save-corpus": save = Value(); break;
                case "--max-length": maxLength = int.Parse(Value(), CultureInfo.InvariantCulture); break;
                case "--ci": ci = true; seconds = 300; break;
                case "--help" or "-h": return new Options([], 0, seed, null, maxLength, false, Help: true);
                default: throw new ArgumentException("Unknown option " + option);
            }
        }
        Target[] targets = target == "all" ? BinaryXml.Fuzz.Targets.All : BinaryXml.Fuzz.Targets.All.Where(t => t.Name == target).ToArray();
        if (targets.Length == 0) throw new ArgumentException($"Unknown target {target}; one of: all, {string.Join(", ", BinaryXml.Fuzz.Targets.All.Select(t => t.Name))}");
        return new Options(targets, seconds, seed, save, maxLength, ci);
    }
}

/// <summary>The seed corpus: every spec fixture document, in-box golden file and sample, and the regression corpus.</summary>
internal static class Seeds
{
    public static List<byte[]> Load(string root)
    {
        var seeds = new List<byte[]>();
        foreach (string line in File.ReadAllLines(Path.Combine(root, "tests", "GoldenBytes", "Fixtures", "spec-fixtures.tsv")))
        {
            if (line.StartsWith('#')) continue;
            string[] c = line.Split('\t');
            if (c.Length > 2) seeds.Add(Convert.FromHexString(c[2].Replace(" ", "", StringComparison.Ordinal)));
        }
        foreach (string line in File.ReadAllLines(Path.Combine(root, "tests", "GoldenBytes", "InBox", "golden.txt")))
        {
            if (line.StartsWith("-> ", StringComparison.Ordinal)) seeds.Add(Convert.FromHexString(line[3..].Replace(" ", "", StringComparison.Ordinal)));
        }
        foreach (string dir in new[] { "samples", Path.Combine("fuzz", "corpus") })
        {
            string path = Path.Combine(root, dir);
            if (!Directory.Exists(path)) continue;
            foreach (string file in Directory.EnumerateFiles(path, "*.bin", SearchOption.AllDirectories).Order(StringComparer.Ordinal)) seeds.Add(File.ReadAllBytes(file));
        }
        seeds.AddRange(AttributeValueSeeds());
        seeds.AddRange(LongStartTagSeeds());
        seeds.AddRange(TypedValueSeeds());
        return seeds.Where(s => s.Length > 0).ToList();
    }

    /// <summary>
    /// Documents written here (with .NET's writer) for reads the fixtures have few inputs for: attributes of every
    /// value kind (Bytes, base64 and hex text, a number, empty) before element, Bytes or comment and text content;
    /// each in nine lengths (a comment before it), as the reads a trace makes of an element turn with the input's length.
    /// </summary>
    internal static IEnumerable<byte[]> AttributeValueSeeds()
    {
        foreach (string content in new[] { "element", "Bytes", "text" })
        for (int pad = 0; pad < 9; pad++)
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
            {
                w.WriteStartElement("r");
                w.WriteComment(new string('p', pad));
                w.WriteStartElement("e");
                w.WriteStartAttribute("b"); w.WriteBase64([1, 2, 3, 4, 5, 6, 7], 0, 7); w.WriteEndAttribute();
                w.WriteAttributeString("t", "AQIDBAUG");
                w.WriteAttributeString("h", "0A0b0C 0d");
                w.WriteStartAttribute("i"); w.WriteValue(42); w.WriteEndAttribute();
                w.WriteAttributeString("s", "");
                switch (content)
                {
                    case "element": w.WriteElementString("s", "str"); break;
                    case "Bytes": w.WriteBase64([8, 9], 0, 2); break;
                    default: w.WriteComment("c"); w.WriteString("CgsM"); break;
                }
                w.WriteEndElement();
                w.WriteEndElement();
            }
            yield return ms.ToArray();
        }
    }

    /// <summary>
    /// Documents of one element holding a typed value (a float or double where a decimal or a float reads it through its
    /// text, a decimal where a double or an integer does, the other record types, text a float rounds once), after a
    /// comment of a length that makes the differential read that element with each of its twelve typed reads: it
    /// reads the first element with a typed read when the input's length is 2 more than a multiple of 3, the read
    /// chosen by the length too (a text node read first, as base64 in pieces, ends the trace where it fails).
    /// </summary>
    internal static IEnumerable<byte[]> TypedValueSeeds()
    {
        Action<XmlDictionaryWriter>[] values =
        [
            w => w.WriteValue(0.1f), w => w.WriteValue(1e10f), w => w.WriteValue(float.NaN), w => w.WriteValue(0.1),
            w => w.WriteValue(3.4028235677973366e38), w => w.WriteValue(1e300), w => w.WriteValue(0.1m),
            w => w.WriteValue(15000000000m), w => w.WriteValue(3_000_000_000L), w => w.WriteValue((object)ulong.MaxValue),
            w => w.WriteValue(new DateTime(2026, 12, 1, 4, 0, 0, DateTimeKind.Utc)), w => w.WriteValue(TimeSpan.FromMinutes(90)),
            w => w.WriteValue(new Guid("0f8fad5b-d9cb-469f-a165-70867728950e")),
            w => w.WriteValue(new UniqueId(new Guid("0f8fad5b-d9cb-469f-a165-70867728950e"))), w => w.WriteValue(true),
            w => w.WriteString(" 1.00000017881393432617187499 "), w => w.WriteBase64([0xD7, 0x6D, 0xF8], 0, 3),
        ];
        foreach (Action<XmlDictionaryWriter> value in values)
        for (int pad = 0; pad < 36; pad++)
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
            {
                w.WriteComment(new string('p', pad));
                w.WriteStartElement("v");
                value(w);
                w.WriteEndElement();
            }
            if (ms.Length % 3 == 2) yield return ms.ToArray();
        }
    }

    /// <summary>
    /// Documents with a start tag of 6, 12 and 20 attributes (and their declarations): from 12 attribute records on,
    /// both readers look for duplicates in a table of hashes, and a mutated name or prefix makes one, byte for byte or
    /// as the current culture compares prefixes. Plain attributes, prefixed ones each with its own declaration, letter
    /// declarations alone, and attributes of one local name in namespaces declared before.
    /// </summary>
    internal static IEnumerable<byte[]> LongStartTagSeeds()
    {
        foreach (int attributes in new[] { 6, 12, 20 })
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
            {
                w.WriteStartElement("r");
                w.WriteStartElement("e", "urn:e");
                for (int i = 0; i < attributes; i++)
                {
                    string n = i.ToString(CultureInfo.InvariantCulture);
                    switch (i % 4)
                    {
                        case 0: w.WriteAttributeString("a" + n, "v"); break;
                        case 1: w.WriteAttributeString("p" + n, "x", "urn:" + n, "v"); break;
                        case 2: w.WriteXmlnsAttribute(((char)('a' + i)).ToString(), "urn:l" + n); break;
                        default: w.WriteAttributeString("x", "urn:l" + (i - 1).ToString(CultureInfo.InvariantCulture), "w"); break;
                    }
                }
                w.WriteString("t");
                w.WriteEndElement();
                w.WriteEndElement();
            }
            yield return ms.ToArray();
        }
    }
}

/// <summary>One target's campaign: mutate, run under the oracles, keep inputs that show new behaviour.</summary>
internal sealed class Campaign(Target target, List<byte[]> seeds, int seed, string findingsDir, int maxLength)
{
    private const long AllocationPerByte = 256, AllocationConstant = 8 << 20;
    private static readonly TimeSpan s_timeBudget = TimeSpan.FromSeconds(2);
    // string.GetHashCode is randomised per process; a stable hash keeps runs repeatable.
    private readonly Random _random = new(seed ^ StableHash(target.Name));
    private readonly List<byte[]> _corpus = [.. seeds];
    private readonly HashSet<long> _signatures = [];
    private readonly Dictionary<string, int> _leniencies = [];
    private long _executions, _accepted;
    private int _findings;

    public int Findings => _findings;

    private static int StableHash(string s)
    {
        int h = 17;
        foreach (char c in s) h = h * 31 + c;
        return h;
    }

    public void Run(TimeSpan duration, long executions)
    {
        foreach (byte[] s in seeds) Execute(s);
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < duration && _executions < executions)
        {
            byte[] input = Mutator.Mutate(_corpus[_random.Next(_corpus.Count)], _corpus, _random, maxLength);
            Execute(input);
        }
    }

    private void Execute(byte[] input)
    {
        _executions++;
        Exception? error = null;
        long before = GC.GetAllocatedBytesForCurrentThread();
        var clock = Stopwatch.StartNew();
        using (Watchdog.Arm(input, target.Name, findingsDir))
        {
            try
            {
                target.Run(input);
                _accepted++;
            }
            catch (Exception e)
            {
                error = e;
            }
        }
        clock.Stop();
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        if (error is not null and not BinaryXmlException) Finding("crash", input, error.GetType().Name + ": " + error.Message + "\n" + error.StackTrace);
        if (clock.Elapsed > s_timeBudget) Finding("slow", input, $"{clock.ElapsedMilliseconds} ms");
        if (allocated > AllocationPerByte * input.Length + AllocationConstant) Finding("alloc", input, $"{allocated} bytes for {input.Length}");
        if (target.Name == "adapter") Differential(input);
        if (Signature.Add(_signatures, input, error) && _corpus.Count < 20000) _corpus.Add(input);
    }

    /// <summary>
    /// Over a stream with a small MaxBytesPerRead (<see cref="Targets.Streamed"/>): where the in-box reader accepts an
    /// input, ours must read the same nodes, long text in the same pieces; rejections must agree or be a documented
    /// leniency. Inputs where the in-box reader reads empty text without end are left out; inputs either reader refuses
    /// from an array are not read from a stream.
    /// </summary>
    private void StreamedDifferential(byte[] input)
    {
        (List<string>? theirs, Exception? theirError) = Targets.Streamed(input, inBox: true);
        if (theirs is null && theirError is null) return;
        (List<string>? ours, Exception? ourError) = Targets.Streamed(input, inBox: false);
        if (theirs is not null && ours is not null)
        {
            if (!theirs.SequenceEqual(ours)) Finding("differential", input, "node streams over a stream differ");
            else if (!ContentTraceAgrees(input, streamed: true)) Finding("differential", input, "content reads over a stream differ");
            return;
        }
        if (theirs is null && ours is null) return;
        string? leniency = Leniency.Classify(theirError, ourError);
        if (leniency is null) Finding("differential", input, $"over a stream, in-box: {theirError?.Message ?? "accepted"} / ours: {ourError?.Message ?? "accepted"}");
        else _leniencies[leniency] = _leniencies.GetValueOrDefault(leniency) + 1;
    }

    /// <summary>Where the in-box reader accepts an input, ours must read the same node stream; rejections must agree or be a documented leniency.</summary>
    private void Differential(byte[] input)
    {
        (List<string>? theirs, Exception? theirError) = Targets.InBox(input);
        (List<string>? ours, Exception? ourError) = Targets.Ours(input);
        if (theirs is not null && ours is not null)
        {
            if (!theirs.SequenceEqual(ours)) Finding("differential", input, "node streams differ");
            else if (!ContentTraceAgrees(input)) Finding("differential", input, "name tests or MoveToContent differ");
            // Over a stream only what both read from an array: over a stream .NET's reader allocates for a record's
            // length before it reads the bytes (a hostile length is an OutOfMemoryException there).
            else StreamedDifferential(input);
            return;
        }
        if (theirs is null && ours is null) return;
        string? leniency = Leniency.Classify(theirError, ourError);
        if (leniency is null) Finding("differential", input, $"in-box: {theirError?.Message ?? "accepted"} / ours: {ourError?.Message ?? "accepted"}");
        else _leniencies[leniency] = _leniencies.GetValueOrDefault(leniency) + 1;
    }

    /// <summary>Name tests, MoveToContent, value chunks, base64 content, typed array and element reads (<see cref="Targets.ContentTrace"/>) agree, where the in-box reader completes the trace.</summary>
    private static bool ContentTraceAgrees(byte[] input, bool streamed = false)
    {
        List<string> theirs;
        bool exactArrays = Targets.HasHistoryDependentText(input);
        try
        {
            theirs = Targets.ContentTrace(streamed ? Targets.StreamReader(input, inBox: true) : Targets.InBoxReader(input), exactArrays, input.Length);
        }
        catch (Exception e) when (Targets.IsInBoxRejection(e))
        {
            return true;
        }
        try
        {
            return theirs.SequenceEqual(Targets.ContentTrace(streamed ? Targets.StreamReader(input, inBox: false) : Targets.OurReader(input), exactArrays, input.Length));
        }
        catch (Exception)
        {
            // Ours failed where the in-box reader completed the trace.
            return false;
        }
    }

    private void Finding(string kind, byte[] input, string detail)
    {
        _findings++;
        Directory.CreateDirectory(findingsDir);
        string name = $"{target.Name}-{kind}-{Convert.ToHexString(SHA256.HashData(input))[..12].ToLowerInvariant()}.bin";
        File.WriteAllBytes(Path.Combine(findingsDir, name), input);
        Console.WriteLine($"FINDING {target.Name} {kind}: {name}: {detail.Split('\n')[0]}");
    }

    public string Report()
    {
        string leniencies = _leniencies.Count == 0 ? "" : " leniencies: " + string.Join(", ", _leniencies.OrderBy(k => k.Key, StringComparer.Ordinal).Select(k => $"{k.Key}={k.Value}"));
        return $"{target.Name,-9} executions {_executions,9:N0}  accepted {_accepted,7:N0}  corpus {_corpus.Count,6:N0}  signatures {_signatures.Count,6:N0}  findings {_findings}{leniencies}";
    }

    public void SaveCorpus(string dir)
    {
        Directory.CreateDirectory(dir);
        foreach (byte[] input in _corpus.Skip(seeds.Count)) File.WriteAllBytes(Path.Combine(dir, Convert.ToHexString(SHA256.HashData(input))[..16] + ".bin"), input);
    }
}
