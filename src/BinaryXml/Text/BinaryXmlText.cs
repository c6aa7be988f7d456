using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Renders binary XML as XML text exactly as MC-NBFX section 2 describes each record: no whitespace between
/// records, attribute values in double quotes, an Array as its element repeated once per item, a
/// <c>…WithEndElement</c> record as text followed by the end tag, minimal escaping (MC-NBFX 2.2.3.13.1).
/// </summary>
public static partial class BinaryXmlText
{
    /// <summary>Renders a whole document.</summary>
    /// <param name="data">The binary XML.</param>
    /// <param name="dictionary">The static dictionary, or null.</param>
    /// <param name="session">The session for odd ids, or null.</param>
    /// <param name="options">Reader limits, or null for the defaults.</param>
    /// <param name="markValueTypes">
    /// Whether to record which text records the values were, and which names were written inline or to the session
    /// where a writer would not have, with the attributes <see cref="ValueTypeMarks"/> describes, so that the XML
    /// written back with the same calls (as <c>binxml encode</c> does) gives the same records. Marked XML also escapes
    /// what an XML parser would normalize (a carriage return; a tab or line feed in an attribute value) as .NET's
    /// <see cref="XmlWriter"/> does.
    /// </param>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public static string ToXml(ReadOnlySpan<byte> data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null, BinaryXmlReaderOptions? options = null, bool markValueTypes = false)
    {
        if (!markValueTypes) return RenderDocument(data, dictionary, session, options, null);
        var marks = new TypeMarking("t", dictionary, session is not null);
        string xml = RenderDocument(data, dictionary, session, options, marks);
        if (!marks.PrefixesUsed.Contains(marks.Prefix)) return xml;
        // The document uses the prefix: render it again with one it does not use.
        int n = 1;
        while (marks.PrefixesUsed.Contains("t" + n)) n++;
        return RenderDocument(data, dictionary, session, options, new TypeMarking("t" + n, dictionary, session is not null));
    }

    private static string RenderDocument(ReadOnlySpan<byte> data, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, BinaryXmlReaderOptions? options, TypeMarking? marks)
    {
        var sb = new StringBuilder(data.Length * 2);
        var reader = new BinaryXmlReader(data, dictionary, session, options);
        int node = 0;
        try
        {
            Render(ref reader, sb, ref node, marks);
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
        Render(ref reader, output, ref node, null);
    }

    /// <summary>
    /// <see cref="Render(ref BinaryXmlReader, StringBuilder)"/>, keeping in <paramref name="node"/> where the node
    /// being read starts: where the last one ended while the next is read, then the token's start while it is
    /// rendered (its text decoded and checked; an array's items, the Array record's). With <paramref name="marks"/>,
    /// the value types are marked (<see cref="ValueTypeMarks"/>).
    /// </summary>
    private static void Render(ref BinaryXmlReader reader, StringBuilder output, ref int node, TypeMarking? marks)
    {
        ArgumentNullException.ThrowIfNull(output);
        bool inStartTag = false;
        bool inList = false;
        bool inAttributeList = false;
        bool firstListItem = false;
        int arrayTagStart = -1, arrayRecord = -1;
        int depth = 0;
        // Marked XML is meant to be read back by an XML parser: what it would normalize is escaped.
        bool exact = marks is not null;
        while (true)
        {
            node = reader.BytesConsumed;
            if (!reader.Read()) break;
            node = reader.TokenType == BinaryXmlTokenType.ArrayData ? arrayRecord : reader.TokenStartIndex;
            if (marks is not null)
            {
                if (marks.IsHolding)
                {
                    if (marks.TryHoldMore(ref reader)) continue;
                    marks.WriteHeld(output, ref inStartTag, ends: reader.TokenType == BinaryXmlTokenType.EndElement);
                }
                // (A list notes whether text came before it: StartList.)
                if (reader.TokenType is not (BinaryXmlTokenType.Text or BinaryXmlTokenType.StartList)) marks.AfterText = false;
            }
            switch (reader.TokenType)
            {
                case BinaryXmlTokenType.StartElement:
                    CloseStartTag(output, ref inStartTag, marks, null);
                    if (reader.IsArray)
                    {
                        arrayTagStart = output.Length;
                        arrayRecord = reader.TokenStartIndex;
                    }
                    marks?.StartTag(topLevel: depth == 0);
                    if (!reader.IsArray) depth++;
                    output.Append('<');
                    int elementName = output.Length;
                    AppendQName(output, reader.Prefix, reader.LocalName, marks);
                    // An Array record's element names are written as strings (as .NET's WriteArray writes them).
                    if (!reader.IsArray) marks?.Name(output, elementName, "", reader.LocalName);
                    inStartTag = true;
                    break;
                case BinaryXmlTokenType.NamespaceDeclaration:
                    output.Append(' ');
                    int declarationName = output.Length;
                    output.Append("xmlns");
                    if (!reader.Prefix.IsEmpty)
                    {
                        output.Append(':');
                        AppendName(output, reader.Prefix, marks);
                    }
                    marks?.Name(output, declarationName, "", reader.NamespaceUri);
                    output.Append("=\"");
                    TextFormatting.AppendEscaped(output, reader.NamespaceUri.ToString(), attribute: true, exact);
                    output.Append('"');
                    break;
                case BinaryXmlTokenType.Attribute:
                    output.Append(' ');
                    int nameStart = output.Length;
                    AppendQName(output, reader.Prefix, reader.LocalName, marks);
                    marks?.Name(output, nameStart, "@", reader.LocalName);
                    marks?.Attribute(output, nameStart, ref reader);
                    if (reader.ValueType == RecordType.StartListText) marks?.StartList(output, nameStart, markable: true);
                    output.Append("=\"");
                    if (reader.ValueType == RecordType.StartListText)
                    {
                        inList = inAttributeList = true;
                        firstListItem = true;
                    }
                    else
                    {
                        TextFormatting.AppendEscaped(output, reader.GetString(), attribute: true, exact);
                        output.Append('"');
                    }
                    break;
                case BinaryXmlTokenType.StartList:
                    CloseStartTag(output, ref inStartTag, marks, null);
                    // (Marked where it stands, in an element: a mark outside one would have no declared prefix.)
                    marks?.StartList(output, -1, markable: depth > 0);
                    inList = true;
                    firstListItem = true;
                    break;
                case BinaryXmlTokenType.Text:
                    if (marks is not null && !inList && depth > 0)
                    {
                        // The first content is held until the next token says whether it is the only content (marked
                        // on the start tag) or not (marked where it stands); base64, for the records that go on with it.
                        string text = reader.GetString();
                        string? mark = marks.ValueMark(ref reader);
                        if (inStartTag ? mark is not null || TextFormatting.IsXmlWhitespace(text) : mark == "base64")
                        {
                            marks.Hold(text, mark ?? "", first: inStartTag);
                            break;
                        }
                        CloseStartTag(output, ref inStartTag, marks, null);
                        marks.Text(output, text, mark);
                        break;
                    }
                    if (!inAttributeList) CloseStartTag(output, ref inStartTag, marks, null);
                    if (inList && !firstListItem) output.Append(' ');
                    firstListItem = false;
                    string value = reader.GetString();
                    if (inList) marks?.ListItem(ref reader, value);
                    TextFormatting.AppendEscaped(output, value, attribute: inAttributeList, exact);
                    break;
                case BinaryXmlTokenType.EndList:
                    marks?.EndList(output);
                    if (inAttributeList)
                    {
                        output.Append('"');
                        inAttributeList = false;
                    }
                    else if (marks is not null)
                    {
                        // (Text after it is kept apart from the list's.)
                        marks.AfterText = depth > 0;
                    }
                    inList = false;
                    break;
                case BinaryXmlTokenType.EndElement:
                    CloseStartTag(output, ref inStartTag, marks, null);
                    depth--;
                    output.Append("</");
                    AppendQName(output, reader.Prefix, reader.LocalName, null);
                    output.Append('>');
                    break;
                case BinaryXmlTokenType.Comment:
                    CloseStartTag(output, ref inStartTag, marks, null);
                    output.Append("<!--").Append(reader.GetString()).Append("-->");
                    break;
                case BinaryXmlTokenType.ArrayData:
                    string? itemMark = marks is not null && !marks.HasAttributes ? ValueTypeMarks.OfArray(reader.ArrayItemType) : null;
                    CloseStartTag(output, ref inStartTag, marks, itemMark);
                    RenderArray(ref reader, output, arrayTagStart, exact);
                    arrayTagStart = -1;
                    break;
            }
        }
        if (marks is { IsHolding: true }) marks.WriteHeld(output, ref inStartTag, ends: false);
        CloseStartTag(output, ref inStartTag, marks, null);
    }

    private static void RenderArray(ref BinaryXmlReader reader, StringBuilder output, int tagStart, bool exact)
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
            TextFormatting.AppendEscaped(output, text, attribute: false, exact);
            output.Append(endTag);
        }
    }

    /// <summary>Ends an open start tag, with the marks of its attributes' and content's types when marking.</summary>
    private static void CloseStartTag(StringBuilder output, ref bool inStartTag, TypeMarking? marks, string? contentMark)
    {
        if (inStartTag)
        {
            marks?.EndTag(output, contentMark);
            output.Append('>');
            inStartTag = false;
        }
    }

    private static void AppendQName(StringBuilder output, BinaryXmlName prefix, BinaryXmlName local, TypeMarking? marks)
    {
        if (!prefix.IsEmpty)
        {
            AppendName(output, prefix, marks);
            output.Append(':');
        }
        output.Append(local.ToString());
    }

    /// <summary>Appends a prefix, noting it when marking (the marks' own prefix must not be one).</summary>
    private static void AppendName(StringBuilder output, BinaryXmlName prefix, TypeMarking? marks)
    {
        string text = prefix.ToString();
        marks?.PrefixesUsed.Add(text);
        output.Append(text);
    }

    private static string QName(BinaryXmlName prefix, BinaryXmlName local) => prefix.IsEmpty ? local.ToString() : prefix.ToString() + ":" + local.ToString();
}
