using System.Buffers;
using System.Globalization;
using System.Text;
using System.Xml;

namespace BinaryXml.Tests;

/// <summary>A dictionary string argument: from the script's static dictionary (d"…") or from another one (o"…").</summary>
public sealed record DictRef(bool Static, string Value)
{
    public override string ToString() => (Static ? "d" : "o") + WriterScript.Quote(Value);
}

/// <summary>One writer call: a method name and its arguments.</summary>
public sealed record Call(string Name, object?[] Args)
{
    public override string ToString() => Name + "(" + string.Join(", ", Args.Select(WriterScript.FormatArg)) + ")";
}

/// <summary>
/// The dictionaries a script runs against. Both writers get the same static dictionary (and so the same
/// <see cref="XmlDictionaryString"/> instances) and a fresh session each when <see cref="UseSession"/> is set.
/// </summary>
public sealed class ScriptContext
{
    private readonly XmlDictionary _other = new();

    public ScriptContext(XmlDictionary? dictionary = null, bool useSession = false)
    {
        Dictionary = dictionary ?? new XmlDictionary();
        UseSession = useSession;
    }

    public XmlDictionary Dictionary { get; }
    public bool UseSession { get; }

    public XmlDictionaryString Resolve(DictRef r) => r.Static ? Dictionary.Add(r.Value) : _other.Add(r.Value);

    /// <summary>A fresh writer session (when the context uses sessions) that records the strings it hands out.</summary>
    public RecordingWriterSession? CreateWriterSession() => UseSession ? new RecordingWriterSession() : null;
}

/// <summary>
/// A writer session that records every string it adds, as WCF's binary encoder does to build the MC-NBFSE
/// StringTable, so that a reader session with the same ids can be built.
/// </summary>
public sealed class RecordingWriterSession : XmlBinaryWriterSession
{
    public List<string> Strings { get; } = [];

    public override bool TryAdd(XmlDictionaryString value, out int key)
    {
        bool added = base.TryAdd(value, out key);
        if (added)
        {
            while (Strings.Count <= key) Strings.Add("");
            Strings[key] = value.Value;
        }
        return added;
    }

    public XmlBinaryReaderSession ToReaderSession()
    {
        var session = new XmlBinaryReaderSession();
        for (int i = 0; i < Strings.Count; i++) session.Add(i, Strings[i]);
        return session;
    }
}

/// <summary>
/// A tiny language for sequences of <see cref="XmlDictionaryWriter"/> calls, one call per <c>;</c>, e.g.
/// <c>StartElement(null, "a", "urn:x"); Value(5); EndElement()</c>. The same script runs against the in-box writer
/// and <see cref="BinaryXmlWriter"/>, so golden files keep the calls next to the bytes and property tests can print
/// a failing case in a readable, replayable form.
/// </summary>
/// <remarks>
/// Literals: <c>null</c>, <c>true</c>/<c>false</c>, <c>"text"</c> (\" \\ \uXXXX escapes), ints <c>5</c>, longs
/// <c>5L</c>, ulongs <c>5UL</c>, <c>f32:3F800000</c> and <c>f64:…</c> (IEEE bits), decimals <c>1.50M</c>,
/// <c>dt:ticks:Kind</c>, <c>ts:ticks</c>, <c>guid:…</c>, <c>uid:"…"</c> (UniqueId from its string form),
/// <c>hex:0A0B</c> bytes, <c>d"…"</c>/<c>o"…"</c> dictionary strings, <c>[a, b]</c> lists and
/// <c>int[1, 2]</c>-style typed arrays (bool short int long float double decimal datetime timespan guid);
/// <c>"ab"*3</c> and <c>hex:00*512</c> repeat a literal.
/// </remarks>
public static class WriterScript
{
    public static string Format(IEnumerable<Call> calls) => string.Join("; ", calls);

    public static List<Call> Parse(string text)
    {
        var p = new Parser(text);
        var calls = new List<Call>();
        p.SkipSpace();
        while (!p.End)
        {
            calls.Add(p.ParseCall());
            p.SkipSpace();
            if (!p.End) p.Expect(';');
            p.SkipSpace();
        }
        return calls;
    }

    /// <summary>Runs a script against the in-box writer. Returns the bytes, or the exception a call threw.</summary>
    public static (byte[] Bytes, Exception? Error) RunInBox(IReadOnlyList<Call> calls, ScriptContext context) => RunInBox(calls, context, context.CreateWriterSession());

    public static (byte[] Bytes, Exception? Error) RunInBox(IReadOnlyList<Call> calls, ScriptContext context, XmlBinaryWriterSession? session)
        => RunDictionaryWriter(calls, context, stream => XmlDictionaryWriter.CreateBinaryWriter(stream, context.Dictionary, session, false));

    /// <summary>Runs a script against the drop-in <see cref="BinaryXmlDictionaryWriter"/>.</summary>
    public static (byte[] Bytes, Exception? Error) RunAdapter(IReadOnlyList<Call> calls, ScriptContext context, XmlBinaryWriterSession? session = null)
        => RunDictionaryWriter(calls, context, stream => BinaryXmlDictionaryWriter.Create(stream, context.Dictionary, session, false));

    /// <summary>Runs a script against any XmlDictionaryWriter over a stream.</summary>
    public static (byte[] Bytes, Exception? Error) RunDictionaryWriter(IReadOnlyList<Call> calls, ScriptContext context, Func<Stream, XmlDictionaryWriter> create)
    {
        var stream = new MemoryStream();
        XmlDictionaryWriter w = create(stream);
        Exception? error = null;
        try
        {
            foreach (Call c in calls) ApplyInBox(w, c, context);
            if (w.WriteState != WriteState.Closed) w.Flush();
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or XmlException or NotSupportedException or IndexOutOfRangeException)
        {
            error = e;
        }
        return (stream.ToArray(), error);
    }

    /// <summary>Runs a script against <see cref="BinaryXmlWriter"/>.</summary>
    public static (byte[] Bytes, Exception? Error) RunNative(IReadOnlyList<Call> calls, ScriptContext context, BinaryXmlWriterOptions? options = null)
        => RunNative(calls, context, context.CreateWriterSession(), options);

    public static (byte[] Bytes, Exception? Error) RunNative(IReadOnlyList<Call> calls, ScriptContext context, XmlBinaryWriterSession? session, BinaryXmlWriterOptions? options = null)
    {
        var output = new ArrayBufferWriter<byte>();
        Exception? error = Apply(new BinaryXmlWriter(output, context.Dictionary, session, options), calls, context);
        return (output.WrittenSpan.ToArray(), error);
    }

    /// <summary>Runs a script against <see cref="BinaryXmlWriter"/> over the given output; returns the exception a call threw.</summary>
    public static Exception? RunNative(IReadOnlyList<Call> calls, ScriptContext context, IBufferWriter<byte> output)
        => Apply(new BinaryXmlWriter(output, context.Dictionary, context.CreateWriterSession()), calls, context);

    /// <summary>Runs a script against <see cref="BinaryXmlWriter"/> over a stream (its own pooled buffer).</summary>
    public static (byte[] Bytes, Exception? Error) RunNativeOverStream(IReadOnlyList<Call> calls, ScriptContext context)
    {
        var stream = new MemoryStream();
        Exception? error = Apply(new BinaryXmlWriter(stream, context.Dictionary, context.CreateWriterSession()), calls, context);
        return (stream.ToArray(), error);
    }

    /// <summary>Applies a script's calls to a native writer and flushes it; returns the exception a call threw.</summary>
    private static Exception? Apply(BinaryXmlWriter w, IReadOnlyList<Call> calls, ScriptContext context)
    {
        try
        {
            foreach (Call c in calls) ApplyNative(w, c, context);
            if (w.WriteState != WriteState.Closed) w.Flush();
            return null;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException or XmlException or NotSupportedException)
        {
            return e;
        }
    }

    private static string? S(object? o) => (string?)o;

    public static void ApplyInBox(XmlDictionaryWriter w, Call c, ScriptContext ctx)
    {
        object?[] a = c.Args;
        switch (c.Name)
        {
            case "StartElement":
                if (a[1] is DictRef dl) w.WriteStartElement(S(a[0]), ctx.Resolve(dl), a[2] is DictRef dn ? ctx.Resolve(dn) : null);
                else w.WriteStartElement(S(a[0]), S(a[1])!, S(a[2]));
                break;
            case "EndElement": w.WriteEndElement(); break;
            case "FullEndElement": w.WriteFullEndElement(); break;
            case "StartAttribute":
                if (a[1] is DictRef al) w.WriteStartAttribute(S(a[0]), ctx.Resolve(al), a[2] is DictRef an ? ctx.Resolve(an) : null);
                else w.WriteStartAttribute(S(a[0]), S(a[1])!, S(a[2]));
                break;
            case "EndAttribute": w.WriteEndAttribute(); break;
            case "AttributeString":
                if (a[1] is DictRef adl) w.WriteAttributeString(ctx.Resolve(adl), a[2] is DictRef adn ? ctx.Resolve(adn) : null, S(a[3]));
                else w.WriteAttributeString(S(a[0]), S(a[1])!, S(a[2]), S(a[3]));
                break;
            case "ElementString": w.WriteElementString(S(a[0]), S(a[1])!, S(a[2]), S(a[3])); break;
            case "ElementValue":
                // XmlDictionaryWriter has no such call: the three it stands for.
                ApplyInBox(w, new Call("StartElement", [a[0], a[1], a[2]]), ctx);
                WriteValueInBox(w, a[3]!, ctx);
                w.WriteEndElement();
                break;
            case "Xmlns":
                if (a[1] is DictRef xn) w.WriteXmlnsAttribute(S(a[0]), ctx.Resolve(xn));
                else w.WriteXmlnsAttribute(S(a[0]), S(a[1])!);
                break;
            case "String":
                if (a[0] is DictRef ds) w.WriteString(ctx.Resolve(ds));
                else w.WriteString(S(a[0]));
                break;
            case "Chars": { char[] ch = S(a[0])!.ToCharArray(); w.WriteChars(ch, 0, ch.Length); break; }
            case "Raw": w.WriteRaw(S(a[0])!); break;
            case "CData": w.WriteCData(S(a[0])); break;
            case "Whitespace": w.WriteWhitespace(S(a[0])); break;
            case "CharEntity": w.WriteCharEntity(S(a[0])![0]); break;
            case "SurrogateCharEntity": w.WriteSurrogateCharEntity(S(a[0])![0], S(a[1])![0]); break;
            case "Comment": w.WriteComment(S(a[0])); break;
            case "Value": WriteValueInBox(w, a[0]!, ctx); break;
            case "List": w.WriteValue((object)((object?[])a[0]!).Select(x => x is DictRef r ? ctx.Resolve(r) : x).ToArray()); break;
            case "Base64": { byte[] b = (byte[])a[0]!; w.WriteBase64(b, 0, b.Length); break; }
            case "BinHex": { byte[] b = (byte[])a[0]!; w.WriteBinHex(b, 0, b.Length); break; }
            case "QName":
                if (a[0] is DictRef ql) w.WriteQualifiedName(ctx.Resolve(ql), a[1] is DictRef qn ? ctx.Resolve(qn) : null);
                else w.WriteQualifiedName(S(a[0])!, S(a[1]));
                break;
            case "Array": WriteArrayInBox(w, S(a[0]), S(a[1])!, S(a[2]), (Array)a[3]!); break;
            case "StartDocument": w.WriteStartDocument(); break;
            case "EndDocument": w.WriteEndDocument(); break;
            case "Flush": w.Flush(); break;
            case "Close": w.Close(); break;
            default: throw new NotSupportedException("Unknown call " + c.Name);
        }
    }

    private static void WriteValueInBox(XmlDictionaryWriter w, object v, ScriptContext ctx)
    {
        switch (v)
        {
            case bool b: w.WriteValue(b); break;
            case int i: w.WriteValue(i); break;
            case long l: w.WriteValue(l); break;
            case ulong u: w.WriteValue((object)u); break;
            case float f: w.WriteValue(f); break;
            case double d: w.WriteValue(d); break;
            case decimal m: w.WriteValue(m); break;
            case DateTime dt: w.WriteValue(dt); break;
            case TimeSpan ts: w.WriteValue(ts); break;
            case Guid g: w.WriteValue(g); break;
            case UniqueId u: w.WriteValue(u); break;
            case string s: w.WriteValue(s); break;
            case DictRef r: w.WriteValue(ctx.Resolve(r)); break;
            default: throw new NotSupportedException(v.GetType().Name);
        }
    }

    private static void WriteArrayInBox(XmlDictionaryWriter w, string? p, string l, string? n, Array a)
    {
        switch (a)
        {
            case bool[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case short[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case int[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case long[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case float[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case double[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case decimal[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case DateTime[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case TimeSpan[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            case Guid[] x: w.WriteArray(p, l, n, x, 0, x.Length); break;
            default: throw new NotSupportedException(a.GetType().Name);
        }
    }

    public static void ApplyNative(BinaryXmlWriter w, Call c, ScriptContext ctx)
    {
        object?[] a = c.Args;
        switch (c.Name)
        {
            case "StartElement":
                if (a[1] is DictRef dl) w.WriteStartElement(S(a[0]), ctx.Resolve(dl), a[2] is DictRef dn ? ctx.Resolve(dn) : null);
                // Without prefix and namespace, the one-name overload (its own fast path), as the drop-in writer also
                // calls it; the three-name one with nulls is left to the one-name overload's fallback (the root and
                // elements with something pending).
                else if (a[0] is null && a[2] is null) w.WriteStartElement(S(a[1])!);
                else w.WriteStartElement(S(a[0]), S(a[1])!, S(a[2]));
                break;
            case "EndElement": w.WriteEndElement(); break;
            case "FullEndElement": w.WriteFullEndElement(); break;
            case "StartAttribute":
                if (a[1] is DictRef al) w.WriteStartAttribute(S(a[0]), ctx.Resolve(al), a[2] is DictRef an ? ctx.Resolve(an) : null);
                else w.WriteStartAttribute(S(a[0]), S(a[1])!, S(a[2]));
                break;
            case "EndAttribute": w.WriteEndAttribute(); break;
            case "AttributeString":
                if (a[1] is DictRef adl) w.WriteAttributeString(ctx.Resolve(adl), a[2] is DictRef adn ? ctx.Resolve(adn) : null, S(a[3]));
                else w.WriteAttributeString(S(a[0]), S(a[1])!, S(a[2]), S(a[3]));
                break;
            case "ElementString":
                if (a[0] is null && a[2] is null) w.WriteElementString(S(a[1])!, S(a[3]));
                else w.WriteElementString(S(a[0]), S(a[1])!, S(a[2]), S(a[3]));
                break;
            case "ElementValue":
                if (!TryWriteElementValueNative(w, a[0], a[1], a[2], a[3]!, ctx))
                {
                    ApplyNative(w, new Call("StartElement", [a[0], a[1], a[2]]), ctx);
                    WriteValueNative(w, a[3]!, ctx);
                    w.WriteEndElement();
                }
                break;
            case "Xmlns":
                if (a[1] is DictRef xn) w.WriteXmlnsAttribute(S(a[0]), ctx.Resolve(xn));
                else w.WriteXmlnsAttribute(S(a[0]), S(a[1])!);
                break;
            case "String":
                if (a[0] is DictRef ds) w.WriteString(ctx.Resolve(ds));
                else w.WriteString(S(a[0]));
                break;
            case "Chars": { char[] ch = S(a[0])!.ToCharArray(); w.WriteChars(ch, 0, ch.Length); break; }
            case "Raw": w.WriteRaw(S(a[0])); break;
            case "CData": w.WriteCData(S(a[0])); break;
            case "Whitespace": w.WriteWhitespace(S(a[0])); break;
            case "CharEntity": w.WriteCharEntity(S(a[0])![0]); break;
            case "SurrogateCharEntity": w.WriteSurrogateCharEntity(S(a[0])![0], S(a[1])![0]); break;
            case "Comment": w.WriteComment(S(a[0])); break;
            case "Value": WriteValueNative(w, a[0]!, ctx); break;
            case "List":
                w.WriteStartList();
                foreach (object? item in (object?[])a[0]!) WriteValueNative(w, item!, ctx);
                w.WriteEndList();
                break;
            case "Base64": w.WriteBase64((byte[])a[0]!); break;
            case "BinHex": { byte[] b = (byte[])a[0]!; w.WriteBinHex(b, 0, b.Length); break; }
            case "QName":
                if (a[0] is DictRef ql) w.WriteQualifiedName(ctx.Resolve(ql), a[1] is DictRef qn ? ctx.Resolve(qn) : null);
                else w.WriteQualifiedName(S(a[0])!, S(a[1]));
                break;
            case "Array": WriteArrayNative(w, S(a[0]), S(a[1])!, S(a[2]), (Array)a[3]!); break;
            case "StartDocument": w.WriteStartDocument(); break;
            case "EndDocument": w.WriteEndDocument(); break;
            case "Flush": w.Flush(); break;
            case "Close": w.Close(); break;
            default: throw new NotSupportedException("Unknown call " + c.Name);
        }
    }

    private static void WriteValueNative(BinaryXmlWriter w, object v, ScriptContext ctx)
    {
        switch (v)
        {
            case bool b: w.WriteValue(b); break;
            case int i: w.WriteValue(i); break;
            case long l: w.WriteValue(l); break;
            case ulong u: w.WriteValue(u); break;
            case float f: w.WriteValue(f); break;
            case double d: w.WriteValue(d); break;
            case decimal m: w.WriteValue(m); break;
            case DateTime dt: w.WriteValue(dt); break;
            case TimeSpan ts: w.WriteValue(ts); break;
            case Guid g: w.WriteValue(g); break;
            case UniqueId u: w.WriteValue(u); break;
            case string s: w.WriteString(s); break;
            case DictRef r: w.WriteString(ctx.Resolve(r)); break;
            default: throw new NotSupportedException(v.GetType().Name);
        }
    }

    /// <summary>
    /// <see cref="BinaryXmlWriter.WriteElementValue(string, int)"/> and its overloads, for the names (no prefix; a
    /// string name without namespace, or a dictionary name) and values they take; false (nothing written) otherwise.
    /// </summary>
    private static bool TryWriteElementValueNative(BinaryXmlWriter w, object? prefix, object? local, object? ns, object value, ScriptContext ctx)
    {
        if (prefix is not null) return false;
        if (local is string name && ns is null)
        {
            switch (value)
            {
                case bool b: w.WriteElementValue(name, b); return true;
                case int i: w.WriteElementValue(name, i); return true;
                case long l: w.WriteElementValue(name, l); return true;
                case ulong u: w.WriteElementValue(name, u); return true;
                case float f: w.WriteElementValue(name, f); return true;
                case double d: w.WriteElementValue(name, d); return true;
                case decimal m: w.WriteElementValue(name, m); return true;
                case DateTime dt: w.WriteElementValue(name, dt); return true;
                case TimeSpan ts: w.WriteElementValue(name, ts); return true;
                case Guid g: w.WriteElementValue(name, g); return true;
                default: return false;
            }
        }
        if (local is DictRef dl && ns is null or DictRef)
        {
            XmlDictionaryString l = ctx.Resolve(dl), n = ns is DictRef dn ? ctx.Resolve(dn) : null!;
            switch (value)
            {
                case bool b: w.WriteElementValue(l, n, b); return true;
                case int i: w.WriteElementValue(l, n, i); return true;
                case long x: w.WriteElementValue(l, n, x); return true;
                case ulong u: w.WriteElementValue(l, n, u); return true;
                case float f: w.WriteElementValue(l, n, f); return true;
                case double d: w.WriteElementValue(l, n, d); return true;
                case decimal m: w.WriteElementValue(l, n, m); return true;
                case DateTime dt: w.WriteElementValue(l, n, dt); return true;
                case TimeSpan ts: w.WriteElementValue(l, n, ts); return true;
                case Guid g: w.WriteElementValue(l, n, g); return true;
                default: return false;
            }
        }
        return false;
    }

    private static void WriteArrayNative(BinaryXmlWriter w, string? p, string l, string? n, Array a)
    {
        switch (a)
        {
            case bool[] x: w.WriteArray(p, l, n, x); break;
            case short[] x: w.WriteArray(p, l, n, x); break;
            case int[] x: w.WriteArray(p, l, n, x); break;
            case long[] x: w.WriteArray(p, l, n, x); break;
            case float[] x: w.WriteArray(p, l, n, x); break;
            case double[] x: w.WriteArray(p, l, n, x); break;
            case decimal[] x: w.WriteArray(p, l, n, x); break;
            case DateTime[] x: w.WriteArray(p, l, n, x); break;
            case TimeSpan[] x: w.WriteArray(p, l, n, x); break;
            case Guid[] x: w.WriteArray(p, l, n, x); break;
            default: throw new NotSupportedException(a.GetType().Name);
        }
    }

    // ---- Formatting ------------------------------------------------------------------------------------------

    public static string Quote(string s)
    {
        var sb = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"') sb.Append("\\\"");
            else if (c == '\\') sb.Append("\\\\");
            else if (c < 0x20 || c > 0x7E) sb.Append("\\u").Append(((int)c).ToString("X4", CultureInfo.InvariantCulture));
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }

    public static string FormatArg(object? o) => o switch
    {
        null => "null",
        bool b => b ? "true" : "false",
        string s => Quote(s),
        int i => i.ToString(CultureInfo.InvariantCulture),
        short i => i.ToString(CultureInfo.InvariantCulture),
        long l => l.ToString(CultureInfo.InvariantCulture) + "L",
        ulong u => u.ToString(CultureInfo.InvariantCulture) + "UL",
        float f => "f32:" + BitConverter.SingleToUInt32Bits(f).ToString("X8", CultureInfo.InvariantCulture),
        double d => "f64:" + BitConverter.DoubleToUInt64Bits(d).ToString("X16", CultureInfo.InvariantCulture),
        decimal m => m.ToString(CultureInfo.InvariantCulture) + "M",
        DateTime dt => "dt:" + dt.Ticks.ToString(CultureInfo.InvariantCulture) + ":" + dt.Kind,
        TimeSpan ts => "ts:" + ts.Ticks.ToString(CultureInfo.InvariantCulture),
        Guid g => "guid:" + g.ToString(),
        UniqueId u => "uid:" + Quote(u.ToString()),
        byte[] b => "hex:" + Convert.ToHexString(b),
        DictRef r => r.ToString(),
        object?[] items => "[" + string.Join(", ", items.Select(FormatArg)) + "]",
        Array a => ArrayTypeName(a) + "[" + string.Join(", ", a.Cast<object>().Select(FormatArg)) + "]",
        _ => throw new NotSupportedException(o.GetType().Name),
    };

    private static string ArrayTypeName(Array a) => a switch
    {
        bool[] => "bool", short[] => "short", int[] => "int", long[] => "long", float[] => "float", double[] => "double",
        decimal[] => "decimal", DateTime[] => "datetime", TimeSpan[] => "timespan", Guid[] => "guid",
        _ => throw new NotSupportedException(a.GetType().Name),
    };

    // ---- Parsing ---------------------------------------------------------------------------------------------

    private sealed class Parser(string text)
    {
        private int _i;

        public bool End => _i >= text.Length;

        public void SkipSpace()
        {
            while (_i < text.Length && char.IsWhiteSpace(text[_i])) _i++;
        }

        public void Expect(char c)
        {
            SkipSpace();
            if (_i >= text.Length || text[_i] != c) throw new FormatException($"Expected '{c}' at {_i} in: {text}");
            _i++;
        }

        private bool TryConsume(char c)
        {
            SkipSpace();
            if (_i < text.Length && text[_i] == c) { _i++; return true; }
            return false;
        }

        private string Word()
        {
            SkipSpace();
            int start = _i;
            while (_i < text.Length && (char.IsLetterOrDigit(text[_i]) || text[_i] is '_' or '-' or '+' or '.')) _i++;
            return text[start.._i];
        }

        public Call ParseCall()
        {
            string name = Word();
            Expect('(');
            var args = new List<object?>();
            if (!TryConsume(')'))
            {
                do args.Add(ParseArg()); while (TryConsume(','));
                Expect(')');
            }
            return new Call(name, args.ToArray());
        }

        private string ParseString()
        {
            Expect('"');
            var sb = new StringBuilder();
            while (text[_i] != '"')
            {
                char c = text[_i++];
                if (c != '\\') { sb.Append(c); continue; }
                char e = text[_i++];
                if (e == 'u') { sb.Append((char)int.Parse(text.AsSpan(_i, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture)); _i += 4; }
                else sb.Append(e switch { 't' => '\t', 'n' => '\n', 'r' => '\r', _ => e });
            }
            _i++;
            return sb.ToString();
        }

        public object? ParseArg()
        {
            SkipSpace();
            char c = text[_i];
            if (c == '"') return Repeat(ParseString());
            if (c == '[') { _i++; return ParseItems().ToArray(); }
            if ((c == 'd' || c == 'o') && _i + 1 < text.Length && text[_i + 1] == '"')
            {
                _i++;
                return new DictRef(c == 'd', ParseString());
            }
            string word = Word();
            if (TryConsume(':'))
            {
                switch (word)
                {
                    case "uid": return new UniqueId(ParseString());
                    case "dt":
                        long ticks = long.Parse(Word(), CultureInfo.InvariantCulture);
                        Expect(':');
                        return new DateTime(ticks, Enum.Parse<DateTimeKind>(Word()));
                }
                string v = Word();
                return word switch
                {
                    "f32" => BitConverter.UInt32BitsToSingle(uint.Parse(v, NumberStyles.HexNumber, CultureInfo.InvariantCulture)),
                    "f64" => BitConverter.UInt64BitsToDouble(ulong.Parse(v, NumberStyles.HexNumber, CultureInfo.InvariantCulture)),
                    "ts" => new TimeSpan(long.Parse(v, CultureInfo.InvariantCulture)),
                    "guid" => Guid.Parse(v),
                    "hex" => Repeat(Convert.FromHexString(v)),
                    _ => throw new FormatException("Unknown literal " + word),
                };
            }
            if (TryConsume('['))
            {
                List<object?> items = ParseItems();
                return word switch
                {
                    "bool" => items.Cast<bool>().ToArray(),
                    "short" => items.Select(x => checked((short)(int)x!)).ToArray(),
                    "int" => items.Cast<int>().ToArray(),
                    "long" => items.Select(x => x is int i ? i : (long)x!).ToArray(),
                    "float" => items.Cast<float>().ToArray(),
                    "double" => items.Cast<double>().ToArray(),
                    "decimal" => items.Cast<decimal>().ToArray(),
                    "datetime" => items.Cast<DateTime>().ToArray(),
                    "timespan" => items.Cast<TimeSpan>().ToArray(),
                    "guid" => (Array)items.Cast<Guid>().ToArray(),
                    _ => throw new FormatException("Unknown array type " + word),
                };
            }
            return word switch
            {
                "null" => null,
                "true" => true,
                "false" => false,
                _ when word.EndsWith("UL", StringComparison.Ordinal) => ulong.Parse(word[..^2], CultureInfo.InvariantCulture),
                _ when word.EndsWith('L') => long.Parse(word[..^1], CultureInfo.InvariantCulture),
                _ when word.EndsWith('M') => decimal.Parse(word[..^1], NumberStyles.Float, CultureInfo.InvariantCulture),
                _ when int.TryParse(word, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int i) => i,
                _ => long.Parse(word, CultureInfo.InvariantCulture), // too large for an int: only a long can hold it
            };
        }

        /// <summary>An optional <c>*N</c> after a string or hex literal repeats it N times.</summary>
        private string Repeat(string s) => TryConsume('*') ? string.Concat(Enumerable.Repeat(s, int.Parse(Word(), CultureInfo.InvariantCulture))) : s;

        private byte[] Repeat(byte[] b) => TryConsume('*') ? Enumerable.Repeat(b, int.Parse(Word(), CultureInfo.InvariantCulture)).SelectMany(x => x).ToArray() : b;

        private List<object?> ParseItems()
        {
            var items = new List<object?>();
            if (TryConsume(']')) return items;
            do items.Add(ParseArg()); while (TryConsume(','));
            Expect(']');
            return items;
        }
    }
}
