using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Renders binary XML as XML text exactly as MC-NBFX section 2 describes each record: no whitespace between
/// records, attribute values in double quotes, an Array as its element repeated once per item, a
/// <c>…WithEndElement</c> record as text followed by the end tag, minimal escaping (MC-NBFX 2.2.3.13.1).
/// </summary>
public static class BinaryXmlText
{
    /// <summary>Renders a whole document.</summary>
    /// <param name="data">The binary XML.</param>
    /// <param name="dictionary">The static dictionary, or null.</param>
    /// <param name="session">The session for odd ids, or null.</param>
    /// <param name="options">Reader limits, or null for the defaults.</param>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public static string ToXml(ReadOnlySpan<byte> data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null, BinaryXmlReaderOptions? options = null)
    {
        var sb = new StringBuilder(data.Length * 2);
        var reader = new BinaryXmlReader(data, dictionary, session, options);
        int node = 0;
        try
        {
            Render(ref reader, sb, ref node);
        }
        catch (BinaryXmlException e) when (e.NodeOffset < 0 && node < data.Length)
        {
            throw new BinaryXmlException(e.Reason, e.Offset, node, e);
        }
        finally
        {
            reader.Dispose();
        }
        return sb.ToString();
    }

    /// <summary>
    /// The text of a fixed-size, Chars, UnicodeChars or Bytes payload of a plain text record type (an Array item, for
    /// example), as MC-NBFX section 2 renders it.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The type is not a self-contained text record type.</exception>
    /// <exception cref="BinaryXmlException">The payload is not a valid value of the type.</exception>
    public static string FormatValue(RecordType type, ReadOnlySpan<byte> payload)
    {
        int size = RecordTypes.GetFixedPayloadSize((byte)type);
        if (size > payload.Length) throw new BinaryXmlException($"A {type} payload needs {size} bytes, not {payload.Length}", 0);
        return TextFormatting.Format(type, payload) ?? throw new BinaryXmlException($"The {type} value is out of range", 0);
    }

    /// <summary>Renders every remaining token of <paramref name="reader"/> into <paramref name="output"/>.</summary>
    public static void Render(ref BinaryXmlReader reader, StringBuilder output)
    {
        int node = 0;
        Render(ref reader, output, ref node);
    }

    /// <summary>
    /// <see cref="Render(ref BinaryXmlReader, StringBuilder)"/>, keeping in <paramref name="node"/> where the node
    /// being read starts: where the last one ended while the next is read, then the token's start while it is
    /// rendered (its text decoded and checked; an array's items, the Array record's).
    /// </summary>
    private static void Render(ref BinaryXmlReader reader, StringBuilder output, ref int node)
    {
        ArgumentNullException.ThrowIfNull(output);
        bool inStartTag = false;
        bool inList = false;
        bool inAttributeList = false;
        bool firstListItem = false;
        int arrayTagStart = -1, arrayRecord = -1;
        while (true)
        {
            node = reader.BytesConsumed;
            if (!reader.Read()) break;
            node = reader.TokenType == BinaryXmlTokenType.ArrayData ? arrayRecord : reader.TokenStartIndex;
            switch (reader.TokenType)
            {
                case BinaryXmlTokenType.StartElement:
                    CloseStartTag(output, ref inStartTag);
                    if (reader.IsArray)
                    {
                        arrayTagStart = output.Length;
                        arrayRecord = reader.TokenStartIndex;
                    }
                    output.Append('<');
                    AppendQName(output, reader.Prefix, reader.LocalName);
                    inStartTag = true;
                    break;
                case BinaryXmlTokenType.NamespaceDeclaration:
                    output.Append(" xmlns");
                    if (!reader.Prefix.IsEmpty) output.Append(':').Append(reader.Prefix.ToString());
                    output.Append("=\"");
                    TextFormatting.AppendEscaped(output, reader.NamespaceUri.ToString(), attribute: true);
                    output.Append('"');
                    break;
                case BinaryXmlTokenType.Attribute:
                    output.Append(' ');
                    AppendQName(output, reader.Prefix, reader.LocalName);
                    output.Append("=\"");
                    if (reader.ValueType == RecordType.StartListText)
                    {
                        inList = inAttributeList = true;
                        firstListItem = true;
                    }
                    else
                    {
                        TextFormatting.AppendEscaped(output, reader.GetString(), attribute: true);
                        output.Append('"');
                    }
                    break;
                case BinaryXmlTokenType.StartList:
                    CloseStartTag(output, ref inStartTag);
                    inList = true;
                    firstListItem = true;
                    break;
                case BinaryXmlTokenType.Text:
                    if (!inAttributeList) CloseStartTag(output, ref inStartTag);
                    if (inList && !firstListItem) output.Append(' ');
                    firstListItem = false;
                    TextFormatting.AppendEscaped(output, reader.GetString(), attribute: inAttributeList);
                    break;
                case BinaryXmlTokenType.EndList:
                    if (inAttributeList)
                    {
                        output.Append('"');
                        inAttributeList = false;
                    }
                    inList = false;
                    break;
                case BinaryXmlTokenType.EndElement:
                    CloseStartTag(output, ref inStartTag);
                    output.Append("</");
                    AppendQName(output, reader.Prefix, reader.LocalName);
                    output.Append('>');
                    break;
                case BinaryXmlTokenType.Comment:
                    CloseStartTag(output, ref inStartTag);
                    output.Append("<!--").Append(reader.GetString()).Append("-->");
                    break;
                case BinaryXmlTokenType.ArrayData:
                    CloseStartTag(output, ref inStartTag);
                    RenderArray(ref reader, output, arrayTagStart);
                    arrayTagStart = -1;
                    break;
            }
        }
        CloseStartTag(output, ref inStartTag);
    }

    private static void RenderArray(ref BinaryXmlReader reader, StringBuilder output, int tagStart)
    {
        string startTag = output.ToString(tagStart, output.Length - tagStart);
        output.Length = tagStart;
        string endTag = "</" + QName(reader.Prefix, reader.LocalName) + ">";
        RecordType itemType = (RecordType)((byte)reader.ArrayItemType & 0xFE);
        BinaryXmlPrimitives.IsArrayItemType(reader.ArrayItemType, out int size);
        ReadOnlySpan<byte> items = reader.ValueSpan;
        for (int i = 0; i < reader.ArrayLength; i++)
        {
            string? text = TextFormatting.Format(itemType, items.Slice(i * size, size))
                ?? throw new BinaryXmlException($"Array item {i} is not a valid {itemType} value", reader.TokenStartIndex + i * size);
            output.Append(startTag);
            TextFormatting.AppendEscaped(output, text, attribute: false);
            output.Append(endTag);
        }
    }

    private static void CloseStartTag(StringBuilder output, ref bool inStartTag)
    {
        if (inStartTag)
        {
            output.Append('>');
            inStartTag = false;
        }
    }

    private static void AppendQName(StringBuilder output, BinaryXmlName prefix, BinaryXmlName local)
    {
        if (!prefix.IsEmpty) output.Append(prefix.ToString()).Append(':');
        output.Append(local.ToString());
    }

    private static string QName(BinaryXmlName prefix, BinaryXmlName local) => prefix.IsEmpty ? local.ToString() : prefix.ToString() + ":" + local.ToString();
}
