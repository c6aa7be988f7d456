using System.Buffers;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Text;
using System.Xml;
using BinaryXml.Soap;

namespace BinaryXml;

/// <summary>
/// A forward-only, zero-allocation pull reader of MC-NBFX binary XML over a <see cref="ReadOnlySpan{T}"/>.
/// Each <see cref="Read"/> moves to the next token: element starts, their attributes and namespace declarations,
/// text, list brackets, array data, comments and element ends (including the end implied by a
/// <c>…WithEndElement</c> text record).
/// </summary>
/// <remarks>
/// The reader validates structure as .NET's binary reader does (record bytes, attribute placement, lists, arrays,
/// prefixes bound, duplicate attributes, one root element, lengths against the remaining input) plus
/// <see cref="BinaryXmlReaderOptions.MaxDepth"/>. Anything malformed or truncated throws
/// <see cref="BinaryXmlException"/> with the byte offset; no other exception escapes <see cref="Read"/>.
/// The UTF-8 of character text inside an element (other than short ASCII, checked at once) is checked when its value
/// is first taken (<see cref="GetString"/>, <see cref="CopyString"/>, <see cref="ValueSpan"/>, a typed getter, the
/// <c>TryGet…</c> ones included), in the same pass that decodes it, or else by the next <see cref="Read"/>: malformed
/// text fails there with <see cref="BinaryXmlException"/>, the same message and offset, and text is never handed out
/// unchecked.
/// Scope bookkeeping uses pooled arrays: call <see cref="Dispose"/> to return them. Do not copy the reader.
/// </remarks>
public ref partial struct BinaryXmlReader
{
    private static ReadOnlySpan<byte> Letters => "abcdefghijklmnopqrstuvwxyz"u8;
    private static ReadOnlySpan<byte> XmlPrefix => "xml"u8;
    private static ReadOnlySpan<byte> XmlnsPrefix => "xmlns"u8;
    private static ReadOnlySpan<byte> XmlNamespaceUtf8 => "http://www.w3.org/XML/1998/namespace"u8;

    private readonly ReadOnlySpan<byte> _data;
    private readonly ReaderState _s;

    /// <summary>Creates a reader over a whole document.</summary>
    /// <param name="data">The binary XML document.</param>
    /// <param name="dictionary">The static dictionary for even ids, or null (even ids are then an error).</param>
    /// <param name="session">The session for odd ids, or null (odd ids are then an error).</param>
    /// <param name="options">Limits, or null for <see cref="BinaryXmlReaderOptions.Default"/>.</param>
    public BinaryXmlReader(ReadOnlySpan<byte> data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null, BinaryXmlReaderOptions? options = null)
        : this(data, null, dictionary, session, options)
    {
        // Text the caller reads is checked as it is decoded, in one pass; text passed over is checked by the next Read.
        _s._contentTextChecks = TextChecks.DeferUtf8;
    }

    /// <summary>A reader over a new document that takes over <paramref name="reuse"/> (cleared here), the state of a
    /// reader its owner no longer uses, or rents one when it is null.</summary>
    internal BinaryXmlReader(ReadOnlySpan<byte> data, ReaderState? reuse, IXmlDictionary? dictionary, XmlBinaryReaderSession? session, BinaryXmlReaderOptions? options)
    {
        _data = data;
        _s = reuse is null ? ReaderState.Rent() : ReaderState.Recycle(reuse);
        _s._dictionary = dictionary;
        _s._staticStrings = (dictionary as NbfsDictionary)?.Strings;
        _s._session = session;
        options ??= BinaryXmlReaderOptions.Default;
        _s._maxDepth = options.MaxDepth;
        _s._maxStringContentLength = options.MaxStringContentLength;
        _s._maxArrayLength = options.MaxArrayLength;
        _s._maxBytesPerRead = options.MaxBytesPerRead;
        _s._requireBoundPrefixes = options.RequireBoundPrefixes;
    }

    /// <summary>Resumes reading <paramref name="data"/> (the same input) from a state taken with <see cref="CurrentState"/>.</summary>
    public BinaryXmlReader(ReadOnlySpan<byte> data, BinaryXmlReaderState state)
    {
        _data = data;
        _s = state._state ?? throw new ArgumentException("The state does not come from a reader.", nameof(state));
    }

    /// <summary>A reader on a state that is known to be a reader's (the drop-in reader's own).</summary>
    internal BinaryXmlReader(ReadOnlySpan<byte> data, ReaderState state)
    {
        _data = data;
        _s = state;
    }

    /// <summary>Whether the next <see cref="Read"/> returns another attribute or namespace declaration of the current element.</summary>
    internal readonly bool NextIsAttribute => _s._phase == ReaderPhase.Attributes && _s._attrIndex < _s._attrCount;

    /// <summary>The state to resume from later with <see cref="BinaryXmlReader(ReadOnlySpan{byte}, BinaryXmlReaderState)"/>.</summary>
    public readonly BinaryXmlReaderState CurrentState => new(_s);

    /// <summary>The kind of token the reader is on.</summary>
    public readonly BinaryXmlTokenType TokenType => _s._tokenType;

    /// <summary>The type byte of the record the token came from (for an implied end element, the text record's).</summary>
    public readonly RecordType RecordType => (RecordType)_s._recordType;

    /// <summary>The depth as <see cref="XmlReader.Depth"/> counts it: the root element is 0, its attributes and content 1.</summary>
    public readonly int CurrentDepth => _s._tokenType is BinaryXmlTokenType.StartElement or BinaryXmlTokenType.EndElement ? _s._depth - 1 : _s._tokenDepth;

    /// <summary>The offset of the current token's record.</summary>
    public readonly int TokenStartIndex => _s._tokenStart;

    /// <summary>The bytes consumed so far.</summary>
    public readonly int BytesConsumed => _s._pos;

    /// <summary>Whether the current StartElement is the element of an Array record (its items follow as <see cref="BinaryXmlTokenType.ArrayData"/>).</summary>
    public readonly bool IsArray => _s._tokenType == BinaryXmlTokenType.StartElement && _s._isArray;

    /// <summary>Gives the reader's state (and its scratch arrays) to the next reader on this thread; the reader, and every
    /// <see cref="BinaryXmlReaderState"/> taken from it, must not be used afterwards.</summary>
    public readonly void Dispose() => ReaderState.Return(_s);

    /// <summary>Moves to the next token. Returns false at the end of the document.</summary>
    /// <exception cref="BinaryXmlException">The input is malformed, truncated, or exceeds a limit.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Read() => ReadOn(_s);

    /// <summary>
    /// <see cref="Read()"/> with this reader's state passed in: a caller that builds the reader for one read (the
    /// drop-in reader) has the state in a register, where the reader's copy of it is read back from memory.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool ReadOn(ReaderState s)
    {
        Debug.Assert(ReferenceEquals(s, _s));
        PendingStep pending = s._pending;
        if (pending != PendingStep.None)
        {
            if ((pending & PendingStep.CheckText) != 0)
            {
                CheckDeferredText();
                pending = s._pending;
            }
            if (pending == PendingStep.PopScope)
            {
                s._pending = PendingStep.None;
                PopScope(s);
            }
            else if (pending == PendingStep.EndElement)
            {
                EmitEndElement();
                return true;
            }
        }
        // Most reads are of content: the other phases are tested only when the reader is in one.
        if (s._phase != ReaderPhase.Content)
        {
            switch (s._phase)
            {
                case ReaderPhase.Attributes:
                    if (s._attrIndex < s._attrCount)
                    {
                        EmitAttribute(ref s._attributes![s._attrIndex++]);
                        return true;
                    }
                    if (s._arrayCount > 0)
                    {
                        EmitArrayData();
                        return true;
                    }
                    s._phase = ReaderPhase.Content;
                    break;
                case ReaderPhase.AttributeList:
                case ReaderPhase.ContentList:
                    ReadListItem();
                    return true;
                case ReaderPhase.ArrayEnd:
                    s._phase = ReaderPhase.Content;
                    PopScope(s);
                    break;
            }
        }
        return ReadContent();
    }

    private bool ReadContent()
    {
        ReaderState s = _s;
        // No ClearToken for the common tokens: each sets the fields it has, and names and values are read only on
        // tokens that have them (see ClearToken).
        if (s._pos >= _data.Length)
        {
            if (s._depth > 0) ThrowUnclosed(s._pos);
            ClearToken();
            s._tokenType = BinaryXmlTokenType.None;
            s._tokenStart = s._pos;
            s._tokenDepth = 0;
            return false;
        }
        int start = s._pos;
        byte type = _data[start];
        s._tokenStart = start;
        s._recordType = type;
        // The common families first, with branches of their own (a jump table's indirect jump costs more).
        if (RecordTypes.IsElement(type))
        {
            ReadStartElement(start, isArray: false);
            return true;
        }
        RecordFamily family = RecordTypes.GetFamily(type);
        if (family == RecordFamily.Text)
        {
            ReadContentText(start, type);
            return true;
        }
        switch (family)
        {
            case RecordFamily.EndElement:
                if (s._depth == 0) Fail("An EndElement record has no open element to close", start);
                s._pos = start + 1;
                EmitEndElement();
                return true;
            case RecordFamily.Comment:
            {
                // A comment has no name (as XmlReader's): its text is its value.
                ClearToken();
                NameRef text = ReadInlineString(start + 1, out s._pos, "comment");
                CheckStringQuota(_data.Slice(text.Offset, text.Length), utf16: false, start);
                s._tokenType = BinaryXmlTokenType.Comment;
                s._tokenDepth = s._depth;
                s._valueStart = text.Offset;
                s._valueLength = text.Length;
                return true;
            }
            case RecordFamily.Array:
                ReadArrayStart(start);
                return true;
            case RecordFamily.Attribute:
            case RecordFamily.XmlnsAttribute:
                return Fail<bool>("An attribute record ({0}) appears where element content is expected", RecordTypes.GetName(type), start);
            default:
                return Fail<bool>("Record type 0x{0:X2} is reserved", type, start);
        }
    }

    private void ReadContentText(int start, byte type)
    {
        ReaderState s = _s;
        if (type == (byte)RecordType.EndListText) Fail("An EndListText record appears outside a list", start);
        if (type == (byte)RecordType.StartListText)
        {
            // Like typed records, a list outside the root element is accepted, as .NET's reader accepts it.
            ClearToken();
            s._pos = start + 1;
            s._tokenType = BinaryXmlTokenType.StartList;
            s._tokenDepth = s._depth;
            s._phase = ReaderPhase.ContentList;
            s._listPos = s._pos;
            return;
        }
        // The native reader may leave the UTF-8 check of longer text to the value's first read or the next Read
        // (PendingStep.CheckText).
        int end = ParseTextValue(start, s._contentTextChecks);
        bool withEnd = (type & 1) != 0;
        if (s._depth == 0)
        {
            if (withEnd) Fail("{0} implies an end element outside any element", RecordTypes.GetName(type), start);
            CheckTopLevelText(start);
        }
        EnterTextToken(end, withEnd);
    }

    /// <summary>Makes the text record parsed up to <paramref name="end"/> the current token; a <c>…WithEndElement</c> record's end comes next.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EnterTextToken(int end, bool withEnd)
    {
        ReaderState s = _s;
        s._pos = end;
        s._tokenType = BinaryXmlTokenType.Text;
        s._tokenDepth = s._depth;
        if (withEnd) s._pending |= PendingStep.EndElement;
    }

    /// <summary>Outside the root element only whitespace text is allowed (dotnet-behaviour 6.2).</summary>
    private readonly void CheckTopLevelText(int start)
    {
        // Malformed UTF-8 fails as such, before the whitespace test.
        CheckDeferredText();
        switch ((RecordType)_s._valueType)
        {
            case RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text
                or RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                if (!IsWhitespaceText(_s._valueType, _data.Slice(_s._valueStart, _s._valueLength))) Fail("Text other than whitespace appears outside the root element", start);
                break;
            case RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text:
                if (_s._valueLength > 0) Fail("Binary text appears outside the root element", start);
                break;
        }
    }

    /// <summary>
    /// Whether a text record's value (<paramref name="valueType"/> in its even form, <paramref name="payload"/> its
    /// bytes) is XML whitespace only (space, tab, CR, LF) or empty: character records of such characters, empty text,
    /// empty bytes. Typed records never are; dictionary text is not resolved here (false).
    /// </summary>
    internal static bool IsWhitespaceText(byte valueType, ReadOnlySpan<byte> payload)
    {
        switch ((RecordType)valueType)
        {
            case RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text:
                return payload.IndexOfAnyExcept(" \t\r\n"u8) < 0;
            case RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                for (int i = 0; i + 1 < payload.Length; i += 2)
                {
                    if (payload[i + 1] != 0 || payload[i] is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n')) return false;
                }
                return true;
            case RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text or RecordType.EmptyText:
                return payload.IsEmpty;
            default:
                return false;
        }
    }

    private void ReadListItem()
    {
        ReaderState s = _s;
        ClearToken();
        int start = s._listPos;
        if (start >= _data.Length) Fail("The input ends inside a list", start);
        byte type = _data[start];
        s._tokenStart = start;
        s._recordType = type;
        s._tokenDepth = s._phase == ReaderPhase.AttributeList ? s._depth + 1 : s._depth;
        if (type == (byte)RecordType.EndListText)
        {
            s._tokenType = BinaryXmlTokenType.EndList;
            s._listPos = start + 1;
            if (s._phase == ReaderPhase.ContentList) s._pos = s._listPos;
            s._phase = s._phase == ReaderPhase.AttributeList ? ReaderPhase.Attributes : ReaderPhase.Content;
            return;
        }
        CheckListItem(start, type);
        s._listPos = ParseTextValue(start);
        if (s._phase == ReaderPhase.ContentList) s._pos = s._listPos;
        s._tokenType = BinaryXmlTokenType.Text;
    }

    private readonly void CheckListItem(int start, byte type)
    {
        if (type == (byte)RecordType.StartListText) Fail("Lists cannot be nested", start);
        if (RecordTypes.GetFamily(type) != RecordFamily.Text) Fail("A list may hold only text records, not {0}", RecordTypes.GetName(type), start);
        if ((type & 1) != 0) Fail("{0} cannot appear inside a list", RecordTypes.GetName(type), start);
    }

    /// <summary>
    /// Clears the token's names and value. The common tokens (start and end tags, text) do not: each sets only the
    /// fields it has, and the others keep the previous token's. Names are therefore read from the innermost element
    /// on tags (<see cref="IsElementToken"/>), from the token on attributes (<see cref="IsAttributeToken"/>), and
    /// values only on tokens that have one (<see cref="HasValue"/>, or the token type tested first).
    /// </summary>
    private void ClearToken()
    {
        ReaderState s = _s;
        s._prefix = default;
        s._localName = default;
        s._nsValue = default;
        s._valueType = 0;
        s._valueStart = 0;
        s._valueLength = 0;
    }

    private void EmitEndElement(int recordStart, byte recordType) => EmitEndElement(_s, recordStart, recordType);

    /// <summary><see cref="EmitEndElement(int, byte)"/> on the state in hand.</summary>
    private static void EmitEndElement(ReaderState s, int recordStart, byte recordType)
    {
        s._tokenStart = recordStart;
        s._recordType = recordType;
        EmitEndElement(s);
    }

    /// <summary>An EndElement token from the record the token start and record type already give (an EndElement
    /// record, or the text record whose end element it is).</summary>
    private void EmitEndElement() => EmitEndElement(_s);

    private static void EmitEndElement(ReaderState s)
    {
        // Its names are the innermost element's (see IsElementToken).
        s._tokenType = BinaryXmlTokenType.EndElement;
        s._pending = PendingStep.PopScope;
    }

    /// <summary>
    /// Closes the innermost element's scope in <paramref name="s"/>, the reader's state passed in: a caller that holds
    /// the reader in memory (the drop-in reader) would read its copy back after every store.
    /// </summary>
    private static void PopScope(ReaderState s)
    {
        s._depth--;
        s._namespaceCount = s._scopes![s._depth].OuterNamespaceCount;
        if (s._depth == 0) s._rootClosed = true;
    }

    /// <summary>
    /// Opens an element's scope in <paramref name="s"/> (the reader's state, passed in so that it is not read back from
    /// the reader), whose scopes <paramref name="scopes"/> has room for it (<see cref="ScopesForOneMore"/>); returns it.
    /// </summary>
    private static ref ElementScope PushScope(ReaderState s, ElementScope[] scopes, NameRef prefix, NameRef localName)
    {
        int depth = s._depth;
        ref ElementScope element = ref scopes[depth];
        element.OuterNamespaceCount = s._namespaceCount;
        element.Prefix = prefix;
        element.LocalName = localName;
        s._depth = depth + 1;
        return ref element;
    }

    /// <summary>The scopes of <paramref name="s"/> with room for one more element (at depth <c>_depth</c>); more than the maximum depth fails.</summary>
    private static ElementScope[] ScopesForOneMore(ReaderState s, int elementOffset)
    {
        int depth = s._depth;
        if (depth + 1 > s._maxDepth) Fail("The maximum read depth ({0}) has been exceeded", s._maxDepth, elementOffset);
        return EnsureCapacity(ref s._scopes, depth + 1);
    }

    /// <summary>The namespace of the element just pushed, resolved at its start tag (without attributes).</summary>
    private void ResolveStartTagNamespace(int elementStart, NameRef prefix)
        => _s._scopes![_s._depth - 1].Namespace = ResolveElementNamespace(elementStart, prefix);

    /// <summary>Makes <paramref name="array"/> hold at least <paramref name="size"/> items (pooled, grown by doubling); returns it.</summary>
    private static T[] EnsureCapacity<T>(ref T[]? array, int size)
    {
        T[]? current = array;
        if (current is not null && current.Length >= size) return current;
        return Grow(ref array, size);

        static T[] Grow(ref T[]? array, int size)
        {
            if (array is null) return array = ArrayPool<T>.Shared.Rent(Math.Max(size, 16));
            T[] next = ArrayPool<T>.Shared.Rent(Math.Max(size, array.Length * 2));
            array.AsSpan().CopyTo(next);
            ArrayPool<T>.Shared.Return(array);
            return array = next;
        }
    }

    // ---- Elements and attributes -----------------------------------------------------------------------------

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ReadStartElement(int start, bool isArray)
    {
        ReaderState s = _s;
        ReadOnlySpan<byte> data = _data;
        if (s._depth == 0 && s._rootClosed) Fail("There are multiple root elements", start);
        // The calls this may make out of line (the scopes grown, a long or non-ASCII name, the namespace resolved, the
        // attributes) come where few values are live across them: a value live across a call is kept in memory.
        ElementScope[] scopes = ScopesForOneMore(s, start);
        int p = ParseElementName(data, start, out NameRef prefix, out NameRef local, out _);
        ref ElementScope element = ref PushScope(s, scopes, prefix, local);
        // A start tag (with its attributes) that ends the input fails there, as .NET's reader fails looking for its
        // attributes: the element it opens cannot be closed.
        if ((uint)p >= (uint)data.Length) ThrowUnclosed(p);
        bool attributes = IsAttributeRecord(data, p);
        if (attributes)
        {
            p = ReadStartTagAttributes(start, p, ref element);
            if (p >= data.Length) ThrowUnclosed(p);
            s._pos = p;
        }
        else
        {
            s._pos = p;
            s._attrCount = 0;
            if (ResolvedAtStartTag(prefix)) ResolveStartTagNamespace(start, prefix);
        }
        // The token's names are the scope's just pushed (see IsElementToken).
        s._tokenType = BinaryXmlTokenType.StartElement;
        // The token's start and record type are the caller's: ReadContent's record, or the Array record around it.
        // Its depth is the element's (see CurrentDepth).
        s._isArray = isArray;
        // Without attributes or array items the next read is the element's content.
        if (attributes || isArray)
        {
            s._phase = ReaderPhase.Attributes;
            s._attrIndex = 0;
        }
        else
        {
            s._phase = ReaderPhase.Content;
        }
    }

    /// <summary>The attribute records of the start tag of <paramref name="element"/> from <paramref name="p"/>: scanned within the MaxBytesPerRead quota and validated; returns the offset after them.</summary>
    private int ReadStartTagAttributes(int elementStart, int p, ref ElementScope element)
    {
        int attributesStart = p;
        p = ScanAttributes(p, out bool declares);
        if (p - attributesStart > _s._maxBytesPerRead)
            Fail("The attributes of this start tag take {0} bytes, more than the MaxBytesPerRead quota ({1})", p - attributesStart, _s._maxBytesPerRead, attributesStart);
        // Most start tags with attributes declare nothing and have a few (a serializer's i:nil, z:Id): checked apart
        // from the declarations' and the long tag's tables, in a frame of their own.
        if (!declares && _s._attrCount < LongStartTagCount) ValidateShortStartTag(elementStart, ref element);
        else ValidateStartTag(elementStart, ref element);
        return p;
    }

    /// <summary>Parses an element record's name fields; returns the offset after them.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int ParseElementName(ReadOnlySpan<byte> data, int start, out NameRef prefix, out NameRef local, out bool dictionaryName)
    {
        byte type = data[start];
        int p = start + 1;
        prefix = default;
        dictionaryName = RecordTypes.HasDictionaryName(type);
        switch (type)
        {
            case (byte)RecordType.ShortElement:
            case (byte)RecordType.ShortDictionaryElement:
                break;
            case (byte)RecordType.Element:
            case (byte)RecordType.DictionaryElement:
                prefix = ReadInlineString(data, p, out p, "element prefix");
                break;
            default:
                prefix = NameRef.Letter(RecordTypes.GetPrefixLetter(type) - 'a');
                break;
        }
        if (dictionaryName) (local, p) = ReadDictionaryName(p);
        else local = ReadInlineString(data, p, out p, "element name");
        return p;
    }

    /// <summary>
    /// Reads every attribute record of a start tag, validating each and its value, remembering their offsets and
    /// pushing the namespace declarations. Returns the offset after the last one; <paramref name="declares"/> is
    /// whether the tag declares a namespace.
    /// </summary>
    private int ScanAttributes(int p, out bool declares)
    {
        ReaderState s = _s;
        ReadOnlySpan<byte> data = _data;
        s._attrCount = 0;
        declares = false;
        while (IsAttributeRecord(data, p))
        {
            EnsureCapacity(ref s._attributes, s._attrCount + 1);
            ref AttributeRecord a = ref s._attributes![s._attrCount++];
            a.Record = p;
            int end = ParseShortTextAttribute(data, p, s._maxStringContentLength, ref a);
            if (end < 0) end = ParseDictionaryDeclaration(data, p, ref a);
            if (end < 0 && IsDictionaryAttribute(data[p])) end = ParseShortDictionaryAttribute(p, ref a);
            if (end < 0 && IsInlineDeclaration(data[p])) end = ParseShortInlineDeclaration(data, p, ref a);
            if (end < 0) end = ParseAttribute(p, ref a);
            if (a.IsXmlns)
            {
                EnsureCapacity(ref s._namespaces, s._namespaceCount + 1);
                ref NamespaceBinding binding = ref s._namespaces![s._namespaceCount++];
                binding.Record = p;
                binding.EmptyNamespace = a.EmptyNamespace;
                binding.Prefix = a.Prefix;
                binding.Namespace = a.Namespace;
                KeepDeclared(a.Prefix, s._namespaceCount - 1, p, a.Namespace);
                declares = true;
            }
            p = end;
        }
        return p;
    }

    /// <summary>
    /// The most common attribute records, parsed in line: an inline name of at most 16 ASCII bytes, without prefix or
    /// with a letter prefix (ShortAttribute, PrefixAttributeA–Z), and a value of a fixed size (<c>i:nil="true"</c>)
    /// or of at most 16 ASCII bytes within the string quota in a Chars8Text record, with 16 bytes of input from the
    /// value's start. Parses it into <paramref name="a"/> as <see cref="ParseAttribute"/> would, and returns the offset
    /// after it; -1 for any other record, which <see cref="ParseAttribute"/> then parses (its general frame was most of
    /// an attribute's cost). The record type at <paramref name="p"/> is within the input.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int ParseShortTextAttribute(ReadOnlySpan<byte> data, int p, int maxStringContentLength, ref AttributeRecord a)
    {
        byte type = data[p];
        NameRef prefix = default;
        if (type != (byte)RecordType.ShortAttribute)
        {
            if ((uint)(type - (byte)RecordType.PrefixAttributeA) >= 26) return -1;
            prefix = NameRef.Letter(type - (byte)RecordType.PrefixAttributeA);
        }
        int nameAt = p + 2;
        if (nameAt >= data.Length) return -1;
        int nameLength = data[p + 1];
        if (nameLength > 16) return -1;
        a.Prefix = prefix;
        a.LocalName = NameRef.Inline(nameAt, nameLength);
        return ParseShortValue(data, nameAt + nameLength, maxStringContentLength, nameAt, nameLength, ref a);
    }

    /// <summary>
    /// An attribute named by a dictionary string, without prefix or with a letter prefix (ShortDictionaryAttribute,
    /// PrefixDictionaryAttributeA–Z), as SOAP's <c>s:mustUnderstand="1"</c>, with a value <see cref="ParseShortValue"/>
    /// takes: its name read as <see cref="ParseAttribute"/> reads it (an unknown or malformed id fails the same way);
    /// -1 for any other value, which <see cref="ParseAttribute"/> then parses. Out of line, with a frame smaller than
    /// <see cref="ParseAttribute"/>'s: in line, the start tag's scan of inline names was slower.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly int ParseShortDictionaryAttribute(int p, ref AttributeRecord a)
    {
        byte type = _data[p];
        (NameRef local, int valueRecord) = ReadDictionaryName(p + 1);
        a.Prefix = type == (byte)RecordType.ShortDictionaryAttribute ? default : NameRef.Letter(type - (byte)RecordType.PrefixDictionaryAttributeA);
        a.LocalName = local;
        // The name's bytes are not text: none of them is tested (a length of 0 from the value's record).
        return ParseShortValue(_data, valueRecord, _s._maxStringContentLength, valueRecord, 0, ref a);
    }

    /// <summary>
    /// A namespace declaration of an inline namespace of at most 64 ASCII bytes with a one-byte length, for no prefix
    /// (ShortXmlnsAttribute) or for a one-letter prefix a–z (XmlnsAttribute), as a serializer declares its own
    /// namespaces (<c>xmlns:b="http://schemas.datacontract.org/…"</c>): parsed into <paramref name="a"/> as
    /// <see cref="ParseAttribute"/> would, without its general frame; -1 for any other, which it then parses. Out of
    /// line, as <see cref="ParseShortDictionaryAttribute"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int ParseShortInlineDeclaration(ReadOnlySpan<byte> data, int p, ref AttributeRecord a)
    {
        NameRef prefix = default;
        int lengthAt = p + 1;
        if (data[p] == (byte)RecordType.XmlnsAttribute)
        {
            lengthAt = ReadLetterPrefix(data, p, out prefix);
            if (lengthAt < 0) return -1;
        }
        else if (lengthAt >= data.Length)
        {
            return -1;
        }
        int length = data[lengthAt];
        if (length > 64 || !IsShortAscii(data, lengthAt + 1, length)) return -1;
        return FillDeclaration(ref a, prefix, NameRef.Inline(lengthAt + 1, length), length == 0, lengthAt + 1 + length);
    }

    /// <summary>
    /// The prefix of a declaration record at <paramref name="p"/> that has one (XmlnsAttribute,
    /// DictionaryXmlnsAttribute), as the in-line declaration parses take it: one byte of inline name, here a letter a–z
    /// (as <see cref="ParseAttribute"/> reads it, an inline string). Returns the offset of the namespace after it, or
    /// -1 for any other prefix or where the input ends before the namespace.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int ReadLetterPrefix(ReadOnlySpan<byte> data, int p, out NameRef prefix)
    {
        prefix = NameRef.Inline(p + 2, 1);
        return p + 3 < data.Length && data[p + 1] == 1 && (uint)(data[p + 2] - 'a') < 26 ? p + 3 : -1;
    }

    /// <summary>
    /// Fills <paramref name="a"/> as a namespace declaration parsed in line (as <see cref="ParseAttribute"/> would
    /// fill it) and returns <paramref name="next"/>, the offset after the record.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int FillDeclaration(ref AttributeRecord a, NameRef prefix, NameRef ns, bool emptyNamespace, int next)
    {
        a.Prefix = prefix;
        a.LocalName = default;
        a.Namespace = ns;
        a.EmptyNamespace = emptyNamespace;
        a.PayloadStart = a.PayloadLength = 0;
        a.ValueType = 0;
        a.IsXmlns = true;
        return next;
    }

    /// <summary>Whether a record is ShortXmlnsAttribute or XmlnsAttribute.</summary>
    private static bool IsInlineDeclaration(byte type)
        => type is (byte)RecordType.ShortXmlnsAttribute or (byte)RecordType.XmlnsAttribute;

    /// <summary>Whether a record is ShortDictionaryAttribute or PrefixDictionaryAttributeA–Z.</summary>
    private static bool IsDictionaryAttribute(byte type)
        => type == (byte)RecordType.ShortDictionaryAttribute || (uint)(type - (byte)RecordType.PrefixDictionaryAttributeA) < 26;

    /// <summary>
    /// The value of an attribute parsed in line, its record at <paramref name="valueRecord"/>: of a fixed size or of
    /// at most 16 ASCII bytes within the string quota in a Chars8Text record, with 16 bytes of input from its start;
    /// the name's <paramref name="nameLength"/> bytes from <paramref name="nameAt"/> (before the value) are tested as
    /// ASCII with it. Fills the rest of <paramref name="a"/>; returns the offset after the value, or -1.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int ParseShortValue(ReadOnlySpan<byte> data, int valueRecord, int maxStringContentLength, int nameAt, int nameLength, ref AttributeRecord a)
    {
        if (valueRecord + 1 >= data.Length) return -1;
        byte valueType = data[valueRecord];
        int valueAt, valueLength, asciiLength;
        if (valueType == (byte)RecordType.Chars8Text)
        {
            valueLength = data[valueRecord + 1];
            valueAt = valueRecord + 2;
            if (valueLength > 16 || valueLength > maxStringContentLength) return -1;
            asciiLength = valueLength;
        }
        else
        {
            // A plain text record of a fixed size (not a list's start or end, whose size is 0 too): its bytes need no check.
            valueLength = RecordTypes.GetFixedPayloadSize(valueType);
            if (valueLength < 0 || (valueType & 1) != 0 || valueType is (byte)RecordType.StartListText or (byte)RecordType.EndListText) return -1;
            valueAt = valueRecord + 1;
            asciiLength = 0;
        }
        // 16 bytes from the value's start (and so from the name's) are within the input: each is tested as one vector.
        if (data.Length - valueAt < 16) return -1;
        if ((HighBits16(data, nameAt, nameLength) | HighBits16(data, valueAt, asciiLength)) != 0) return -1;
        a.Namespace = default;
        a.IsXmlns = false;
        a.ValueType = valueType;
        a.PayloadStart = valueAt;
        a.PayloadLength = valueLength;
        return valueAt + valueLength;
    }

    /// <summary>
    /// The commonest namespace declarations, parsed in line: a dictionary namespace with a one-byte id, declared for
    /// no prefix (ShortDictionaryXmlnsAttribute) or for a one-letter prefix a–z (DictionaryXmlnsAttribute), as a SOAP
    /// envelope declares its namespaces. Parses it into <paramref name="a"/> as <see cref="ParseAttribute"/> would
    /// (the id resolved, an unknown one failing the same way), and returns the offset after it; -1 for any other
    /// record, which <see cref="ParseAttribute"/> then parses. The record type at <paramref name="p"/> is within the input.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly int ParseDictionaryDeclaration(ReadOnlySpan<byte> data, int p, ref AttributeRecord a)
    {
        byte type = data[p];
        NameRef prefix = default;
        int idAt = p + 1;
        if (type == (byte)RecordType.DictionaryXmlnsAttribute)
        {
            idAt = ReadLetterPrefix(data, p, out prefix);
            if (idAt < 0) return -1;
        }
        else if (type != (byte)RecordType.ShortDictionaryXmlnsAttribute || idAt >= data.Length)
        {
            return -1;
        }
        int id = data[idAt];
        if (id >= 0x80) return -1;
        return FillDeclaration(ref a, prefix, NameRef.Dictionary(id, idAt), Resolve(id, idAt).Value.Length == 0, idAt + 1);
    }

    /// <summary>Whether an attribute or namespace declaration record starts at <paramref name="p"/> (start tags go on while one does).</summary>
    private static bool IsAttributeRecord(ReadOnlySpan<byte> data, int p)
        => (uint)p < (uint)data.Length && RecordTypes.IsAttributeOrXmlns(data[p]);

    /// <summary>
    /// Parses one attribute record at <paramref name="start"/> into <paramref name="a"/>: its kind, names, and for an
    /// xmlns record the declared namespace, for another its value (record, type and payload, as the attribute's token
    /// reports them). Returns the offset after the record (after the whole list for a list value).
    /// </summary>
    private readonly int ParseAttribute(int start, ref AttributeRecord a)
    {
        byte type = _data[start];
        int p = start + 1;
        a.Prefix = default; a.LocalName = default; a.Namespace = default;
        a.PayloadStart = a.PayloadLength = 0; a.ValueType = 0;
        a.IsXmlns = RecordTypes.GetFamily(type) == RecordFamily.XmlnsAttribute;
        switch (type)
        {
            case (byte)RecordType.ShortXmlnsAttribute:
                a.Namespace = ReadInlineString(p, out p, "namespace");
                a.EmptyNamespace = a.Namespace.Kind == NameKind.None;
                return p;
            case (byte)RecordType.XmlnsAttribute:
                a.Prefix = ReadInlineString(p, out p, "xmlns prefix");
                a.Namespace = ReadInlineString(p, out p, "namespace");
                a.EmptyNamespace = a.Namespace.Kind == NameKind.None;
                return p;
            case (byte)RecordType.ShortDictionaryXmlnsAttribute:
                a.Namespace = ReadDictionaryString(p, out p, out XmlDictionaryString declared);
                a.EmptyNamespace = declared.Value.Length == 0;
                return p;
            case (byte)RecordType.DictionaryXmlnsAttribute:
                a.Prefix = ReadInlineString(p, out p, "xmlns prefix");
                a.Namespace = ReadDictionaryString(p, out p, out declared);
                a.EmptyNamespace = declared.Value.Length == 0;
                return p;
            case (byte)RecordType.ShortAttribute:
                a.LocalName = ReadInlineString(p, out p, "attribute name");
                break;
            case (byte)RecordType.Attribute:
                a.Prefix = ReadInlineString(p, out p, "attribute prefix");
                a.LocalName = ReadInlineString(p, out p, "attribute name");
                break;
            case (byte)RecordType.ShortDictionaryAttribute:
                a.LocalName = ReadDictionaryString(p, out p);
                break;
            case (byte)RecordType.DictionaryAttribute:
                a.Prefix = ReadInlineString(p, out p, "attribute prefix");
                a.LocalName = ReadDictionaryString(p, out p);
                break;
            default:
                a.Prefix = NameRef.Letter(RecordTypes.GetPrefixLetter(type) - 'a');
                a.LocalName = RecordTypes.HasDictionaryName(type) ? ReadDictionaryString(p, out p) : ReadInlineString(p, out p, "attribute name");
                break;
        }
        return ParseAttributeValue(p, ref a);
    }

    private readonly NameRef DictionaryString(int p, out int next, bool trusted)
        => trusted ? ReadTrustedDictionaryString(p, out next) : ReadDictionaryString(p, out next);

    /// <summary>
    /// An attribute value is exactly one plain text record, or a list (MC-NBFX 2.2.2): validated, and kept in
    /// <paramref name="a"/> as its token reports it (a list: its items' bytes). Returns the offset after it.
    /// </summary>
    private readonly int ParseAttributeValue(int p, ref AttributeRecord a)
    {
        if (p >= _data.Length) Fail("The input ends before the attribute's value", p);
        byte type = _data[p];
        if (RecordTypes.GetFamily(type) != RecordFamily.Text) Fail("An attribute value must be a text record, not {0}", RecordTypes.GetName(type), p);
        if ((type & 1) != 0) Fail("{0} cannot be an attribute value", RecordTypes.GetName(type), p);
        if (type == (byte)RecordType.EndListText) Fail("An EndListText record appears outside a list", p);
        if (type != (byte)RecordType.StartListText) return ParseTextPayload(p, out a.ValueType, out a.PayloadStart, out a.PayloadLength);
        int listStart = p + 1;
        p = listStart;
        while (true)
        {
            if (p >= _data.Length) Fail("The input ends inside a list", p);
            byte item = _data[p];
            if (item == (byte)RecordType.EndListText)
            {
                a.ValueType = (byte)RecordType.StartListText;
                a.PayloadStart = listStart;
                a.PayloadLength = p - listStart;
                return p + 1;
            }
            CheckListItem(p, item);
            p = ParseTextPayload(p, out _, out _, out _);
        }
    }

    /// <summary>
    /// Checks a start tag once all its attribute records are known: namespace declarations are well formed and
    /// unique, every prefix used is bound, and no two attributes share a local name and namespace. A tag without
    /// declarations and of fewer than <see cref="LongStartTagCount"/> records is checked by
    /// <see cref="ValidateShortStartTag"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ValidateStartTag(int elementStart, ref ElementScope element)
    {
        ReaderState s = _s;
        int firstNs = element.OuterNamespaceCount;
        // A long start tag's declarations and attributes are each looked for among those before them in a table of
        // their hashes, its prefixes as the current culture compares them (LongStartTagCount). A short one's
        // declarations of the empty prefix and the letters (nearly every prefix) are told apart by a bit each; its other
        // prefixes, and its attributes, are compared with each of those before them.
        bool longTag = s._attrCount >= LongStartTagCount;
        Span<int> table = longTag ? DuplicateTable(s._attrCount) : default;
        Span<int> declarations = table[..(table.Length / 2)], attributes = table[(table.Length / 2)..];
        bool culturePrefixes = longTag && AnyCulturePrefix(firstNs);
        uint declared = 0;
        for (int i = firstNs; i < s._namespaceCount; i++)
        {
            ref NamespaceBinding binding = ref s._namespaces![i];
            int record = binding.Record;
            ReadOnlySpan<byte> p = NameBytes(binding.Prefix);
            int kept = KeptPrefixIndex(p);
            if (kept == OtherPrefix)
            {
                if (p.SequenceEqual(XmlnsPrefix)) Fail("The prefix 'xmlns' cannot be declared", record);
                if (p.SequenceEqual(XmlPrefix) && !GetName(binding.Namespace).ValueEquals(XmlNamespaceUtf8)) Fail("The prefix 'xml' can only be bound to the namespace 'http://www.w3.org/XML/1998/namespace'", record);
            }
            if (!p.IsEmpty && binding.EmptyNamespace) Fail("The empty namespace requires a null or empty prefix", record);
            if (longTag)
            {
                if (!AddDeclaredPrefix(declarations, i, culturePrefixes)) Fail("A namespace prefix is declared twice on one element", record);
                continue;
            }
            if (kept != OtherPrefix)
            {
                uint bit = 1u << (kept + 1);
                if ((declared & bit) != 0) Fail("A namespace prefix is declared twice on one element", record);
                declared |= bit;
                continue;
            }
            for (int j = firstNs; j < i; j++)
            {
                if (NameBytes(s._namespaces[j].Prefix).SequenceEqual(p)) Fail("A namespace prefix is declared twice on one element", record);
            }
        }
        if (ResolvedAtStartTag(element.Prefix)) element.Namespace = ResolveElementNamespace(elementStart, element.Prefix);
        if (!longTag)
        {
            ValidateShortTagAttributes();
            return;
        }
        for (int i = 0; i < s._attrCount; i++)
        {
            ref AttributeRecord attribute = ref s._attributes![i];
            if (attribute.IsXmlns) continue;
            if (attribute.Prefix.Kind != NameKind.None) ResolveAttributeOfLongTag(ref attribute, declarations, firstNs, culturePrefixes);
            if (!AddAttribute(attributes, i)) Fail("Duplicate attribute: two attributes have the same local name and namespace", attribute.Record);
        }
    }

    /// <summary>
    /// <see cref="ValidateStartTag"/> for a start tag that declares no namespace and has fewer than
    /// <see cref="LongStartTagCount"/> attributes: no declarations to check, no tables.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly void ValidateShortStartTag(int elementStart, ref ElementScope element)
    {
        if (ResolvedAtStartTag(element.Prefix)) element.Namespace = ResolveElementNamespace(elementStart, element.Prefix);
        ValidateShortTagAttributes();
    }

    /// <summary>
    /// The attributes of a start tag of fewer than <see cref="LongStartTagCount"/> records, its declarations pushed:
    /// each prefix resolved, and each name compared with those of the attributes before it.
    /// </summary>
    private readonly void ValidateShortTagAttributes()
    {
        Span<AttributeRecord> attributes = _s._attributes.AsSpan(0, _s._attrCount);
        for (int i = 0; i < attributes.Length; i++)
        {
            ref AttributeRecord attribute = ref attributes[i];
            if (attribute.IsXmlns) continue;
            ResolveAttributeNamespace(ref attribute);
            for (int j = 0; j < i; j++)
            {
                ref AttributeRecord other = ref attributes[j];
                if (!other.IsXmlns && SameQualifiedName(ref attribute, ref other)) Fail("Duplicate attribute: two attributes have the same local name and namespace", attribute.Record);
            }
        }
    }

    /// <summary>
    /// Two cleared hash tables for a start tag of <paramref name="records"/> attribute records, one after the other (its
    /// declarations', then its attributes'): slots of two items, a record's index plus one (0: empty) and its hash, at
    /// most half of them used.
    /// </summary>
    private readonly Span<int> DuplicateTable(int records)
    {
        int size = 4 * (int)BitOperations.RoundUpToPowerOf2((uint)records * 2);
        Span<int> table = EnsureCapacity(ref _s._duplicateTable, size).AsSpan(0, size);
        table.Clear();
        return table;
    }

    /// <summary>
    /// Adds the declaration at <paramref name="index"/> in the namespaces to <paramref name="table"/>; false when one
    /// already there declares a prefix the current culture compares as equal (see <see cref="LongStartTagCount"/>).
    /// Hashed by the culture's sort key when <paramref name="culturePrefixes"/>, else by its bytes
    /// (<see cref="AnyCulturePrefix"/>).
    /// </summary>
    private readonly bool AddDeclaredPrefix(Span<int> table, int index, bool culturePrefixes)
    {
        ReadOnlySpan<byte> prefix = NameBytes(_s._namespaces![index].Prefix);
        return TryAdd(table, index, culturePrefixes ? CulturePrefixHash(prefix) : Utf8Hash(prefix), declaration: true);
    }

    /// <summary>
    /// Whether a declaration of the start tag whose first is at <paramref name="firstNs"/> has a prefix with a character
    /// other than an ASCII letter or digit. Two different prefixes of those characters alone (or empty) are never
    /// equal as a culture compares them: no culture ignores them, and none makes one sequence of them equal to another
    /// (checked for every culture's sorting by <c>ReaderValidationTests</c>). A tag whose prefixes are all such is
    /// checked by their bytes, not by the culture's sort keys (about 250 ns a prefix); one with any other prefix is
    /// checked by sort keys throughout, as that prefix may equal a prefix of letters (<c>p</c> followed by U+0001 and <c>p</c>).
    /// </summary>
    private readonly bool AnyCulturePrefix(int firstNs)
    {
        for (int i = firstNs; i < _s._namespaceCount; i++)
        {
            if (NameBytes(_s._namespaces![i].Prefix).ContainsAnyExcept(s_prefixAlphanumerics)) return true;
        }
        return false;
    }

    private static readonly SearchValues<byte> s_prefixAlphanumerics = SearchValues.Create("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"u8);

    /// <summary>
    /// Resolves the prefix of an attribute of a long start tag: one neither empty nor a letter (whose answers are kept)
    /// is looked for in the table of the tag's declarations (<paramref name="declarations"/>, hashed as
    /// <see cref="AddDeclaredPrefix"/> hashed them), then among the declarations of the scopes outside it. Found
    /// declaration by declaration, 2,048 prefixed attributes each declared on their tag took 6–8 ms, and as long in .NET's
    /// reader, which looks so too.
    /// </summary>
    private readonly void ResolveAttributeOfLongTag(ref AttributeRecord attribute, Span<int> declarations, int firstNs, bool culturePrefixes)
    {
        ReadOnlySpan<byte> p = NameBytes(attribute.Prefix);
        if (KeptPrefixIndex(p) != OtherPrefix)
        {
            ResolvePrefixedAttribute(ref attribute);
            return;
        }
        int hash = culturePrefixes ? CulturePrefixHash(p) : Utf8Hash(p);
        int mask = declarations.Length / 2 - 1;
        for (int slot = hash & mask; declarations[2 * slot] != 0; slot = (slot + 1) & mask)
        {
            // Of the tag's declarations at most one has these bytes (two would have been refused).
            NamespaceBinding binding = _s._namespaces![declarations[2 * slot] - 1];
            if (declarations[2 * slot + 1] == hash && NameBytes(binding.Prefix).SequenceEqual(p))
            {
                attribute.Namespace = binding.Namespace;
                return;
            }
        }
        if (!TryResolvePrefix(p, firstNs, out attribute.Namespace) && _s._requireBoundPrefixes) Fail("The prefix '{0}' is not defined", Encoding.UTF8.GetString(p), attribute.Record);
    }

    /// <summary>Adds the attribute at <paramref name="index"/> to <paramref name="table"/>; false when one already there has its local name and namespace.</summary>
    private readonly bool AddAttribute(Span<int> table, int index)
    {
        ref AttributeRecord attribute = ref _s._attributes![index];
        // Both names are hashed: a tag's attributes may share a local name in many namespaces.
        int hash = NameHash(attribute.LocalName);
        if (attribute.Prefix.Kind != NameKind.None) hash = HashCode.Combine(hash, NameHash(attribute.Namespace));
        return TryAdd(table, index, hash, declaration: false);
    }

    /// <summary>
    /// Adds a declaration's index in the namespaces, or an attribute's in the attribute records, with its hash to
    /// <paramref name="table"/> (open addressing, probed in order); false when an equal one is there already.
    /// </summary>
    private readonly bool TryAdd(Span<int> table, int index, int hash, bool declaration)
    {
        int mask = table.Length / 2 - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask)
        {
            ref int entry = ref table[2 * slot];
            if (entry == 0)
            {
                entry = index + 1;
                table[2 * slot + 1] = hash;
                return true;
            }
            if (table[2 * slot + 1] != hash) continue;
            int other = entry - 1;
            if (declaration ? SameDeclaredPrefix(other, index) : SameQualifiedName(ref _s._attributes![index], ref _s._attributes[other])) return false;
        }
    }

    /// <summary>Whether two declarations of a long start tag declare one prefix, as the current culture compares them.</summary>
    private readonly bool SameDeclaredPrefix(int first, int second)
    {
        ReadOnlySpan<byte> a = NameBytes(_s._namespaces![first].Prefix), b = NameBytes(_s._namespaces[second].Prefix);
        return a.SequenceEqual(b) || CulturePrefixesEqual(a, b);
    }

    /// <summary>Whether two attributes (not declarations) have the same local name and namespace: a duplicate.</summary>
    private readonly bool SameQualifiedName(ref AttributeRecord attribute, ref AttributeRecord other)
    {
        if (!NameEquals(attribute.LocalName, other.LocalName)) return false;
        bool prefixed = attribute.Prefix.Kind != NameKind.None;
        return prefixed == (other.Prefix.Kind != NameKind.None) && (!prefixed || NamespaceEquals(attribute.Namespace, other.Namespace));
    }

    /// <summary>
    /// A hash of a name's value, the same for an inline name and a dictionary string of that value (<see cref="NameEquals(NameRef, NameRef)"/>),
    /// and for the xml namespace and a name of its value (<see cref="NamespaceEquals"/>).
    /// </summary>
    private readonly int NameHash(NameRef name)
    {
        if (name.Kind == NameKind.Inline) return Utf8Hash(_data.Slice(name.Offset, name.Length));
        BinaryXmlName value = GetName(name);
        if (!value.IsDictionaryString) return Utf8Hash(value.Utf8);
        string text = value.DictionaryString!.Value;
        const int StackBytes = 256;
        int length = Encoding.UTF8.GetByteCount(text);
        byte[]? rented = length <= StackBytes ? null : ArrayPool<byte>.Shared.Rent(length);
        Span<byte> utf8 = rented ?? stackalloc byte[StackBytes];
        int hash = Utf8Hash(utf8[..Encoding.UTF8.GetBytes(text, utf8)]);
        if (rented is not null) ArrayPool<byte>.Shared.Return(rented);
        return hash;
    }

    /// <summary>
    /// A hash of every byte of a name, seeded per process as <see cref="HashCode"/> is, each bit mixed (no word folded
    /// before the seed is applied): a document cannot choose names that collide. Names of up to 16 bytes, nearly all,
    /// are hashed as two words that hold all their bytes, in four lanes.
    /// </summary>
    private static int Utf8Hash(ReadOnlySpan<byte> utf8)
    {
        int length = utf8.Length;
        ulong first, last;
        if (length >= 8)
        {
            if (length > 16)
            {
                HashCode hash = default;
                hash.AddBytes(utf8);
                return hash.ToHashCode();
            }
            first = BinaryPrimitives.ReadUInt64LittleEndian(utf8);
            last = BinaryPrimitives.ReadUInt64LittleEndian(utf8[^8..]);
        }
        else
        {
            // Bytes 0–3 and the last four, or bytes 0, length / 2 and length - 1: each byte of up to seven.
            first = length >= 4
                ? BinaryPrimitives.ReadUInt32LittleEndian(utf8) | (ulong)BinaryPrimitives.ReadUInt32LittleEndian(utf8[^4..]) << 32
                : length == 0 ? 0 : utf8[0] | (ulong)utf8[length / 2] << 8 | (ulong)utf8[length - 1] << 16;
            last = (ulong)length;
        }
        return HashCode.Combine((uint)first, (uint)(first >> 32), (uint)last, (uint)(last >> 32));
    }

    /// <summary>
    /// Resolves an attribute's prefix, with its start tag's declarations in scope, and keeps it for the attribute's
    /// token (NamespaceUri) and for the duplicate checks of the attributes after it. Without a prefix there is none
    /// (<see cref="ParseAttribute"/> left it so); an unbound prefix is an error unless allowed.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly void ResolveAttributeNamespace(ref AttributeRecord attribute)
    {
        if (attribute.Prefix.Kind != NameKind.None) ResolvePrefixedAttribute(ref attribute);
    }

    private readonly void ResolvePrefixedAttribute(ref AttributeRecord attribute)
    {
        ReadOnlySpan<byte> p = NameBytes(attribute.Prefix);
        if (!TryResolvePrefix(p, out attribute.Namespace) && _s._requireBoundPrefixes) Fail("The prefix '{0}' is not defined", Encoding.UTF8.GetString(p), attribute.Record);
    }

    /// <summary>
    /// Whether an element's namespace is resolved with its start tag (kept in its scope): for a prefix, as an unbound
    /// one is an error there. Without a prefix the namespace is the default one, whose resolution validates nothing
    /// (the empty prefix is always bound): it is found when asked for (<see cref="ElementNamespace"/>). Most callers of
    /// the native reader never ask; the drop-in reader asks every element, and reads faster so too than with the
    /// namespace resolved in line at the start tag (benchmarks/HISTORY.md, "The drop-in name test in one call").
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool ResolvedAtStartTag(NameRef prefix) => prefix.Kind != NameKind.None;

    /// <summary>The namespace of an element's prefix, with the start tag's declarations in scope (none when unbound and allowed).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly NameRef ResolveElementNamespace(int elementStart, NameRef prefix)
    {
        // Most elements have no prefix or a letter prefix, whose answers are kept: read them without the prefix's bytes.
        int letter = prefix.Kind switch { NameKind.None => -1, NameKind.Letter => prefix.Offset, _ => OtherPrefix };
        if (letter != OtherPrefix && TryKeptNamespace(letter, out NameRef kept)) return kept;
        if (TryResolvePrefix(NameBytes(prefix), out NameRef ns)) return ns;
        if (_s._requireBoundPrefixes) Fail("The prefix '{0}' is not defined", Encoding.UTF8.GetString(NameBytes(prefix)), elementStart);
        return default;
    }

    /// <summary>
    /// From this many attribute records on, .NET's reader finds duplicates by sorting the start tag's attributes, and
    /// compares the prefixes of namespace declarations with the current culture: prefixes that differ only by
    /// characters the culture ignores (control characters, for one: <c>xmlns:p</c> and <c>xmlns:p</c> followed by U+0001, or the
    /// default declaration and a prefix of U+0001 alone) are then declared twice. Below it, only identical prefixes are.
    /// The oracle's rule is kept (pinned by <c>ReaderValidationTests</c>). From here on ours finds duplicates through a
    /// table of hashes, in time linear in the records: compared each with those before it, 2,000 attributes took 8 ms,
    /// where .NET's reader took 0.06 ms.
    /// </summary>
    private const int LongStartTagCount = 12;

    /// <summary>A hash of a prefix, the same for prefixes <see cref="CulturePrefixesEqual"/> finds equal.</summary>
    private static int CulturePrefixHash(ReadOnlySpan<byte> prefix)
        => System.Globalization.CultureInfo.CurrentCulture.CompareInfo.GetHashCode(PrefixChars(prefix, stackalloc char[PrefixStackChars]), System.Globalization.CompareOptions.None);

    private static bool CulturePrefixesEqual(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b)
        => System.Globalization.CultureInfo.CurrentCulture.CompareInfo.Compare(
            PrefixChars(a, stackalloc char[PrefixStackChars]), PrefixChars(b, stackalloc char[PrefixStackChars]), System.Globalization.CompareOptions.None) == 0;

    private const int PrefixStackChars = 64;

    /// <summary>A prefix's characters, decoded into <paramref name="stack"/> when they fit it (nearly always), else into a new array.</summary>
    private static ReadOnlySpan<char> PrefixChars(ReadOnlySpan<byte> prefix, Span<char> stack)
    {
        Span<char> chars = prefix.Length <= stack.Length ? stack : new char[prefix.Length];
        return chars[..Encoding.UTF8.GetChars(prefix, chars)];
    }

    /// <summary>
    /// Whether two names are the same string: two inline names by their bytes, two references to one dictionary
    /// string by the id, anything else by value.
    /// </summary>
    private readonly bool NameEquals(NameRef a, NameRef b)
    {
        if (a.Kind == NameKind.Inline && b.Kind == NameKind.Inline) return _data.Slice(a.Offset, a.Length).SequenceEqual(_data.Slice(b.Offset, b.Length));
        if (a.Kind == NameKind.Dictionary && a.Id == b.Id) return true;
        return GetName(a).ValueEquals(GetName(b));
    }

    private readonly bool NamespaceEquals(NameRef a, NameRef b)
    {
        if (a.Kind == NameKind.Xml || b.Kind == NameKind.Xml) return a.Kind == b.Kind || GetName(a.Kind == NameKind.Xml ? b : a).ValueEquals(XmlNamespaceUtf8);
        return NameEquals(a, b);
    }

    /// <summary>
    /// Finds the namespace bound to a prefix, newest declaration first. The empty prefix is always bound (to ""
    /// by default); "xml" is implicitly bound.
    /// </summary>
    private readonly bool TryResolvePrefix(ReadOnlySpan<byte> prefix, out NameRef ns) => TryResolvePrefix(prefix, _s._namespaceCount, out ns);

    /// <summary>
    /// <see cref="TryResolvePrefix(ReadOnlySpan{byte}, out NameRef)"/> among the declarations below
    /// <paramref name="count"/> (those of a start tag already searched left out).
    /// </summary>
    private readonly bool TryResolvePrefix(ReadOnlySpan<byte> prefix, int count, out NameRef ns)
    {
        ReaderState s = _s;
        int letter = KeptPrefixIndex(prefix);
        if (letter != OtherPrefix && TryKeptNamespace(letter, out ns)) return true;
        for (int i = count - 1; i >= 0; i--)
        {
            ref NamespaceBinding binding = ref s._namespaces![i];
            if (NameBytes(binding.Prefix).SequenceEqual(prefix))
            {
                ns = binding.Namespace;
                if (letter != OtherPrefix) Keep(letter, i, binding.Record, ns);
                return true;
            }
        }
        ns = default;
        if (prefix.IsEmpty)
        {
            Keep(-1, -1, 0, default);
            return true;
        }
        if (prefix.SequenceEqual(XmlPrefix))
        {
            ns = NameRef.XmlNamespace;
            return true;
        }
        return false;
    }

    /// <summary>
    /// The kept answer for the empty prefix (<paramref name="letter"/> -1) or a one-letter prefix (0–25): the default
    /// namespace is resolved for most elements, a letter prefix for most prefixed ones. An answer stays valid while the
    /// declaration it came from is in scope (a newer declaration of the prefix replaces it when pushed). False when no
    /// valid answer is kept.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryKeptNamespace(int letter, out NameRef ns)
    {
        ReaderState s = _s;
        if (letter >= 0 && s._letterNs is null)
        {
            ns = default;
            return false;
        }
        ref KeptBinding kept = ref letter < 0 ? ref s._defaultNs : ref s._letterNs![letter];
        ns = kept.Namespace;
        // A letter is answered only when bound to a namespace (Index >= 0, not empty); the empty prefix also unbound.
        if (kept.Version != s._nsVersion || (letter >= 0 && ns.Kind == NameKind.None)) return false;
        int index = kept.Index;
        return index < 0 || (index < s._namespaceCount && s._namespaces![index].Record == kept.Record);
    }

    /// <summary>Keeps the answer for the empty prefix (<paramref name="letter"/> -1) or a letter prefix.</summary>
    private readonly void Keep(int letter, int index, int record, NameRef ns)
    {
        ReaderState s = _s;
        var kept = new KeptBinding { Version = s._nsVersion, Index = index, Record = record, Namespace = ns };
        if (letter < 0)
        {
            s._defaultNs = kept;
            return;
        }
        s._letterNs ??= new KeptBinding[26];
        s._letterNs[letter] = kept;
    }

    /// <summary>
    /// A declaration pushed at <paramref name="index"/>: it is the answer for its prefix from now on, when that prefix
    /// is empty or one letter (other prefixes are not kept).
    /// </summary>
    private readonly void KeepDeclared(NameRef prefix, int index, int record, NameRef ns)
    {
        int letter = KeptPrefixIndex(NameBytes(prefix));
        if (letter != OtherPrefix) Keep(letter, index, record, ns);
    }

    /// <summary>Where a prefix's answer is kept: -1 for the empty prefix, 0–25 for a letter a–z, <see cref="OtherPrefix"/> for any other (not kept).</summary>
    private static int KeptPrefixIndex(ReadOnlySpan<byte> prefix)
        => prefix.IsEmpty ? -1 : prefix.Length == 1 && (uint)(prefix[0] - 'a') < 26 ? prefix[0] - 'a' : OtherPrefix;

    /// <summary><see cref="KeptPrefixIndex"/> of a prefix that is neither empty nor one letter a–z.</summary>
    private const int OtherPrefix = 26;

    private void EmitAttribute(ref AttributeRecord attribute)
    {
        ReaderState s = _s;
        int record = attribute.Record;
        s._prefix = attribute.Prefix;
        s._localName = attribute.LocalName;
        s._nsValue = attribute.Namespace;
        s._tokenStart = record;
        s._recordType = _data[record];
        s._tokenDepth = s._depth;
        // The value as the start tag's scan parsed it (none for a declaration).
        s._valueType = attribute.ValueType;
        s._valueStart = attribute.PayloadStart;
        s._valueLength = attribute.PayloadLength;
        if (attribute.IsXmlns)
        {
            s._tokenType = BinaryXmlTokenType.NamespaceDeclaration;
            return;
        }
        s._tokenType = BinaryXmlTokenType.Attribute;
        if (attribute.ValueType == (byte)RecordType.StartListText)
        {
            s._listPos = attribute.PayloadStart;
            s._phase = ReaderPhase.AttributeList;
        }
    }

    // ---- Arrays (MC-NBFX 2.3.3) -------------------------------------------------------------------------------

    private void ReadArrayStart(int start)
    {
        int p = start + 1;
        if (p >= _data.Length) Fail("The input ends inside an Array record", start);
        if (RecordTypes.GetFamily(_data[p]) != RecordFamily.Element) Fail("An Array record must start with an element record, not {0}", RecordTypes.GetName(_data[p]), p);
        ReadStartElement(p, isArray: true);
        int afterAttributes = _s._pos;
        if (afterAttributes >= _data.Length || _data[afterAttributes] != (byte)RecordType.EndElement)
            Fail("The element of an Array record must be followed by an EndElement record", afterAttributes);
        if (!BinaryXmlPrimitives.TryReadArrayHeader(_data[(afterAttributes + 1)..], out RecordType itemType, out int count, out int headerSize))
        {
            int at = afterAttributes + 1;
            if (at >= _data.Length) Fail("The input ends inside an Array record", at);
            if (!BinaryXmlPrimitives.IsArrayItemType((RecordType)_data[at], out _)) Fail("{0} is not a valid Array item type", RecordTypes.GetName(_data[at]), at);
            if (MultiByteInt31.Decode(_data[(at + 1)..], out int declared, out _) == OperationStatus.Done && declared == 0) Fail("An Array record has a count of zero", at + 1);
            Fail("The Array record's count or items run past the end of the input", at + 1);
        }
        // .NET's reader accepts a top-level array of several items as one root.
        if (count > _s._maxArrayLength) Fail("The Array record has {0} items, more than the MaxArrayLength quota ({1})", count, _s._maxArrayLength, afterAttributes + 1);
        BinaryXmlPrimitives.IsArrayItemType(itemType, out int itemSize);
        _s._arrayItemType = (byte)itemType;
        _s._arrayCount = count;
        _s._arrayDataStart = afterAttributes + 1 + headerSize;
        _s._pos = _s._arrayDataStart + count * itemSize;
        _s._tokenStart = start;
        _s._recordType = (byte)RecordType.Array;
    }

    private void EmitArrayData()
    {
        _s._tokenType = BinaryXmlTokenType.ArrayData;
        _s._tokenStart = _s._arrayDataStart;
        _s._recordType = _s._arrayItemType;
        _s._tokenDepth = _s._depth;
        _s._valueType = (byte)(_s._arrayItemType & 0xFE);
        _s._valueStart = _s._arrayDataStart;
        BinaryXmlPrimitives.IsArrayItemType((RecordType)_s._arrayItemType, out int itemSize);
        _s._valueLength = _s._arrayCount * itemSize;
        _s._arrayLength = _s._arrayCount;
        _s._arrayCount = 0;
        _s._phase = ReaderPhase.ArrayEnd;
    }

    /// <summary>On <see cref="BinaryXmlTokenType.ArrayData"/>: the number of items.</summary>
    public readonly int ArrayLength => _s._arrayLength;

    /// <summary>On <see cref="BinaryXmlTokenType.ArrayData"/>: the item record type (a <c>…WithEndElement</c> type).</summary>
    public readonly RecordType ArrayItemType => _s._tokenType == BinaryXmlTokenType.ArrayData ? (RecordType)_s._recordType : 0;

    // ---- Skipping --------------------------------------------------------------------------------------------

    /// <summary>
    /// On a StartElement, Attribute or NamespaceDeclaration, moves to the element's EndElement (or, for an array, its
    /// ArrayData) so that the next <see cref="Read"/> continues after the element. Otherwise does nothing.
    /// </summary>
    public void Skip()
    {
        if (_s._tokenType is not (BinaryXmlTokenType.StartElement or BinaryXmlTokenType.Attribute or BinaryXmlTokenType.NamespaceDeclaration)) return;
        // The element's depth as CurrentDepth reports it: attributes are one deeper than their element.
        int elementDepth = _s._tokenType == BinaryXmlTokenType.StartElement ? CurrentDepth : CurrentDepth - 1;
        while (ReadPassingAttributes())
        {
            if (_s._tokenType == BinaryXmlTokenType.ArrayData && CurrentDepth - 1 == elementDepth) return;
            if (_s._tokenType == BinaryXmlTokenType.EndElement && CurrentDepth == elementDepth) return;
        }
    }

    /// <summary>
    /// <see cref="Read"/>, passing over the attributes of the start tag the reader is on, if any: what a skip reads.
    /// Attribute records are validated with their start tag; their tokens have nothing more to check.
    /// </summary>
    internal bool ReadPassingAttributes()
    {
        ReaderState s = _s;
        if (s._phase == ReaderPhase.Attributes && s._arrayCount == 0) s._attrIndex = s._attrCount;
        return Read();
    }

    /// <summary>
    /// On a start tag (not an Array record's) whose attribute tokens have not been read: passes over them, as
    /// <see cref="ReadPassingAttributes"/> would, and returns how many there are. The reader stays on the start tag;
    /// <see cref="TryRewindAttributes"/> brings the attribute tokens back while it does.
    /// </summary>
    internal int PassAttributes()
    {
        ReaderState s = _s;
        Debug.Assert(s._tokenType == BinaryXmlTokenType.StartElement && s._phase == ReaderPhase.Attributes && s._attrIndex == 0 && s._arrayCount == 0);
        s._attrIndex = s._attrCount;
        return s._attrCount;
    }

    /// <summary>
    /// When the reader is still on the start tag at <paramref name="elementStart"/> with its attributes passed over
    /// (<see cref="PassAttributes"/>), makes the next reads return its attribute tokens; otherwise (the reader has moved
    /// on) false and nothing changed.
    /// </summary>
    internal bool TryRewindAttributes(int elementStart)
    {
        if (!IsPastAttributesOf(elementStart)) return false;
        _s._attrIndex = 0;
        return true;
    }

    /// <summary>
    /// When the reader is still on the start tag at <paramref name="elementStart"/> with its attributes passed over
    /// (<see cref="PassAttributes"/>): their records, in order, as the start tag's scan parsed and checked them (each
    /// prefix resolved to its namespace in <see cref="AttributeRecord.Namespace"/>; a declaration's prefix and namespace
    /// as its token reports them), so that a caller answers from them without reading the tokens; otherwise false.
    /// Nothing changes either way.
    /// </summary>
    internal readonly bool TryGetPassedAttributes(int elementStart, out ReadOnlySpan<AttributeRecord> attributes)
    {
        bool passed = IsPastAttributesOf(elementStart);
        attributes = passed ? _s._attributes.AsSpan(0, _s._attrCount) : default;
        return passed;
    }

    /// <summary>The record of the attribute or declaration token just read (<see cref="EmitAttribute"/>).</summary>
    internal readonly ref readonly AttributeRecord CurrentAttributeRecord
    {
        get
        {
            Debug.Assert(_s._tokenType is BinaryXmlTokenType.Attribute or BinaryXmlTokenType.NamespaceDeclaration && _s._attrIndex > 0);
            return ref _s._attributes![_s._attrIndex - 1];
        }
    }

    /// <summary>Whether the reader is still on the start tag at <paramref name="elementStart"/>, its attributes passed over (<see cref="PassAttributes"/>).</summary>
    private readonly bool IsPastAttributesOf(int elementStart)
    {
        ReaderState s = _s;
        return s._tokenType == BinaryXmlTokenType.StartElement && s._tokenStart == elementStart && s._phase == ReaderPhase.Attributes
            && s._attrIndex == s._attrCount && s._arrayCount == 0 && s._pending == PendingStep.None;
    }

    /// <summary>Whether an attribute of the current start tag has the prefix "xml" (its xml:lang or xml:space scope begins there).</summary>
    internal readonly bool StartTagHasXmlPrefixedAttribute()
    {
        ReaderState s = _s;
        for (int i = 0; i < s._attrCount; i++)
        {
            ref AttributeRecord a = ref s._attributes![i];
            if (!a.IsXmlns && a.Prefix.Kind == NameKind.Inline && NameBytes(a.Prefix).SequenceEqual(XmlPrefix)) return true;
        }
        return false;
    }

    /// <summary>
    /// Whether the next <see cref="Read"/> reads a content record, with nothing pending: the reader is in content, or
    /// on a start tag whose attributes have all been read (Read's own step from the attributes to the content), and
    /// input remains. The one-step reads begin only there.
    /// </summary>
    private readonly bool AtElementContent()
    {
        ReaderState s = _s;
        return s._pending == PendingStep.None
            && (s._phase == ReaderPhase.Content || (s._phase == ReaderPhase.Attributes && s._attrIndex >= s._attrCount && s._arrayCount == 0))
            && (uint)s._pos < (uint)_data.Length;
    }

    /// <summary>
    /// After a start tag whose attributes have all been read: when a record of fixed size closing the element comes
    /// next (a typed value, …WithEndElement), where it starts and its payload's size. Moves nothing; such a record has
    /// nothing to check but its size.
    /// </summary>
    internal readonly bool TryPeekFixedTextClosingElement(out int recordStart, out int payloadSize)
    {
        recordStart = _s._pos;
        payloadSize = 0;
        if (!AtElementContent() || _s._depth == 0) return false;
        return IsFixedTextClosingElement(_data, recordStart, out payloadSize);
    }

    /// <summary>
    /// Whether the record at <paramref name="recordStart"/> (within <paramref name="data"/>) is a text record of fixed
    /// size with its end element, whole in the input; <paramref name="payloadSize"/> is its payload's size. Only text
    /// records have a fixed payload size, so the size's table answers for the family too.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsFixedTextClosingElement(ReadOnlySpan<byte> data, int recordStart, out int payloadSize)
    {
        byte type = data[recordStart];
        payloadSize = RecordTypes.GetFixedPayloadSize(type);
        return (type & 1) != 0 && payloadSize >= 0 && payloadSize < data.Length - recordStart;
    }

    /// <summary>
    /// After a start tag whose attributes have all been read: when a record of fixed size closing the element comes
    /// next and <typeparamref name="TRead"/> takes it, converts its payload and moves to the EndElement it implies, as
    /// <see cref="Read"/>, the value's read and <see cref="Read"/> would (the Text token between is passed over).
    /// Otherwise false, and nothing moves. The drop-in reader's typed element reads use it.
    /// </summary>
    internal bool TryReadFixedTextClosingElement<T, TRead>(out T value) where TRead : struct, IFixedTextRead<T>
    {
        if (TryPeekFixedTextClosingElement(out int start, out int size))
            return TryPassFixedTextClosingElement<T, TRead>(_s, _data, start, size, out value);
        value = default!;
        return false;
    }

    /// <summary>
    /// For the record a peek found (at <paramref name="recordStart"/> in <paramref name="data"/>, the reader's input):
    /// when <typeparamref name="TRead"/> takes it, converts its payload and moves past it to the EndElement it implies,
    /// on the state in hand. Otherwise false, and nothing moves.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryPassFixedTextClosingElement<T, TRead>(ReaderState s, ReadOnlySpan<byte> data, int recordStart, int payloadSize, out T value)
        where TRead : struct, IFixedTextRead<T>
    {
        byte type = data[recordStart];
        if (!TRead.TryRead((RecordType)(type & 0xFE), data.Slice(recordStart + 1, payloadSize), out value)) return false;
        s._phase = ReaderPhase.Content;
        s._pos = recordStart + 1 + payloadSize;
        EmitEndElement(s, recordStart, type);
        return true;
    }

    /// <summary>
    /// After a start tag whose attributes have all been read: when the element's content is one UTF-8 character record
    /// (<c>Chars8Text</c>, <c>Chars16Text</c> or <c>Chars32Text</c>) closing the element, or followed by its EndElement
    /// record, valid and within the MaxStringContentLength quota and <paramref name="maxChars"/>, returns its text and
    /// moves to the EndElement, as <see cref="Read"/>, <see cref="GetString"/> and <see cref="Read"/> would. Otherwise
    /// returns false and moves nothing: the caller reads on, and a record that fails its checks (or text longer than
    /// the caller's quota) fails there, at the same offset. The drop-in reader's <c>ReadElementContentAsString</c>
    /// uses it.
    /// </summary>
    internal bool TryReadCharsTextClosingElement(int maxChars, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? text)
    {
        text = null;
        if (!TryPeekCharsTextClosingElement(out int start, out int payloadStart, out int length)) return false;
        if (length > _s._maxStringContentLength) return false;
        // Checked as it is decoded, in one pass: Utf8.ToUtf16 without replacement refuses what IsValidUtf8 refuses.
        if (!TextFormatting.TryDecodeUtf8(_data.Slice(payloadStart, length), out text)) return false;
        if (text.Length > maxChars)
        {
            text = null;
            return false;
        }
        PassCharsTextClosingElement(start, payloadStart + length);
        return true;
    }

    /// <summary>
    /// <see cref="TryReadCharsTextClosingElement(int, out string?)"/>, the text in the plain form
    /// (<see cref="PlainValueText"/>) parsed as <typeparamref name="T"/> from its UTF-8 rather than decoded (no string):
    /// a typed read of text closing its element. Text longer than <paramref name="maxBytes"/> or not plain: false and
    /// nothing moved. Plain text is ASCII, so text taken is well-formed UTF-8. The native <c>ReadElementContentAs…</c>
    /// (within MaxStringContentLength, which Read holds text to) and the drop-in reader's typed element reads (without
    /// it, as .NET's typed reads) use it.
    /// </summary>
    internal bool TryReadPlainTextClosingElement<T>(int maxBytes, out T value)
    {
        value = default!;
        if (!TryPeekCharsTextClosingElement(out int start, out int payloadStart, out int length) || length > maxBytes) return false;
        if (!PlainValueText.TryParse(_data.Slice(payloadStart, length), out value)) return false;
        PassCharsTextClosingElement(start, payloadStart + length);
        return true;
    }

    /// <summary>
    /// After a start tag whose attributes have all been read: whether the element's content is one UTF-8 character
    /// record closing the element, or followed by its EndElement record; where it starts and where its text is.
    /// </summary>
    private readonly bool TryPeekCharsTextClosingElement(out int start, out int payloadStart, out int length)
    {
        ReaderState s = _s;
        start = payloadStart = length = 0;
        if (!AtElementContent() || s._depth == 0) return false;
        start = s._pos;
        byte type = _data[start];
        if ((type & 0xFE) is not ((byte)RecordType.Chars8Text or (byte)RecordType.Chars16Text or (byte)RecordType.Chars32Text)) return false;
        int lengthSize = BinaryXmlPrimitives.GetLengthFieldSize((RecordType)type);
        if (!BinaryXmlPrimitives.TryReadLength(_data[(start + 1)..], lengthSize, out length)) return false;
        payloadStart = start + 1 + lengthSize;
        if (length > _data.Length - payloadStart) return false;
        // The end tag: the record's own (…WithEndElement), or an EndElement record right after it.
        int end = payloadStart + length;
        return (type & 1) != 0 || (end < _data.Length && _data[end] == (byte)RecordType.EndElement);
    }

    /// <summary>Moves past a character record a peek found (at <paramref name="start"/>, its text ending at <paramref name="end"/>) to the EndElement it closes with.</summary>
    private void PassCharsTextClosingElement(int start, int end)
    {
        ReaderState s = _s;
        byte type = _data[start];
        s._phase = ReaderPhase.Content;
        if ((type & 1) != 0)
        {
            s._pos = end;
            EmitEndElement(start, type);
        }
        else
        {
            s._pos = end + 1;
            EmitEndElement(end, (byte)RecordType.EndElement);
        }
    }

    // ---- Field parsing ---------------------------------------------------------------------------------------

    /// <summary>MaxStringContentLength, in characters: counted only when the byte length could exceed it.</summary>
    private readonly void CheckStringQuota(ReadOnlySpan<byte> payload, bool utf16, int offset)
    {
        int quota = _s._maxStringContentLength;
        if (payload.Length <= quota) return;
        int chars = utf16 ? payload.Length / 2 : Encoding.UTF8.GetCharCount(payload);
        if (chars > quota) Fail("The text has {0} characters, more than the MaxStringContentLength quota ({1})", chars, quota, offset);
    }

    private readonly NameRef ReadTrustedDictionaryString(int p, out int next)
    {
        MultiByteInt31.Decode(_data[p..], out int id, out int n);
        next = p + n;
        return NameRef.Dictionary(id, p);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly NameRef ReadInlineString(int p, out int next, string what) => ReadInlineString(_data, p, out next, what);

    /// <summary>
    /// Reads an inline string (a MultiByteInt31 length and UTF-8) at <paramref name="p"/> of <paramref name="data"/>,
    /// the reader's input: callers on the hot paths pass the input they hold in a local, so that it stays in registers
    /// across their stores to the reader's state.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static NameRef ReadInlineString(ReadOnlySpan<byte> data, int p, out int next, string what)
    {
        // Most names and namespaces are short ASCII with a one-byte length.
        if ((uint)p < (uint)data.Length)
        {
            int length = data[p];
            if (length <= 16 && IsAscii16(data, p + 1, length))
            {
                next = p + 1 + length;
                return NameRef.Inline(p + 1, length);
            }
        }
        // The end comes back in the result, not through an out parameter: a call taking the address of the caller's
        // offset would keep that offset in memory in the whole caller, hot paths included.
        (NameRef name, next) = ReadLongInlineString(data, p, what);
        return name;
    }

    private static (NameRef Name, int Next) ReadLongInlineString(ReadOnlySpan<byte> data, int p, string what)
    {
        int length, n;
        if ((uint)p < (uint)data.Length && data[p] < 0x80)
        {
            // Most names and namespaces are shorter than 128 bytes: a one-byte length.
            length = data[p];
            n = 1;
        }
        else
        {
            OperationStatus status = MultiByteInt31.Decode(data[Math.Min(p, data.Length)..], out length, out n);
            if (status == OperationStatus.InvalidData) Fail("The {0}'s length is not a valid MultiByteInt31", what, p);
            if (status == OperationStatus.NeedMoreData) Fail("The input ends inside the {0}'s length", what, p);
        }
        if (length > data.Length - p - n) Fail("The {0}'s length ({1}) runs past the end of the input", what, length, p);
        if (!IsValidUtf8(data, p + n, length)) Fail("The {0} is not valid UTF-8", what, p + n);
        return (NameRef.Inline(p + n, length), p + n + length);
    }

    private readonly NameRef ReadDictionaryString(int p, out int next) => ReadDictionaryString(p, out next, out _);

    /// <summary>
    /// <see cref="ReadDictionaryString(int, out int)"/> with the end in the result: for hot callers, whose offset an
    /// out parameter of a call would keep in memory.
    /// </summary>
    private readonly (NameRef Name, int Next) ReadDictionaryName(int p)
    {
        NameRef name = ReadDictionaryString(p, out int next, out _);
        return (name, next);
    }

    /// <summary>Reads a dictionary id at <paramref name="p"/>, resolved to <paramref name="value"/> (an unknown id fails).</summary>
    private readonly NameRef ReadDictionaryString(int p, out int next, out XmlDictionaryString value)
    {
        int id, n;
        // Most ids take one byte (the static dictionary's first 64 strings, a session's first 64).
        if ((uint)p < (uint)_data.Length && _data[p] < 0x80)
        {
            id = _data[p];
            n = 1;
        }
        else
        {
            OperationStatus status = MultiByteInt31.Decode(_data[Math.Min(p, _data.Length)..], out id, out n);
            if (status == OperationStatus.InvalidData) Fail("A dictionary id is not a valid MultiByteInt31", p);
            if (status == OperationStatus.NeedMoreData) Fail("The input ends inside a dictionary id", p);
        }
        value = Resolve(id, p);
        next = p + n;
        return NameRef.Dictionary(id, p);
    }

    /// <summary>
    /// Resolves a dictionary id: even ids in the static dictionary, odd ids in the session (MC-NBFSE 2.2). MC-NBFS's
    /// strings are an array (<see cref="ReaderState._staticStrings"/>), indexed here; any other dictionary, the
    /// session and an unknown id go out of line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly XmlDictionaryString Resolve(int id, int offset)
    {
        XmlDictionaryString[]? strings = _s._staticStrings;
        if (strings is not null && (id & 1) == 0 && (uint)(id >> 1) < (uint)strings.Length) return strings[id >> 1];
        return ResolveThroughDictionary(id, offset);
    }

    /// <summary>
    /// <see cref="Resolve"/> through <see cref="IXmlDictionary.TryLookup(int, out XmlDictionaryString?)"/> and the
    /// session. Out of line: its interface calls and failures would enlarge the start tag's scan, which inlines its
    /// callers.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private readonly XmlDictionaryString ResolveThroughDictionary(int id, int offset)
    {
        XmlDictionaryString? s = null;
        if ((id & 1) == 0)
        {
            if (_s._dictionary is null) Fail("Static dictionary id {0} is used but no dictionary was given", id, offset);
            if (!_s._dictionary.TryLookup(id >> 1, out s)) Fail("Dictionary id {0} is not defined in the static dictionary", id, offset);
        }
        else
        {
            if (_s._session is null) Fail("Session dictionary id {0} is used but no session was given", id, offset);
            if (!_s._session.TryLookup(id >> 1, out s)) Fail("Dictionary id {0} is not defined in the session", id, offset);
        }
        return s!;
    }

    /// <summary>A name's UTF-8 bytes: inline names and letters (most prefixes) inline, the rest out of line.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly ReadOnlySpan<byte> NameBytes(NameRef name) => name.Kind switch
    {
        NameKind.None => default,
        NameKind.Inline => _data.Slice(name.Offset, name.Length),
        NameKind.Letter => Letters.Slice(name.Offset, 1),
        _ => OtherNameBytes(name),
    };

    private readonly ReadOnlySpan<byte> OtherNameBytes(NameRef name) => name.Kind switch
    {
        NameKind.Dictionary => Encoding.UTF8.GetBytes(Resolve(name.Id, name.Offset).Value),
        NameKind.Xml => XmlNamespaceUtf8,
        _ => default,
    };

    /// <summary>Whether a name is <paramref name="value"/> (as <see cref="BinaryXmlName.ValueEquals(string)"/>), an inline one compared in place.</summary>
    internal readonly bool NameEquals(NameRef name, string value)
        => name.Kind == NameKind.Inline ? BinaryXmlName.Utf8Equals(_data.Slice(name.Offset, name.Length), value) : GetName(name).ValueEquals(value);

    internal readonly BinaryXmlName GetName(NameRef name) => name.Kind switch
    {
        NameKind.Inline => new BinaryXmlName(_data.Slice(name.Offset, name.Length)),
        NameKind.Letter => new BinaryXmlName(Letters.Slice(name.Offset, 1)),
        NameKind.Dictionary => new BinaryXmlName(name.Id, Resolve(name.Id, name.Offset)),
        NameKind.Xml => new BinaryXmlName(XmlNamespaceUtf8),
        _ => default,
    };

    /// <summary>The input ends (at <paramref name="offset"/>) inside the open elements, listed innermost first as .NET lists them.</summary>
    /// <remarks>
    /// Inlined, so that its callers see the throw: a call they take to return keeps the values they use after it in
    /// memory, on their hot paths too (the offset and the element of a start tag).
    /// </remarks>
    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly void ThrowUnclosed(int offset) => Fail("Unexpected end of file. Following elements are not closed: {0}", OpenElementNames(), offset);

    private readonly string OpenElementNames()
    {
        var names = new StringBuilder();
        for (int d = _s._depth - 1; d >= 0; d--)
        {
            NameRef prefix = _s._scopes![d].Prefix, local = _s._scopes[d].LocalName;
            if (names.Length > 0) names.Append(", ");
            if (prefix.Kind != NameKind.None) names.Append(GetName(prefix).ToString()).Append(':');
            names.Append(GetName(local).ToString());
        }
        return names.ToString();
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void Fail(string reason, int offset) => ThrowHelper.ThrowFormat(reason, offset);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static T Fail<T>(string reason, int offset) => ThrowHelper.ThrowFormat<T>(reason, offset);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void Fail(string format, object? arg0, int offset) => ThrowHelper.ThrowFormat(format, arg0, offset);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void Fail(string format, object? arg0, object? arg1, int offset) => ThrowHelper.ThrowFormat(format, arg0, arg1, offset);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void Fail(string format, object? arg0, object? arg1, object? arg2, int offset) => ThrowHelper.ThrowFormat(format, arg0, arg1, arg2, offset);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static T Fail<T>(string format, object? arg0, int offset) => ThrowHelper.ThrowFormat<T>(format, arg0, offset);
}
