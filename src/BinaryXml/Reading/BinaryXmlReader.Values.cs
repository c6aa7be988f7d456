using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using System.Text.Unicode;
using System.Xml;

namespace BinaryXml;

public ref partial struct BinaryXmlReader
{
    /// <summary>Parses the text record at <paramref name="start"/> into the token's value, checked as
    /// <paramref name="checks"/> says; returns the offset after the record.</summary>
    private int ParseTextValue(int start, TextChecks checks = TextChecks.All)
    {
        ReaderState s = _s;
        int end = ParseTextPayload(start, out byte type, out s._valueStart, out s._valueLength, checks);
        s._valueType = type;
        return end;
    }

    /// <summary>
    /// Validates a text record at <paramref name="start"/> and finds its payload: lengths against the remaining
    /// input, UTF-8 and UTF-16 well-formedness, even UnicodeChars lengths, QName prefix indexes and dictionary ids.
    /// Returns the offset after the record; <paramref name="valueType"/> is the record's even (plain) type.
    /// <paramref name="checks"/>: <see cref="TextChecks.None"/> for a record validated before (a start tag read again:
    /// dictionary ids are not looked up and the payload is not checked again); <see cref="TextChecks.DeferUtf8"/> leaves
    /// the UTF-8 check of a character payload that needs one to <see cref="CheckDeferredText"/> or a one-pass decode
    /// (<see cref="PendingStep.CheckText"/>).
    /// </summary>
    private readonly int ParseTextPayload(int start, out byte valueType, out int payloadStart, out int payloadLength, TextChecks checks = TextChecks.All)
    {
        bool trusted = checks == TextChecks.None;
        byte type = _data[start];
        valueType = (byte)(type & 0xFE);
        int p = start + 1;
        int fixedSize = RecordTypes.GetFixedPayloadSize(type);
        if (fixedSize >= 0)
        {
            if (fixedSize > _data.Length - p) Fail("The input ends inside a {0} record", RecordTypes.GetName(type), start);
            payloadStart = p;
            payloadLength = fixedSize;
            return p + fixedSize;
        }
        if (valueType == (byte)RecordType.Chars8Text && p < _data.Length && _data[p] < _data.Length - p)
        {
            // Most text is short: a one-byte length; short ASCII within the quota needs no further check.
            int shortLength = _data[p];
            payloadStart = p + 1;
            payloadLength = shortLength;
            if (!trusted && !(shortLength <= _s._maxStringContentLength && IsShortAscii(_data, payloadStart, shortLength)))
            {
                ValidatePayload(type, start, payloadStart, shortLength, checks == TextChecks.DeferUtf8);
            }
            return payloadStart + shortLength;
        }
        switch ((RecordType)valueType)
        {
            case RecordType.DictionaryText:
                DictionaryString(p, out int next, trusted);
                payloadStart = p;
                payloadLength = next - p;
                return next;
            case RecordType.QNameDictionaryText:
                if (p >= _data.Length) Fail("The input ends inside a QNameDictionaryText record", start);
                if (_data[p] >= 26) Fail("QNameDictionaryText prefix index {0} is not 0-25", _data[p], p);
                DictionaryString(p + 1, out next, trusted);
                payloadStart = p;
                payloadLength = next - p;
                return next;
        }
        int lengthSize = BinaryXmlPrimitives.GetLengthFieldSize((RecordType)type);
        if (!BinaryXmlPrimitives.TryReadLength(_data[Math.Min(p, _data.Length)..], lengthSize, out int length))
        {
            if (_data.Length - p < lengthSize) Fail("The input ends inside a {0} length", RecordTypes.GetName(type), start);
            Fail("{0} has a negative length", RecordTypes.GetName(type), p);
        }
        p += lengthSize;
        if (length > _data.Length - p) Fail("{0} declares {1} bytes but {2} remain", RecordTypes.GetName(type), length, _data.Length - p, start);
        if (!trusted) ValidatePayload(type, start, p, length, checks == TextChecks.DeferUtf8);
        payloadStart = p;
        payloadLength = length;
        return p + length;
    }

    /// <summary>Checks a text payload: well-formed UTF-8 or UTF-16 and the string or array quota. <paramref name="defer"/>:
    /// the UTF-8 of a character payload is left for later (<see cref="PendingStep.CheckText"/>); the quota is checked now.</summary>
    private readonly void ValidatePayload(byte type, int start, int p, int length, bool defer = false)
    {
        ReadOnlySpan<byte> payload = _data.Slice(p, length);
        switch ((RecordType)(type & 0xFE))
        {
            case RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text:
                if (defer) _s._pending = PendingStep.CheckText;
                else if (!IsValidUtf8(_data, p, length)) FailInvalidUtf8(type, p);
                CheckStringQuota(payload, utf16: false, start);
                break;
            case RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                if ((length & 1) != 0) Fail("{0} has an odd byte length ({1})", RecordTypes.GetName(type), length, start);
                if (!IsValidUtf16(payload)) Fail("{0} holds a lone surrogate", RecordTypes.GetName(type), p);
                CheckStringQuota(payload, utf16: true, start);
                break;
            case RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text:
                if (length > _s._maxArrayLength) Fail("{0} holds {1} bytes, more than the MaxArrayLength quota ({2})", RecordTypes.GetName(type), length, _s._maxArrayLength, start);
                break;
        }
    }

    /// <summary>
    /// Whether <paramref name="length"/> bytes of <paramref name="data"/> from <paramref name="start"/> are well-formed
    /// UTF-8: short ASCII is found by <see cref="IsShortAscii"/>, anything else is fully validated.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsValidUtf8(ReadOnlySpan<byte> data, int start, int length)
        => IsShortAscii(data, start, length) || Utf8.IsValid(data.Slice(start, length));

    /// <summary>
    /// Whether <paramref name="length"/> bytes of <paramref name="data"/> from <paramref name="start"/> are at most 64
    /// ASCII bytes, tested in 16-byte vectors. Names, namespaces and short values mostly are. False where they are not
    /// ASCII, longer than 64 or run past the input.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsShortAscii(ReadOnlySpan<byte> data, int start, int length)
        => length <= 16 ? IsAscii16(data, start, length) : IsAsciiUpTo64(data, start, length);

    /// <summary>
    /// As <see cref="IsShortAscii"/> for 17 to 64 bytes: vectors from the first byte and to the last, overlapping where
    /// the length is not a multiple of 16 (none reads outside the bytes).
    /// </summary>
    private static bool IsAsciiUpTo64(ReadOnlySpan<byte> data, int start, int length)
    {
        if (length > 64 || (uint)start > (uint)data.Length || (uint)length > (uint)(data.Length - start)) return false;
        ReadOnlySpan<byte> bytes = data.Slice(start, length);
        Vector128<byte> any = Vector128.Create(bytes) | Vector128.Create(bytes[^16..]);
        if (length > 32) any |= Vector128.Create(bytes[16..]) | Vector128.Create(bytes[^32..]);
        return any.ExtractMostSignificantBits() == 0;
    }

    /// <summary>
    /// As <see cref="IsShortAscii"/> for at most 16 bytes: the high bits of one vector, those of the bytes past
    /// <paramref name="length"/> masked off as an integer (shorter work than masking the vector). The vector may read
    /// past the bytes, never past the input: within the last 16 bytes of the input the bytes are tested out of line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsAscii16(ReadOnlySpan<byte> data, int start, int length)
        => data.Length - start >= 16 ? HighBits16(data, start, length) == 0 : IsAsciiNearEnd(data, start, length);

    /// <summary>
    /// The high bits of the <paramref name="length"/> (at most 16) bytes from <paramref name="start"/>, one bit a byte:
    /// one 16-byte vector, the bits past <paramref name="length"/> masked off. The input has 16 bytes from
    /// <paramref name="start"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint HighBits16(ReadOnlySpan<byte> data, int start, int length)
        => Vector128.Create(data.Slice(start, 16)).ExtractMostSignificantBits() & ((1u << length) - 1);

    /// <summary>Whether the bytes are within the input and ASCII, where too few bytes remain for a whole vector.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool IsAsciiNearEnd(ReadOnlySpan<byte> data, int start, int length)
        => (uint)start <= (uint)data.Length && (uint)length <= (uint)(data.Length - start) && Ascii.IsValid(data.Slice(start, length));

    /// <summary>
    /// Whether UTF-16 (little-endian, an even number of bytes) has no lone surrogate: a vectorised search for the next
    /// surrogate, each found tested as the first half of a pair.
    /// </summary>
    private static bool IsValidUtf16(ReadOnlySpan<byte> utf16le)
    {
        if (!BitConverter.IsLittleEndian) return IsValidUtf16BigEndianHost(utf16le);
        ReadOnlySpan<char> chars = MemoryMarshal.Cast<byte, char>(utf16le);
        int i;
        while ((i = chars.IndexOfAny(TextFormatting.Surrogates)) >= 0)
        {
            if (!char.IsHighSurrogate(chars[i]) || i + 1 >= chars.Length || !char.IsLowSurrogate(chars[i + 1])) return false;
            chars = chars[(i + 2)..];
        }
        return true;
    }

    /// <summary><see cref="IsValidUtf16"/> one unit at a time, where the host's order is not the payload's.</summary>
    private static bool IsValidUtf16BigEndianHost(ReadOnlySpan<byte> utf16le)
    {
        for (int i = 0; i < utf16le.Length; i += 2)
        {
            char c = (char)BinaryPrimitives.ReadUInt16LittleEndian(utf16le[i..]);
            if (!char.IsSurrogate(c)) continue;
            if (!char.IsHighSurrogate(c) || i + 2 >= utf16le.Length) return false;
            char low = (char)BinaryPrimitives.ReadUInt16LittleEndian(utf16le[(i + 2)..]);
            if (!char.IsLowSurrogate(low)) return false;
            i += 2;
        }
        return true;
    }

    // ---- Names -----------------------------------------------------------------------------------------------

    /// <summary>The prefix of the element, attribute or (for a namespace declaration) the declared prefix; empty when none.</summary>
    public readonly BinaryXmlName Prefix => GetName(PrefixRef);

    /// <summary>The local name of the element or attribute (on EndElement and ArrayData: of the element).</summary>
    public readonly BinaryXmlName LocalName => GetName(LocalNameRef);

    /// <summary>
    /// The namespace URI: of the element or attribute (resolved from the declarations in scope; an attribute
    /// without prefix has none), or the namespace a NamespaceDeclaration declares.
    /// </summary>
    public readonly BinaryXmlName NamespaceUri
    {
        get
        {
            switch (_s._tokenType)
            {
                case BinaryXmlTokenType.NamespaceDeclaration:
                    return GetName(_s._nsValue);
                case BinaryXmlTokenType.StartElement or BinaryXmlTokenType.EndElement or BinaryXmlTokenType.ArrayData:
                    return GetName(ElementNamespace);
                case BinaryXmlTokenType.Attribute:
                    // Resolved with the start tag (none for an attribute without prefix, or with an unbound one).
                    return _s._prefix.Kind == NameKind.None ? default : GetName(_s._nsValue);
                default:
                    return default;
            }
        }
    }

    /// <summary>Whether the token is a start or end tag or array data: its names are those of the innermost open element.</summary>
    private readonly bool IsElementToken => ((1 << (int)_s._tokenType) & ElementTokens) != 0;

    /// <summary>
    /// Whether the token is an attribute or namespace declaration, with names of its own. Other tokens leave the
    /// names of the token before them in place (see <see cref="ClearToken"/>).
    /// </summary>
    private readonly bool IsAttributeToken => _s._tokenType is BinaryXmlTokenType.Attribute or BinaryXmlTokenType.NamespaceDeclaration;

    private const int ElementTokens = 1 << (int)BinaryXmlTokenType.StartElement | 1 << (int)BinaryXmlTokenType.EndElement
        | 1 << (int)BinaryXmlTokenType.ArrayData;

    /// <summary>The innermost open element: on a start tag the one it opened, on an end tag the one it closes (popped at the next read).</summary>
    private readonly ref ElementScope InnermostElement => ref _s._scopes![_s._depth - 1];

    /// <summary>
    /// On StartElement, EndElement and ArrayData: where the element's namespace is, resolved with its start tag for a
    /// prefix, or here for an element without prefix, whose default namespace is found when asked for (with the same
    /// declarations in scope: the element's own and its ancestors').
    /// </summary>
    internal readonly NameRef ElementNamespace => NamespaceOf(ref InnermostElement);

    /// <summary>
    /// On StartElement and EndElement: the element's names as its scope keeps them (prefix and local name; its namespace
    /// through <see cref="NamespaceOf"/>), read at once instead of through the token's accessors one by one.
    /// </summary>
    internal readonly ref ElementScope TagScope
    {
        get
        {
            Debug.Assert(_s._tokenType is BinaryXmlTokenType.StartElement or BinaryXmlTokenType.EndElement);
            return ref InnermostElement;
        }
    }

    /// <summary>The namespace of the innermost open element, <paramref name="element"/> (see <see cref="ElementNamespace"/>).</summary>
    internal readonly NameRef NamespaceOf(ref ElementScope element)
        => ResolvedAtStartTag(element.Prefix) ? element.Namespace : ResolveElementNamespace(_s._tokenStart, default);

    /// <summary>Where the current token's prefix is: inline bytes, a letter, or none.</summary>
    internal readonly NameRef PrefixRef => IsElementToken ? InnermostElement.Prefix : IsAttributeToken ? _s._prefix : default;

    /// <summary>Where the current token's local name is: inline bytes (offset and length in the input), a dictionary id, or none.</summary>
    internal readonly NameRef LocalNameRef => IsElementToken ? InnermostElement.LocalName : IsAttributeToken ? _s._localName : default;

    /// <summary>Looks up the namespace bound to a prefix in the current scope (the empty prefix and "xml" are always bound).</summary>
    public readonly bool TryLookupNamespace(ReadOnlySpan<byte> prefixUtf8, out BinaryXmlName ns)
    {
        if (TryResolvePrefix(prefixUtf8, out NameRef uri))
        {
            ns = GetName(uri);
            return true;
        }
        ns = default;
        return false;
    }

    /// <summary>
    /// Adds the namespace declarations in scope (newest per prefix, in declaration order) to <paramref name="into"/>:
    /// what .NET's reader hands its canonical writer when canonicalization starts.
    /// </summary>
    internal readonly void CopyInScopeDeclarations(List<KeyValuePair<string, string>> into)
    {
        for (int i = 0; i < _s._namespaceCount; i++)
        {
            NameRef prefix = _s._namespaces![i].Prefix, uri = _s._namespaces[i].Namespace;
            ReadOnlySpan<byte> p = NameBytes(prefix);
            bool redeclared = false;
            for (int j = i + 1; j < _s._namespaceCount && !redeclared; j++)
            {
                redeclared = NameBytes(_s._namespaces[j].Prefix).SequenceEqual(p);
            }
            if (!redeclared) into.Add(new(GetName(prefix).ToString(), GetName(uri).ToString()));
        }
    }

    // ---- Values ----------------------------------------------------------------------------------------------

    /// <summary>Where the current token's value is: enough to read a typed value again later (see the constructor taking it).</summary>
    internal readonly ValueLocation CurrentValue => new(_s._tokenType, _s._valueType, _s._valueStart, _s._valueLength);

    /// <summary>
    /// A reader on one typed value of <paramref name="data"/>, for its typed getters only, using <paramref name="scratch"/>
    /// (a state the caller keeps for this) to hold the value's token.
    /// </summary>
    internal BinaryXmlReader(ReadOnlySpan<byte> data, ValueLocation value, ReaderState scratch)
    {
        _data = data;
        _s = scratch;
        _s._tokenType = value.TokenType;
        _s._valueType = value.ValueType;
        _s._valueStart = value.Start;
        _s._valueLength = value.Length;
    }

    /// <summary>Whether the token has a value: Text, Attribute, NamespaceDeclaration, Comment and ArrayData do.</summary>
    public readonly bool HasValue => ((1 << (int)_s._tokenType) & ValueTokens) != 0;

    private const int ValueTokens = 1 << (int)BinaryXmlTokenType.Text | 1 << (int)BinaryXmlTokenType.Attribute
        | 1 << (int)BinaryXmlTokenType.NamespaceDeclaration | 1 << (int)BinaryXmlTokenType.Comment | 1 << (int)BinaryXmlTokenType.ArrayData;

    /// <summary>
    /// The plain (even) record type of the value: the text record of a Text or Attribute token
    /// (<see cref="RecordType.StartListText"/> for a list-valued attribute), the item type of ArrayData.
    /// </summary>
    public readonly RecordType ValueType => HasValue ? (RecordType)_s._valueType : 0;

    /// <summary>
    /// The raw payload of the value: UTF-8 for Chars records, comments and inline namespaces; UTF-16LE for
    /// UnicodeChars; the bytes of Bytes records; the little-endian payload of fixed-size records; the item bytes of
    /// ArrayData.
    /// </summary>
    /// <exception cref="BinaryXmlException">Character text whose check <see cref="Read"/> left to its first read is not
    /// well-formed UTF-8.</exception>
    public readonly ReadOnlySpan<byte> ValueSpan
    {
        get
        {
            if (_s._tokenType == BinaryXmlTokenType.NamespaceDeclaration) return NameBytes(_s._nsValue);
            // Tags keep the place of the value before them (see ClearToken).
            if (!HasValue) return default;
            CheckDeferredText();
            return _data.Slice(_s._valueStart, _s._valueLength);
        }
    }

    /// <summary>Whether the value is a dictionary string (DictionaryText, or a dictionary namespace).</summary>
    public readonly bool TryGetDictionaryString([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? value)
    {
        if (_s._tokenType == BinaryXmlTokenType.NamespaceDeclaration && _s._nsValue.Kind == NameKind.Dictionary)
        {
            value = Resolve(_s._nsValue.Id, _s._nsValue.Offset);
            return true;
        }
        if (HasValue && _s._valueType == (byte)RecordType.DictionaryText)
        {
            value = DictionaryTextAt(_s._valueStart);
            return true;
        }
        value = null;
        return false;
    }

    /// <summary>The dictionary string of a DictionaryText record whose payload (the string's id) is at <paramref name="payloadStart"/>.</summary>
    private readonly XmlDictionaryString DictionaryTextAt(int payloadStart)
    {
        MultiByteInt31.Decode(_data[payloadStart..], out int id, out _);
        return Resolve(id, payloadStart);
    }

    /// <summary>
    /// The value of an attribute record of the start tag the reader is on (see <see cref="TryGetPassedAttributes"/>),
    /// as <see cref="TryGetDictionaryString"/> gives it on the attribute's token: its dictionary string when it is a
    /// DictionaryText record.
    /// </summary>
    internal readonly bool TryGetAttributeDictionaryString(in AttributeRecord attribute, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? value)
    {
        value = attribute.ValueType == (byte)RecordType.DictionaryText ? DictionaryTextAt(attribute.PayloadStart) : null;
        return value is not null;
    }

    /// <summary>
    /// The value of an attribute record of the start tag the reader is on, not a list, as <see cref="GetString"/> gives
    /// it on the attribute's token.
    /// </summary>
    internal readonly string GetAttributeString(in AttributeRecord attribute)
    {
        Debug.Assert(!attribute.IsXmlns && attribute.ValueType != (byte)RecordType.StartListText);
        return FormatText(attribute.ValueType, attribute.PayloadStart, attribute.PayloadLength);
    }

    /// <summary>The value as text, as MC-NBFX section 2 renders it (numbers invariant, base64 for bytes, a list space-separated).</summary>
    /// <exception cref="BinaryXmlException">Character text whose check <see cref="Read"/> left to its first read is not
    /// well-formed UTF-8 (checked while it is decoded).</exception>
    public readonly string GetString()
    {
        switch (_s._tokenType)
        {
            case BinaryXmlTokenType.Comment:
                return TextFormatting.DecodeUtf8(_data.Slice(_s._valueStart, _s._valueLength));
            case BinaryXmlTokenType.NamespaceDeclaration:
                return GetName(_s._nsValue).ToString();
            case BinaryXmlTokenType.Text or BinaryXmlTokenType.Attribute:
                if (_s._valueType == (byte)RecordType.StartListText) return GetListString();
                if (TextUnchecked) return DecodeDeferredText();
                return FormatText(_s._valueType, _s._valueStart, _s._valueLength);
            default:
                throw new InvalidOperationException($"A {_s._tokenType} token has no text value.");
        }
    }

    private readonly string GetListString()
    {
        var sb = new StringBuilder();
        int p = _s._valueStart;
        int end = _s._valueStart + _s._valueLength;
        while (p < end)
        {
            int next = ParseTextPayload(p, out byte type, out int start, out int length);
            if (sb.Length > 0 || p != _s._valueStart) sb.Append(' ');
            sb.Append(FormatText(type, start, length));
            p = next;
        }
        return sb.ToString();
    }

    /// <summary>Copies the value's text into <paramref name="destination"/>; returns the number of chars written.</summary>
    /// <exception cref="ArgumentException">The destination is too short.</exception>
    /// <exception cref="BinaryXmlException">Character text whose check <see cref="Read"/> left to its first read is not
    /// well-formed UTF-8 (checked while it is decoded).</exception>
    public readonly int CopyString(Span<char> destination)
    {
        if (_s._tokenType is BinaryXmlTokenType.Text or BinaryXmlTokenType.Attribute)
        {
            ReadOnlySpan<byte> payload = _data.Slice(_s._valueStart, _s._valueLength);
            switch ((RecordType)_s._valueType)
            {
                case RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text:
                    // Checked as it is decoded (text whose check Read deferred is checked here, in the same pass).
                    OperationStatus status = Utf8.ToUtf16(payload, destination, out _, out int written, replaceInvalidSequences: false);
                    if (status == OperationStatus.InvalidData) FailInvalidUtf8(_s._recordType, _s._valueStart);
                    if (status != OperationStatus.Done) throw new ArgumentException("The destination is too short.", nameof(destination));
                    TextChecked();
                    return written;
                case RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                    if (destination.Length < payload.Length / 2) throw new ArgumentException("The destination is too short.", nameof(destination));
                    TextFormatting.CopyUtf16(payload, destination);
                    return payload.Length / 2;
            }
        }
        string s = GetString();
        if (s.Length > destination.Length) throw new ArgumentException("The destination is too short.", nameof(destination));
        s.CopyTo(destination);
        return s.Length;
    }

    /// <summary>Whether the current Text token's UTF-8 is still unchecked: <see cref="Read"/> deferred its check.</summary>
    internal readonly bool TextUnchecked => (_s._pending & PendingStep.CheckText) != 0;

    /// <summary>Checks the UTF-8 of the current Text token if <see cref="Read"/> deferred it (before its bytes are handed
    /// out or parsed, and at the next <see cref="Read"/>).</summary>
    internal readonly void CheckDeferredText()
    {
        if (!TextUnchecked) return;
        if (!Utf8.IsValid(Payload)) FailInvalidUtf8(_s._recordType, _s._valueStart);
        TextChecked();
    }

    /// <summary>Decodes the current Text token, whose check <see cref="Read"/> deferred, checking it in the same pass.</summary>
    private readonly string DecodeDeferredText()
    {
        if (!TextFormatting.TryDecodeUtf8(Payload, out string? text)) FailInvalidUtf8(_s._recordType, _s._valueStart);
        TextChecked();
        return text;
    }

    /// <summary>The current Text token's UTF-8 is known well-formed: the next <see cref="Read"/> does not check it again.</summary>
    internal readonly void TextChecked() => _s._pending &= ~PendingStep.CheckText;

    /// <summary>Fails as the deferred check of the current Text token does: for a caller that decodes the token's UTF-8
    /// itself (the drop-in reader's value chunks) and found it malformed.</summary>
    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    internal readonly void FailDeferredText() => FailInvalidUtf8(_s._recordType, _s._valueStart);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void FailInvalidUtf8(byte type, int payloadStart) => Fail("{0} holds invalid UTF-8", RecordTypes.GetName(type), payloadStart);

    private readonly string FormatText(byte type, int start, int length)
    {
        ReadOnlySpan<byte> payload = _data.Slice(start, length);
        switch ((RecordType)type)
        {
            case RecordType.DictionaryText:
                MultiByteInt31.Decode(payload, out int id, out _);
                return Resolve(id, start).Value;
            case RecordType.QNameDictionaryText:
                MultiByteInt31.Decode(payload[1..], out id, out _);
                return string.Concat(((char)('a' + payload[0])).ToString(), ":", Resolve(id, start + 1).Value);
            case RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                return TextFormatting.DecodeCheckedUtf16(payload);
            default:
                return TextFormatting.Format((RecordType)type, payload)
                    ?? Fail<string>("The {0} value is out of range", RecordTypes.GetName(type), start);
        }
    }

    private readonly void RequireValue()
    {
        if (_s._tokenType is not (BinaryXmlTokenType.Text or BinaryXmlTokenType.Attribute))
            throw new InvalidOperationException($"A {_s._tokenType} token has no typed value.");
    }

    private readonly ReadOnlySpan<byte> Payload => _data.Slice(_s._valueStart, _s._valueLength);

    /// <summary>Reads an integer record (Zero, One, Int8–Int64, UInt64) as a 64-bit value; false for other records.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryGetIntegerRecord(out long value, out bool isUInt64Above)
        => BinaryXmlPrimitives.TryReadIntegerRecord((RecordType)_s._valueType, Payload, out value, out isUInt64Above);

    // ---- The typed records each value type takes ------------------------------------------------------------
    // One rule per type, for the Get… methods below, for ReadElementContentAs…, which converts a record closing its
    // element straight from the payload, and for the drop-in reader's typed reads: true when the record is one the
    // type takes directly and its payload converts; false for any other record. As in .NET's binary reader, any other
    // record is read through its text (the Get… methods parse it, with XmlConvert's rules): a Decimal record read as a
    // double, a Float or Double record as a decimal, a Decimal as an integer (pinned by NativeTypedReadTests and
    // TypedContentDifferentialTests).

    /// <summary>True, False, Bool, Zero and One records.</summary>
    internal static bool TryReadBooleanRecord(RecordType type, ReadOnlySpan<byte> payload, out bool value)
    {
        switch (type)
        {
            case RecordType.TrueText or RecordType.OneText: value = true; return true;
            case RecordType.FalseText or RecordType.ZeroText: value = false; return true;
            case RecordType.BoolText: return BinaryXmlPrimitives.TryReadBoolean(payload, out value);
            default: value = false; return false;
        }
    }

    /// <summary>Integer records (Zero, One, Int8–Int64, UInt64) whose value fits a long.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool TryReadInt64Record(RecordType type, ReadOnlySpan<byte> payload, out long value)
        => BinaryXmlPrimitives.TryReadIntegerRecord(type, payload, out value, out bool above) && !above;

    /// <summary>Integer records whose value fits an int.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static bool TryReadInt32Record(RecordType type, ReadOnlySpan<byte> payload, out int value)
    {
        bool read = TryReadInt64Record(type, payload, out long l) && l == (int)l;
        value = read ? (int)l : 0;
        return read;
    }

    /// <summary>Integer records whose value is not negative.</summary>
    private static bool TryReadUInt64Record(RecordType type, ReadOnlySpan<byte> payload, out ulong value)
    {
        bool integer = BinaryXmlPrimitives.TryReadIntegerRecord(type, payload, out long l, out bool above);
        value = (ulong)l;
        return integer && (above || l >= 0);
    }

    /// <summary>An integer record's value as <typeparamref name="T"/>, as a cast converts it (a UInt64Text value above long's range as unsigned).</summary>
    private static bool TryReadIntegerRecordAs<T>(RecordType type, ReadOnlySpan<byte> payload, out T value) where T : System.Numerics.INumberBase<T>
    {
        bool read = BinaryXmlPrimitives.TryReadIntegerRecord(type, payload, out long l, out bool above);
        value = above ? T.CreateTruncating((ulong)l) : T.CreateTruncating(l);
        return read;
    }

    /// <summary>Double, Float and integer records (a Decimal record goes through its text, rounded once).</summary>
    internal static bool TryReadDoubleRecord(RecordType type, ReadOnlySpan<byte> payload, out double value)
    {
        switch (type)
        {
            case RecordType.DoubleText: value = BinaryPrimitives.ReadDoubleLittleEndian(payload); return true;
            case RecordType.FloatText: value = BinaryPrimitives.ReadSingleLittleEndian(payload); return true;
        }
        return TryReadIntegerRecordAs(type, payload, out value);
    }

    /// <summary>
    /// Float and integer records, and Double records in a float's range or not finite (one past it goes through its
    /// text, as .NET's reader reads it: a float's largest value or an infinity).
    /// </summary>
    internal static bool TryReadSingleRecord(RecordType type, ReadOnlySpan<byte> payload, out float value)
    {
        switch (type)
        {
            case RecordType.FloatText:
                value = BinaryPrimitives.ReadSingleLittleEndian(payload);
                return true;
            case RecordType.DoubleText:
                double d = BinaryPrimitives.ReadDoubleLittleEndian(payload);
                bool inRange = !double.IsFinite(d) || d is >= float.MinValue and <= float.MaxValue;
                value = inRange ? (float)d : 0;
                return inRange;
        }
        return TryReadIntegerRecordAs(type, payload, out value);
    }

    /// <summary>Decimal and integer records (a Float or Double record goes through its text, as .NET's reader reads it).</summary>
    internal static bool TryReadDecimalRecord(RecordType type, ReadOnlySpan<byte> payload, out decimal value)
    {
        if (type == RecordType.DecimalText) return BinaryXmlPrimitives.TryReadDecimal(payload, out value);
        return TryReadIntegerRecordAs(type, payload, out value);
    }

    /// <summary>DateTime records (the kind restored).</summary>
    internal static bool TryReadDateTimeRecord(RecordType type, ReadOnlySpan<byte> payload, out DateTime value)
    {
        value = default;
        return type == RecordType.DateTimeText && BinaryXmlPrimitives.TryReadDateTime(payload, out value);
    }

    /// <summary>TimeSpan records.</summary>
    internal static bool TryReadTimeSpanRecord(RecordType type, ReadOnlySpan<byte> payload, out TimeSpan value)
    {
        value = default;
        return type == RecordType.TimeSpanText && BinaryXmlPrimitives.TryReadTimeSpan(payload, out value);
    }

    /// <summary>Uuid and UniqueId records.</summary>
    private static bool TryReadGuidRecord(RecordType type, ReadOnlySpan<byte> payload, out Guid value)
    {
        value = default;
        return type is RecordType.UuidText or RecordType.UniqueIdText && BinaryXmlPrimitives.TryReadGuid(payload, out value);
    }

    // ---- Typed values ----------------------------------------------------------------------------------------

    /// <summary>Reads a Boolean: True/False/Bool records, Zero/One, or the text "true", "false", "1", "0" (any other record by its text, as .NET's reader reads it).</summary>
    public readonly bool TryGetBoolean(out bool value)
    {
        RequireValue();
        return TryReadBooleanRecord((RecordType)_s._valueType, Payload, out value) || TryParseBooleanText(out value);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly bool TryParseBooleanText(out bool value)
    {
        value = false;
        if (IsCharsRecord && PlainValueText.TryParseBoolean(Payload, out value)) return PlainTextRead();
        Span<char> buffer = stackalloc char[TextBufferLength];
        ReadOnlySpan<char> text = GetTextChars(buffer).Trim(XmlWhitespace);
        if (text is "true" or "1") { value = true; return true; }
        return text is "false" or "0";
    }

    // The typed getters parse text out of line (NoInlining): a character buffer in their own frame makes every call
    // set up a stack cookie and clear the frame, also for the typed records that never need it.

    /// <summary>The value's text (a typed record's as .NET's reader formats it) parsed as <typeparamref name="T"/> with <paramref name="style"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly bool TryParseNumberText<T>(System.Globalization.NumberStyles style, out T value) where T : struct, System.Numerics.INumberBase<T>
    {
        if (IsCharsRecord && PlainValueText.TryParse(Payload, out value)) return PlainTextRead();
        Span<char> buffer = stackalloc char[TextBufferLength];
        return T.TryParse(GetTextChars(buffer), style, System.Globalization.CultureInfo.InvariantCulture, out value);
    }

    /// <summary>
    /// The value's text (a typed record's as .NET's reader formats it) parsed as an xsd:double or xsd:float
    /// (<see cref="TryParseXmlFloatingPoint"/>) with <paramref name="style"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly bool TryParseFloatingPointText<T>(System.Globalization.NumberStyles style, out T value) where T : struct, System.Numerics.IFloatingPointIeee754<T>
    {
        if (IsCharsRecord && PlainValueText.TryParse(Payload, out value)) return PlainTextRead();
        Span<char> buffer = stackalloc char[TextBufferLength];
        return TryParseXmlFloatingPoint(GetTextChars(buffer), style, out value);
    }

    // A Chars record's UTF-8 in the plain form (PlainValueText) is parsed as it is, without decoding it: the value the
    // rules for characters give. Plain text is ASCII, so its deferred check is done then (PlainTextRead).

    private readonly bool IsCharsRecord => _s._valueType is (byte)RecordType.Chars8Text or (byte)RecordType.Chars16Text or (byte)RecordType.Chars32Text;

    private readonly bool PlainTextRead()
    {
        TextChecked();
        return true;
    }

    private const int TextBufferLength = 128;
    private const string XmlWhitespace = " \t\r\n";

    /// <summary>
    /// The value's characters: those of a Chars or UnicodeChars text record, or of a Boolean or number record, written
    /// into <paramref name="buffer"/> when they fit (no allocation), otherwise (longer text, any other record's text)
    /// a new string.
    /// </summary>
    private readonly ReadOnlySpan<char> GetTextChars(Span<char> buffer)
    {
        CheckDeferredText();
        ReadOnlySpan<byte> payload = Payload;
        switch ((RecordType)_s._valueType)
        {
            case RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text:
                if (Utf8.ToUtf16(payload, buffer, out _, out int written) == OperationStatus.Done) return buffer[..written];
                break;
            case RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                if (BitConverter.IsLittleEndian && payload.Length / 2 <= buffer.Length) return MemoryMarshal.Cast<byte, char>(payload);
                break;
            case RecordType.EmptyText:
                return default;
            default:
                if (TextFormatting.TryFormatNumber((RecordType)_s._valueType, payload, buffer, out written)) return buffer[..written];
                break;
        }
        return GetString();
    }

    // XmlConvert's number styles: a leading sign, and white space around.
    private const System.Globalization.NumberStyles IntegerStyle = System.Globalization.NumberStyles.AllowLeadingSign
        | System.Globalization.NumberStyles.AllowLeadingWhite | System.Globalization.NumberStyles.AllowTrailingWhite;

    // XmlConvert's styles for floating point: a double also takes white space around its number (after the XML white
    // space is trimmed: a vertical tab or form feed), a float does not (pinned by NativeTypedReadTests).
    private const System.Globalization.NumberStyles FloatStyle = System.Globalization.NumberStyles.AllowLeadingSign
        | System.Globalization.NumberStyles.AllowDecimalPoint | System.Globalization.NumberStyles.AllowExponent;

    private const System.Globalization.NumberStyles DoubleStyle = IntegerStyle | FloatStyle;

    /// <summary>
    /// Text as XmlConvert reads an xsd:double or xsd:float: XML white space trimmed, INF, -INF and NaN, otherwise the
    /// number parsed as <typeparamref name="T"/> itself, rounded once (a float parsed as a double and then narrowed
    /// would round twice), out of range as an infinity.
    /// </summary>
    private static bool TryParseXmlFloatingPoint<T>(ReadOnlySpan<char> text, System.Globalization.NumberStyles style, out T value) where T : struct, System.Numerics.IFloatingPointIeee754<T>
    {
        text = text.Trim(XmlWhitespace);
        if (text is "INF") { value = T.PositiveInfinity; return true; }
        if (text is "-INF") { value = T.NegativeInfinity; return true; }
        if (text is "NaN") { value = T.NaN; return true; }
        return T.TryParse(text, style, System.Globalization.CultureInfo.InvariantCulture, out value);
    }

    /// <summary>Reads a Boolean; see <see cref="TryGetBoolean"/>.</summary>
    public readonly bool GetBoolean() => TryGetBoolean(out bool v) ? v : throw CannotRead("Boolean");

    /// <summary>Reads a 32-bit integer from an integer record in range, or from text (any other record by its text, as .NET's reader reads it).</summary>
    public readonly bool TryGetInt32(out int value)
    {
        bool read = TryGetInt64(out long l) && l == (int)l;
        value = read ? (int)l : 0;
        return read;
    }

    /// <summary>Reads a 32-bit integer; <see cref="OverflowException"/> when an integer record is out of range.</summary>
    public readonly int GetInt32()
    {
        if (TryGetInt32(out int v)) return v;
        throw TryGetInt64(out _) || (TryGetIntegerRecord(out _, out bool above) && above) ? new OverflowException("The value does not fit in an Int32.") : CannotRead("Int32");
    }

    /// <summary>Reads a 64-bit integer from an integer record in range, or from text (any other record by its text, as .NET's reader reads it).</summary>
    public readonly bool TryGetInt64(out long value)
    {
        RequireValue();
        return TryReadInt64Record((RecordType)_s._valueType, Payload, out value) || TryParseNumberText(IntegerStyle, out value);
    }

    /// <summary>Reads a 64-bit integer.</summary>
    public readonly long GetInt64() => TryGetInt64(out long v) ? v : throw (TryGetIntegerRecord(out _, out bool above) && above ? new OverflowException("The value does not fit in an Int64.") : CannotRead("Int64"));

    /// <summary>Reads an unsigned 64-bit integer from a non-negative integer record, or from text (any other record by its text, as .NET's reader reads it).</summary>
    public readonly bool TryGetUInt64(out ulong value)
    {
        RequireValue();
        return TryReadUInt64Record((RecordType)_s._valueType, Payload, out value) || TryParseNumberText(IntegerStyle, out value);
    }

    /// <summary>Reads an unsigned 64-bit integer.</summary>
    public readonly ulong GetUInt64() => TryGetUInt64(out ulong v) ? v : throw CannotRead("UInt64");

    /// <summary>Reads a double from Float, Double and integer records, or from text as XmlConvert reads an xsd:double (any other record, a Decimal included, by its text, as .NET's reader reads it).</summary>
    public readonly bool TryGetDouble(out double value)
    {
        RequireValue();
        return TryReadDoubleRecord((RecordType)_s._valueType, Payload, out value) || TryParseFloatingPointText(DoubleStyle, out value);
    }

    /// <summary>Reads a double.</summary>
    public readonly double GetDouble() => TryGetDouble(out double v) ? v : throw CannotRead("Double");

    /// <summary>Reads a float: Float records exactly; a Double when it is in range or not finite; integers; text as XmlConvert reads an xsd:float (rounded once, past the range an infinity; any other record by its text, as .NET's reader reads it).</summary>
    public readonly bool TryGetSingle(out float value)
    {
        RequireValue();
        return TryReadSingleRecord((RecordType)_s._valueType, Payload, out value) || TryParseFloatingPointText(FloatStyle, out value);
    }

    /// <summary>Reads a float.</summary>
    public readonly float GetSingle() => TryGetSingle(out float v) ? v : throw CannotRead("Single");

    /// <summary>Reads a decimal from Decimal and integer records, or from text (any other record, Float and Double included, by its text, as .NET's reader reads it: 0.1 for the float 0.1, and no exponent).</summary>
    public readonly bool TryGetDecimal(out decimal value)
    {
        RequireValue();
        return TryReadDecimalRecord((RecordType)_s._valueType, Payload, out value) || TryParseNumberText(IntegerStyle | System.Globalization.NumberStyles.AllowDecimalPoint, out value);
    }

    /// <summary>Reads a decimal.</summary>
    public readonly decimal GetDecimal() => TryGetDecimal(out decimal v) ? v : throw CannotRead("Decimal");

    /// <summary>Reads a DateTime from a DateTimeText record (kind restored) or from text (any other record by its text).</summary>
    public readonly bool TryGetDateTime(out DateTime value)
    {
        RequireValue();
        if (TryReadDateTimeRecord((RecordType)_s._valueType, Payload, out value)) return true;
        try { value = XmlConvert.ToDateTime(GetString(), XmlDateTimeSerializationMode.RoundtripKind); return true; }
        catch (FormatException) { }
        value = default;
        return false;
    }

    /// <summary>Reads a DateTime.</summary>
    public readonly DateTime GetDateTime() => TryGetDateTime(out DateTime v) ? v : throw CannotRead("DateTime");

    /// <summary>Reads a TimeSpan from a TimeSpanText record or from xsd:duration text (any other record by its text).</summary>
    public readonly bool TryGetTimeSpan(out TimeSpan value)
    {
        RequireValue();
        if (TryReadTimeSpanRecord((RecordType)_s._valueType, Payload, out value)) return true;
        try { value = XmlConvert.ToTimeSpan(GetString()); return true; }
        catch (Exception e) when (e is FormatException or OverflowException) { }
        value = default;
        return false;
    }

    /// <summary>Reads a TimeSpan.</summary>
    public readonly TimeSpan GetTimeSpan() => TryGetTimeSpan(out TimeSpan v) ? v : throw CannotRead("TimeSpan");

    /// <summary>Reads a GUID from UuidText or UniqueIdText, or from text (with or without <c>urn:uuid:</c>; any other record by its text).</summary>
    public readonly bool TryGetGuid(out Guid value)
    {
        RequireValue();
        return TryReadGuidRecord((RecordType)_s._valueType, Payload, out value) || TryParseGuidText(out value);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly bool TryParseGuidText(out Guid value)
    {
        value = default;
        Span<char> buffer = stackalloc char[TextBufferLength];
        ReadOnlySpan<char> text = GetTextChars(buffer).Trim(XmlWhitespace);
        if (text.StartsWith("urn:uuid:", StringComparison.Ordinal)) text = text[9..];
        return Guid.TryParse(text, out value);
    }

    /// <summary>Reads a GUID.</summary>
    public readonly Guid GetGuid() => TryGetGuid(out Guid v) ? v : throw CannotRead("Guid");

    /// <summary>
    /// Reads a <see cref="UniqueId"/>: a UniqueIdText record's GUID, or any other value's text (white space trimmed) as
    /// .NET's reader reads it: a UuidText record gives the UniqueId of the GUID's plain text, not of the GUID.
    /// </summary>
    public readonly UniqueId GetUniqueId()
    {
        RequireValue();
        if (_s._valueType == (byte)RecordType.UniqueIdText)
        {
            // The payload is in Guid.ToByteArray() order, the order UniqueId's array constructor reads (the Guid
            // constructor would allocate that array).
            byte[] bytes = _s._uniqueIdBytes ??= new byte[16];
            Payload.CopyTo(bytes);
            return new UniqueId(bytes, 0);
        }
        return GetUniqueIdFromText();
    }

    /// <summary>Any value but a UniqueIdText record: its text, trimmed of any white space (a vertical tab, a no-break space), as .NET's reader trims it. Out of line, away from the record's path.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly UniqueId GetUniqueIdFromText()
    {
        try { return new UniqueId(GetString().Trim()); }
        catch (ArgumentException) { throw CannotRead("UniqueId"); }
    }

    /// <summary>The value's bytes: the payload of a Bytes record, or any other value's text base64-decoded (as .NET's reader decodes it: "true" is three bytes).</summary>
    public readonly byte[] GetBytesFromBase64()
    {
        RequireValue();
        if (_s._valueType is (byte)RecordType.Bytes8Text or (byte)RecordType.Bytes16Text or (byte)RecordType.Bytes32Text) return Payload.ToArray();
        if (_s._valueType == (byte)RecordType.EmptyText) return [];
        return GetBytesFromBase64Text();
    }

    /// <summary>Any other value's text, base64-decoded as .NET's reader decodes it (<see cref="Base64Blocks.DecodeWhole"/>). Out of line, away from the Bytes record's path.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly byte[] GetBytesFromBase64Text() => Base64Blocks.DecodeWhole(GetString()) ?? throw CannotRead("base64 bytes");

    private readonly FormatException CannotRead(string what)
        => new($"The {RecordTypes.GetName(_s._valueType)} value at byte offset {_s._tokenStart} cannot be read as {what}.");

    // ---- Arrays ----------------------------------------------------------------------------------------------

    /// <summary>Copies Boolean array items; returns the number copied (the smaller of the lengths).</summary>
    public readonly int CopyArray(Span<bool> destination) => CopyItems(destination, RecordType.BoolTextWithEndElement);

    /// <summary>Copies Int16 array items.</summary>
    public readonly int CopyArray(Span<short> destination) => CopyItems(destination, RecordType.Int16TextWithEndElement);

    /// <summary>Copies Int32 array items.</summary>
    public readonly int CopyArray(Span<int> destination) => CopyItems(destination, RecordType.Int32TextWithEndElement);

    /// <summary>Copies Int64 array items.</summary>
    public readonly int CopyArray(Span<long> destination) => CopyItems(destination, RecordType.Int64TextWithEndElement);

    /// <summary>Copies Float array items.</summary>
    public readonly int CopyArray(Span<float> destination) => CopyItems(destination, RecordType.FloatTextWithEndElement);

    /// <summary>Copies Double array items.</summary>
    public readonly int CopyArray(Span<double> destination) => CopyItems(destination, RecordType.DoubleTextWithEndElement);

    /// <summary>Copies TimeSpan array items.</summary>
    public readonly int CopyArray(Span<TimeSpan> destination) => CopyItems(destination, RecordType.TimeSpanTextWithEndElement);

    /// <summary>Copies Guid array items.</summary>
    public readonly int CopyArray(Span<Guid> destination) => CopyItems(destination, RecordType.UuidTextWithEndElement);

    /// <summary>Copies Decimal array items; an item with invalid flags throws <see cref="BinaryXmlException"/>.</summary>
    public readonly int CopyArray(Span<decimal> destination) => CopyItems(destination, RecordType.DecimalTextWithEndElement);

    /// <summary>Copies DateTime array items (<see cref="DateTime.FromBinary"/> per item).</summary>
    public readonly int CopyArray(Span<DateTime> destination) => CopyItems(destination, RecordType.DateTimeTextWithEndElement);

    /// <summary>Test hook: convert array items one by one, the big-endian path.</summary>
    internal bool ForceElementwiseArrays { readonly get => _s._forceElementwiseArrays; set => _s._forceElementwiseArrays = value; }

    private readonly int CopyItems<T>(Span<T> destination, RecordType itemType) where T : unmanaged
    {
        BinaryXmlPrimitives.IsArrayItemType(itemType, out int size);
        ReadOnlySpan<byte> items = ArrayItems(itemType, size, destination.Length, out int count);
        ConvertArrayItems(items[..(count * size)], itemType, destination[..count], _s._valueStart, ForceElementwiseArrays);
        return count;
    }

    /// <summary>
    /// Converts array items (little-endian on the wire) into <paramref name="destination"/>, one item per element:
    /// a bulk copy where the layouts agree, item by item where the bytes need validation (Decimal, DateTime) or
    /// byte swapping. An invalid item throws <see cref="BinaryXmlException"/> naming its offset
    /// (<paramref name="itemsOffset"/> is the offset of the first item in the input).
    /// </summary>
    internal static void ConvertArrayItems<T>(ReadOnlySpan<byte> items, RecordType itemType, Span<T> destination, int itemsOffset, bool elementwise = false) where T : unmanaged
    {
        int size = System.Runtime.CompilerServices.Unsafe.SizeOf<T>();
        if (itemType is RecordType.DecimalTextWithEndElement or RecordType.DateTimeTextWithEndElement)
        {
            Span<byte> bytes = MemoryMarshal.AsBytes(destination);
            // The items taken as they are (valid decimals; DateTimes neither local nor out of range) are checked as they
            // are copied, a vector at a time; from the first that is not, item by item, as on a big-endian host (which
            // fails on an invalid one, the items before it read and those after it untouched).
            int plain = 0;
            if (BitConverter.IsLittleEndian && !elementwise)
            {
                ReadOnlySpan<byte> all = items[..(destination.Length * size)];
                plain = itemType == RecordType.DecimalTextWithEndElement ? BinaryXmlPrimitives.CopyValidDecimals(all, bytes) : BinaryXmlPrimitives.CopyPlainDateTimes(all, bytes);
            }
            for (int i = plain; i < destination.Length; i++)
            {
                ReadOnlySpan<byte> item = items.Slice(i * size, size);
                bool valid;
                if (itemType == RecordType.DecimalTextWithEndElement)
                {
                    valid = BinaryXmlPrimitives.TryReadDecimal(item, out decimal d);
                    if (valid) MemoryMarshal.Write(bytes.Slice(i * size, size), in d);
                }
                else
                {
                    valid = BinaryXmlPrimitives.TryReadDateTime(item, out DateTime t);
                    if (valid) MemoryMarshal.Write(bytes.Slice(i * size, size), in t);
                }
                if (!valid) Fail("Array item {0} is not a valid {1} value", i, RecordTypes.GetName((byte)itemType), itemsOffset + size * i);
            }
            return;
        }
        if (BitConverter.IsLittleEndian && !elementwise)
        {
            items[..(destination.Length * size)].CopyTo(MemoryMarshal.AsBytes(destination));
            return;
        }
        Span<byte> target = MemoryMarshal.AsBytes(destination);
        for (int i = 0; i < destination.Length; i++)
        {
            ReadOnlySpan<byte> item = items.Slice(i * size, size);
            Span<byte> to = target.Slice(i * size, size);
            switch (itemType)
            {
                case RecordType.Int16TextWithEndElement: MemoryMarshal.Write(to, BinaryPrimitives.ReadInt16LittleEndian(item)); break;
                case RecordType.Int32TextWithEndElement: MemoryMarshal.Write(to, BinaryPrimitives.ReadInt32LittleEndian(item)); break;
                case RecordType.Int64TextWithEndElement:
                case RecordType.TimeSpanTextWithEndElement: MemoryMarshal.Write(to, BinaryPrimitives.ReadInt64LittleEndian(item)); break;
                case RecordType.FloatTextWithEndElement: MemoryMarshal.Write(to, BinaryPrimitives.ReadSingleLittleEndian(item)); break;
                case RecordType.DoubleTextWithEndElement: MemoryMarshal.Write(to, BinaryPrimitives.ReadDoubleLittleEndian(item)); break;
                case RecordType.UuidTextWithEndElement: MemoryMarshal.Write(to, new Guid(item)); break;
                default: item.CopyTo(to); break;
            }
        }
    }

    private readonly ReadOnlySpan<byte> ArrayItems(RecordType itemType, int itemSize, int capacity, out int count)
    {
        if (_s._tokenType != BinaryXmlTokenType.ArrayData) throw new InvalidOperationException($"A {_s._tokenType} token has no array items.");
        if ((RecordType)_s._recordType != itemType) throw new InvalidOperationException($"The array holds {RecordTypes.GetName(_s._recordType)} items, not {RecordTypes.GetName((byte)itemType)}.");
        count = Math.Min(capacity, ArrayLength);
        return _data.Slice(_s._valueStart, ArrayLength * itemSize);
    }
}
