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
            writer.WriteElementValue("count", 3);
            writer.WriteEndElement();
        }

        var printed = new List<object>();
        var reader = new BinaryXmlReader(buffer.WrittenSpan);
        while (reader.Read())
        {
            if (reader.TokenType == BinaryXmlTokenType.Text && reader.ValueType == RecordType.DecimalText)
                printed.Add(reader.GetDecimal());
            else if (reader.TokenType == BinaryXmlTokenType.StartElement && reader.LocalName.ValueEquals("count"u8))
                printed.Add(reader.ReadElementContentAsInt32());
        }
        reader.Dispose();

        Assert.Equal([19.95m, 3], printed);
        Assert.Equal("<p:order id=\"42\" xmlns:p=\"urn:shop\"><total>19.95</total><count>3</count></p:order>", BinaryXmlText.ToXml(buffer.WrittenSpan));
    }
}
