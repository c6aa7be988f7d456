using System.Runtime.CompilerServices;
using System.Text;
using System.Xml;
using BenchmarkDotNet.Attributes;
using BinaryXml.Soap;

namespace BinaryXml.Benchmarks;

/// <summary>W1: 1,000 primitive elements <c>&lt;a&gt;v&lt;/a&gt;</c>; ns per element.</summary>
[MemoryDiagnoser]
public class W1_PrimitiveValues : WriterScenario
{
    private const int Count = 1000;

    [Params("int", "double", "guid", "datetime")]
    public string Kind { get; set; } = "int";

    private static readonly Guid s_guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
    private static readonly DateTime s_date = new(2026, 11, 21, 8, 30, 0, DateTimeKind.Utc);

    [GlobalSetup]
    public void Setup()
    {
        CreateWriters();
        byte[] inBox = Support.WriteInBox(Write<CodeFor.InBox>), adapter = Support.WriteAdapter(Write<CodeFor.Adapter>);
        Support.GuardBytes($"W1 {Kind}", inBox, adapter, Support.WriteNative(Write));
        Support.GuardBytes($"W1 {Kind} in one call", inBox, adapter, Support.WriteNative(WriteElementValues));
    }

    // The kind is chosen once per message, not per element: the loops time the writer's calls, not a string switch
    // (runs before 42 compared the string in every iteration, a cost added to all three writers alike). Each kind's
    // loop is a method of its own, not inlined into the switch: BenchmarkDotNet runs every kind in one process,
    // and a loop shared by the kinds was compiled with the profile of the kind run first, leaving the later kinds'
    // calls out of line (runs before 220: the native one-call int row 7.2 ns per element after the DateTime rows,
    // 5.7 ns alone). The loops are written out per kind: one generic loop over a value struct per kind left the
    // struct's call out of line for most kinds.
    private void Write<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        switch (Kind)
        {
            case "int": WriteInts<TCode>(w); break;
            case "double": WriteDoubles<TCode>(w); break;
            case "guid": WriteGuids<TCode>(w); break;
            default: WriteDateTimes<TCode>(w); break;
        }
    }

    private void Write(BinaryXmlWriter w)
    {
        switch (Kind)
        {
            case "int": WriteInts(w); break;
            case "double": WriteDoubles(w); break;
            case "guid": WriteGuids(w); break;
            default: WriteDateTimes(w); break;
        }
    }

    // The native writer's own call for an element with one value (XmlDictionaryWriter has none): the same bytes.
    private void WriteElementValues(BinaryXmlWriter w)
    {
        switch (Kind)
        {
            case "int": WriteElementInts(w); break;
            case "double": WriteElementDoubles(w); break;
            case "guid": WriteElementGuids(w); break;
            default: WriteElementDateTimes(w); break;
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteInts<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(i * 70); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteInts(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(i * 70); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteElementInts(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) w.WriteElementValue("a", i * 70);
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDoubles<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(i + 0.1); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDoubles(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(i + 0.1); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteElementDoubles(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) w.WriteElementValue("a", i + 0.1);
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteGuids<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(s_guid); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteGuids(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(s_guid); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteElementGuids(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) w.WriteElementValue("a", s_guid);
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDateTimes<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(s_date); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDateTimes(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(s_date); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteElementDateTimes(BinaryXmlWriter w)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Count; i++) w.WriteElementValue("a", s_date);
        w.WriteEndElement();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); Write<CodeFor.InBox>(w); w.Flush(); }

    [Benchmark(OperationsPerInvoke = Count)]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); Write<CodeFor.Adapter>(w); w.Flush(); }

    [Benchmark(OperationsPerInvoke = Count)]
    public void Native() { BinaryXmlWriter w = ResetNative(); Write(w); w.Flush(); }

    /// <summary>The native writer with <see cref="BinaryXmlWriter.WriteElementValue(string, int)"/>: one call per element.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public void NativeElementValue() { BinaryXmlWriter w = ResetNative(); WriteElementValues(w); w.Flush(); }
}

/// <summary>
/// W2: one string as element content; Limit is <c>Encoding.UTF8.GetBytes</c> of the same string. "ascii" is English,
/// "mixed" Latin text with two- and three-byte characters (written as UTF-8), "cjk" Japanese and Chinese (three UTF-8
/// bytes a character: written as UTF-16, so the transcoder is not its limit), "ascii-cjk" a quarter of English, then
/// Japanese and Chinese (2.5 UTF-8 bytes a character: written as UTF-16).
/// </summary>
[MemoryDiagnoser]
public class W2_Strings : ElementStringScenario
{
    [ParamsSource(nameof(Lengths))]
    public override int Length { get; set; } = 64;

    public static IEnumerable<int> Lengths => Support.StringLengths;

    [Params("ascii", "mixed", "cjk", "ascii-cjk")]
    public override string Text { get; set; } = "ascii";

    private protected override string Label => "W2";

    [Benchmark]
    public void Native() { BinaryXmlWriter w = ResetNative(); w.WriteElementString("a", Value); w.Flush(); }
}

/// <summary>
/// W2 over a stream, with text too long for the writer to transcode into its buffer before counting it (over 1,398,099
/// characters: counted, then transcoded and handed to the stream 192 KB at a time, where before the buffer grew to the
/// text's size and held it until the flush). InBox and Adapter write to a MemoryStream (the native writer is W2's over a
/// buffer writer; over a stream it takes the Adapter's path); Limit is <c>Encoding.UTF8.GetBytes</c>.
/// </summary>
[MemoryDiagnoser]
public class W2_LongTextOverStream : ElementStringScenario
{
    [Params(4 << 20)]
    public override int Length { get; set; } = 4 << 20;

    [Params("ascii", "mixed")]
    public override string Text { get; set; } = "ascii";

    private protected override string Label => "W2 over a stream";
}

/// <summary>
/// W2's shape: one string of <see cref="Length"/> characters of the <see cref="Text"/> given as element content
/// (<c>WriteElementString</c>); Limit is <c>Encoding.UTF8.GetBytes</c> of the same string.
/// </summary>
public abstract class ElementStringScenario : WriterScenario
{
    private byte[] _limit = [];
    private protected string Value = "";

    /// <summary>The string's length in characters (each scenario's parameter).</summary>
    public abstract int Length { get; set; }

    /// <summary>"ascii", "mixed", "cjk" or "ascii-cjk" (each scenario's parameter).</summary>
    public abstract string Text { get; set; }

    /// <summary>The scenario's name in its guard's line.</summary>
    private protected abstract string Label { get; }

    [GlobalSetup]
    public void Setup()
    {
        CreateWriters();
        Value = Text == "ascii-cjk" ? Repeat("ascii", Length / 4) + Repeat("cjk", Length - Length / 4) : Repeat(Text, Length);
        _limit = new byte[Encoding.UTF8.GetMaxByteCount(Length)];
        Support.GuardBytes($"{Label} {Length} {Text}", Support.WriteInBox(w => w.WriteElementString("a", Value)),
            Support.WriteAdapter(w => w.WriteElementString("a", Value)), Support.WriteNative(w => w.WriteElementString("a", Value)));
    }

    /// <summary>The first <paramref name="length"/> characters of a text of the <paramref name="kind"/> given.</summary>
    private static string Repeat(string kind, int length)
    {
        string unit = kind switch
        {
            "ascii" => "The quick brown fox jumps over the lazy dog. ",
            "cjk" => "日本語のテキストを書く。中文文本。",
            _ => "Zoë Müller — naïve café ",
        };
        return string.Concat(Enumerable.Repeat(unit, length / unit.Length + 1))[..length];
    }

    [Benchmark(Baseline = true)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); w.WriteElementString("a", Value); w.Flush(); }

    [Benchmark]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); w.WriteElementString("a", Value); w.Flush(); }

    [Benchmark]
    public int Limit() => Encoding.UTF8.GetBytes(Value, _limit);
}

/// <summary>
/// W3: 1,000 start/end element pairs with inline names, static dictionary names, or session names (the strings of a
/// DataContractSerializer-style <see cref="XmlDictionary"/> given to a writer with no static dictionary and an
/// <see cref="XmlBinaryWriterSession"/>): "session" keeps the session from message to message (each name found in
/// it), "session-new" resets it before every message (each name's first use adds it). "prefixed": those dictionary
/// strings with the prefix "b", declared once on the root, and neither static dictionary nor session (written inline),
/// as DataContractSerializer writes a data contract's members under the namespace prefix it declared (W6's body).
/// </summary>
[MemoryDiagnoser]
public class W3_Names : WriterScenario
{
    private const int Count = 1000;

    [Params("inline", "dictionary", "session", "session-new", "prefixed")]
    public string Names { get; set; } = "inline";

    private readonly XmlDictionary _dictionary = new();
    private XmlDictionaryString[] _names = [];
    private string[] _strings = [];
    private XmlDictionaryString _ns = null!;
    private bool _newSession;

    [GlobalSetup]
    public void Setup()
    {
        _strings = Enumerable.Range(0, 16).Select(i => "ElementName" + i).ToArray();
        _names = _strings.Select(_dictionary.Add).ToArray();
        _ns = _dictionary.Add("http://tempuri.org/");
        bool session = Names.StartsWith("session", StringComparison.Ordinal);
        _newSession = Names == "session-new";
        IXmlDictionary? dictionary = session || Names == "prefixed" ? null : _dictionary;
        CreateWriters(dictionary, session ? new XmlBinaryWriterSession() : null);
        // With a session, the bytes compared are the second message's: names found in the session, or added again
        // after a reset.
        byte[] Second(Func<XmlBinaryWriterSession?, byte[]> write) => Support.SecondMessage(session, _newSession, write);
        Support.GuardBytes($"W3 {Names}", Second(s => Support.WriteInBox(Write<CodeFor.InBox>, dictionary, s)), Second(s => Support.WriteAdapter(Write<CodeFor.Adapter>, dictionary, s)),
            Second(s => Support.WriteNative(Write, dictionary, s)));
    }

    // The kind of name is chosen once per message, not per element, and each kind's loop is a method of its own
    // (see W1).
    private void Write<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        if (Names == "inline") WriteInline<TCode>(w, _strings, _ns.Value);
        else if (Names == "prefixed") WritePrefixed<TCode>(w, _names, _ns);
        else WriteDictionary<TCode>(w, _names, _ns);
    }

    private void Write(BinaryXmlWriter w)
    {
        if (Names == "inline") WriteInline(w, _strings, _ns.Value);
        else if (Names == "prefixed") WritePrefixed(w, _names, _ns);
        else WriteDictionary(w, _names, _ns);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteInline<TCode>(XmlDictionaryWriter w, string[] names, string ns) where TCode : struct
    {
        w.WriteStartElement("r", ns);
        for (int i = 0; i < Count; i++) { w.WriteStartElement(names[i & 15], ns); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDictionary<TCode>(XmlDictionaryWriter w, XmlDictionaryString[] names, XmlDictionaryString ns) where TCode : struct
    {
        w.WriteStartElement("r", ns.Value);
        for (int i = 0; i < Count; i++) { w.WriteStartElement(names[i & 15], ns); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WritePrefixed<TCode>(XmlDictionaryWriter w, XmlDictionaryString[] names, XmlDictionaryString ns) where TCode : struct
    {
        w.WriteStartElement("r", ns.Value);
        w.WriteXmlnsAttribute("b", ns);
        for (int i = 0; i < Count; i++) { w.WriteStartElement("b", names[i & 15], ns); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WritePrefixed(BinaryXmlWriter w, XmlDictionaryString[] names, XmlDictionaryString ns)
    {
        w.WriteStartElement("r", ns.Value);
        w.WriteXmlnsAttribute("b", ns);
        for (int i = 0; i < Count; i++) { w.WriteStartElement("b", names[i & 15], ns); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteInline(BinaryXmlWriter w, string[] names, string ns)
    {
        w.WriteStartElement("r", ns);
        for (int i = 0; i < Count; i++) { w.WriteStartElement(names[i & 15], ns); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDictionary(BinaryXmlWriter w, XmlDictionaryString[] names, XmlDictionaryString ns)
    {
        w.WriteStartElement("r", ns.Value);
        for (int i = 0; i < Count; i++) { w.WriteStartElement(names[i & 15], ns); w.WriteEndElement(); }
        w.WriteEndElement();
    }

    private void NewSession()
    {
        if (_newSession) Session!.Reset();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public void InBox() { NewSession(); XmlDictionaryWriter w = ResetInBox(); Write<CodeFor.InBox>(w); w.Flush(); }

    [Benchmark(OperationsPerInvoke = Count)]
    public void Adapter() { NewSession(); XmlDictionaryWriter w = ResetAdapter(); Write<CodeFor.Adapter>(w); w.Flush(); }

    [Benchmark(OperationsPerInvoke = Count)]
    public void Native() { NewSession(); BinaryXmlWriter w = ResetNative(); Write(w); w.Flush(); }
}

/// <summary>
/// W3, attributes: 250 elements of four attributes each, <c>&lt;e id="x17" name="Contoso" type="Order" version="1.0"/&gt;</c>; ns per
/// attribute (WriteAttributeString: start, value, end). "inline": names as strings; "dictionary": names from the
/// writer's dictionary; "prefixed": names as strings with the prefix "i", declared once on the root (as
/// DataContractSerializer writes i:type and i:nil). Found by a survey of inputs no scenario had: the drop-in writer
/// took 1.42 of in-box's time for an attribute.
/// </summary>
[MemoryDiagnoser]
public class W3_Attributes : WriterScenario
{
    private const int Elements = 250, PerElement = 4, Count = Elements * PerElement;
    private const string InstanceNs = "http://www.w3.org/2001/XMLSchema-instance";

    [Params("inline", "dictionary", "prefixed")]
    public string Names { get; set; } = "inline";

    private readonly XmlDictionary _dictionary = new();
    private string[] _strings = [];
    private XmlDictionaryString[] _names = [];
    private readonly string[] _values = ["x17", "Contoso", "Order", "1.0"];

    [GlobalSetup]
    public void Setup()
    {
        _strings = ["id", "name", "type", "version"];
        _names = _strings.Select(_dictionary.Add).ToArray();
        IXmlDictionary? dictionary = Names == "dictionary" ? _dictionary : null;
        CreateWriters(dictionary);
        Support.GuardBytes($"W3 attributes {Names}", Support.WriteInBox(Write<CodeFor.InBox>, dictionary),
            Support.WriteAdapter(Write<CodeFor.Adapter>, dictionary), Support.WriteNative(Write, dictionary));
    }

    private void Write<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        if (Names == "dictionary") WriteDictionary<TCode>(w, _names, _values);
        else WriteInline<TCode>(w, _strings, _values, Names == "prefixed" ? "i" : null);
    }

    private void Write(BinaryXmlWriter w)
    {
        if (Names == "dictionary") WriteDictionary(w, _names, _values);
        else WriteInline(w, _strings, _values, Names == "prefixed" ? "i" : null);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteInline<TCode>(XmlDictionaryWriter w, string[] names, string[] values, string? prefix) where TCode : struct
    {
        w.WriteStartElement("r");
        string? ns = prefix is null ? null : InstanceNs;
        if (prefix is not null) w.WriteXmlnsAttribute(prefix, InstanceNs);
        for (int i = 0; i < Elements; i++)
        {
            w.WriteStartElement("e");
            for (int j = 0; j < PerElement; j++) w.WriteAttributeString(prefix, names[j], ns, values[j]);
            w.WriteEndElement();
        }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDictionary<TCode>(XmlDictionaryWriter w, XmlDictionaryString[] names, string[] values) where TCode : struct
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Elements; i++)
        {
            w.WriteStartElement("e");
            for (int j = 0; j < PerElement; j++) w.WriteAttributeString(names[j], null, values[j]);
            w.WriteEndElement();
        }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteInline(BinaryXmlWriter w, string[] names, string[] values, string? prefix)
    {
        w.WriteStartElement("r");
        string? ns = prefix is null ? null : InstanceNs;
        if (prefix is not null) w.WriteXmlnsAttribute(prefix, InstanceNs);
        for (int i = 0; i < Elements; i++)
        {
            w.WriteStartElement("e");
            for (int j = 0; j < PerElement; j++) w.WriteAttributeString(prefix, names[j], ns, values[j]);
            w.WriteEndElement();
        }
        w.WriteEndElement();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteDictionary(BinaryXmlWriter w, XmlDictionaryString[] names, string[] values)
    {
        w.WriteStartElement("r");
        for (int i = 0; i < Elements; i++)
        {
            w.WriteStartElement("e");
            for (int j = 0; j < PerElement; j++) w.WriteAttributeString(names[j], null, values[j]);
            w.WriteEndElement();
        }
        w.WriteEndElement();
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); Write<CodeFor.InBox>(w); w.Flush(); }

    [Benchmark(OperationsPerInvoke = Count)]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); Write<CodeFor.Adapter>(w); w.Flush(); }

    [Benchmark(OperationsPerInvoke = Count)]
    public void Native() { BinaryXmlWriter w = ResetNative(); Write(w); w.Flush(); }
}

/// <summary>
/// W3, wide: one element of 16, 256 or 2,048 attributes, each in a namespace of its own, with its prefix given
/// ("prefixed") or made up by the writer ("generated": a to z, then d1p0, d1p1, …). Each attribute looks its prefix and
/// namespace up among the declarations before it, which .NET's writer passes over one by one. Found by a survey of
/// inputs no scenario had; the reader's side is R2_WideStartTag.
/// </summary>
[MemoryDiagnoser]
public class W3_WideStartTag : WriterScenario
{
    [Params(16, 256, 2048)]
    public int Attributes { get; set; }

    [Params("prefixed", "generated")]
    public string Names { get; set; } = "prefixed";

    private string[] _prefixes = [], _localNames = [], _namespaces = [];

    [GlobalSetup]
    public void Setup()
    {
        _prefixes = Enumerable.Range(0, Attributes).Select(i => "p" + i).ToArray();
        _localNames = Enumerable.Range(0, Attributes).Select(i => "x" + i).ToArray();
        _namespaces = Enumerable.Range(0, Attributes).Select(i => "urn:" + i).ToArray();
        CreateWriters();
        Support.GuardBytes($"W3 wide {Attributes} {Names}", Support.WriteInBox(Write<CodeFor.InBox>),
            Support.WriteAdapter(Write<CodeFor.Adapter>), Support.WriteNative(Write));
    }

    private void Write<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("a");
        if (Names == "prefixed")
        {
            for (int i = 0; i < _prefixes.Length; i++) w.WriteAttributeString(_prefixes[i], "x", _namespaces[i], "v");
        }
        else
        {
            for (int i = 0; i < _localNames.Length; i++) w.WriteAttributeString(_localNames[i], _namespaces[i], "v");
        }
        w.WriteEndElement();
    }

    private void Write(BinaryXmlWriter w)
    {
        w.WriteStartElement("a");
        if (Names == "prefixed")
        {
            for (int i = 0; i < _prefixes.Length; i++) w.WriteAttributeString(_prefixes[i], "x", _namespaces[i], "v");
        }
        else
        {
            for (int i = 0; i < _localNames.Length; i++) w.WriteAttributeString(null, _localNames[i], _namespaces[i], "v");
        }
        w.WriteEndElement();
    }

    [Benchmark(Baseline = true)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); Write<CodeFor.InBox>(w); w.Flush(); }

    [Benchmark]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); Write<CodeFor.Adapter>(w); w.Flush(); }

    [Benchmark]
    public void Native() { BinaryXmlWriter w = ResetNative(); Write(w); w.Flush(); }
}

/// <summary>W4: WriteArray of each item type; Limit is a span copy of the same bytes.</summary>
[MemoryDiagnoser]
public class W4_Arrays : WriterScenario
{
    [ParamsSource(nameof(Counts))]
    public int Items { get; set; } = 1024;

    public static IEnumerable<int> Counts => ArrayItems.Counts;

    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = "double";

    public static IEnumerable<string> Types => ArrayItems.Types;

    private ArrayItems _items = null!;
    private byte[] _limit = [];

    [GlobalSetup]
    public void Setup()
    {
        _items = ArrayItems.Create(Type, Items);
        _limit = new byte[Items * _items.ItemSize];
        CreateWriters();
        Support.GuardBytes($"W4 {Type} {Items}", Support.WriteInBox(_items.Write), Support.WriteAdapter(_items.Write), Support.WriteNative(_items.Write));
    }

    [Benchmark(Baseline = true)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); _items.Write(w); w.Flush(); }

    [Benchmark]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); _items.Write(w); w.Flush(); }

    [Benchmark]
    public void Native() { BinaryXmlWriter w = ResetNative(); _items.Write(w); w.Flush(); }

    [Benchmark]
    public void Limit() => _items.ValueBytes.CopyTo(_limit);
}

/// <summary>
/// W6 (ii): the writer calls of a SOAP 1.2 + WS-Addressing request with a DataContract-shaped body, replayed: no
/// dictionary, the MC-NBFS static dictionary, or MC-NBFS and a session kept from message to message (net.tcp; the
/// body's names, DataContractSerializer's dictionary strings, are found in the session).
/// </summary>
[MemoryDiagnoser]
public class W6_SoapMessage : WriterScenario
{
    [Params("none", "nbfs", "session")]
    public string Names { get; set; } = "nbfs";

    [GlobalSetup]
    public void Setup()
    {
        IXmlDictionary? d = Names == "none" ? null : NbfsDictionary.Instance;
        bool session = Names == "session";
        CreateWriters(d, session ? new XmlBinaryWriterSession() : null);
        // With a session, the bytes compared are the second message's (the body's names found in the session).
        byte[] Second(Func<XmlBinaryWriterSession?, byte[]> write) => Support.SecondMessage(session, reset: false, write);
        byte[] inBox = Second(s => Support.WriteInBox(Soap.Write<CodeFor.InBox>, d, s)), adapter = Second(s => Support.WriteAdapter(Soap.Write<CodeFor.Adapter>, d, s));
        Support.GuardBytes($"W6 {Names}", inBox, adapter, Second(s => Support.WriteNative(Soap.Write, d, s)));
        Support.GuardBytes($"W6 {Names} with one-call elements", inBox, adapter, Second(s => Support.WriteNative(w => Soap.Write(w, elementValues: true), d, s)));
    }

    [Benchmark(Baseline = true)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); Soap.Write<CodeFor.InBox>(w); w.Flush(); }

    [Benchmark]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); Soap.Write<CodeFor.Adapter>(w); w.Flush(); }

    [Benchmark]
    public void Native() { BinaryXmlWriter w = ResetNative(); Soap.Write(w); w.Flush(); }

    /// <summary>The native writer with the body's one-value elements written by <c>WriteElementValue</c> (the same bytes).</summary>
    [Benchmark]
    public void NativeElementValue() { BinaryXmlWriter w = ResetNative(); Soap.Write(w, elementValues: true); w.Flush(); }
}

/// <summary>W7: a writer created per message (what CoreWCF does) versus reused.</summary>
[MemoryDiagnoser]
public class W7_CreatePerMessage : WriterScenario
{
    [GlobalSetup]
    public void Setup()
    {
        CreateWriters(NbfsDictionary.Instance);
        Support.GuardBytes("W7", Support.WriteInBox(Soap.Write<CodeFor.InBox>, NbfsDictionary.Instance), Support.WriteAdapter(Soap.Write<CodeFor.Adapter>, NbfsDictionary.Instance), Support.WriteNative(Soap.Write, NbfsDictionary.Instance));
    }

    [Benchmark(Baseline = true)]
    public void InBox()
    {
        Stream.Position = 0;
        using XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(Stream, NbfsDictionary.Instance, null, false);
        Soap.Write<CodeFor.InBox>(w);
    }

    [Benchmark]
    public void Adapter()
    {
        Stream.Position = 0;
        using XmlDictionaryWriter w = BinaryXmlDictionaryWriter.Create(Stream, NbfsDictionary.Instance, null, false);
        Soap.Write<CodeFor.Adapter>(w);
    }

    [Benchmark]
    public void Native()
    {
        Buffer.ResetWrittenCount();
        using var w = new BinaryXmlWriter(Buffer, NbfsDictionary.Instance);
        Soap.Write(w);
    }

    [Benchmark]
    public void NativeReused() { BinaryXmlWriter w = ResetNative(); Soap.Write(w); w.Flush(); }
}

/// <summary>The SOAP message of W6, W7 and R5, written the same way through either writer API.</summary>
internal static class Soap
{
    private static readonly XmlDictionaryString Envelope = Support.N("Envelope"), Header = Support.N("Header"), Body = Support.N("Body"),
        SoapNs = Support.N("http://www.w3.org/2003/05/soap-envelope"), WsaNs = Support.N("http://www.w3.org/2005/08/addressing"),
        Action = Support.N("Action"), MessageId = Support.N("MessageID"), ReplyTo = Support.N("ReplyTo"), Address = Support.N("Address"),
        To = Support.N("To"), MustUnderstand = Support.N("mustUnderstand"), Anonymous = Support.N("http://www.w3.org/2005/08/addressing/anonymous");
    private static readonly UniqueId s_id = new(Guid.Parse("5f0e2b7c-1a2b-4c3d-9e8f-706152433401"));
    private const string Dc = "http://schemas.datacontract.org/2004/07/Shop";
    // The body's names as DataContractSerializer gives them to the writer: strings of its own XmlDictionary (inline
    // without a session, whatever the static dictionary; session strings on net.tcp).
    private static readonly XmlDictionary s_body = new();
    private static readonly XmlDictionaryString GetOrdersResponse = s_body.Add("GetOrdersResponse"), GetOrdersResult = s_body.Add("GetOrdersResult"),
        Tempuri = s_body.Add("http://tempuri.org/"), DcNs = s_body.Add(Dc), Order = s_body.Add("Order"), Customer = s_body.Add("Customer"),
        Id = s_body.Add("Id"), Placed = s_body.Add("Placed"), Total = s_body.Add("Total");
    private static readonly string[] s_customers = Enumerable.Range(0, 4).Select(i => "Customer name " + i).ToArray();
    // The orders' values as the serializer would find them, in the objects' fields: computed once, so that the replay
    // times the writer calls alone (a decimal multiplication and DateTime.AddHours an order took about 0.6 µs a message
    // in a standalone loop).
    private const int Orders = 20;
    private static readonly DateTime[] s_placed = Enumerable.Range(0, Orders).Select(i => new DateTime(2026, 11, 1, 8, 0, 0, DateTimeKind.Utc).AddHours(i)).ToArray();
    private static readonly decimal[] s_totals = Enumerable.Range(0, Orders).Select(i => 19.95m * i).ToArray();

    public static void Write<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        WriteStart<TCode>(w);
        WriteOrders<TCode>(w);
        WriteEnd<TCode>(w);
    }

    /// <summary>The envelope, its WS-Addressing headers and the start of the body.</summary>
    public static void WriteStart<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("s", Envelope, SoapNs);
        w.WriteXmlnsAttribute("a", WsaNs);
        w.WriteStartElement("s", Header, SoapNs);
        w.WriteStartElement("a", Action, WsaNs);
        w.WriteStartAttribute("s", MustUnderstand, SoapNs); w.WriteValue(1); w.WriteEndAttribute();
        w.WriteString("http://tempuri.org/IOrderService/GetOrders");
        w.WriteEndElement();
        w.WriteStartElement("a", MessageId, WsaNs); w.WriteValue(s_id); w.WriteEndElement();
        w.WriteStartElement("a", ReplyTo, WsaNs); w.WriteStartElement("a", Address, WsaNs); w.WriteString(Anonymous); w.WriteEndElement(); w.WriteEndElement();
        w.WriteStartElement("a", To, WsaNs);
        w.WriteStartAttribute("s", MustUnderstand, SoapNs); w.WriteValue(1); w.WriteEndAttribute();
        w.WriteString("net.tcp://localhost:8000/orders");
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteStartElement("s", Body, SoapNs);
    }

    private static void WriteOrders<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement(GetOrdersResponse, Tempuri);
        w.WriteStartElement(GetOrdersResult, Tempuri);
        w.WriteXmlnsAttribute("b", DcNs);
        for (int i = 0; i < Orders; i++)
        {
            w.WriteStartElement("b", Order, DcNs);
            w.WriteStartElement("b", Customer, DcNs); w.WriteString(s_customers[i % 4]); w.WriteEndElement();
            w.WriteStartElement("b", Id, DcNs); w.WriteValue(1000 + i); w.WriteEndElement();
            w.WriteStartElement("b", Placed, DcNs); w.WriteValue(s_placed[i]); w.WriteEndElement();
            w.WriteStartElement("b", Total, DcNs); w.WriteValue(s_totals[i]); w.WriteEndElement();
            w.WriteEndElement();
        }
        w.WriteEndElement();
        w.WriteEndElement();
    }

    /// <summary>Closes the body and the envelope.</summary>
    public static void WriteEnd<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteEndElement();
        w.WriteEndElement();
    }

    public static void Write(BinaryXmlWriter w) => Write(w, elementValues: false);

    /// <summary>
    /// The same message through the native writer; with <paramref name="elementValues"/>, the body's one-value
    /// elements each in one call (<see cref="BinaryXmlWriter.WriteElementValue(XmlDictionaryString, XmlDictionaryString?, int)"/>;
    /// the same bytes), as code written for the native writer would write them.
    /// </summary>
    public static void Write(BinaryXmlWriter w, bool elementValues)
    {
        w.WriteStartElement("s", Envelope, SoapNs);
        w.WriteXmlnsAttribute("a", WsaNs);
        w.WriteStartElement("s", Header, SoapNs);
        w.WriteStartElement("a", Action, WsaNs);
        w.WriteStartAttribute("s", MustUnderstand, SoapNs); w.WriteValue(1); w.WriteEndAttribute();
        w.WriteString("http://tempuri.org/IOrderService/GetOrders");
        w.WriteEndElement();
        w.WriteStartElement("a", MessageId, WsaNs); w.WriteValue(s_id); w.WriteEndElement();
        w.WriteStartElement("a", ReplyTo, WsaNs); w.WriteStartElement("a", Address, WsaNs); w.WriteString(Anonymous); w.WriteEndElement(); w.WriteEndElement();
        w.WriteStartElement("a", To, WsaNs);
        w.WriteStartAttribute("s", MustUnderstand, SoapNs); w.WriteValue(1); w.WriteEndAttribute();
        w.WriteString("net.tcp://localhost:8000/orders");
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteStartElement("s", Body, SoapNs);
        w.WriteStartElement(GetOrdersResponse, Tempuri);
        w.WriteStartElement(GetOrdersResult, Tempuri);
        w.WriteXmlnsAttribute("b", DcNs);
        for (int i = 0; i < Orders; i++)
        {
            w.WriteStartElement("b", Order, DcNs);
            w.WriteStartElement("b", Customer, DcNs); w.WriteString(s_customers[i % 4]); w.WriteEndElement();
            if (elementValues)
            {
                w.WriteElementValue(Id, DcNs, 1000 + i);
                w.WriteElementValue(Placed, DcNs, s_placed[i]);
                w.WriteElementValue(Total, DcNs, s_totals[i]);
            }
            else
            {
                w.WriteStartElement("b", Id, DcNs); w.WriteValue(1000 + i); w.WriteEndElement();
                w.WriteStartElement("b", Placed, DcNs); w.WriteValue(s_placed[i]); w.WriteEndElement();
                w.WriteStartElement("b", Total, DcNs); w.WriteValue(s_totals[i]); w.WriteEndElement();
            }
            w.WriteEndElement();
        }
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteEndElement();
    }
}
