using System.Xml;
using FsCheck;
using FsCheck.Fluent;

namespace BinaryXml.Tests;

/// <summary>A generated document: a tree of elements, attributes, text of every value type, lists, arrays and comments.</summary>
public abstract record Node;

public sealed record Elem(string? Prefix, object Local, object? Ns, List<(string? Prefix, object Ns)> Xmlns, List<Attr> Attributes, List<Node> Children) : Node;

public sealed record TextValue(object Value) : Node;

public sealed record Base64Value(byte[] Data, int[] Splits) : Node;

public sealed record ListValue(object[] Items) : Node;

public sealed record ArrayValue(string? Prefix, string Local, string? Ns, Array Values) : Node;

public sealed record CommentValue(string Text) : Node;

public sealed record Attr(string? Prefix, object Local, object? Ns, object? Value);

/// <summary>A document and whether it is written with a session; its text form is the writer script.</summary>
public sealed class Doc(Elem root, bool useSession, double flushRate)
{
    public Elem Root { get; } = root;
    public bool UseSession { get; } = useSession;

    /// <summary>Fraction of calls followed by an explicit Flush() in differential runs (changes folding).</summary>
    public double FlushRate { get; } = flushRate;

    public List<Call> Calls(bool withFlushes)
    {
        var calls = new List<Call>();
        var random = new Random(Root.GetHashCode());
        Flatten(Root, calls);
        if (!withFlushes || FlushRate == 0) return calls;
        var result = new List<Call>();
        foreach (Call c in calls)
        {
            result.Add(c);
            if (random.NextDouble() < FlushRate) result.Add(new Call("Flush", []));
        }
        return result;
    }

    private static void Flatten(Elem e, List<Call> calls)
    {
        // An element with one typed value and nothing else is, every other time, written in one call
        // (BinaryXmlWriter.WriteElementValue; the in-box writer gets the three calls it stands for).
        if (e.Xmlns.Count == 0 && e.Attributes.Count == 0 && e.Children is [TextValue { Value: not (string or DictRef) } only] && calls.Count % 2 == 0)
        {
            calls.Add(new Call("ElementValue", [e.Prefix, e.Local, e.Ns, only.Value]));
            return;
        }
        // Likewise an element of string names with one string and nothing else, by WriteElementString (natively, with
        // no prefix or namespace, the overload that writes the element and short text in one buffer request).
        if (e.Xmlns.Count == 0 && e.Attributes.Count == 0 && e.Local is string && e.Ns is null or string
            && e.Children is [TextValue { Value: string text }] && calls.Count % 2 == 0)
        {
            calls.Add(new Call("ElementString", [e.Prefix, e.Local, e.Ns, text]));
            return;
        }
        calls.Add(new Call("StartElement", [e.Prefix, e.Local, e.Ns]));
        foreach ((string? p, object ns) in e.Xmlns) calls.Add(new Call("Xmlns", [p, ns]));
        foreach (Attr a in e.Attributes)
        {
            // An attribute with a string value is, every other time, written in one call (WriteAttributeString; with a
            // dictionary name only the overload without a prefix exists).
            if (a.Value is string value && (a.Local is string || a.Prefix is null) && calls.Count % 2 == 0)
            {
                calls.Add(new Call("AttributeString", [a.Prefix, a.Local, a.Ns, value]));
                continue;
            }
            calls.Add(new Call("StartAttribute", [a.Prefix, a.Local, a.Ns]));
            if (a.Value is not null) FlattenValue(a.Value, calls);
            calls.Add(new Call("EndAttribute", []));
        }
        foreach (Node n in e.Children)
        {
            switch (n)
            {
                case Elem child: Flatten(child, calls); break;
                case TextValue t: FlattenValue(t.Value, calls); break;
                case Base64Value b: FlattenValue(b, calls); break;
                case ListValue l: calls.Add(new Call("List", [l.Items])); break;
                case ArrayValue a: calls.Add(new Call("Array", [a.Prefix, a.Local, a.Ns, a.Values])); break;
                case CommentValue c: calls.Add(new Call("Comment", [c.Text])); break;
            }
        }
        calls.Add(new Call("EndElement", []));
    }

    private static void FlattenValue(object value, List<Call> calls)
    {
        switch (value)
        {
            case string or DictRef: calls.Add(new Call("String", [value])); break;
            case Base64Value b:
                int start = 0;
                foreach (int split in b.Splits.Append(b.Data.Length))
                {
                    calls.Add(new Call("Base64", [b.Data[start..split]]));
                    start = split;
                }
                break;
            case ListValue l: calls.Add(new Call("List", [l.Items])); break;
            default: calls.Add(new Call("Value", [value])); break;
        }
    }

    public override string ToString() => $"session={UseSession} flushRate={FlushRate}\n" + WriterScript.Format(Calls(withFlushes: true));
}

/// <summary>FsCheck generators for <see cref="Doc"/> and its values.</summary>
public static class Generators
{
    private static readonly (string? Prefix, object? Ns)[] s_elementNames =
    [
        (null, null), (null, null), (null, null), (null, "urn:d1"), ("", "urn:d2"), ("p", "urn:p"), ("q", "urn:q"),
        ("ns1", "urn:ns1"), ("P", "urn:P"), ("s", new DictRef(true, "urn:s")), (null, new DictRef(true, "urn:dict")),
        (null, new DictRef(false, "urn:session")),
    ];

    private static readonly (string? Prefix, object? Ns)[] s_attributeNames =
    [
        (null, null), (null, null), ("p", "urn:p"), (null, "urn:g1"), (null, "urn:g2"), ("q", new DictRef(true, "urn:q")),
    ];

    private static readonly string[] s_words = ["a", "b", "item", "Envelope", "value", "x1", "données", "名前", "Body_2"];

    public static Gen<string> Ascii => Gen.Elements("hello", "world", "a b c", "0.5", "true", "x", "  ", "text with <markup> & \"quotes\"");

    public static Gen<string> UnicodeText =>
        Gen.ListOf(Gen.Elements("a", "Z", " ", "é", "ж", "日", "本", "\u0001", "\t", "\uFFFD", "😀", "ß", "\n", "<", "&"))
            .Select(parts => string.Concat(parts));

    /// <summary>
    /// Text mostly of three-byte characters (CJK, the edges U+0800 and U+FFFF, the euro sign), with some ASCII, two-byte
    /// characters and surrogate pairs: around the point where the writer chooses UTF-16 (bytes / 2 &gt; characters).
    /// </summary>
    public static Gen<string> ThreeByteText =>
        Gen.ListOf(Gen.Frequency(
                (5, Gen.Elements("日", "本", "語", "€", "\u0800", "\uFFFF")),
                (3, Gen.Elements("a", " ", "Z")),
                (1, Gen.Elements("é", "😀"))))
            .Select(parts => string.Concat(parts));

    public static Gen<string> Strings => Gen.Frequency(
        (6, Ascii),
        (6, UnicodeText),
        (3, ThreeByteText),
        (2, Gen.Elements("0", "1", "")),
        (1, Gen.Choose(86, 400).SelectMany(n => UnicodeText.Select(s => new string('x', n) + s))),
        (1, Gen.Choose(40, 200).Select(n => string.Concat(Enumerable.Repeat("日本", n)))));

    // "urn:text" also as another dictionary's string: a session string that the static dictionary holds too.
    public static Gen<object> DictText => Gen.Elements<object>(new DictRef(true, "urn:text"), new DictRef(false, "session text"), new DictRef(true, "Envelope"), new DictRef(false, "urn:text"));

    public static Gen<int> Ints => Gen.OneOf(
        Gen.Elements(0, 1, -1, 127, 128, -128, -129, 32767, 32768, -32768, -32769, int.MaxValue, int.MinValue),
        Gen.Choose(int.MinValue, int.MaxValue), Gen.Choose(-300, 300));

    public static Gen<long> Longs => Gen.OneOf(
        Gen.Elements(0L, 1L, (long)int.MaxValue + 1, (long)int.MinValue - 1, long.MaxValue, long.MinValue),
        Gen.Two(Gen.Choose(int.MinValue, int.MaxValue)).Select(t => ((long)t.Item1 << 32) | (uint)t.Item2),
        Ints.Select(i => (long)i));

    public static Gen<ulong> ULongs => Gen.OneOf(
        Gen.Elements(0UL, 1UL, (ulong)long.MaxValue, (ulong)long.MaxValue + 1, ulong.MaxValue),
        Longs.Select(l => (ulong)l));

    public static Gen<float> Floats => Gen.OneOf(
        Gen.Elements(0f, -0f, 1f, -1f, 0.5f, 1.1f, 256f, 32767f, 32768f, -32768f, -32769f, float.NaN, float.PositiveInfinity,
            float.NegativeInfinity, float.Epsilon, -float.Epsilon, float.MaxValue, float.MinValue, 1e10f, 32767.5f, BitConverter.Int32BitsToSingle(0x7FC00001), BitConverter.Int32BitsToSingle(unchecked((int)0xFFFFFFFF))),
        Gen.Choose(int.MinValue, int.MaxValue).Select(BitConverter.Int32BitsToSingle),
        Gen.Choose(-40000, 40000).Select(i => (float)i),
        Gen.Choose(-40000, 40000).Select(i => i + 0.25f));

    public static Gen<double> Doubles => Gen.OneOf(
        Gen.Elements(0d, -0d, 1d, 256d, 32767d, 32768d, 1 / 3d, 0.1, 100.8, 12345678d, 1e300, double.NaN, double.PositiveInfinity,
            double.NegativeInfinity, double.Epsilon, double.MaxValue, (double)float.MaxValue, (double)float.Epsilon, 2147483648d,
            9.2233720368547758E+18, BitConverter.Int64BitsToDouble(0x7FF8000000000001), BitConverter.Int64BitsToDouble(unchecked((long)0xFFF0000000000001))),
        Longs.Select(BitConverter.Int64BitsToDouble),
        Floats.Select(f => (double)f),
        Gen.Choose(-70000, 70000).Select(i => i / 4d));

    public static Gen<decimal> Decimals => Gen.OneOf(
        Gen.Elements(0m, 1m, 1.0m, -1.50m, decimal.MaxValue, decimal.MinValue, 0.0000000000000000000000000001m),
        from lo in Gen.Choose(int.MinValue, int.MaxValue)
        from mid in Gen.Choose(int.MinValue, int.MaxValue)
        from hi in Gen.Choose(int.MinValue, int.MaxValue)
        from neg in Gen.Elements(true, false)
        from scale in Gen.Choose(0, 28)
        select new decimal(lo, mid, hi, neg, (byte)scale));

    public static Gen<DateTime> DateTimes =>
        from t in Gen.Two(Gen.Choose(0, int.MaxValue))
        from kind in Gen.Elements(DateTimeKind.Utc, DateTimeKind.Unspecified, DateTimeKind.Local)
        let ticks = (long)(((ulong)(uint)t.Item1 << 31 | (uint)t.Item2) % (ulong)DateTime.MaxValue.Ticks)
        select kind == DateTimeKind.Local
            ? new DateTime(new DateTime(1900, 1, 1).Ticks + ticks % (200L * 365 * TimeSpan.TicksPerDay), DateTimeKind.Local)
            : new DateTime(ticks, kind);

    public static Gen<TimeSpan> TimeSpans => Longs.Select(l => new TimeSpan(l));

    public static Gen<Guid> Guids => Gen.ArrayOf(Gen.Choose(0, 255).Select(i => (byte)i), 16).Select(b => new Guid(b));

    public static Gen<UniqueId> UniqueIds => Gen.OneOf(
        Guids.Where(g => g != Guid.Empty).Select(g => new UniqueId(g)),
        Gen.Elements(new UniqueId("uuid-6e4c-1"), new UniqueId(Guid.Empty), new UniqueId("urn:uuid:ABCDEF00-0000-0000-0000-000000000000")));

    public static Gen<byte[]> ByteArrays(int max) => Gen.Choose(1, max).SelectMany(n => Gen.ArrayOf(Gen.Choose(0, 255).Select(i => (byte)i), n));

    /// <summary>Every typed value WriteValue takes.</summary>
    public static Gen<object> TypedValues => Gen.OneOf(
        Gen.Elements(true, false).Select(b => (object)b), Ints.Select(i => (object)i), Longs.Select(l => (object)l),
        ULongs.Select(u => (object)u), Floats.Select(f => (object)f), Doubles.Select(d => (object)d),
        Decimals.Select(m => (object)m), DateTimes.Select(d => (object)d), TimeSpans.Select(t => (object)t),
        Guids.Select(g => (object)g), UniqueIds.Select(u => (object)u));

    public static Gen<Base64Value> Base64Values(int max) =>
        from data in ByteArrays(max)
        from cuts in Gen.ListOf(Gen.Choose(0, data.Length), 2)
        select new Base64Value(data, cuts.Distinct().Order().ToArray());

    public static Gen<object> ContentValues => Gen.Frequency(
        (4, Strings.Select(s => (object)s)), (1, DictText), (6, TypedValues), (1, Base64Values(80).Select(b => (object)b)));

    public static Gen<Node> Leaf => Gen.Frequency(
        (10, ContentValues.Select(v => v is Base64Value b ? (Node)b : new TextValue(v))),
        (1, Base64Values(700).Select(b => (Node)b)),
        (2, Gen.ListOf(Gen.OneOf(TypedValues, Strings.Select(s => (object)s), DictText), 3).Select(items => (Node)new ListValue(items.ToArray()))),
        (2, Arrays),
        (1, Gen.Elements("comment", "", "a comment with spaces").Select(c => (Node)new CommentValue(c))));

    public static Gen<Node> Arrays =>
        from name in Gen.Elements(s_elementNames.Where(n => n.Ns is null or string).ToArray())
        from count in Gen.Frequency((8, Gen.Choose(1, 20)), (1, Gen.Choose(60, 200)))
        from values in Gen.OneOf(
            Gen.ArrayOf(Gen.Elements(true, false), count).Select(a => (Array)a),
            Gen.ArrayOf(Ints.Select(i => (short)i), count).Select(a => (Array)a),
            Gen.ArrayOf(Ints, count).Select(a => (Array)a),
            Gen.ArrayOf(Longs, count).Select(a => (Array)a),
            Gen.ArrayOf(Floats, count).Select(a => (Array)a),
            Gen.ArrayOf(Doubles, count).Select(a => (Array)a),
            Gen.ArrayOf(Decimals, count).Select(a => (Array)a),
            Gen.ArrayOf(DateTimes, count).Select(a => (Array)a),
            Gen.ArrayOf(TimeSpans, count).Select(a => (Array)a),
            Gen.ArrayOf(Guids, count).Select(a => (Array)a))
        select (Node)new ArrayValue(name.Prefix, "arr", (string?)name.Ns, values);

    private static Gen<object> LocalName(int index, bool dictionary, string stem) =>
        dictionary ? Gen.Elements<object>(new DictRef(true, stem + index), new DictRef(false, stem + "s" + index)) : Gen.Elements(s_words).Select(w => (object)(w + (index == 0 ? "" : index.ToString(System.Globalization.CultureInfo.InvariantCulture))));

    private static Gen<Attr> Attribute(int index) =>
        from name in Gen.Elements(s_attributeNames)
        from dict in Gen.Frequency((3, Gen.Constant(false)), (1, Gen.Constant(true)))
        from local in dict ? Gen.Elements<object>(new DictRef(true, "at" + index), new DictRef(false, "ats" + index)) : Gen.Constant<object>("at" + index)
        from value in Gen.Frequency(
            (1, Gen.Constant<object?>(null)),
            (4, Strings.Select(s => (object?)s)),
            (1, DictText.Select(d => (object?)d)),
            (4, TypedValues.Select(v => (object?)v)),
            (1, Base64Values(40).Select(b => (object?)b)),
            // .NET drops text items of attribute lists, and a UniqueId that is not a GUID is written as text.
            (1, Gen.ListOf(TypedValues.Where(v => v is not UniqueId), 3).Select(items => (object?)new ListValue(items.ToArray()))))
        select new Attr(name.Prefix, local, NamespaceFor(local, name.Ns), value);

    public static Gen<Elem> Element(int depth, int size) =>
        from name in Gen.Elements(s_elementNames)
        from dict in Gen.Frequency((3, Gen.Constant(false)), (1, Gen.Constant(true)))
        from local in LocalName(depth, dict || name.Ns is DictRef, "el")
        from attributeCount in Gen.Frequency((3, Gen.Constant(0)), (3, Gen.Choose(1, 3)), (1, Gen.Choose(4, 5)))
        from attributes in Gen.CollectToList(Enumerable.Range(0, attributeCount), Attribute)
        from xmlns in Gen.Frequency((4, Gen.Constant(new List<(string?, object)>())), (1, Gen.Elements<(string?, object)>(("p", "urn:p"), (null, "urn:g2"), ("q", new DictRef(true, "urn:q"))).Select(x => new List<(string?, object)> { x })))
        from childCount in Gen.Choose(0, Math.Max(0, Math.Min(6, size)))
        from children in Gen.CollectToList(Enumerable.Range(0, childCount), _ =>
            depth < 5 && size > 2 ? Gen.Frequency((3, Leaf), (2, Element(depth + 1, size / 2).Select(e => (Node)e))) : Leaf)
        select new Elem(name.Prefix, local, NamespaceFor(local, name.Ns), xmlns, attributes, children);

    // A dictionary local name needs a dictionary (or no) namespace; a string local name a string namespace.
    private static object? NamespaceFor(object local, object? ns) => (local, ns) switch
    {
        (string, DictRef d) => d.Value,
        (DictRef, string s) => new DictRef(false, s),
        _ => ns,
    };

    public static Gen<Doc> Documents =>
        from root in Gen.Sized(size => Element(0, Math.Min(size, 40)))
        from session in Gen.Elements(true, false)
        from flushRate in Gen.Frequency((3, Gen.Constant(0.0)), (1, Gen.Constant(0.05)), (1, Gen.Constant(0.3)))
        select new Doc(root, session, flushRate);

    public static Arbitrary<Doc> DocumentArbitrary => Arb.From(Documents);

    /// <summary>Documents of 64 KB and more: large text, base64 and arrays cross every buffer boundary.</summary>
    public static Gen<Doc> LargeDocuments =>
        from root in Element(0, 6)
        from big in Gen.ListOf(Gen.OneOf(
            Gen.Choose(20_000, 70_000).Select(n => (Node)new TextValue(new string('x', n) + "é")),
            Gen.Choose(30_000, 70_000).SelectMany(n => ByteArrays(n).Select(b => (Node)new Base64Value(b, [b.Length / 3]))),
            Gen.Choose(9_000, 20_000).Select(n => (Node)new ArrayValue(null, "big", null, Enumerable.Range(0, n).Select(i => (long)i * 7919).ToArray()))), 2)
        from flushRate in Gen.Elements(0.0, 0.1)
        select new Doc(root with { Children = [.. root.Children, .. big] }, false, flushRate);

    public static Arbitrary<Doc> MixedSizeDocumentArbitrary => Arb.From(Gen.Frequency((19, Documents), (1, LargeDocuments)));
}
