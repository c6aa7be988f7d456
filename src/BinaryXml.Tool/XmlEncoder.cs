using System.Xml;
using BinaryXml.Soap;

namespace BinaryXml.Tool;

/// <summary>
/// Writes XML text as binary XML the way WCF does: element and attribute names and namespaces are dictionary strings,
/// found in the static dictionary (even ids) or, with a session, added to it (odd ids); other text stays text (Chars
/// records), except the WS-Addressing Action and To values, which are dictionary strings. The marks that
/// <c>decode --types</c> writes (<see cref="ValueTypeMarks"/>) choose the records of values: <c>t:type</c> an
/// element's content's (or, with <c>[]</c>, consecutive elements' as one Array record), <c>t:attributeTypes</c> its
/// attributes'. A document whose top-level element declares the marks' namespace marks all its values: its unmarked
/// text is text, Action and To included. The marks are not written.
/// </summary>
internal sealed class XmlEncoder(IXmlDictionary? staticDictionary, bool ignoreWhitespace = false)
{
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";
    private const string Types = "int, long, ulong, bool, float, double, decimal, dateTime, timeSpan, guid, uniqueId, base64, dictionary, qname, sessionDictionary, sessionQname; for arrays bool[], short[], int[], long[], float[], double[], decimal[], dateTime[], timeSpan[], guid[]";

    private static readonly HashSet<string> s_addressing = ["http://www.w3.org/2005/08/addressing", "http://schemas.xmlsoap.org/ws/2004/08/addressing"];
    private readonly XmlDictionary _names = new();

    /// <summary>A name as a dictionary string: the static dictionary's when it holds it (unless <paramref name="notStatic"/>), else one a session takes.</summary>
    private XmlDictionaryString Name(string value, bool notStatic = false)
        => !notStatic && staticDictionary is not null && staticDictionary.TryLookup(value, out XmlDictionaryString? s) ? s : _names.Add(value);

    /// <summary>What an open element's text becomes.</summary>
    private sealed class Content(string? type, bool dictionaryText)
    {
        public string? Type { get; } = type;
        public bool DictionaryText { get; } = dictionaryText;
        public bool HasText { get; set; }

        /// <summary>Whether anything (text, an element, a comment) has been written in it.</summary>
        public bool HasContent { get; set; }
    }

    /// <summary>
    /// XML text of one message or several, one after another: each top-level element is a message, with the comments
    /// before it (the last, with the comments after it too). Read with <see cref="HasMessage"/> and <see cref="Write"/>.
    /// </summary>
    public sealed class MessageText(XmlReader reader) : IDisposable
    {
        public XmlReader Reader { get; } = reader;

        /// <summary>The top-level comments read ahead, which belong to the next message (or, at the end, to the last).</summary>
        public List<string> Comments { get; } = [];

        /// <summary>Whether the reader is on the next message's element.</summary>
        public bool OnElement { get; set; }

        /// <summary>Whether the text before the first message has been read.</summary>
        public bool Scanned { get; set; }

        public void Dispose() => Reader.Dispose();
    }

    /// <summary>Opens XML text of one message or several.</summary>
    public MessageText Open(TextReader xml)
    {
        var settings = new XmlReaderSettings
        {
            DtdProcessing = DtdProcessing.Prohibit, CheckCharacters = false, IgnoreProcessingInstructions = false,
            ConformanceLevel = ConformanceLevel.Fragment,
        };
        return new MessageText(XmlReader.Create(xml, settings));
    }

    /// <summary>Whether another message follows (a text of comments alone is one message).</summary>
    public static bool HasMessage(MessageText m)
    {
        if (m.Scanned) return m.OnElement;
        m.Scanned = true;
        ReadToMessage(m, onNode: false);
        return m.OnElement || m.Comments.Count > 0;
    }

    /// <summary>Writes XML text of one message (what <see cref="Write(BinaryXmlWriter, MessageText)"/> writes of a text of several).</summary>
    public void Write(BinaryXmlWriter w, TextReader xml)
    {
        using MessageText m = Open(xml);
        if (!HasMessage(m)) throw new XmlException("There is no XML element.");
        Write(w, m);
        if (m.OnElement) throw Error(m.Reader, "a second top-level element: one message was expected");
    }

    /// <summary>
    /// Reads on to the next message's element, collecting the top-level comments before it; at the end of the text,
    /// leaves <see cref="MessageText.OnElement"/> false.
    /// </summary>
    private static void ReadToMessage(MessageText m, bool onNode)
    {
        XmlReader r = m.Reader;
        while (onNode || r.Read())
        {
            onNode = false;
            switch (r.NodeType)
            {
                case XmlNodeType.Element:
                    m.OnElement = true;
                    return;
                case XmlNodeType.Comment:
                    m.Comments.Add(r.Value);
                    break;
                case XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace or XmlNodeType.XmlDeclaration:
                    break;
                case XmlNodeType.ProcessingInstruction:
                    throw new XmlException($"Binary XML cannot hold the processing instruction '{r.Name}'.");
                case XmlNodeType.DocumentType:
                    throw new XmlException("Binary XML cannot hold a DTD.");
                default:
                    throw Error(r, $"{r.NodeType} outside the top-level element (each message is one element)");
            }
        }
    }

    /// <summary>Writes the next message (see <see cref="HasMessage"/>).</summary>
    public void Write(BinaryXmlWriter w, MessageText m)
    {
        XmlReader r = m.Reader;
        foreach (string comment in m.Comments) w.WriteComment(comment);
        m.Comments.Clear();
        if (!m.OnElement) return; // comments alone
        m.OnElement = false;
        var open = new Stack<Content>();
        bool marked = false;
        // The reader is on the message's element; after an array, on the node that follows it.
        bool onNext = true;
        bool done = false;
        // With ignoreWhitespace, white space alone in an element is its content (what an indenting writer leaves);
        // beside anything else it is indentation, dropped.
        string? heldWhitespace = null;
        while (!done && (onNext || r.Read()))
        {
            onNext = false;
            if (heldWhitespace is not null)
            {
                if (r.NodeType == XmlNodeType.EndElement && open.TryPeek(out Content? only) && !only.HasContent) WriteText(w, r, only, heldWhitespace);
                heldWhitespace = null;
            }
            if (r.NodeType is XmlNodeType.Element or XmlNodeType.Comment && open.TryPeek(out Content? parent)) parent.HasContent = true;
            switch (r.NodeType)
            {
                case XmlNodeType.Element:
                {
                    string prefix = r.Prefix, local = r.LocalName, ns = r.NamespaceURI;
                    bool empty = r.IsEmptyElement;
                    string? type = null, attributeTypes = null, inlineList = null, sessionList = null;
                    var declarations = new List<(string Prefix, string Uri)>();
                    var attributes = new List<(string Prefix, string Local, string Ns, string Value, string? Type)>();
                    for (bool more = r.MoveToFirstAttribute(); more; more = r.MoveToNextAttribute())
                    {
                        if (r.NamespaceURI == XmlnsNamespace) declarations.Add((r.Prefix.Length == 0 ? "" : r.LocalName, r.Value));
                        else if (r.NamespaceURI == ValueTypeMarks.Namespace) ReadMark(r, ref type, ref attributeTypes, ref inlineList, ref sessionList);
                        else attributes.Add((r.Prefix, r.LocalName, r.NamespaceURI, r.Value, null));
                    }
                    r.MoveToElement();
                    if (open.Count == 0) marked = declarations.Exists(d => d.Uri == ValueTypeMarks.Namespace);
                    if (attributeTypes is not null) ApplyAttributeTypes(r, attributeTypes, attributes);
                    HashSet<string> inline = inlineList is null ? [] : [.. List(inlineList)];
                    HashSet<string> session = sessionList is null ? [] : [.. List(sessionList)];
                    if (type is not null && type.EndsWith("[]", StringComparison.Ordinal))
                    {
                        if (attributes.Count > 0) throw Error(r, $"an array item ({type}) cannot have attributes");
                        WriteArray(w, r, type);
                        onNext = true;
                        done = open.Count == 0;
                        break;
                    }
                    // A name marked inline is written as a string, one marked session as a dictionary string of no
                    // static dictionary; others are dictionary strings. A namespace whose declaration here is marked
                    // is given as it is declared (the writer declares an element's or attribute's namespace as given).
                    var inlineLeft = new HashSet<string>(inline);
                    var sessionLeft = new HashSet<string>(session);
                    string elementName = QName(prefix, local);
                    if (inlineLeft.Remove(elementName)) w.WriteStartElement(prefix, local, ns.Length == 0 ? null : ns);
                    else w.WriteStartElement(prefix, Name(local, sessionLeft.Remove(elementName)), Namespace(ns, prefix, inline, session));
                    foreach ((string p, string uri) in declarations)
                    {
                        if (uri == ValueTypeMarks.Namespace) continue;
                        if (inlineLeft.Remove(Declaration(p))) w.WriteXmlnsAttribute(p, uri);
                        else w.WriteXmlnsAttribute(p, Name(uri, sessionLeft.Remove(Declaration(p))));
                    }
                    foreach ((string p, string l, string n, string v, string? t) in attributes)
                    {
                        string attributeName = "@" + QName(p, l);
                        if (p == "xml") w.WriteStartAttribute("xml", l, null);
                        else if (inlineLeft.Remove(attributeName)) w.WriteStartAttribute(p, l, n.Length == 0 ? null : n);
                        else w.WriteStartAttribute(p, Name(l, sessionLeft.Remove(attributeName)), Namespace(n, p, inline, session));
                        if (t is not null) WriteTyped(w, r, t, v);
                        else w.WriteString(v);
                        w.WriteEndAttribute();
                    }
                    if (inlineLeft.Count > 0) throw Error(r, $"{ValueTypeMarks.Inline} names '{inlineLeft.First()}', which the start tag does not have");
                    if (sessionLeft.Count > 0) throw Error(r, $"{ValueTypeMarks.Session} names '{sessionLeft.First()}', which the start tag does not have");
                    var content = new Content(type, !marked && s_addressing.Contains(ns) && local is "Action" or "To");
                    if (empty) EndElement(w, r, content);
                    else open.Push(content);
                    done = open.Count == 0;
                    break;
                }
                case XmlNodeType.Whitespace when ignoreWhitespace:
                    heldWhitespace = r.Value;
                    break;
                case XmlNodeType.Text:
                case XmlNodeType.CDATA:
                case XmlNodeType.Whitespace:
                case XmlNodeType.SignificantWhitespace:
                    WriteText(w, r, open.Peek(), r.Value);
                    break;
                case XmlNodeType.EndElement:
                    EndElement(w, r, open.Pop());
                    done = open.Count == 0;
                    break;
                case XmlNodeType.Comment:
                    w.WriteComment(r.Value);
                    break;
                case XmlNodeType.ProcessingInstruction:
                    throw new XmlException($"Binary XML cannot hold the processing instruction '{r.Name}'.");
            }
        }
        // The comments up to the next message's element are its; at the end of the text, this one's.
        ReadToMessage(m, onNode: onNext);
        if (m.OnElement) return;
        foreach (string comment in m.Comments) w.WriteComment(comment);
        m.Comments.Clear();
    }

    /// <summary>Writes text in an element: of its marked type, as dictionary text (Action and To unmarked), or as text.</summary>
    private void WriteText(BinaryXmlWriter w, XmlReader r, Content c, string text)
    {
        c.HasText = c.HasContent = true;
        if (c.Type is string t) WriteTyped(w, r, t, text);
        else if (c.DictionaryText) w.WriteString(Name(text));
        else w.WriteString(text);
    }

    /// <summary>Ends an element; a typed one with no text has the empty value of its type (EmptyText for base64).</summary>
    private void EndElement(BinaryXmlWriter w, XmlReader r, Content content)
    {
        if (content.Type is string type && !content.HasText) WriteTyped(w, r, type, "");
        w.WriteEndElement();
    }

    private static void ReadMark(XmlReader r, ref string? type, ref string? attributeTypes, ref string? inline, ref string? session)
    {
        switch (r.LocalName)
        {
            case ValueTypeMarks.Type: type = r.Value; break;
            case ValueTypeMarks.AttributeTypes: attributeTypes = r.Value; break;
            case ValueTypeMarks.Inline: inline = r.Value; break;
            case ValueTypeMarks.Session: session = r.Value; break;
            default: throw Error(r, $"'{r.LocalName}' is not a mark binxml knows ({ValueTypeMarks.Type}, {ValueTypeMarks.AttributeTypes}, {ValueTypeMarks.Inline}, {ValueTypeMarks.Session}) in {ValueTypeMarks.Namespace}");
        }
    }

    /// <summary>The entries of a list mark, separated by white space.</summary>
    private static string[] List(string value) => value.Split([' ', '\t', '\r', '\n'], StringSplitOptions.RemoveEmptyEntries);

    private static string QName(string prefix, string local) => prefix.Length == 0 ? local : prefix + ":" + local;

    /// <summary>How a <c>t:inline</c> mark names the declaration of a prefix.</summary>
    private static string Declaration(string prefix) => prefix.Length == 0 ? "xmlns" : "xmlns:" + prefix;

    /// <summary>The namespace of a dictionary-named element or attribute: not a static dictionary string when its declaration in this start tag is marked.</summary>
    private XmlDictionaryString? Namespace(string ns, string prefix, HashSet<string> inline, HashSet<string> session)
        => ns.Length == 0 ? null : Name(ns, notStatic: inline.Contains(Declaration(prefix)) || session.Contains(Declaration(prefix)));

    /// <summary>Gives the attributes that <c>t:attributeTypes</c> names (<c>name=type</c> pairs, names as written) their types.</summary>
    private static void ApplyAttributeTypes(XmlReader r, string list, List<(string Prefix, string Local, string Ns, string Value, string? Type)> attributes)
    {
        foreach (string entry in List(list))
        {
            int equals = entry.LastIndexOf('=');
            if (equals <= 0) throw Error(r, $"'{entry}' in {ValueTypeMarks.AttributeTypes} is not name=type");
            string name = entry[..equals], type = entry[(equals + 1)..];
            int i = attributes.FindIndex(a => QName(a.Prefix, a.Local) == name);
            if (i < 0) throw Error(r, $"{ValueTypeMarks.AttributeTypes} names '{name}', which the element does not have");
            if (type.EndsWith("[]", StringComparison.Ordinal)) throw Error(r, $"an attribute cannot be an array ({type})");
            attributes[i] = attributes[i] with { Type = type };
        }
    }

    /// <summary>
    /// Writes the element the reader is on and the consecutive siblings with the same name and mark as one Array
    /// record; leaves the reader on the node after them.
    /// </summary>
    private void WriteArray(BinaryXmlWriter w, XmlReader r, string mark)
    {
        string prefix = r.Prefix, local = r.LocalName, ns = r.NamespaceURI;
        var items = new List<string>();
        do
        {
            items.Add(ReadItem(r));
            // (Indentation between items.)
            while (ignoreWhitespace && r.NodeType == XmlNodeType.Whitespace) r.Read();
        }
        while (r.NodeType == XmlNodeType.Element && r.LocalName == local && r.NamespaceURI == ns && r.Prefix == prefix
            && r.GetAttribute(ValueTypeMarks.Type, ValueTypeMarks.Namespace) == mark && !HasAttributes(r));
        string? p = prefix.Length == 0 ? null : prefix;
        string? n = ns.Length == 0 ? null : ns;
        try
        {
            switch (mark)
            {
                case "bool[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToBoolean).ToArray()); break;
                case "short[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToInt16).ToArray()); break;
                case "int[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToInt32).ToArray()); break;
                case "long[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToInt64).ToArray()); break;
                case "float[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToSingle).ToArray()); break;
                case "double[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToDouble).ToArray()); break;
                case "decimal[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToDecimal).ToArray()); break;
                case "dateTime[]": w.WriteArray(p, local, n, items.Select(s => XmlConvert.ToDateTime(s, XmlDateTimeSerializationMode.RoundtripKind)).ToArray()); break;
                case "timeSpan[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToTimeSpan).ToArray()); break;
                case "guid[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToGuid).ToArray()); break;
                default: throw Error(r, $"'{mark}' is not a value type binxml knows ({Types})");
            }
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            throw Error(r, $"an item of the {local} array is not a {mark[..^2]} value: {e.Message}");
        }
    }

    private static bool HasAttributes(XmlReader r)
    {
        for (bool more = r.MoveToFirstAttribute(); more; more = r.MoveToNextAttribute())
        {
            if (r.NamespaceURI is not (XmlnsNamespace or ValueTypeMarks.Namespace))
            {
                r.MoveToElement();
                return true;
            }
        }
        r.MoveToElement();
        return false;
    }

    /// <summary>An array item's text: the element the reader is on holds text only; leaves the reader after it.</summary>
    private static string ReadItem(XmlReader r)
    {
        if (r.IsEmptyElement)
        {
            r.Read();
            return "";
        }
        var text = new System.Text.StringBuilder();
        while (r.Read() && r.NodeType != XmlNodeType.EndElement)
        {
            if (r.NodeType is not (XmlNodeType.Text or XmlNodeType.CDATA or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace))
                throw Error(r, $"an array item holds text only, not a {r.NodeType}");
            text.Append(r.Value);
        }
        r.Read();
        return text.ToString();
    }

    private void WriteTyped(BinaryXmlWriter w, XmlReader r, string type, string text)
    {
        switch (type)
        {
            case "dictionary" or "sessionDictionary":
                w.WriteString(Name(text, notStatic: type == "sessionDictionary"));
                return;
            case "qname" or "sessionQname":
                int colon = text.IndexOf(':');
                string prefix = colon < 0 ? "" : text[..colon], local = text[(colon + 1)..];
                string ns = r.LookupNamespace(prefix) ?? throw Error(r, $"the prefix of the qname '{text}' is not declared");
                w.WriteQualifiedName(Name(local, notStatic: type == "sessionQname"), Name(ns));
                return;
            default:
                WriteValue(w, r, type, text);
                return;
        }
    }

    private static void WriteValue(BinaryXmlWriter w, XmlReader r, string type, string text)
    {
        try
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
                case "base64":
                    // White space separates records: each piece is one call (what decode --types shows of several).
                    foreach (string piece in List(text).DefaultIfEmpty("")) w.WriteBase64(Convert.FromBase64String(piece));
                    break;
                default: throw Error(r, $"'{type}' is not a value type binxml knows ({Types})");
            }
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            throw Error(r, $"'{text}' is not a {type} value: {e.Message}");
        }
    }

    /// <summary>An error in the XML, at the reader's line and position.</summary>
    private static XmlException Error(XmlReader r, string reason)
    {
        var info = r as IXmlLineInfo;
        return info is not null && info.HasLineInfo()
            ? new XmlException(reason + ".", null, info.LineNumber, info.LinePosition)
            : new XmlException(reason + ".");
    }

    /// <summary>The static dictionary for a format: MC-NBFS for the WCF formats, none for plain MC-NBFX.</summary>
    public static IXmlDictionary? DictionaryFor(MessageFormat format, DictionaryFile? custom)
        => (IXmlDictionary?)custom ?? (format == MessageFormat.Nbfx ? null : NbfsDictionary.Instance);
}
