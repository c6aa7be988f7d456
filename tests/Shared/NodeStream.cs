using System.Text;
using System.Xml;

namespace BinaryXml.Tests;

/// <summary>
/// A document as the sequence of XmlReader nodes it stands for, one line per node: type, depth, name, namespace,
/// value and value type, and the attributes of elements. Used to compare what the in-box reader and
/// <see cref="BinaryXmlReader"/> see in the same bytes.
/// </summary>
public static class NodeStream
{
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    public static List<string> FromInBox(byte[] data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null)
    {
        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max, session);
        return FromXmlReader(r);
    }

    /// <summary>The drop-in reader's node stream.</summary>
    public static List<string> FromAdapter(byte[] data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null)
    {
        using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max, session);
        return FromXmlReader(r);
    }

    /// <summary>The node stream of any XmlReader, with the exact node types (Whitespace is not folded into Text).</summary>
    public static List<string> FromXmlReader(XmlReader r, bool exactNodeTypes = false)
    {
        var lines = new List<string>();
        while (r.Read())
        {
            switch (r.NodeType)
            {
                case XmlNodeType.Element:
                {
                    var attributes = new List<string>();
                    for (int i = 0; i < r.AttributeCount; i++)
                    {
                        r.MoveToAttribute(i);
                        // ValueType first: reading Value makes .NET's reader report some types (Guid…) as String afterwards.
                        Type type = r.ValueType;
                        attributes.Add(Attribute(r.Prefix, r.LocalName, r.NamespaceURI, r.Value, type));
                    }
                    r.MoveToElement();
                    lines.Add(Element(r.Depth, r.Prefix, r.LocalName, r.NamespaceURI, attributes));
                    break;
                }
                case XmlNodeType.EndElement:
                    lines.Add(End(r.Depth, r.Prefix, r.LocalName, r.NamespaceURI));
                    break;
                case XmlNodeType.Text or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace or XmlNodeType.CDATA:
                {
                    Type type = r.ValueType;
                    lines.Add((exactNodeTypes ? $"{r.NodeType} {r.Prefix}:{r.LocalName}:{r.NamespaceURI} " : "") + Text(r.Depth, r.Value, type));
                    break;
                }
                case XmlNodeType.Comment:
                    lines.Add($"Comment d={r.Depth} {Escape(r.Value)}");
                    break;
                default:
                    lines.Add($"{r.NodeType} d={r.Depth}");
                    break;
            }
        }
        return lines;
    }

    public static List<string> FromNative(byte[] data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null)
    {
        var lines = new List<string>();
        var r = new BinaryXmlReader(data, dictionary, session, BinaryXmlReaderOptions.Trusted);
        try
        {
            int elementDepth = 0;
            string prefix = "", local = "", ns = "";
            List<string>? attributes = null;
            List<string>? list = null;
            bool attributeList = false;
            string attributeName = "";
            while (r.Read())
            {
                if (attributes is not null && r.TokenType is not (BinaryXmlTokenType.Attribute or BinaryXmlTokenType.NamespaceDeclaration) && !attributeList)
                {
                    if (r.TokenType != BinaryXmlTokenType.ArrayData) lines.Add(Element(elementDepth, prefix, local, ns, attributes));
                    else
                    {
                        for (int i = 0; i < r.ArrayLength; i++)
                        {
                            lines.Add(Element(elementDepth, prefix, local, ns, attributes));
                            lines.Add(Text(elementDepth + 1, ArrayItem(ref r, i), ArrayItemType(r.ArrayItemType)));
                            lines.Add(End(elementDepth, prefix, local, ns));
                        }
                        attributes = null;
                        continue;
                    }
                    attributes = null;
                }
                switch (r.TokenType)
                {
                    case BinaryXmlTokenType.StartElement:
                        elementDepth = r.CurrentDepth;
                        prefix = r.Prefix.ToString(); local = r.LocalName.ToString(); ns = r.NamespaceUri.ToString();
                        attributes = [];
                        break;
                    case BinaryXmlTokenType.NamespaceDeclaration:
                        attributes!.Add(r.Prefix.IsEmpty
                            ? Attribute("", "xmlns", XmlnsNamespace, r.NamespaceUri.ToString(), typeof(string))
                            : Attribute("xmlns", r.Prefix.ToString(), XmlnsNamespace, r.NamespaceUri.ToString(), typeof(string)));
                        break;
                    case BinaryXmlTokenType.Attribute:
                        if (r.ValueType == RecordType.StartListText)
                        {
                            attributeList = true;
                            list = [];
                            attributeName = Attribute(r.Prefix.ToString(), r.LocalName.ToString(), r.NamespaceUri.ToString(), "\u0000", typeof(object[]));
                        }
                        else
                        {
                            attributes!.Add(Attribute(r.Prefix.ToString(), r.LocalName.ToString(), r.NamespaceUri.ToString(), r.GetString(), ValueTypeOf(r.ValueType)));
                        }
                        break;
                    case BinaryXmlTokenType.StartList:
                        list = [];
                        break;
                    case BinaryXmlTokenType.Text:
                        if (list is not null)
                        {
                            list.Add(r.GetString());
                        }
                        else
                        {
                            lines.Add(Text(r.CurrentDepth, r.GetString(), ContentValueType(r.RecordType, r.ValueType)));
                        }
                        break;
                    case BinaryXmlTokenType.EndList:
                        string joined = string.Join(' ', list!);
                        if (attributeList)
                        {
                            attributes!.Add(attributeName.Replace("\\u0000", Escape(joined), StringComparison.Ordinal));
                            attributeList = false;
                        }
                        else
                        {
                            lines.Add(Text(r.CurrentDepth, joined, typeof(string)));
                        }
                        list = null;
                        break;
                    case BinaryXmlTokenType.EndElement:
                        lines.Add(End(r.CurrentDepth, r.Prefix.ToString(), r.LocalName.ToString(), r.NamespaceUri.ToString()));
                        break;
                    case BinaryXmlTokenType.Comment:
                        lines.Add($"Comment d={r.CurrentDepth} {Escape(r.GetString())}");
                        break;
                }
            }
        }
        finally
        {
            r.Dispose();
        }
        return lines;
    }

    private static string ArrayItem(ref BinaryXmlReader r, int index)
    {
        BinaryXmlPrimitives.IsArrayItemType(r.ArrayItemType, out int size);
        return BinaryXmlText.FormatValue((RecordType)((byte)r.ArrayItemType & 0xFE), r.ValueSpan.Slice(index * size, size));
    }

    private static Type ArrayItemType(RecordType t) => ValueTypeOf((RecordType)((byte)t & 0xFE));

    /// <summary>The CLR type .NET's reader reports as ValueType for a text record.</summary>
    public static Type ValueTypeOf(RecordType t) => RecordTypes.GetValueType(t);

    private static string Element(int depth, string prefix, string local, string ns, List<string> attributes)
        => $"Element d={depth} {prefix}:{local} ns={ns}" + string.Concat(attributes.Select(a => " " + a));

    private static string End(int depth, string prefix, string local, string ns) => $"EndElement d={depth} {prefix}:{local} ns={ns}";

    private static string Text(int depth, string value, Type type) => $"Text d={depth} [{type.Name}] {Escape(value)}";

    private static string Attribute(string prefix, string local, string ns, string value, Type type) => $"@{prefix}:{local}[{ns}]=[{type.Name}]\"{Escape(value)}\"";

    /// <summary>
    /// .NET's reader reports a typed ValueType in element content only for <c>…WithEndElement</c> records; a plain
    /// record (and a content list) reads as String, except Bytes, which stay byte[]. Attributes are always typed.
    /// </summary>
    public static Type ContentValueType(RecordType record, RecordType valueType)
    {
        bool withEnd = ((byte)record & 1) != 0;
        bool bytes = valueType is RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text;
        return withEnd || bytes ? ValueTypeOf(valueType) : typeof(string);
    }

    private static string Escape(string s)
    {
        var sb = new StringBuilder();
        foreach (char c in s) sb.Append(c < 0x20 || c > 0x7E ? $"\\u{(int)c:X4}" : c.ToString());
        return sb.ToString();
    }
}
