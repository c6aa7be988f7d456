using System.Globalization;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// The native reader's typed reads (<see cref="BinaryXmlReader.ReadElementContentAsSingle"/> and its siblings) give
/// the value .NET's binary reader gives for the same element, or fail where it fails: of text (XML white space, INF
/// and NaN, signs, ranges, and a float's rounding, which must happen once), and of every typed record read as each
/// type (a record read as another type is read through its text, as .NET's reader reads it).
/// </summary>
public sealed class NativeTypedReadTests
{
    public static TheoryData<string> Texts() => new(
    [
        "42", "-42", "+42", " 42 ", "\t7\r\n", "\v1", "1\v", "\f2", "\u00a01", "00012", "-0", "- 1", "", " ",
        "1.5", "-1.5", "1.", ".5", "5e", "1e+5", "1E5", "1.5e3", "1,000", "0x10",
        "INF", "-INF", "+INF", " INF ", "NaN", "inf", "Infinity", "∞",
        "1e400", "-1e400", "1e-400", "2147483648", "-2147483648", "4294967296", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "79228162514264337593543950335", "79228162514264337593543950336",
        "1.0000000000000000000000000001", "0.00000000000000000000000000001",
        // A float's edges: just below the midpoint between 1 + 2^-23 and 1 + 2^-22 (a double rounds it onto the
        // midpoint, which a float then rounds up), past float.MaxValue but rounding to it, past it and rounding to
        // infinity, and the subnormal edge below the smallest float.
        "1.00000017881393432617187499", " 1.00000017881393432617187499 ", "1.000000178813934326171875",
        "3.4028235677973366e38", "3.40282357e38", "-3.40282357e38", "7.0064923216240854e-46", "7.006492321624085e-46",
        "1.4012984643248170e-45", "true", "false", "1", "0", " true ", "True",
        "2026-12-01T03:50:00Z", "2026-12-01T03:50:00", "2026-12-01T03:50:00+01:00", " 2026-12-01 ", "2026-12-01T03:50:00.1234567Z",
        "2026-13-01", "P1DT2H", "-PT90M", "PT0S", "P", " PT1S ", "01:30:00",
        "0f8fad5b-d9cb-469f-a165-70867728950e", " 0f8fad5b-d9cb-469f-a165-70867728950e ", "urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e",
        "{0f8fad5b-d9cb-469f-a165-70867728950e}", "0f8fad5bd9cb469fa16570867728950e", "0f8fad5b-d9cb-469f-a165",
        // Base64 with a padded block before the last (.NET decodes block by block), with white space, and not base64.
        "AQ==AQID", " AQ== AQID\n", "AQID\r\nAQ==", "AQ=A", "AQI",
    ]);

    private static readonly (string Name, Func<XmlDictionaryReader, object> InBox, Func<BinaryXmlReader, object> Native)[] s_reads =
    [
        ("string", r => r.ReadElementContentAsString(), r => r.ReadElementContentAsString()),
        ("float", r => r.ReadElementContentAsFloat(), r => r.ReadElementContentAsSingle()),
        ("double", r => r.ReadElementContentAsDouble(), r => r.ReadElementContentAsDouble()),
        ("decimal", r => r.ReadElementContentAsDecimal(), r => r.ReadElementContentAsDecimal()),
        ("int", r => r.ReadElementContentAsInt(), r => r.ReadElementContentAsInt32()),
        ("long", r => r.ReadElementContentAsLong(), r => r.ReadElementContentAsInt64()),
        ("ulong", r => r.ReadElementContentAs(typeof(ulong), null!), r => r.ReadElementContentAsUInt64()),
        ("bool", r => r.ReadElementContentAsBoolean(), r => r.ReadElementContentAsBoolean()),
        ("DateTime", r => r.ReadElementContentAsDateTime(), r => r.ReadElementContentAsDateTime()),
        ("TimeSpan", r => r.ReadElementContentAsTimeSpan(), r => r.ReadElementContentAsTimeSpan()),
        ("Guid", r => r.ReadElementContentAsGuid(), r => r.ReadElementContentAsGuid()),
        // No one-call read natively: the value token's getter.
        ("UniqueId", r => r.ReadElementContentAsUniqueId(), r => r.Read() && r.TokenType == BinaryXmlTokenType.Text ? r.GetUniqueId() : throw new FormatException("no value")),
        // An empty element's bytes are none.
        ("base64", r => Convert.ToHexString(r.ReadElementContentAsBase64()), r => r.Read() && r.TokenType == BinaryXmlTokenType.Text ? Convert.ToHexString(r.GetBytesFromBase64()) : ""),
    ];

    public static TheoryData<string> Records() => new(s_records.Keys);

    /// <summary>Typed values as .NET's writer writes them (a record of each type, at the edges where types convert).</summary>
    private static readonly Dictionary<string, Action<XmlDictionaryWriter>> s_records = new()
    {
        ["int 0"] = w => w.WriteValue(0),
        ["int 1"] = w => w.WriteValue(1),
        ["int -1"] = w => w.WriteValue(-1),
        ["int 70000"] = w => w.WriteValue(70000),
        ["long 3e9"] = w => w.WriteValue(3_000_000_000L),
        ["long min"] = w => w.WriteValue(long.MinValue),
        ["long max"] = w => w.WriteValue(long.MaxValue),
        ["ulong max"] = w => w.WriteValue((object)ulong.MaxValue),
        ["ulong 2^63"] = w => w.WriteValue((object)(1UL << 63)),
        ["double 1.5"] = w => w.WriteValue(1.5),
        ["double 0.1"] = w => w.WriteValue(0.1),
        ["double 1e300"] = w => w.WriteValue(1e300),
        ["double past float's range"] = w => w.WriteValue(3.4028235677973366e38),
        ["double at a float midpoint"] = w => w.WriteValue(1.000000178813934326171875),
        ["double NaN"] = w => w.WriteValue(double.NaN),
        ["double -infinity"] = w => w.WriteValue(double.NegativeInfinity),
        ["double -0"] = w => w.WriteValue(-0.0),
        ["double subnormal"] = w => w.WriteValue(1e-320),
        ["float 0.1"] = w => w.WriteValue(0.1f),
        ["float infinity"] = w => w.WriteValue(float.PositiveInfinity),
        ["float NaN"] = w => w.WriteValue(float.NaN),
        ["float -0"] = w => w.WriteValue(-0f),
        ["float 1e10"] = w => w.WriteValue(1e10f),
        ["decimal 1.50"] = w => w.WriteValue(1.50m),
        ["decimal max"] = w => w.WriteValue(decimal.MaxValue),
        ["decimal 0.1"] = w => w.WriteValue(0.1m),
        ["decimal 1e-28"] = w => w.WriteValue(1e-28m),
        ["decimal 2^63"] = w => w.WriteValue(9223372036854775808m),
        ["decimal 1.5e10"] = w => w.WriteValue(15000000000m),
        ["decimal -0.5"] = w => w.WriteValue(-0.5m),
        ["true"] = w => w.WriteValue(true),
        ["false"] = w => w.WriteValue(false),
        ["DateTime"] = w => w.WriteValue(new DateTime(2026, 11, 21, 8, 30, 0, DateTimeKind.Utc)),
        ["TimeSpan"] = w => w.WriteValue(TimeSpan.FromMinutes(90)),
        ["Guid"] = w => w.WriteValue(Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e")),
        ["UniqueId"] = w => w.WriteValue(new UniqueId(Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"))),
        ["bytes"] = w => w.WriteBase64([0xD7, 0x6D, 0xF8], 0, 3),
        ["empty"] = w => { },
    };

    [Theory]
    [MemberData(nameof(Records))]
    public void Typed_reads_of_typed_records_match_the_in_box_reader(string record)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
        {
            w.WriteStartElement("a");
            s_records[record](w);
            w.WriteEndElement();
        }
        AssertReadsMatch(record, stream.ToArray());
    }

    [Theory]
    [MemberData(nameof(Texts))]
    public void Typed_reads_of_text_match_the_in_box_reader(string text) => AssertReadsMatch($"'{text}'", Element(text));

    private static void AssertReadsMatch(string what, byte[] data)
    {
        var differences = new List<string>();
        foreach ((string name, Func<XmlDictionaryReader, object> inBox, Func<BinaryXmlReader, object> native) in s_reads)
        {
            string expected = InBoxOutcome(data, inBox), actual = NativeOutcome(data, native);
            // The one difference by design: the native GetGuid also takes a UniqueIdText record and a GUID written as
            // a UniqueId's text (urn:uuid:…); .NET's ReadElementContentAsGuid refuses both.
            if (name == "Guid" && (what == "UniqueId" || what.StartsWith("'urn:uuid:", StringComparison.Ordinal)))
            {
                Assert.Equal("fails", expected);
                expected = "0f8fad5b-d9cb-469f-a165-70867728950e";
            }
            if (expected != actual) differences.Add($"{what} as {name}: in-box {expected}, native {actual}");
        }
        Assert.True(differences.Count == 0, string.Join("\n", differences));
    }

    /// <summary>
    /// Floats written as text at the midpoint between two neighbouring floats (as the shortest double that is that
    /// midpoint, in scientific notation of 8 to 24 digits, or nudged off it) and the floats themselves: read as float,
    /// the value .NET's reader gives. Rounded twice (through a double), about a fifth of them came out one float off.
    /// </summary>
    [Fact]
    public void Floats_at_rounding_midpoints_read_as_the_in_box_reader_reads_them()
    {
        var random = new Random(20261201);
        var differences = new List<string>();
        for (int i = 0; i < 4000; i++)
        {
            // Normal floats, and subnormal ones one time in four.
            float f = BitConverter.Int32BitsToSingle(random.Next() & (random.Next(4) == 0 ? 0x007FFFFF : 0x7F7FFFFF));
            double midpoint = ((double)f + MathF.BitIncrement(f)) / 2;
            string text = (i % 4) switch
            {
                0 => midpoint.ToString("R", CultureInfo.InvariantCulture),
                1 => midpoint.ToString("E" + random.Next(8, 25), CultureInfo.InvariantCulture),
                2 => (midpoint * (1 + ((random.NextDouble() - 0.5) * 1e-15))).ToString("G17", CultureInfo.InvariantCulture),
                _ => f.ToString("R", CultureInfo.InvariantCulture),
            };
            if (random.Next(3) == 0) text = "-" + text;
            byte[] data = Element(text);
            string expected = InBoxOutcome(data, r => r.ReadElementContentAsFloat());
            string actual = NativeOutcome(data, r => r.ReadElementContentAsSingle());
            if (expected != actual) differences.Add($"'{text}': in-box {expected}, native {actual}");
        }
        Assert.True(differences.Count == 0, $"{differences.Count} of 4000 differ:\n" + string.Join("\n", differences.Take(20)));
    }

    /// <summary>
    /// Plain decimals of 1 to 18 digits, the point anywhere, read as float and as double: the value .NET's reader gives.
    /// Those of at most 7 (float) or 15 (double) digits are read as the quotient of their digits and a power of ten,
    /// exact there and not beyond (<see cref="PlainValueText"/>).
    /// </summary>
    [Fact]
    public void Short_decimals_read_as_the_in_box_reader_reads_them()
    {
        var random = new Random(20261202);
        var differences = new List<string>();
        for (int i = 0; i < 3000; i++)
        {
            int count = 1 + (i % 18);
            var digits = new char[count];
            for (int d = 0; d < count; d++) digits[d] = (char)('0' + random.Next(10));
            string text = new(digits);
            int point = random.Next(count + 1);
            if (point < count) text = text.Insert(point, ".");
            if (random.Next(2) == 0) text = "-" + text;
            byte[] data = Element(text);
            foreach ((string name, Func<XmlDictionaryReader, object> inBox, Func<BinaryXmlReader, object> native) in s_reads[1..3])
            {
                string expected = InBoxOutcome(data, inBox), actual = NativeOutcome(data, native);
                if (expected != actual) differences.Add($"'{text}' as {name}: in-box {expected}, native {actual}");
            }
        }
        Assert.True(differences.Count == 0, string.Join("\n", differences.Take(20)));
    }

    /// <summary>
    /// The text of Float, Double and Decimal records, which the typed reads parse when a record is read as another type
    /// (and <c>GetString</c> returns): <c>XmlConvert</c>'s form, for values from random bits (NaN payloads, subnormals,
    /// infinities, negative zero) and decimals of every scale.
    /// </summary>
    [Fact]
    public void Number_records_read_as_XmlConvert_writes_them()
    {
        var random = new Random(20261201);
        var differences = new List<string>();
        for (int i = 0; i < 30000; i++)
        {
            byte[] record;
            string expected;
            switch (i % 3)
            {
                case 0:
                    float f = i % 300 == 0 ? -0f : BitConverter.Int32BitsToSingle(random.Next() ^ (random.Next(2) << 31));
                    record = [0x91, .. BitConverter.GetBytes(f)];
                    expected = XmlConvert.ToString(f);
                    break;
                case 1:
                    double d = i % 301 == 0 ? double.NegativeInfinity : BitConverter.Int64BitsToDouble(random.NextInt64() ^ ((long)random.Next(2) << 63));
                    record = [0x93, .. BitConverter.GetBytes(d)];
                    expected = XmlConvert.ToString(d);
                    break;
                default:
                    decimal m = new(random.Next(), random.Next(), random.Next(), random.Next(2) == 0, (byte)random.Next(29));
                    byte[] payload = new byte[16];
                    BinaryXmlPrimitives.WriteDecimal(payload, m);
                    record = [0x95, .. payload];
                    expected = XmlConvert.ToString(m);
                    break;
            }
            var r = new BinaryXmlReader([0x40, 1, (byte)'a', .. record]);
            r.Read();
            r.Read();
            string actual = r.GetString();
            if (actual != expected) differences.Add($"{Convert.ToHexString(record)}: XmlConvert {expected}, ours {actual}");
            r.Dispose();
        }
        Assert.True(differences.Count == 0, string.Join("\n", differences.Take(20)));
    }

    [Fact]
    public void Integer_and_boolean_records_have_one_text_in_both_forms()
    {
        // GetString forms an integer record's text with ToString (the runtime's cached strings for small values), the
        // typed reads with TryFormatNumber into a stack buffer: both must be XmlConvert's form, for every width.
        var random = new Random(20261202);
        var differences = new List<string>();
        Span<char> chars = stackalloc char[TextFormatting.NumberLength];
        for (int i = 0; i < 12000; i++)
        {
            long bits = i < 12 ? (i % 2 == 0 ? 0 : -1) << (i / 2) : random.NextInt64() >> random.Next(64);
            (RecordType type, byte[] payload, string expected) = (i % 6) switch
            {
                0 => (RecordType.Int8Text, [(byte)(sbyte)bits], XmlConvert.ToString((sbyte)bits)),
                1 => (RecordType.Int16Text, BitConverter.GetBytes((short)bits), XmlConvert.ToString((short)bits)),
                2 => (RecordType.Int32Text, BitConverter.GetBytes((int)bits), XmlConvert.ToString((int)bits)),
                3 => (RecordType.Int64Text, BitConverter.GetBytes(bits), XmlConvert.ToString(bits)),
                4 => (RecordType.UInt64Text, BitConverter.GetBytes((ulong)bits), XmlConvert.ToString((ulong)bits)),
                _ => (RecordType.BoolText, [(byte)(bits & 1)], XmlConvert.ToString((bits & 1) != 0)),
            };
            string? formatted = TextFormatting.Format(type, payload);
            string written = TextFormatting.TryFormatNumber(type, payload, chars, out int length) ? chars[..length].ToString() : "(none)";
            if (formatted != expected || written != expected) differences.Add($"{type} {Convert.ToHexString(payload)}: XmlConvert {expected}, Format {formatted}, TryFormatNumber {written}");
        }
        foreach ((RecordType type, string expected) in new[] { (RecordType.ZeroText, "0"), (RecordType.OneText, "1"), (RecordType.FalseText, "false"), (RecordType.TrueText, "true") })
        {
            string written = TextFormatting.TryFormatNumber(type, [], chars, out int length) ? chars[..length].ToString() : "(none)";
            if (TextFormatting.Format(type, []) != expected || written != expected) differences.Add($"{type}: Format {TextFormatting.Format(type, [])}, TryFormatNumber {written}");
        }
        Assert.True(differences.Count == 0, string.Join("\n", differences.Take(20)));
    }

    /// <summary><c>&lt;a&gt;text&lt;/a&gt;</c> as .NET's writer writes it (a Chars record closing the element).</summary>
    private static byte[] Element(string text)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
        {
            w.WriteStartElement("a");
            w.WriteString(text);
            w.WriteEndElement();
        }
        return stream.ToArray();
    }

    private static string InBoxOutcome(byte[] data, Func<XmlDictionaryReader, object> read)
    {
        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(data, XmlDictionaryReaderQuotas.Max);
        r.Read();
        try
        {
            return Format(read(r));
        }
        // ReadElementContentAs(typeof(ulong)) fails through XmlUntypedConverter with a FormatException of its own.
        catch (Exception e) when (e is XmlException or FormatException or OverflowException)
        {
            return "fails";
        }
    }

    /// <summary>The native reader's outcome: its value, or "fails" for the conversion's failure (a FormatException, an OverflowException past the type's range).</summary>
    private static string NativeOutcome(byte[] data, Func<BinaryXmlReader, object> read)
    {
        var r = new BinaryXmlReader(data);
        try
        {
            r.Read();
            return Format(read(r));
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            return "fails";
        }
        finally
        {
            r.Dispose();
        }
    }

    private static string Format(object value) => value switch
    {
        float f => f.ToString("R", CultureInfo.InvariantCulture) + (f == 0 && float.IsNegative(f) ? " (negative)" : ""),
        double d => d.ToString("R", CultureInfo.InvariantCulture) + (d == 0 && double.IsNegative(d) ? " (negative)" : ""),
        DateTime t => t.ToString("O", CultureInfo.InvariantCulture) + " " + t.Kind,
        IFormattable x => x.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
