using System.Buffers;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    // XmlBaseWriter level: xml:* and xmlns:* attributes keep their value as a string.
    private string? _attributeLocalName;
    private string? _attributeValue;
    private SpecialAttribute _specialAttribute;

    /// <summary>An attribute whose value the writer keeps as a string (one byte: the writer's size is a budget).</summary>
    private enum SpecialAttribute : byte { None, Xml, Xmlns }

    private bool IsXmlAttribute => _specialAttribute == SpecialAttribute.Xml;

    private bool IsXmlnsAttribute => _specialAttribute == SpecialAttribute.Xmlns;

    // Node level: an attribute's text is captured and written as one record at its end.
    private bool _inAttribute;
    private bool _wroteAttributeValue;

    private void ResetAttributeState()
    {
        _attributeLocalName = null;
        _attributeValue = null;
        _specialAttribute = SpecialAttribute.None;
        _inAttribute = false;
        _wroteAttributeValue = false;
        Capture.Clear();
    }

    /// <summary>Starts an attribute with no namespace.</summary>
    public void WriteStartAttribute(string localName) => WriteStartAttribute(null, localName, null);

    /// <summary>Starts an attribute in a namespace; a prefix is found in scope or generated (a–z, then dNpM).</summary>
    public void WriteStartAttribute(string localName, string? ns) => WriteStartAttribute(null, localName, ns);

    /// <summary>
    /// Starts an attribute (MC-NBFX 2.2.2). The value is what is written until <see cref="WriteEndAttribute"/>:
    /// strings, dictionary strings and base64 are captured and written as one text record; a typed value is written
    /// directly, and only one typed value is allowed. <c>xmlns</c> attributes become namespace declarations.
    /// </summary>
    public void WriteStartAttribute(string? prefix, string localName, string? ns)
    {
        if (TryStartBoundAttribute(prefix, localName, ns, out string? bound))
        {
            WriteAttributeNode(bound, localName);
            return;
        }
        string resolved = StartAttribute(prefix, localName, ns, null);
        if (!IsXmlnsAttribute) WriteAttributeNode(resolved, localName);
    }

    /// <summary>Starts an attribute whose name may be written as a dictionary id.</summary>
    public void WriteStartAttribute(XmlDictionaryString localName, XmlDictionaryString? ns) => WriteStartAttribute(null, localName, ns);

    /// <summary>Starts an attribute whose name may be written as a dictionary id.</summary>
    public void WriteStartAttribute(string? prefix, XmlDictionaryString localName, XmlDictionaryString? ns)
    {
        ArgumentNullException.ThrowIfNull(localName);
        prefix = TryStartBoundAttribute(prefix, localName.Value, ns?.Value, out string? bound) ? bound : StartAttribute(prefix, localName.Value, ns?.Value, ns);
        if (!IsXmlnsAttribute) WriteAttributeNode(prefix, localName);
    }

    /// <summary>Writes an attribute's record with its local name as a dictionary id when the dictionary or session has it.</summary>
    private void WriteAttributeNode(string prefix, XmlDictionaryString localName)
    {
        if (!TryGetKey(localName, out int key))
        {
            WriteAttributeNode(prefix, localName.Value);
            return;
        }
        if (prefix.Length == 0)
        {
            WriteNodeWithId(RecordType.ShortDictionaryAttribute, key);
        }
        else if (prefix.Length == 1 && char.IsAsciiLetterLower(prefix[0]))
        {
            WriteNodeWithId(LetterRecord(RecordType.PrefixDictionaryAttributeA, prefix[0]), key);
        }
        else
        {
            WriteNodeWithName(RecordType.DictionaryAttribute, prefix);
            WriteMultiByteInt31(key);
        }
        _inAttribute = true;
        _wroteAttributeValue = false;
    }

    private void WriteAttributeNode(string prefix, string localName)
    {
        if (prefix.Length == 0)
        {
            WriteNodeWithName(RecordType.ShortAttribute, localName);
        }
        else if (prefix.Length == 1 && char.IsAsciiLetterLower(prefix[0]))
        {
            WriteNodeWithName(LetterRecord(RecordType.PrefixAttributeA, prefix[0]), localName);
        }
        else
        {
            WriteNodeWithName(RecordType.Attribute, prefix);
            WriteName(localName);
        }
        _inAttribute = true;
        _wroteAttributeValue = false;
    }

    /// <summary>
    /// The short way of <see cref="StartAttribute"/>: in a start tag with nothing pending (<see cref="PlainState.Content"/>),
    /// an attribute that declares nothing needs no checks beyond its names': one with no namespace (and no prefix, and
    /// not named <c>xmlns</c>), or one whose namespace is bound to its prefix (not <c>xml</c> or <c>xmlns</c>), or to
    /// some prefix when it has none. Starts it and returns the prefix it is written with; false (nothing done) in any
    /// other case.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private bool TryStartBoundAttribute(string? prefix, string? localName, string? ns, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? bound)
    {
        bound = null;
        if (_plain != PlainState.Content || _writeState != WriteState.Element || string.IsNullOrEmpty(localName)) return false;
        if (string.IsNullOrEmpty(prefix))
        {
            // Without a prefix, "xmlns" is a declaration whatever the namespace.
            if (localName == "xmlns") return false;
            // A namespace of its own is found among the prefixed declarations (never the xml or xmlns namespace: a
            // prefix cannot be declared for them).
            bound = string.IsNullOrEmpty(ns) ? string.Empty : _nsMgr.LookupAttributePrefix(ns);
        }
        else if (!string.IsNullOrEmpty(ns) && prefix is not ("xml" or "xmlns") && _nsMgr.IsBound(prefix, ns))
        {
            bound = prefix;
        }
        if (bound is null) return false;
        _plain = PlainState.None;
        _writeState = WriteState.Attribute;
        _specialAttribute = SpecialAttribute.None;
        return true;
    }

    /// <summary>Checks and starts an attribute; returns its prefix, resolved (a local, not a ref: kept in a register).</summary>
    private string StartAttribute(string? prefix, string localName, string? ns, XmlDictionaryString? xNs)
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute) WriteEndAttribute();
        if (localName is null || (localName.Length == 0 && prefix != "xmlns")) throw new ArgumentNullException(nameof(localName));
        if (_writeState != WriteState.Element)
            ThrowHelper.ThrowWrongState("WriteStartAttribute", _writeState);
        // An attribute opens (or a declaration is made) from here: no short path until it ends.
        _plain = PlainState.None;

        if (prefix is null)
        {
            if (ns == XmlnsNamespace && localName != "xmlns") prefix = "xmlns";
            else if (ns == XmlNamespace) prefix = "xml";
            else prefix = string.Empty;
        }
        if (prefix.Length == 0 && localName == "xmlns")
        {
            prefix = "xmlns";
            localName = string.Empty;
        }

        _specialAttribute = SpecialAttribute.None;
        if (prefix == "xml")
        {
            if (ns is not null && ns != XmlNamespace)
                ThrowHelper.ThrowArgument("The prefix 'xml' is bound to the namespace '{0}' and cannot be changed to '{1}'.", XmlNamespace, ns, nameof(ns));
            _specialAttribute = SpecialAttribute.Xml;
            _attributeValue = string.Empty;
            _attributeLocalName = localName;
        }
        else if (prefix == "xmlns")
        {
            if (ns is not null && ns != XmlnsNamespace)
                ThrowHelper.ThrowArgument("The prefix 'xmlns' is bound to the namespace '{0}' and cannot be changed to '{1}'.", XmlnsNamespace, ns, nameof(ns));
            _specialAttribute = SpecialAttribute.Xmlns;
            _attributeValue = string.Empty;
            _attributeLocalName = localName;
        }
        else if (ns is null)
        {
            if (prefix.Length != 0 && _nsMgr.LookupNamespace(prefix) is null)
                ThrowHelper.ThrowArgument("The prefix '{0}' is not defined.", prefix, nameof(prefix));
        }
        else if (ns.Length == 0)
        {
            if (prefix.Length != 0) ThrowHelper.ThrowArgument("The empty namespace requires a null or empty prefix.", nameof(prefix));
        }
        else if (prefix.Length == 0)
        {
            string? found = _nsMgr.LookupAttributePrefix(ns);
            if (found is null)
            {
                if (ns == XmlnsNamespace) ThrowHelper.ThrowArgument("The namespace '{0}' can only be bound to the prefix 'xmlns'.", ns, nameof(ns));
                if (ns == XmlNamespace) ThrowHelper.ThrowArgument("The namespace '{0}' can only be bound to the prefix 'xml'.", ns, nameof(ns));
                found = GeneratePrefix(ns, xNs);
            }
            prefix = found;
        }
        else
        {
            _nsMgr.AddNamespaceIfNotDeclared(prefix, ns, xNs);
        }
        Resolved(prefix);
        _writeState = WriteState.Attribute;
        return prefix;
    }

    /// <summary>Ends the current attribute, writing its captured value as one text record (EmptyText when nothing was written).</summary>
    public void WriteEndAttribute()
    {
        if (_writeState == WriteState.Attribute && _specialAttribute == SpecialAttribute.None && _trailByteCount == 0 && !_inList)
        {
            // An ordinary attribute with no base64 bytes held back and no list open: its value, and back to the start tag.
            _writeState = WriteState.Element;
            WriteCapturedAttributeValue();
            RefreshPlainState();
            return;
        }
        ThrowIfClosed();
        ThrowIfInList("WriteEndAttribute");
        if (_writeState != WriteState.Attribute)
            ThrowHelper.ThrowWrongState("WriteEndAttribute", _writeState);
        FlushBase64();
        try
        {
            if (IsXmlAttribute)
            {
                if (_attributeLocalName == "lang")
                {
                    _nsMgr.AddLangAttribute(_attributeValue!);
                }
                else if (_attributeLocalName == "space")
                {
                    if (_attributeValue == "preserve") _nsMgr.AddSpaceAttribute(XmlSpace.Preserve);
                    else if (_attributeValue == "default") _nsMgr.AddSpaceAttribute(XmlSpace.Default);
                    else ThrowHelper.ThrowArgument("'{0}' is not a valid xml:space value. Valid values are 'default' and 'preserve'.", _attributeValue, null);
                }
                _specialAttribute = SpecialAttribute.None;
                _attributeLocalName = null;
                _attributeValue = null;
            }
            if (IsXmlnsAttribute)
            {
                _nsMgr.AddNamespaceIfNotDeclared(_attributeLocalName!, _attributeValue!, null);
                _specialAttribute = SpecialAttribute.None;
                _attributeLocalName = null;
                _attributeValue = null;
            }
            else
            {
                WriteCapturedAttributeValue();
            }
        }
        finally
        {
            _writeState = WriteState.Element;
            RefreshPlainState();
        }
    }

    /// <summary>
    /// Ends an attribute's node (not a declaration's): its captured value as one record, unless a typed value was
    /// written. No end element folds into it.
    /// </summary>
    private void WriteCapturedAttributeValue()
    {
        _inAttribute = false;
        if (!_wroteAttributeValue) Capture.WriteTo(this);
        _textNodeStart = -1;
    }

    /// <summary>Writes an attribute with a string value.</summary>
    public void WriteAttributeString(string localName, string? value) => WriteAttributeString(null, localName, null, value);

    /// <summary>Writes an attribute with a string value.</summary>
    public void WriteAttributeString(string? prefix, string localName, string? ns, string? value)
    {
        if (value is not null && Capture.IsEmpty && TryStartBoundAttribute(prefix, localName, ns, out string? bound))
        {
            WriteAttributeNode(bound, localName);
            EndBoundAttribute(value);
            return;
        }
        WriteStartAttribute(prefix, localName, ns);
        WriteString(value);
        WriteEndAttribute();
    }

    /// <summary>Writes an attribute with a dictionary name and a string value.</summary>
    public void WriteAttributeString(XmlDictionaryString localName, XmlDictionaryString? ns, string? value)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (value is not null && Capture.IsEmpty && TryStartBoundAttribute(null, localName.Value, ns?.Value, out string? bound))
        {
            WriteAttributeNode(bound, localName);
            EndBoundAttribute(value);
            return;
        }
        WriteStartAttribute(null, localName, ns);
        WriteString(value);
        WriteEndAttribute();
    }

    /// <summary>
    /// Writes the value of an attribute started by <see cref="TryStartBoundAttribute"/> with nothing captured, and
    /// ends it: what <see cref="WriteString(string?)"/> and <see cref="WriteEndAttribute"/> do for one string, without
    /// capturing it. The start tag is plain again, as it was.
    /// </summary>
    private void EndBoundAttribute(string value)
    {
        _inAttribute = false;
        _writeState = WriteState.Element;
        WriteTextOrCapture(value);
        _textNodeStart = -1;
        _plain = PlainState.Content;
    }

    /// <summary>
    /// Declares a namespace on the current element. With a null <paramref name="prefix"/> an existing prefix is
    /// reused or one is generated. The record is written when the start tag closes, after the attributes.
    /// </summary>
    public void WriteXmlnsAttribute(string? prefix, string ns)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(ns);
        DeclareNamespace(prefix, ns, null);
    }

    /// <summary>Declares a namespace whose record may carry a dictionary id.</summary>
    public void WriteXmlnsAttribute(string? prefix, XmlDictionaryString ns)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(ns);
        DeclareNamespace(prefix, ns.Value, ns);
    }

    /// <summary>Both <c>WriteXmlnsAttribute</c> overloads: <paramref name="nsDictionaryString"/> is the namespace's dictionary string, if any.</summary>
    private void DeclareNamespace(string? prefix, string ns, XmlDictionaryString? nsDictionaryString)
    {
        if (_writeState != WriteState.Element)
            ThrowHelper.ThrowWrongState("WriteXmlnsAttribute", _writeState);
        // A declaration gives the start tag xmlns records to write: no short path until it is known.
        _plain = PlainState.None;
        if (prefix is null)
        {
            Resolved(_nsMgr.LookupPrefix(ns) ?? GeneratePrefix(ns, nsDictionaryString));
        }
        else
        {
            _nsMgr.AddNamespaceIfNotDeclared(prefix, ns, nsDictionaryString);
            Resolved(prefix);
        }
        RefreshPlainState();
    }

    private string GeneratePrefix(string ns, XmlDictionaryString? xNs)
    {
        if (_writeState is not (WriteState.Element or WriteState.Attribute))
            ThrowHelper.ThrowInvalidOperation("A prefix cannot be generated while the writer is in the {0} state.", _writeState);
        string? prefix = _nsMgr.AddGeneratedNamespace(ns, xNs);
        if (prefix is not null) return prefix;
        int depth = _nsMgr.Depth;
        ref int[] prefixIds = ref _scratch!.PrefixIds;
        if (depth >= prefixIds.Length) Array.Resize(ref prefixIds, Math.Max(prefixIds.Length * 2, depth + 1));
        // The counter is reset when this element ends (even if the declaration below fails).
        _nsMgr.MarkScopeWork();
        while (true)
        {
            int id = prefixIds[depth]++;
            prefix = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"d{depth}p{id}");
            if (_nsMgr.LookupNamespace(prefix) is null)
            {
                _nsMgr.AddNamespace(prefix, ns, xNs);
                return prefix;
            }
        }
    }

    /// <summary>Writes an xmlns record (MC-NBFX 2.2.2.5–2.2.2.8).</summary>
    private void WriteXmlnsNode(string prefix, string ns)
    {
        if (prefix.Length == 0) WriteNode(RecordType.ShortXmlnsAttribute);
        else WriteNodeWithName(RecordType.XmlnsAttribute, prefix);
        WriteName(ns);
    }

    private void WriteXmlnsNode(string prefix, XmlDictionaryString ns)
    {
        if (!TryGetKey(ns, out int key))
        {
            WriteXmlnsNode(prefix, ns.Value);
            return;
        }
        if (prefix.Length == 0)
        {
            WriteNodeWithId(RecordType.ShortDictionaryXmlnsAttribute, key);
            return;
        }
        WriteNodeWithName(RecordType.DictionaryXmlnsAttribute, prefix);
        WriteMultiByteInt31(key);
    }

    private void WroteAttributeValue()
    {
        if (_wroteAttributeValue && !_inList) ThrowHelper.ThrowInvalidOperation("Only a single typed value may be written inside an attribute or content.");
        _wroteAttributeValue = true;
    }

    private void AppendAttributeText(string value)
    {
        _attributeValue = _attributeValue!.Length == 0 ? value : _attributeValue + value;
    }

    /// <summary>
    /// An attribute value being collected, as .NET's node writer collects it: text (concatenated), one dictionary
    /// string, or bytes. Mixing kinds turns everything into text. Like .NET, a capture that is not written (because
    /// a typed value was) stays and is prepended to the next attribute's captured text.
    /// </summary>
    private struct AttributeCapture
    {
        private char[]? _text;
        private int _textLength;
        private bool _hasText;
        // The text while it is one string given whole (an attribute's usual value): copied into _text only when more
        // text comes.
        private string? _heldText;
        private XmlDictionaryString? _dictionaryText;
        private byte[]? _bytes;
        private int _byteCount;
        private bool _hasBytes;

        /// <summary>Whether nothing is held: no text, dictionary string or bytes.</summary>
        public readonly bool IsEmpty => !_hasText && _dictionaryText is null && !_hasBytes;

        public void Clear()
        {
            _hasText = false;
            _textLength = 0;
            _heldText = null;
            _dictionaryText = null;
            _hasBytes = false;
            _byteCount = 0;
        }

        /// <summary>Clears and gives the buffers back to the pool (the writer is closing).</summary>
        public void Release()
        {
            Clear();
            if (_text is not null) ArrayPool<char>.Shared.Return(_text);
            if (_bytes is not null) ArrayPool<byte>.Shared.Return(_bytes);
            _text = null;
            _bytes = null;
        }

        public void AddText(ReadOnlySpan<char> s)
        {
            if (_hasBytes)
            {
                _hasBytes = false;
                ReplaceText([]);
                AppendBase64(_bytes.AsSpan(0, _byteCount));
                _byteCount = 0;
            }
            if (_dictionaryText is not null)
            {
                ReplaceText(_dictionaryText.Value);
                _dictionaryText = null;
            }
            if (!_hasText) ReplaceText(s);
            else Append(s);
        }

        /// <summary>Adds text given as a string: held as it is when nothing else is, otherwise as <see cref="AddText(ReadOnlySpan{char})"/>.</summary>
        public void AddText(string s)
        {
            if (IsEmpty)
            {
                _hasText = true;
                _textLength = 0;
                _heldText = s;
            }
            else
            {
                AddText(s.AsSpan());
            }
        }

        public void AddText(XmlDictionaryString s)
        {
            if (_hasText || _hasBytes) AddText(s.Value);
            else _dictionaryText = s;
        }

        public void AddBase64(ReadOnlySpan<byte> trail, ReadOnlySpan<byte> data)
        {
            if (_hasText || _dictionaryText is not null)
            {
                AddText([]);
                AppendBase64(trail);
                AppendBase64(data);
                return;
            }
            EnsureBytes(_byteCount + trail.Length + data.Length);
            trail.CopyTo(_bytes.AsSpan(_byteCount));
            _byteCount += trail.Length;
            data.CopyTo(_bytes.AsSpan(_byteCount));
            _byteCount += data.Length;
            _hasBytes = true;
        }

        public void WriteTo(BinaryXmlWriter writer)
        {
            if (_hasText)
            {
                _hasText = false;
                ReadOnlySpan<char> text = _heldText is not null ? _heldText : _text.AsSpan(0, _textLength);
                _heldText = null;
                _textLength = 0;
                if (text.IsEmpty) writer.WriteTextNode(RecordType.EmptyText);
                else writer.WriteTextNode(text);
            }
            else if (_dictionaryText is not null)
            {
                XmlDictionaryString s = _dictionaryText;
                _dictionaryText = null;
                writer.WriteDictionaryTextNode(s);
            }
            else if (_hasBytes)
            {
                _hasBytes = false;
                int count = _byteCount;
                _byteCount = 0;
                writer.WriteBytesNode([], _bytes.AsSpan(0, count));
            }
            else
            {
                writer.WriteTextNode(RecordType.EmptyText);
            }
        }

        private void ReplaceText(ReadOnlySpan<char> s)
        {
            _hasText = true;
            _textLength = 0;
            _heldText = null;
            Append(s);
        }

        private void Append(ReadOnlySpan<char> s)
        {
            CopyHeldText();
            EnsureText(_textLength + s.Length);
            s.CopyTo(_text.AsSpan(_textLength));
            _textLength += s.Length;
        }

        private void AppendBase64(ReadOnlySpan<byte> data)
        {
            if (data.IsEmpty) return;
            CopyHeldText();
            int length = checked((data.Length + 2) / 3 * 4);
            EnsureText(_textLength + length);
            Convert.TryToBase64Chars(data, _text.AsSpan(_textLength), out int written);
            _textLength += written;
        }

        /// <summary>Copies the held string into the buffer, where text is appended to it.</summary>
        private void CopyHeldText()
        {
            if (_heldText is null) return;
            string held = _heldText;
            _heldText = null;
            EnsureText(held.Length);
            held.CopyTo(_text.AsSpan());
            _textLength = held.Length;
        }

        private void EnsureText(int size)
        {
            if (_text is null || _text.Length < size)
            {
                char[] next = ArrayPool<char>.Shared.Rent(Math.Max(size, 64));
                if (_text is not null)
                {
                    _text.AsSpan(0, _textLength).CopyTo(next);
                    ArrayPool<char>.Shared.Return(_text);
                }
                _text = next;
            }
        }

        private void EnsureBytes(int size)
        {
            if (_bytes is null || _bytes.Length < size)
            {
                byte[] next = ArrayPool<byte>.Shared.Rent(Math.Max(size, 64));
                if (_bytes is not null)
                {
                    _bytes.AsSpan(0, _byteCount).CopyTo(next);
                    ArrayPool<byte>.Shared.Return(_bytes);
                }
                _bytes = next;
            }
        }
    }
}
