using System.Xml;
using BinaryXml.Soap;

namespace BinaryXml.Tool;

/// <summary>
/// Writes XML text as binary XML the way WCF does: element and attribute names, namespaces and the WS-Addressing
/// Action and To values are dictionary strings, found in the static dictionary (even ids) or, with a session, added
/// to it (odd ids); other text stays text (Chars records). An element may mark its text's type with the attribute
/// <c>t:type</c> in the namespace <see cref="TypesNamespace"/> (int, long, ulong, bool, float, double, decimal,
/// dateTime, timeSpan, guid, uniqueId, base64); the marker itself is not written.
/// </summary>
internal sealed class XmlEncoder(IXmlDictionary? staticDictionary)
{
    public const string TypesNamespace = "urn:binaryxml:types";

    private static readonly HashSet<string> s_addressing = ["http://www.w3.org/2005/08/addressing", "http://schemas.xmlsoap.org/ws/2004/08/addressing"];
    private readonly XmlDictionary _names = new();

    private XmlDictionaryString Name(string value)
        => staticDictionary is not null && staticDictionary.TryLookup(value, out XmlDictionaryString? s) ? s : _names.Add(value);

    public void Write(BinaryXmlWriter w, TextReader xml)
    {
        var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, CheckCharacters = false, IgnoreProcessingInstructions = false };
        using XmlReader r = XmlReader.Create(xml, settings);
        var types = new Stack<string?>();
        var dictionaryText = new Stack<bool>();
        while (r.Read())
        {
            switch (r.NodeType)
            {
                case XmlNodeType.Element:
                {
                    string prefix = r.Prefix, local = r.LocalName, ns = r.NamespaceURI;
                    bool empty = r.IsEmptyElement;
                    string? type = null;
                    var declarations = new List<(string Prefix, string Uri)>();
                    var attributes = new List<(string Prefix, string Local, string Ns, string Value)>();
                    for (bool more = r.MoveToFirstAttribute(); more; more = r.MoveToNextAttribute())
                    {
                        if (r.NamespaceURI == "http://www.w3.org/2000/xmlns/") declarations.Add((r.Prefix.Length == 0 ? "" : r.LocalName, r.Value));
                        else if (r.NamespaceURI == TypesNamespace && r.LocalName == "type") type = r.Value;
                        else attributes.Add((r.Prefix, r.LocalName, r.NamespaceURI, r.Value));
                    }
                    r.MoveToElement();
                    w.WriteStartElement(prefix, Name(local), ns.Length == 0 ? null : Name(ns));
                    foreach ((string p, string uri) in declarations)
                    {
                        if (uri == TypesNamespace) continue;
                        w.WriteXmlnsAttribute(p, Name(uri));
                    }
                    foreach ((string p, string l, string n, string v) in attributes)
                    {
                        if (p == "xml") w.WriteStartAttribute("xml", l, null);
                        else w.WriteStartAttribute(p, Name(l), n.Length == 0 ? null : Name(n));
                        w.WriteString(v);
                        w.WriteEndAttribute();
                    }
                    if (empty)
                    {
                        w.WriteEndElement();
                    }
                    else
                    {
                        types.Push(type);
                        dictionaryText.Push(s_addressing.Contains(ns) && local is "Action" or "To");
                    }
                    break;
                }
                case XmlNodeType.Whitespace when r.Depth == 0:
                    break; // white space around the root (a file's final newline) is not content
                case XmlNodeType.Text:
                case XmlNodeType.CDATA:
                case XmlNodeType.Whitespace:
                case XmlNodeType.SignificantWhitespace:
                    if (types.Count > 0 && types.Peek() is string t) WriteTyped(w, t, r.Value);
                    else if (dictionaryText.Count > 0 && dictionaryText.Peek()) w.WriteString(Name(r.Value));
                    else w.WriteString(r.Value);
                    break;
                case XmlNodeType.EndElement:
                    types.Pop();
                    dictionaryText.Pop();
                    w.WriteEndElement();
                    break;
                case XmlNodeType.Comment:
                    w.WriteComment(r.Value);
                    break;
                case XmlNodeType.XmlDeclaration:
                    break;
                case XmlNodeType.ProcessingInstruction:
                    throw new XmlException($"Binary XML cannot hold the processing instruction '{r.Name}'.");
                case XmlNodeType.DocumentType:
                    throw new XmlException("Binary XML cannot hold a DTD.");
            }
        }
    }

    private static void WriteTyped(BinaryXmlWriter w, string type, string text)
    {
        switch (type)
        {
            case "int": w.WriteValue(XmlConvert.ToInt32(text)); break;
            case "long": w.WriteValue(XmlConvert.ToInt64(text)); break;
            case "ulong": w.WriteValue(XmlConvert.ToUInt64(text)); break;
            case "bool": w.WriteValue(XmlConvert.ToBoolean(text)); break;
            case "float": w.WriteValue(XmlConvert.ToSingle(text)); break;
            case "double": w.WriteValue(XmlConvert.ToDouble(text)); break;
            case "decimal": w.WriteValue(XmlConvert.ToDecimal(text)); break;
            case "dateTime": w.WriteValue(XmlConvert.ToDateTime(text, XmlDateTimeSerializationMode.RoundtripKind)); break;
            case "timeSpan": w.WriteValue(XmlConvert.ToTimeSpan(text)); break;
            case "guid": w.WriteValue(XmlConvert.ToGuid(text)); break;
            case "uniqueId": w.WriteValue(new UniqueId(text)); break;
            case "base64": w.WriteBase64(Convert.FromBase64String(text)); break;
            default: throw new XmlException($"'{type}' is not a value type binxml knows (int, long, ulong, bool, float, double, decimal, dateTime, timeSpan, guid, uniqueId, base64).");
        }
    }

    /// <summary>The static dictionary for a format: MC-NBFS for the WCF formats, none for plain MC-NBFX.</summary>
    public static IXmlDictionary? DictionaryFor(MessageFormat format, DictionaryFile? custom)
        => (IXmlDictionary?)custom ?? (format == MessageFormat.Nbfx ? null : NbfsDictionary.Instance);
}
