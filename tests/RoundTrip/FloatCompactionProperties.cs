using System.Buffers;
using System.Xml;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// The current .NET float rule (dotnet-behaviour 2.11): a float is written as an integer record only when it is
/// integral and within the Int16 range; a double that converts exactly to float follows the float rule; everything
/// else keeps its exact bits. For random and special values the record type and bytes equal the in-box writer's, and
/// reading back returns the same bits except −0 → 0.
/// </summary>
public sealed class FloatCompactionProperties
{
    private static (byte[] Ours, byte[] InBox) Write(Action<BinaryXmlWriter> ours, Action<XmlDictionaryWriter> inBox)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(buffer);
        w.WriteStartElement("a");
        ours(w);
        w.WriteEndElement();
        w.Flush();
        var stream = new MemoryStream();
        XmlDictionaryWriter x = XmlDictionaryWriter.CreateBinaryWriter(stream);
        x.WriteStartElement("a");
        inBox(x);
        x.WriteEndElement();
        x.Flush();
        return (buffer.WrittenSpan.ToArray(), stream.ToArray());
    }

    private static RecordType ExpectedFloatRecord(float f) =>
        f >= short.MinValue && f <= short.MaxValue && (int)f == f
            ? (int)f switch { 0 => RecordType.ZeroText, 1 => RecordType.OneText, >= -128 and <= 127 => RecordType.Int8Text, _ => RecordType.Int16Text }
            : RecordType.FloatText;

    [Fact]
    public void Floats_are_compacted_as_the_in_box_writer_does()
    {
        PropertyConfig.Verify(Prop.ForAll(Arb.From(Generators.Floats), f =>
        {
            (byte[] ours, byte[] inBox) = Write(w => w.WriteValue(f), x => x.WriteValue(f));
            Assert.Equal(Hex.Format(inBox), Hex.Format(ours));
            Assert.Equal((byte)ExpectedFloatRecord(f) | 1, ours[3]);
            var r = new BinaryXmlReader(ours);
            r.Read(); r.Read();
            Assert.Equal(BitConverter.SingleToUInt32Bits(f == 0 ? 0f : f), BitConverter.SingleToUInt32Bits(r.GetSingle()));
            using XmlDictionaryReader inBoxReader = XmlDictionaryReader.CreateBinaryReader(ours, XmlDictionaryReaderQuotas.Max);
            inBoxReader.ReadStartElement("a");
            Assert.Equal(BitConverter.SingleToUInt32Bits(f == 0 ? 0f : f), BitConverter.SingleToUInt32Bits(inBoxReader.ReadContentAsFloat()));
        }), 1000);
    }

    [Fact]
    public void Doubles_are_compacted_as_the_in_box_writer_does()
    {
        PropertyConfig.Verify(Prop.ForAll(Arb.From(Generators.Doubles), d =>
        {
            (byte[] ours, byte[] inBox) = Write(w => w.WriteValue(d), x => x.WriteValue(d));
            Assert.Equal(Hex.Format(inBox), Hex.Format(ours));
            RecordType expected = (float)d == d ? ExpectedFloatRecord((float)d) : RecordType.DoubleText;
            Assert.Equal((byte)expected | 1, ours[3]);
            var r = new BinaryXmlReader(ours);
            r.Read(); r.Read();
            Assert.Equal(BitConverter.DoubleToUInt64Bits(d == 0 ? 0d : d), BitConverter.DoubleToUInt64Bits(r.GetDouble()));
        }), 1000);
    }

    [Theory]
    [InlineData(-0.0, "81")]
    [InlineData(256.0, "8B 00 01")]
    [InlineData(32767.0, "8B FF 7F")]
    [InlineData(32768.0, "91 00 00 00 47")]
    [InlineData(100.0, "89 64")]
    [InlineData(0.5, "91 00 00 00 3F")]
    [InlineData(double.PositiveInfinity, "91 00 00 80 7F")]
    [InlineData(double.NaN, "93 00 00 00 00 00 00 F8 FF")]
    [InlineData(1.0 / 3.0, "93 55 55 55 55 55 55 D5 3F")]
    public void Documented_double_cases(double value, string record)
    {
        (byte[] ours, byte[] inBox) = Write(w => w.WriteValue(value), x => x.WriteValue(value));
        Assert.Equal("40 01 61 " + record, Hex.Format(ours));
        Assert.Equal(Hex.Format(inBox), Hex.Format(ours));
    }
}
