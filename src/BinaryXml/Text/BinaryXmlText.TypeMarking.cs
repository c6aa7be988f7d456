using System.Text;
using System.Xml;

namespace BinaryXml;

public static partial class BinaryXmlText
{
    /// <summary>The state of marking value types (<see cref="ValueTypeMarks"/>) while a document is rendered.</summary>
    /// <param name="prefix">The prefix of the marks.</param>
    /// <param name="dictionary">The static dictionary: an inline or session name that it holds is marked.</param>
    /// <param name="session">Whether there is a session, to which a writer adds names: every inline name is marked.</param>
    private sealed class TypeMarking(string prefix, IXmlDictionary? dictionary, bool session)
    {
        private readonly StringBuilder _attributeTypes = new();
        private readonly StringBuilder _inline = new();
        private readonly StringBuilder _session = new();
        private bool _topLevel;

        /// <summary>The prefix of the marks.</summary>
        public string Prefix { get; } = prefix;

        /// <summary>Every prefix the document uses.</summary>
        public HashSet<string> PrefixesUsed { get; } = [];

        /// <summary>Whether the open start tag has an attribute (other than a namespace declaration).</summary>
        public bool HasAttributes { get; private set; }

        public void StartTag(bool topLevel)
        {
            _topLevel = topLevel;
            HasAttributes = false;
            _attributeTypes.Clear();
            _inline.Clear();
            _session.Clear();
        }

        /// <summary>
        /// Notes a name of the start tag, as <paramref name="output"/> holds it from <paramref name="nameStart"/>, as
        /// written inline when it was and a writer would have used a dictionary string for it, or as a session string
        /// when it was one and the static dictionary holds it.
        /// </summary>
        /// <param name="output">The rendering.</param>
        /// <param name="nameStart">Where the element's or attribute's qualified name, or the declaration's xmlns, starts.</param>
        /// <param name="kind">What the mark's entry starts with: @ for an attribute.</param>
        /// <param name="name">The name (the declaration's namespace) as read.</param>
        public void Name(StringBuilder output, int nameStart, string kind, BinaryXmlName name)
        {
            if (!name.IsDictionaryString)
            {
                if (session || InStaticDictionary(name)) AppendEntry(_inline, output, nameStart, kind, null);
            }
            else if ((name.DictionaryId & 1) != 0 && InStaticDictionary(name))
            {
                AppendEntry(_session, output, nameStart, kind, null);
            }
        }

        private bool InStaticDictionary(BinaryXmlName name) => dictionary is not null && dictionary.TryLookup(name.ToString(), out _);

        /// <summary>Notes an attribute's value type; its name is what <paramref name="output"/> holds from <paramref name="nameStart"/>.</summary>
        public void Attribute(StringBuilder output, int nameStart, ref BinaryXmlReader reader)
        {
            HasAttributes = true;
            if (ValueMark(ref reader) is string mark) AppendEntry(_attributeTypes, output, nameStart, "", mark);
        }

        /// <summary>
        /// The mark of the value the reader is on (<see cref="ValueTypeMarks.Of"/>); for dictionary text, and a
        /// qualified name's local name, that is a session string although the static dictionary holds it,
        /// <c>sessionDictionary</c> or <c>sessionQname</c>.
        /// </summary>
        public string? ValueMark(ref BinaryXmlReader reader)
        {
            string? mark = ValueTypeMarks.Of(reader.ValueType);
            if (mark is not ("dictionary" or "qname") || dictionary is null) return mark;
            ReadOnlySpan<byte> payload = reader.ValueSpan;
            MultiByteInt31.Decode(mark == "qname" ? payload[1..] : payload, out int id, out _);
            if ((id & 1) == 0) return mark;
            string text = reader.GetString();
            if (mark == "qname") text = text[(text.IndexOf(':') + 1)..];
            return dictionary.TryLookup(text, out _) ? mark == "qname" ? "sessionQname" : "sessionDictionary" : mark;
        }

        /// <summary>Appends to a list mark the name <paramref name="output"/> holds from <paramref name="nameStart"/>, with its kind and value.</summary>
        private static void AppendEntry(StringBuilder list, StringBuilder output, int nameStart, string kind, string? value)
        {
            int end = list.Length;
            if (end > 0) list.Append(' ');
            list.Append(kind);
            for (int i = nameStart; i < output.Length; i++)
            {
                char c = output[i];
                // A name that would make the list ambiguous is left unmarked (it is not an XML name either).
                if (c is '=' or ' ' or '\t' or '\r' or '\n')
                {
                    list.Length = end;
                    return;
                }
                list.Append(c);
            }
            if (value is not null) list.Append('=').Append(value);
        }

        /// <summary>Writes the marks of the start tag being closed: its attributes' types, its content's, and the declaration.</summary>
        public void EndTag(StringBuilder output, string? contentMark)
        {
            AppendList(output, ValueTypeMarks.Inline, _inline);
            AppendList(output, ValueTypeMarks.Session, _session);
            AppendList(output, ValueTypeMarks.AttributeTypes, _attributeTypes);
            if (contentMark is not null) output.Append(' ').Append(Prefix).Append(':').Append(ValueTypeMarks.Type).Append("=\"").Append(contentMark).Append('"');
            if (_topLevel)
            {
                output.Append(" xmlns:").Append(Prefix).Append("=\"").Append(ValueTypeMarks.Namespace).Append('"');
                _topLevel = false;
            }
        }

        private void AppendList(StringBuilder output, string mark, StringBuilder list)
        {
            if (list.Length == 0) return;
            output.Append(' ').Append(Prefix).Append(':').Append(mark).Append("=\"");
            TextFormatting.AppendEscaped(output, list.ToString(), attribute: true);
            output.Append('"');
            list.Clear();
        }
    }
}
