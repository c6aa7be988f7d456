using System.Xml;

namespace BinaryXml.Tool;

/// <summary>Messages in XML text: one, or several one after another (what <c>decode</c> prints for several).</summary>
internal sealed partial class XmlEncoder
{
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
}
