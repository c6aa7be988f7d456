using System.Globalization;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Every typed value the in-box writer produces, read back with every <c>ReadElementContentAs*</c> conversion through
/// both readers: the same value (or the same kind of failure) each time, including the conversions across types
/// (an Int64 record read as int, a Double as float, a number as string), and <c>ReadContentAs</c> /
/// <c>ReadElementContentAs</c> with a type, which .NET's binary reader answers through its typed reads.
/// </summary>
public sealed class TypedContentDifferentialTests
{
    public static TheoryData<string> Values() => new(s_values.Keys);

    private static readonly Dictionary<string, Action<XmlDictionaryWriter>> s_values = new()
    {
        ["zero"] = w => w.WriteValue(0),
        ["one"] = w => w.WriteValue(1),
        ["minus one"] = w => w.WriteValue(-1),
        ["int8 127"] = w => w.WriteValue(127),
        ["int16 -129"] = w => w.WriteValue(-129),
        ["int32 70000"] = w => w.WriteValue(70000),
        ["int32 max"] = w => w.WriteValue(int.MaxValue),
        ["int64 3e9"] = w => w.WriteValue(3_000_000_000L),
        ["int64 min"] = w => w.WriteValue(long.MinValue),
        ["uint64 max"] = w => w.WriteValue((object)ulong.MaxValue),
        ["double 1.5"] = w => w.WriteValue(1.5),
        ["double 0.1"] = w => w.WriteValue(0.1),
        ["double 1e300"] = w => w.WriteValue(1e300),
        ["double NaN"] = w => w.WriteValue(double.NaN),
        ["float 0.1"] = w => w.WriteValue(0.1f),
        ["float infinity"] = w => w.WriteValue(float.PositiveInfinity),
        ["decimal 1.50"] = w => w.WriteValue(1.50m),
        ["decimal max"] = w => w.WriteValue(decimal.MaxValue),
        ["true"] = w => w.WriteValue(true),
        ["false"] = w => w.WriteValue(false),
        ["datetime utc"] = w => w.WriteValue(new DateTime(2026, 11, 21, 8, 30, 0, DateTimeKind.Utc)),
        ["datetime local"] = w => w.WriteValue(new DateTime(2026, 11, 21, 8, 30, 0, DateTimeKind.Local)),
        ["datetime unspecified"] = w => w.WriteValue(new DateTime(2026, 11, 21, 8, 30, 0, DateTimeKind.Unspecified)),
        ["timespan"] = w => w.WriteValue(TimeSpan.FromMinutes(90)),
        ["guid"] = w => w.WriteValue(new Guid("00010203-0405-0607-0809-0a0b0c0d0e0f")),
        ["uniqueid"] = w => w.WriteValue(new UniqueId(new Guid("00010203-0405-0607-0809-0a0b0c0d0e0f"))),
        ["text number"] = w => w.WriteString("42"),
        ["text '-42'"] = w => w.WriteString("-42"),
        ["text '+42'"] = w => w.WriteString("+42"),
        ["text ' 42'"] = w => w.WriteString(" 42"),
        ["text '42 '"] = w => w.WriteString("42 "),
        ["text '0'"] = w => w.WriteString("0"),
        ["text '-0'"] = w => w.WriteString("-0"),
        ["text '2147483648'"] = w => w.WriteString("2147483648"),
        ["text '-2147483649'"] = w => w.WriteString("-2147483649"),
        ["text '9223372036854775808'"] = w => w.WriteString("9223372036854775808"),
        ["text '00012'"] = w => w.WriteString("00012"),
        ["text '1.5'"] = w => w.WriteString("1.5"),
        ["text '-1.5'"] = w => w.WriteString("-1.5"),
        ["text '1.'"] = w => w.WriteString("1."),
        ["text '.5'"] = w => w.WriteString(".5"),
        ["text '0.3'"] = w => w.WriteString("0.3"),
        ["text '0.37'"] = w => w.WriteString("0.37"),
        ["text '-0.0'"] = w => w.WriteString("-0.0"),
        ["text '007.50'"] = w => w.WriteString("007.50"),
        ["text '2.2199999999999998'"] = w => w.WriteString("2.2199999999999998"),
        ["text '123456789012345'"] = w => w.WriteString("123456789012345"),
        ["text '1234567890123456'"] = w => w.WriteString("1234567890123456"),
        ["text '9007199254740993'"] = w => w.WriteString("9007199254740993"),
        ["text '0.123456789012345'"] = w => w.WriteString("0.123456789012345"),
        ["text '99999999.9999999'"] = w => w.WriteString("99999999.9999999"),
        ["text '1234567'"] = w => w.WriteString("1234567"),
        ["text '16777217'"] = w => w.WriteString("16777217"),
        ["text '0.16777217'"] = w => w.WriteString("0.16777217"),
        ["text '0.1234567'"] = w => w.WriteString("0.1234567"),
        ["text '1.0000001'"] = w => w.WriteString("1.0000001"),
        ["text '3.4028235'"] = w => w.WriteString("3.4028235"),
        ["text '-9.999999'"] = w => w.WriteString("-9.999999"),
        ["text '1.5e10'"] = w => w.WriteString("1.5e10"),
        ["text '-2.5E-3'"] = w => w.WriteString("-2.5E-3"),
        ["text '1e'"] = w => w.WriteString("1e"),
        ["text '1e+'"] = w => w.WriteString("1e+"),
        ["text '1e39'"] = w => w.WriteString("1e39"),
        ["text '1e309'"] = w => w.WriteString("1e309"),
        ["text '-1e309'"] = w => w.WriteString("-1e309"),
        ["text '3.4028235677973366E+38'"] = w => w.WriteString("3.4028235677973366E+38"),
        ["text 'INF'"] = w => w.WriteString("INF"),
        ["text '-INF'"] = w => w.WriteString("-INF"),
        ["text 'NaN'"] = w => w.WriteString("NaN"),
        ["text 'Infinity'"] = w => w.WriteString("Infinity"),
        ["text 'true'"] = w => w.WriteString("true"),
        ["text 'false'"] = w => w.WriteString("false"),
        ["text '1'"] = w => w.WriteString("1"),
        ["text 'TRUE'"] = w => w.WriteString("TRUE"),
        ["text ' true'"] = w => w.WriteString(" true"),
        ["text '-'"] = w => w.WriteString("-"),
        ["text '79228162514264337593543950336'"] = w => w.WriteString("79228162514264337593543950336"),
        ["text '0.0000000000000000000000000001'"] = w => w.WriteString("0.0000000000000000000000000001"),
        ["text '1.00000000000000000000000000005'"] = w => w.WriteString("1.00000000000000000000000000005"),
        ["text '１２'"] = w => w.WriteString("１２"),
        ["text 42 then end element record"] = w => { w.WriteString("42"); w.WriteString(""); },
        ["text word"] = w => w.WriteString("word"),
        ["two typed values"] = w => { w.WriteValue(4); w.WriteValue(2); },
        ["empty"] = _ => { },
        ["child element"] = w => w.WriteElementString("c", "1"),
        ["text then child element"] = w => { w.WriteString("7"); w.WriteElementString("c", "1"); },
        ["comment"] = w => w.WriteComment("c"),
    };

    private static readonly Dictionary<string, Func<XmlDictionaryReader, object>> s_reads = new()
    {
        ["int"] = r => r.ReadElementContentAsInt(),
        ["long"] = r => r.ReadElementContentAsLong(),
        ["double"] = r => r.ReadElementContentAsDouble(),
        ["float"] = r => r.ReadElementContentAsFloat(),
        ["decimal"] = r => r.ReadElementContentAsDecimal(),
        ["bool"] = r => r.ReadElementContentAsBoolean(),
        ["datetime"] = r => r.ReadElementContentAsDateTime(),
        ["timespan"] = r => r.ReadElementContentAsTimeSpan(),
        ["guid"] = r => r.ReadElementContentAsGuid(),
        ["string"] = r => r.ReadElementContentAsString(),
        ["object"] = r => r.ReadElementContentAsObject(),
        ["content long"] = r => { r.ReadStartElement(); long v = r.ReadContentAsLong(); return $"{v} then {r.NodeType}"; },
        ["content int"] = r => { r.ReadStartElement(); int v = r.ReadContentAsInt(); return $"{v} then {r.NodeType}"; },
        ["uniqueid"] = r => r.ReadElementContentAsUniqueId(),
        ["content uniqueid"] = r => { r.ReadStartElement(); UniqueId v = r.ReadContentAsUniqueId(); return $"{v} then {r.NodeType}"; },
    };

    /// <summary>The types <c>ReadContentAs(Type, …)</c> and <c>ReadElementContentAs(Type, …)</c> are asked for.</summary>
    private static readonly Type[] s_asTypes =
    [
        typeof(object), typeof(string), typeof(int), typeof(long), typeof(ulong), typeof(double), typeof(float), typeof(decimal), typeof(bool),
        typeof(DateTime), typeof(Guid), typeof(TimeSpan), typeof(UniqueId), typeof(DateTimeOffset), typeof(short), typeof(uint), typeof(byte[]),
        typeof(string[]), typeof(int[]), typeof(Guid[]), typeof(UniqueId[]), typeof(TimeSpan[]),
    ];

    static TypedContentDifferentialTests()
    {
        foreach (Type type in s_asTypes)
        {
            s_reads[$"as {type.Name}"] = r => r.ReadElementContentAs(type, null!);
            s_reads[$"content as {type.Name}"] = r => { r.ReadStartElement(); object v = r.ReadContentAs(type, null); return $"{Describe(v)} then {r.NodeType}"; };
            s_attributeReads[$"as {type.Name}"] = r => r.ReadContentAs(type, null);
        }
    }

    private static string Describe(object value) => value switch
    {
        DateTime d => d.ToString("O", CultureInfo.InvariantCulture) + " " + d.Kind,
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        float f => f.ToString("R", CultureInfo.InvariantCulture),
        Array a => $"{a.GetType().Name} [{string.Join(", ", a.Cast<object>().Select(Describe))}]",
        _ => $"{value.GetType().Name} {Convert.ToString(value, CultureInfo.InvariantCulture)}",
    };

    private static string Outcome(XmlDictionaryReader reader, Func<XmlDictionaryReader, object> read)
    {
        try
        {
            reader.ReadStartElement("r");
            string value = Describe(read(reader));
            return $"{value}; next {reader.NodeType} {reader.LocalName}";
        }
        catch (Exception e)
        {
            return e is XmlException ? "XmlException" : e.GetType().Name;
        }
    }

    [Theory]
    [MemberData(nameof(Values))]
    public void Typed_reads_match_the_in_box_reader(string value)
        => AssertReadsMatch(value, w =>
        {
            w.WriteStartElement("a");
            s_values[value](w);
            w.WriteEndElement();
        });

    /// <summary>
    /// The same documents cut short anywhere after <c>&lt;a&gt;</c>'s start tag and before the element after it (at the
    /// tag's end, inside the value's record, after it): every read fails through both readers as an XmlException.
    /// </summary>
    [Theory]
    [MemberData(nameof(Values))]
    public void Typed_reads_of_a_document_cut_short_fail_as_in_box(string value)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("a");
            s_values[value](w);
            w.WriteEndElement();
            w.WriteElementString("after", "x");
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        // <r> and <a> are ShortElement records of three bytes each; the element after starts with its name's length.
        int after = data.AsSpan().IndexOf((byte[])[0x40, 5, .. "after"u8]);
        Assert.True(after > 6);
        for (int end = 6; end < after; end++) AssertReadsMatch($"{value} cut at {end}", data[..end]);
    }

    /// <summary>
    /// Records .NET's writer never writes, read as it reads them: a BoolText (0xB4) closing its element, false, true
    /// and a byte other than 0 or 1; an Int64Text holding a small number, an Int8Text holding 0 (not Zero/One).
    /// </summary>
    [Theory]
    [InlineData("BoolText 0", new byte[] { 0xB5, 0x00 })]
    [InlineData("BoolText 1", new byte[] { 0xB5, 0x01 })]
    [InlineData("BoolText 2", new byte[] { 0xB5, 0x02 })]
    [InlineData("Int64Text 5", new byte[] { 0x8F, 5, 0, 0, 0, 0, 0, 0, 0 })]
    [InlineData("Int8Text 0", new byte[] { 0x89, 0x00 })]
    public void Typed_reads_of_records_the_writer_does_not_write_match_the_in_box_reader(string what, byte[] closingRecord)
    {
        // <r><a>record</a><after>x</after></r>
        byte[] data = [0x40, 1, (byte)'r', 0x40, 1, (byte)'a', .. closingRecord, 0x40, 5, .. "after"u8, 0x99, 1, (byte)'x', 0x01];
        AssertReadsMatch(what, data);
    }

    /// <summary>
    /// <c>&lt;r&gt;</c> around what <paramref name="content"/> writes and an element after it, read with every read of
    /// <see cref="s_reads"/> through both readers: the same outcome each time.
    /// </summary>
    private static void AssertReadsMatch(string what, Action<XmlDictionaryWriter> content)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
        {
            w.WriteStartElement("r");
            content(w);
            w.WriteElementString("after", "x");
            w.WriteEndElement();
        }
        AssertReadsMatch(what, stream.ToArray());
    }

    /// <summary>The document <paramref name="data"/> read with every read of <see cref="s_reads"/> through both readers.</summary>
    private static void AssertReadsMatch(string what, byte[] data)
    {
        var differences = new List<string>();
        foreach ((string name, Func<XmlDictionaryReader, object> read) in s_reads)
        {
            string expected = Outcome(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), read);
            string actual = Outcome(BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), read);
            if (expected != actual) differences.Add($"{what} read as {name}: in-box {expected}, ours {actual}");
        }
        Assert.True(differences.Count == 0, string.Join("\n", differences));
    }

    public static TheoryData<string> Arrays() => new(s_arrays.Keys);

    /// <summary>An Array record of each item type, of two items (the first read, then what the reader is on).</summary>
    private static readonly Dictionary<string, Action<XmlDictionaryWriter>> s_arrays = new()
    {
        ["bool"] = w => w.WriteArray(null, "a", null, [true, false], 0, 2),
        ["int16"] = w => w.WriteArray(null, "a", null, new short[] { -129, 7 }, 0, 2),
        ["int32"] = w => w.WriteArray(null, "a", null, [70000, 1], 0, 2),
        ["int64"] = w => w.WriteArray(null, "a", null, [3_000_000_000L, 1], 0, 2),
        ["float"] = w => w.WriteArray(null, "a", null, [1.2345679f, float.NaN], 0, 2),
        ["float 0.1"] = w => w.WriteArray(null, "a", null, [0.1f, 2.5f], 0, 2),
        ["double"] = w => w.WriteArray(null, "a", null, [0.1, 1e300], 0, 2),
        ["decimal"] = w => w.WriteArray(null, "a", null, [1.50m, decimal.MaxValue], 0, 2),
        ["datetime"] = w => w.WriteArray(null, "a", null, [new DateTime(2026, 11, 21, 8, 30, 0, DateTimeKind.Utc), new DateTime(2026, 11, 21, 8, 30, 0, DateTimeKind.Local)], 0, 2),
        ["timespan"] = w => w.WriteArray(null, "a", null, [TimeSpan.FromMinutes(90), TimeSpan.Zero], 0, 2),
        ["guid"] = w => w.WriteArray(null, "a", null, [new Guid("00010203-0405-0607-0809-0a0b0c0d0e0f"), Guid.Empty], 0, 2),
    };

    [Theory]
    [MemberData(nameof(Arrays))]
    public void Typed_reads_of_array_items_match_the_in_box_reader(string array)
        // .NET's reader presents each item as an element holding a typed value (the item record closing it), so the
        // typed reads convert the item as they convert that record, not its text (a Float item read as double is the
        // float widened, 1.2345678806304932, not the double nearest "1.2345679").
        => AssertReadsMatch($"{array} item", s_arrays[array]);

    private static readonly Dictionary<string, Func<XmlDictionaryReader, object>> s_attributeReads = new()
    {
        ["int"] = r => r.ReadContentAsInt(),
        ["long"] = r => r.ReadContentAsLong(),
        ["double"] = r => r.ReadContentAsDouble(),
        ["float"] = r => r.ReadContentAsFloat(),
        ["decimal"] = r => r.ReadContentAsDecimal(),
        ["bool"] = r => r.ReadContentAsBoolean(),
        ["datetime"] = r => r.ReadContentAsDateTime(),
        ["string"] = r => r.ReadContentAsString(),
        ["object"] = r => r.ReadContentAsObject(),
        ["uniqueid"] = r => r.ReadContentAsUniqueId(),
    };

    [Theory]
    [MemberData(nameof(Values))]
    public void Typed_attribute_reads_match_the_in_box_reader(string value)
    {
        var stream = new MemoryStream();
        Exception? error = Record.Exception(() =>
        {
            using XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false);
            w.WriteStartElement("r");
            w.WriteStartAttribute("v");
            s_values[value](w);
            w.WriteEndAttribute();
            w.WriteEndElement();
        });
        if (value is "two typed values" or "child element" or "text then child element" or "comment")
        {
            // The in-box writer allows one typed value per attribute, and no element or comment in one.
            Assert.IsType<InvalidOperationException>(error);
            return;
        }
        Assert.Null(error);
        byte[] data = stream.ToArray();
        string Outcome(XmlDictionaryReader reader, Func<XmlDictionaryReader, object> read)
        {
            try
            {
                reader.MoveToContent();
                Assert.True(reader.MoveToAttribute("v"));
                return $"{Describe(read(reader))}; next {reader.NodeType}";
            }
            catch (Exception e)
            {
                return e is XmlException ? "XmlException" : e.GetType().Name;
            }
        }
        foreach ((string name, Func<XmlDictionaryReader, object> read) in s_attributeReads)
        {
            string expected = Outcome(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), read);
            string actual = Outcome(BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), read);
            Assert.True(expected == actual, $"{value} attribute read as {name}: in-box {expected}, ours {actual}");
        }
    }
}
