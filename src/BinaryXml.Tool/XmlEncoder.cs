using System.Xml;
using BinaryXml.Soap;

namespace BinaryXml.Tool;

/// <summary>
/// Writes XML text as binary XML the way WCF does: element and attribute names and namespaces are dictionary strings,
/// found in the static dictionary (even ids) or, with a session, added to it (odd ids); other text stays text (Chars
/// records), except the WS-Addressing Action and To values, which are dictionary strings. The marks that
/// <c>decode --types</c> writes (<see cref="ValueTypeMarks"/>) choose the records of values: <c>t:type</c> an
/// element's content's (or, with <c>[]</c>, consecutive elements' as one Array record), <c>t:attributeTypes</c> its
/// attributes', a processing instruction <c>&lt;?t int?&gt;</c> the next text's beside other content (<c>&lt;?t?&gt;</c>:
/// a text record of its own, kept where white space is dropped); <c>t:inline</c> and <c>t:session</c> the names
/// written inline or to the session. A document whose
/// top-level element declares the marks' namespace marks all its values: its unmarked text is text, Action and To
/// included. The marks are not written.
/// </summary>
internal sealed partial class XmlEncoder(IXmlDictionary? staticDictionary, bool ignoreWhitespace = false)
{
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";
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

        /// <summary>
        /// The mark of the text that follows (<c>&lt;?t int?&gt;</c>: its type; <c>&lt;?t?&gt;</c>: empty, a text
        /// record of its own), or null.
        /// </summary>
        public string? Mark { get; set; }
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
            if (open.TryPeek(out Content? marking) && marking.Mark is string mark && !IsText(r.NodeType))
                throw Error(r, $"a text mark ({(mark.Length == 0 ? "a record of its own" : mark)}) is followed by a {r.NodeType}, not by the text it marks");
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
                case XmlNodeType.Whitespace when ignoreWhitespace && open.TryPeek(out Content? c) && c.Mark is null:
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
                case XmlNodeType.ProcessingInstruction when r.LookupNamespace(r.Name) == ValueTypeMarks.Namespace:
                    ReadTextMark(r, open);
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
        string? mark = c.Mark;
        c.Mark = null;
        if (mark is { Length: > 0 }) WriteTyped(w, r, mark, text);
        else if (c.Type is string t) WriteTyped(w, r, t, text);
        else if (c.DictionaryText) w.WriteString(Name(text));
        else w.WriteString(text);
    }

    /// <summary>Ends an element; a typed one with no text gets the empty text of its type (no bytes for base64, an error for a number).</summary>
    private void EndElement(BinaryXmlWriter w, XmlReader r, Content content)
    {
        if (content.Type is string type && !content.HasText) WriteTyped(w, r, type, "");
        w.WriteEndElement();
    }

    private static string QName(string prefix, string local) => prefix.Length == 0 ? local : prefix + ":" + local;

    /// <summary>How a <c>t:inline</c> mark names the declaration of a prefix.</summary>
    private static string Declaration(string prefix) => prefix.Length == 0 ? "xmlns" : "xmlns:" + prefix;

    /// <summary>The namespace of a dictionary-named element or attribute: not a static dictionary string when its declaration in this start tag is marked.</summary>
    private XmlDictionaryString? Namespace(string ns, string prefix, HashSet<string> inline, HashSet<string> session)
        => ns.Length == 0 ? null : Name(ns, notStatic: inline.Contains(Declaration(prefix)) || session.Contains(Declaration(prefix)));

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
