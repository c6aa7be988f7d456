using System.Buffers.Binary;
using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Every length-carrying record with declared lengths 0, 1, the bytes remaining, remaining + 1 and near
/// int.MaxValue: a length that fits reads, any other throws <see cref="BinaryXmlException"/>, never anything else
/// and never an allocation sized by the length.
/// </summary>
public sealed class LengthFieldTests
{
    public static TheoryData<byte, int> SizedRecords()
    {
        var data = new TheoryData<byte, int>();
        foreach (byte t in new byte[] { 0x98, 0x9A, 0x9C, 0x9E, 0xA0, 0xA2, 0xB6, 0xB8, 0xBA })
        {
            int width = BinaryXmlPrimitives.GetLengthFieldSize((RecordType)t);
            foreach (int length in new[] { 0, 1, 8, 9, 2, int.MaxValue, int.MaxValue - 1, 0x7FFFFFF0, 65535, 255 })
            {
                if (width == 1 && length > 255) continue;
                if (width == 2 && length > 65535) continue;
                data.Add(t, length);
            }
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(SizedRecords))]
    public void Sized_text_records(byte type, int length)
    {
        // <a> + record(length) + 8 payload bytes + </a>: 8 remain after the length field.
        int width = BinaryXmlPrimitives.GetLengthFieldSize((RecordType)type);
        byte[] field = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(field, length);
        byte[] doc = [0x40, 0x01, 0x61, type, .. field.AsSpan(0, width), 0x61, 0x00, 0x62, 0x00, 0x63, 0x00, 0x64, 0x00, 0x01];
        long before = GC.GetAllocatedBytesForCurrentThread();
        Exception? e = Record.Exception(() => BinaryXmlText.ToXml(doc));
        Assert.True(GC.GetAllocatedBytesForCurrentThread() - before < 1 << 20, "allocation sized by the declared length");
        Assert.True(e is null or BinaryXmlException, e?.ToString());
        if (length > 9) Assert.IsType<BinaryXmlException>(e); // more than remains
        if (length == 8 && type < 0xB6 && type is not (0x9E or 0xA0 or 0xA2)) Assert.Null(e); // "a\0b\0c\0d\0" then EndElement
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(int.MaxValue)]
    [InlineData(0x10000000)]
    public void Names_array_counts_string_tables_and_envelopes(int declared)
    {
        byte[] mb31 = new byte[5];
        int n = MultiByteInt31.Write(mb31, declared);
        byte[] size = mb31.AsSpan(0, n).ToArray();
        byte[][] documents =
        [
            [0x40, .. size, 0x61, 0x62, 0x63, 0x01],                                   // element name
            [0x02, .. size, 0x61, 0x62, 0x63],                                          // comment
            [0x03, 0x40, 0x01, 0x61, 0x01, 0x8D, .. size, 1, 0, 0, 0, 2, 0, 0, 0],     // array count (8 bytes remain)
        ];
        foreach (byte[] doc in documents)
        {
            Exception? e = Record.Exception(() => BinaryXmlText.ToXml(doc));
            Assert.True(e is null or BinaryXmlException, e?.ToString());
        }
        Exception? table = Record.Exception(() => new BinaryMessageDecoder(session: true).ToXml([.. size, 0x03, 0x61, 0x62, 0x63, 0x40, 0x01, 0x61, 0x01]));
        Assert.True(table is null or BinaryXmlException, table?.ToString());
        Exception? envelope = Record.Exception(() => BinaryXml.Soap.Nmf.NmfDecoder.Decode([0x00, 0x01, 0x00, 0x01, 0x02, 0x03, 0x08, 0x0C, 0x06, .. size, 0x00, 0x40, 0x01, 0x61, 0x01], out _, out _));
        Assert.True(envelope is null or BinaryXmlException, envelope?.ToString());
        if (declared > 8) Assert.NotNull(table);
    }

    [Fact]
    public void Reserved_record_bytes_in_every_position_of_a_document()
    {
        byte[] doc = Hex.Parse("40 01 61 04 01 78 98 01 79 09 01 70 05 75 72 6E 3A 70 5E 01 62 88 05 01 02 01 63 01");
        int rejected = 0;
        for (int i = 0; i < doc.Length; i++)
        {
            foreach (byte reserved in new byte[] { 0x00, 0x78, 0x7F, 0xA5, 0xA7, 0xBE, 0xFF })
            {
                byte[] copy = (byte[])doc.Clone();
                copy[i] = reserved;
                Exception? e = Record.Exception(() => BinaryXmlText.ToXml(copy));
                Assert.True(e is null or BinaryXmlException, e?.ToString());
                if (e is not null) rejected++;
            }
        }
        Assert.True(rejected > doc.Length * 3);
    }

    [Fact]
    public void Regression_corpus_fails_cleanly_everywhere()
    {
        string dir = Path.Combine(AppContext.BaseDirectory, "regressions");
        foreach (string file in Directory.Exists(dir) ? Directory.GetFiles(dir, "*.bin") : [])
        {
            byte[] input = File.ReadAllBytes(file);
            foreach (Action run in new Action[]
            {
                () => BinaryXmlText.ToXml(input, StrNDictionary.Instance),
                () => new BinaryMessageDecoder(session: true).ToXml(input),
                () => BinaryXml.Soap.Nmf.NmfDecoder.Decode(input, out _, out _),
                () => { using var r = BinaryXmlDictionaryReader.Create(input, 0, input.Length, null, System.Xml.XmlDictionaryReaderQuotas.Max); while (r.Read()) { _ = r.Value; } },
            })
            {
                Exception? e = Record.Exception(run);
                Assert.True(e is null or BinaryXmlException, Path.GetFileName(file) + ": " + e);
            }
        }
    }

    /// <summary>
    /// The fuzzer's differential oracle on the regression corpus, with its dictionary ("s0".."s599") and session
    /// ("session0".."session63"): where the in-box reader accepts an input, the drop-in reader gives the same node stream.
    /// </summary>
    [Fact]
    public void Regression_corpus_reads_alike_through_the_in_box_reader()
    {
        var dictionary = new System.Xml.XmlDictionary();
        for (int i = 0; i < 600; i++) dictionary.Add("s" + i);
        System.Xml.XmlBinaryReaderSession Session()
        {
            var s = new System.Xml.XmlBinaryReaderSession();
            for (int i = 0; i < 64; i++) s.Add(i, "session" + i);
            return s;
        }
        string dir = Path.Combine(AppContext.BaseDirectory, "regressions");
        int compared = 0;
        foreach (string file in Directory.GetFiles(dir, "*.bin"))
        {
            byte[] input = File.ReadAllBytes(file);
            List<string> expected;
            try
            {
                expected = NodeStream.FromInBox(input, dictionary, Session());
            }
            catch (System.Xml.XmlException)
            {
                continue;
            }
            List<string> actual = NodeStream.FromAdapter(input, dictionary, Session());
            Assert.True(expected.SequenceEqual(actual), $"{Path.GetFileName(file)}\nin-box:\n{string.Join("\n", expected)}\nours:\n{string.Join("\n", actual)}");
            compared++;
        }
        Assert.True(compared >= 3, $"only {compared} regression inputs are read by the in-box reader");
    }
}
