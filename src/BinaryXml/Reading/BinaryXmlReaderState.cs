using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// A handle on everything a <see cref="BinaryXmlReader"/> knows besides its input: position, current token, scopes
/// and limits. Take it with <see cref="BinaryXmlReader.CurrentState"/> and resume over the same input, so that a class
/// can keep reading across calls (the reader itself is a ref struct). A handle is not a snapshot: every copy refers
/// to the same reader state, which moves on as any of them reads.
/// </summary>
public readonly struct BinaryXmlReaderState
{
    internal readonly ReaderState? _state;

    internal BinaryXmlReaderState(ReaderState state) => _state = state;

    /// <summary>The bytes consumed so far.</summary>
    public int BytesConsumed => _state?._pos ?? 0;
}

/// <summary>
/// The state of a reader, in a heap object so that a class resuming a reader across calls holds and passes one
/// reference (no copy of the state per call). One instance per thread is kept for the next reader when a reader is
/// disposed, with its scratch arrays, so that steady-state reading allocates nothing.
/// </summary>
internal sealed class ReaderState
{
    private const int MaxRetainedLength = 4096;

    [ThreadStatic]
    private static ReaderState? t_cached;

    internal IXmlDictionary? _dictionary;
    internal XmlDictionaryString[]? _staticStrings;   // the static dictionary's strings by key when it is MC-NBFS's: looked up in line
    internal XmlBinaryReaderSession? _session;
    internal int _maxDepth;
    internal int _maxStringContentLength;
    internal int _maxArrayLength;
    internal int _maxBytesPerRead;
    internal bool _requireBoundPrefixes;
    internal TextChecks _contentTextChecks;  // DeferUtf8 for the native reader's own: content text checked when read or passed
    internal int _pos;

    // The current token.
    internal BinaryXmlTokenType _tokenType;
    internal int _tokenStart;
    internal int _tokenDepth;
    internal byte _recordType;
    internal NameRef _prefix;
    internal NameRef _localName;
    internal NameRef _nsValue;          // NamespaceDeclaration: the declared namespace; Attribute: its prefix's namespace
    internal byte _valueType;           // the value's text record type (even form), 0 when none
    internal int _valueStart;
    internal int _valueLength;
    internal bool _isArray;
    internal int _arrayLength;

    // Document state.
    internal ReaderPhase _phase;
    internal int _depth;                 // open elements
    internal bool _rootClosed;
    internal PendingStep _pending;       // what the next Read does first (an EndElement token keeps its scope until then)
    internal int _attrIndex;
    internal int _attrCount;
    internal int _listPos;
    internal byte _arrayItemType;
    internal int _arrayCount;
    internal int _arrayDataStart;
    internal bool _forceElementwiseArrays;

    // Scratch: the open elements, the namespace declarations in scope, the current start tag's attribute records;
    // each parsed once, when first read.
    internal ElementScope[]? _scopes;
    internal NamespaceBinding[]? _namespaces;
    internal int _namespaceCount;
    internal AttributeRecord[]? _attributes;
    internal int[]? _duplicateTable;     // a long start tag's hash table of declarations and attributes (ValidateStartTag)
    internal byte[]? _uniqueIdBytes;     // a UniqueId's 16 bytes (its constructor takes an array, which it does not keep)

    // The binding the empty prefix was last resolved to, or last declared: kept with where the declaration is (its
    // index in _namespaces and its record), valid while that declaration is in scope; a newer declaration of the
    // prefix replaces it when it is pushed (Index -1: no declaration of the prefix in scope).
    // _nsVersion counts documents and goes on from reader to reader (never reset): answers kept for an earlier
    // document never match.
    internal long _nsVersion = 1;
    internal KeptBinding _defaultNs;
    // Likewise for the one-letter prefixes (a-z), the prefixes of letter records.
    internal KeptBinding[]? _letterNs;

    /// <summary>A cleared state (the thread's cached one when there is one) for a new reader.</summary>
    public static ReaderState Rent()
    {
        ReaderState state = t_cached ?? new ReaderState();
        t_cached = null;
        return state;
    }

    /// <summary>Keeps a disposed reader's state (and its arrays, unless large) for the next reader on this thread.</summary>
    public static void Return(ReaderState state) => t_cached = Recycle(state);

    [ThreadStatic]
    private static ReaderState? t_cachedScratch;

    /// <summary>
    /// A cleared state for reading values at locations read before (the drop-in reader's, beside its document state),
    /// the thread's cached one when there is one: a reader created per message allocates none.
    /// </summary>
    public static ReaderState RentScratch()
    {
        ReaderState state = t_cachedScratch ?? new ReaderState();
        t_cachedScratch = null;
        return state;
    }

    /// <summary>Keeps a closed reader's value state for the next reader on this thread.</summary>
    public static void ReturnScratch(ReaderState state) => t_cachedScratch = Recycle(state);

    /// <summary>Clears a state its reader no longer uses (its arrays kept, unless large), for another reader.</summary>
    public static ReaderState Recycle(ReaderState state)
    {
        state.Clear();
        Trim(ref state._scopes);
        Trim(ref state._namespaces);
        Trim(ref state._attributes);
        Trim(ref state._duplicateTable);
        return state;

        static void Trim<T>(ref T[]? array)
        {
            if (array is null || array.Length <= MaxRetainedLength) return;
            System.Buffers.ArrayPool<T>.Shared.Return(array);
            array = null;
        }
    }

    /// <summary>Resets every field but the scratch arrays.</summary>
    private void Clear()
    {
        _dictionary = null;
        _staticStrings = null;
        _session = null;
        _maxDepth = _maxStringContentLength = _maxArrayLength = _maxBytesPerRead = 0;
        _requireBoundPrefixes = false;
        _contentTextChecks = TextChecks.All;
        _pos = 0;
        _tokenType = default;
        _tokenStart = _tokenDepth = 0;
        _recordType = 0;
        _prefix = _localName = _nsValue = default;
        _valueType = 0;
        _valueStart = _valueLength = 0;
        _isArray = false;
        _arrayLength = 0;
        _phase = default;
        _depth = 0;
        _rootClosed = false;
        _pending = PendingStep.None;
        _attrIndex = _attrCount = _listPos = 0;
        _arrayItemType = 0;
        _arrayCount = _arrayDataStart = 0;
        _forceElementwiseArrays = false;
        _namespaceCount = 0;
        _nsVersion++;
        _defaultNs = default;
    }
}

/// <summary>
/// The namespace a prefix was last resolved to or declared as, and where its declaration is: the document
/// (<see cref="ReaderState._nsVersion"/>), the declaration's index among those in scope and its record (-1 and 0: no
/// declaration in scope).
/// </summary>
internal struct KeptBinding
{
    public long Version;
    public int Index;
    public int Record;
    public NameRef Namespace;
}

/// <summary>
/// An open element: its name as parsed from its record, its namespace (for a prefix, resolved once, when its start tag
/// is read; without a prefix, the default namespace, found when asked for and not kept here), and the number of
/// declarations in scope outside it.
/// </summary>
internal struct ElementScope
{
    public int OuterNamespaceCount;
    public NameRef Prefix;
    public NameRef LocalName;
    public NameRef Namespace;
}

/// <summary>A namespace declaration in scope: its xmlns record and the prefix and namespace parsed from it.</summary>
internal struct NamespaceBinding
{
    public int Record;
    public bool EmptyNamespace;     // the declared namespace is the empty string (known from the record's scan)
    public NameRef Prefix;
    public NameRef Namespace;
}

/// <summary>
/// An attribute or xmlns record of the current start tag, parsed (and validated) once by the start tag's scan.
/// <see cref="Namespace"/> is the declared namespace of an xmlns record, and the namespace of another attribute's
/// prefix (resolved by the start tag's check; none without a prefix); for another attribute, <see cref="ValueType"/>,
/// <see cref="PayloadStart"/> and <see cref="PayloadLength"/> are its value as its token reports it (the value
/// record's even type and payload; for a list, its items' bytes).
/// </summary>
internal struct AttributeRecord
{
    public int Record;
    public int PayloadStart;
    public int PayloadLength;
    public byte ValueType;
    public bool IsXmlns;
    public bool EmptyNamespace;     // an xmlns record's: the declared namespace is the empty string
    public NameRef Prefix;
    public NameRef LocalName;
    public NameRef Namespace;
}

internal enum ReaderPhase : byte { Content, Attributes, AttributeList, ContentList, ArrayEnd }

/// <summary>How much of a text record <c>ParseTextPayload</c> checks: everything, everything but the UTF-8 of a
/// character payload (the native reader's content text, checked later), or nothing (a record validated before).</summary>
internal enum TextChecks : byte { All, DeferUtf8, None }

/// <summary>What the next Read does before anything else: close the scope of the EndElement token just reported, or
/// report the end element a text record implied (…WithEndElement); before either, check the UTF-8 of the Text token
/// just reported when its check was deferred (<see cref="CheckText"/>, alone or with <see cref="EndElement"/>).</summary>
[Flags]
internal enum PendingStep : byte { None = 0, PopScope = 1, EndElement = 2, CheckText = 4 }

internal enum NameKind : byte { None, Inline, Letter, Dictionary, Xml }

/// <summary>
/// Where a name lives: inline bytes in the input, a prefix letter, or a dictionary id. Packed in one 8-byte word so
/// that it is copied in one move: a 16-byte struct written field by field and then copied whole makes the copy wait
/// for the stores (the load cannot be forwarded from several smaller stores).
/// </summary>
internal readonly struct NameRef
{
    // Bits 0–1: how the name is stored (inline, letter, dictionary, xml); bits 2–32: the offset (of the inline bytes,
    // of the dictionary id's record field; the letter's index); bits 33–63: an inline name's length or a dictionary
    // string's id. An inline name of length 0 is no name (the default value).
    private readonly ulong _bits;

    private const ulong InlineStorage = 0, LetterStorage = 1, DictionaryStorage = 2, XmlStorage = 3;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private NameRef(ulong storage, int offset, int upper)
    {
        Debug.Assert(offset >= 0 && upper >= 0);
        _bits = storage | (ulong)(uint)offset << 2 | (ulong)(uint)upper << 33;
    }

    public NameKind Kind
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            ulong storage = _bits & 3;
            return storage == InlineStorage ? (_bits >> 33 == 0 ? NameKind.None : NameKind.Inline) : (NameKind)(storage + 1);
        }
    }

    public int Offset
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => (int)((uint)(_bits >> 2) & 0x7FFF_FFFF);
    }

    /// <summary>The length of an inline name (1 for a letter, 0 for a dictionary string).</summary>
    public int Length
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => (_bits & 3) switch { InlineStorage => (int)(_bits >> 33), LetterStorage => 1, _ => 0 };
    }

    /// <summary>A dictionary string's id, or -1.</summary>
    public int Id
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => (_bits & 3) == DictionaryStorage ? (int)(_bits >> 33) : -1;
    }

    /// <summary>Whether both refer to the same name in the same place (the same bits).</summary>
    public bool IsSameAs(NameRef other) => _bits == other._bits;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static NameRef Inline(int offset, int length) => new(InlineStorage, offset, length);
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static NameRef Letter(int index) => new(LetterStorage, index, 0);
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static NameRef Dictionary(int id, int offset) => new(DictionaryStorage, offset, id);
    public static NameRef XmlNamespace => new(XmlStorage, 0, 0);
}

/// <summary>The location of a token's value in the input: what reading a typed value again needs.</summary>
internal readonly record struct ValueLocation(BinaryXmlTokenType TokenType, byte ValueType, int Start, int Length);
