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

        // A typed text record that is the first content of an element, held back until the next token tells whether
        // it is the only content (and so can be marked on the start tag). Base64 is held across its records (.NET's
        // writer writes one call's bytes as whole groups, then the rest with the next call's or at the end), also
        // beside other content; marked, its records' texts are separated by a space (the calls that write the same
        // records).
        private readonly StringBuilder _held = new();
        private readonly List<int> _heldRecords = [];
        private string? _heldMark;
        private bool _heldFirst;

        /// <summary>The prefix of the marks.</summary>
        public string Prefix { get; } = prefix;

        /// <summary>Every prefix the document uses.</summary>
        public HashSet<string> PrefixesUsed { get; } = [];

        /// <summary>Whether a value is held back (see <see cref="Hold"/>).</summary>
        public bool IsHolding => _heldMark is not null;

        /// <summary>
        /// Whether the last token rendered in element content was a text record: the next one's text would join it, so
        /// it is marked as a record of its own (<see cref="Text"/>).
        /// </summary>
        public bool AfterText { get; set; }

        /// <summary>
        /// Holds back the first content of an element (<paramref name="first"/>): the text of a typed record and its
        /// mark, or white space alone (<paramref name="mark"/> empty), which needs a mark only beside other content;
        /// or base64 beside other content, for the records that go on with it.
        /// </summary>
        public void Hold(string text, string mark, bool first)
        {
            _held.Append(text);
            _heldMark = mark;
            _heldFirst = first;
        }

        /// <summary>
        /// Takes the token the reader is on into the held value when it is a base64 record that goes on with it (each
        /// record's text is a base64 value of its own: encode writes each with a call); false for any other token.
        /// </summary>
        public bool TryHoldMore(ref BinaryXmlReader reader)
        {
            if (_heldMark != "base64" || reader.TokenType != BinaryXmlTokenType.Text || ValueTypeMarks.Of(reader.ValueType) != _heldMark)
            {
                return false;
            }
            string more = reader.GetString();
            if (more.Length > 0 && _held.Length > 0) _heldRecords.Add(_held.Length);
            _held.Append(more);
            return true;
        }

        /// <summary>
        /// Writes the held value (a base64 value's records separated by spaces): when it is the element's only content
        /// (held as its first, and the element <paramref name="ends"/>), closing the start tag with its mark; otherwise
        /// after a mark of its own (<see cref="Text"/>).
        /// </summary>
        public void WriteHeld(StringBuilder output, ref bool inStartTag, bool ends)
        {
            string mark = _heldMark!;
            bool only = _heldFirst && ends;
            CloseStartTag(output, ref inStartTag, this, only && mark.Length > 0 ? mark : null);
            if (!only && _held.Length > 0) AppendInstruction(output, mark);
            string text = _held.ToString();
            int from = 0;
            foreach (int start in _heldRecords)
            {
                output.Append(text, from, start - from).Append(' ');
                from = start;
            }
            TextFormatting.AppendEscaped(output, text.AsSpan(from), attribute: false, exact: true);
            _held.Clear();
            _heldRecords.Clear();
            _heldMark = null;
            AfterText = true;
        }

        /// <summary>
        /// Writes the text of a record in element content that is not its element's only content: after a mark of its
        /// type (<c>&lt;?t int?&gt;</c>) when it is typed (<paramref name="mark"/>), after an empty mark
        /// (<c>&lt;?t?&gt;</c>) when it would join the text before it or is white space (which encode drops beside
        /// other content as indentation unless marked).
        /// </summary>
        public void Text(StringBuilder output, string text, string? mark)
        {
            // (Empty text is written as nothing, marked or not.)
            if (text.Length > 0 && (mark is not null || AfterText || TextFormatting.IsXmlWhitespace(text))) AppendInstruction(output, mark ?? "");
            TextFormatting.AppendEscaped(output, text, attribute: false, exact: true);
            AfterText = true;
        }

        // The list being rendered (MC-NBFX 2.2.3.19): its items' marks, whether they can be marked, and where the mark
        // goes: an attribute's name (the entry of t:attributeTypes), or where the list's text starts in content.
        private readonly List<string> _listItems = [];
        private bool _listMarkable;
        private string? _listAttribute;
        private int _listStart;
        private bool _listAfterText;

        /// <summary>
        /// Starts noting a list: an attribute's value (its name is what <paramref name="output"/> holds from
        /// <paramref name="attributeNameStart"/>) or, with -1, content (its text starts where the output ends).
        /// </summary>
        public void StartList(StringBuilder output, int attributeNameStart, bool markable)
        {
            _listItems.Clear();
            _listMarkable = markable;
            _listAttribute = attributeNameStart < 0 ? null : output.ToString(attributeNameStart, output.Length - attributeNameStart);
            _listStart = output.Length;
            _listAfterText = AfterText;
            AfterText = false;
        }

        /// <summary>
        /// Notes a list item: its mark; <c>int</c> for ZeroText and OneText (what .NET's writer writes for 0 and 1, and
        /// for the text 0 and 1 in content); <c>text</c> for other text. A list whose items' texts could not be told
        /// apart again (one empty or holding a space), that holds base64 (which .NET's writer refuses in one) or, in an
        /// attribute, text or a dictionary string (which .NET's writer keeps out of an attribute's list, as the
        /// attribute's text: no call writes one in it) is not marked.
        /// </summary>
        public void ListItem(ref BinaryXmlReader reader, string text)
        {
            string mark = ValueMark(ref reader)
                ?? ((RecordType)((byte)reader.ValueType & 0xFE) is RecordType.ZeroText or RecordType.OneText ? "int" : ValueTypeMarks.ListText);
            if (text.Length == 0 || text.Contains(' ') || mark == "base64"
                || (_listAttribute is not null && mark is ValueTypeMarks.ListText or "dictionary" or "sessionDictionary" or "qname" or "sessionQname"))
            {
                _listMarkable = false;
            }
            _listItems.Add(mark);
        }

        /// <summary>
        /// Ends a list: marks it <c>list:int,text,…</c>, in <c>t:attributeTypes</c> or before its text, when it can be;
        /// a list in content that cannot is still kept apart from text before it (an empty mark).
        /// </summary>
        public void EndList(StringBuilder output)
        {
            string? mark = _listMarkable && _listItems.Count > 0 ? ValueTypeMarks.ListPrefix + string.Join(',', _listItems) : null;
            if (_listAttribute is not null)
            {
                if (mark is not null) AppendEntry(_attributeTypes, _listAttribute, "", mark);
                return;
            }
            if (mark is null && !_listAfterText) return;
            // The mark goes before the list's text: the text is moved after it (not the document's rest: a list costs
            // its own length).
            string items = output.ToString(_listStart, output.Length - _listStart);
            output.Length = _listStart;
            AppendInstruction(output, mark ?? "");
            output.Append(items);
        }

        /// <summary>The mark of a text record in mixed content: a processing instruction whose target is the prefix.</summary>
        private void AppendInstruction(StringBuilder output, string mark)
        {
            output.Append("<?").Append(Prefix);
            if (mark.Length > 0) output.Append(' ').Append(mark);
            output.Append("?>");
        }

        /// <summary>Whether the open start tag has an attribute (other than a namespace declaration).</summary>
        public bool HasAttributes { get; private set; }

        /// <summary>Starts the notes of a start tag (of a top-level element: one that declares the marks' namespace).</summary>
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
            => AppendEntry(list, output.ToString(nameStart, output.Length - nameStart), kind, value);

        /// <summary>Appends to a list mark a name, with its kind and value.</summary>
        private static void AppendEntry(StringBuilder list, string name, string kind, string? value)
        {
            int end = list.Length;
            if (end > 0) list.Append(' ');
            list.Append(kind);
            foreach (char c in name)
            {
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
