using System.Buffers;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>The README's quick start, run as written, with its claimed output.</summary>
public sealed class ReadmeExampleTests
{
    [Fact]
    public void Quick_start_does_what_the_README_says()
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new BinaryXmlWriter(buffer))
        {
            writer.WriteStartElement("p", "order", "urn:shop");
            writer.WriteAttributeString("id", "42");
            writer.WriteStartElement("total");
            writer.WriteValue(19.95m);
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        var decimals = new List<decimal>();
        var reader = new BinaryXmlReader(buffer.WrittenSpan);
        while (reader.Read())
        {
            if (reader.TokenType == BinaryXmlTokenType.Text && reader.ValueType == RecordType.DecimalText)
                decimals.Add(reader.GetDecimal());
        }
        reader.Dispose();

        Assert.Equal([19.95m], decimals);
        Assert.Equal("<p:order id=\"42\" xmlns:p=\"urn:shop\"><total>19.95</total></p:order>", BinaryXmlText.ToXml(buffer.WrittenSpan));
    }
}
