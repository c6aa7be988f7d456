using System.Runtime.CompilerServices;
using System.Buffers;
using System.Buffers.Binary;
using System.Numerics;
using System.Text;
using System.Text.Unicode;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// A drop-in replacement for <c>XmlDictionaryReader.CreateBinaryReader</c>: the same node stream (node types,
/// names, namespaces, values and value types, attributes, arrays presented as repeated elements), built on
/// <see cref="BinaryXmlReader"/>. All five <see cref="XmlDictionaryReaderQuotas"/> are enforced as the in-box reader
/// enforces them; MaxNameTableCharCount, as there, on the names asked for (an element's inline local name is added to
/// the name table when first asked for), except that each document is counted on its own.
/// </summary>
/// <remarks>
/// Malformed input throws <see cref="BinaryXmlException"/> (an <see cref="XmlException"/>) with the byte offset.
/// Reuse an instance with <see cref="SetInput(byte[], int, int, IXmlDictionary?, XmlDictionaryReaderQuotas, XmlBinaryReaderSession?, OnXmlDictionaryReaderClose?)"/>.
/// <see cref="StartCanonicalization"/> canonicalizes the nodes read next (exclusive C14N, through .NET's own canonical
/// writer), starting with the current one, as .NET's reader does.
/// </remarks>
public sealed partial class BinaryXmlDictionaryReader : XmlDictionaryReader, IXmlBinaryReaderInitializer
{
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";
    private const string XmlNamespace = "http://www.w3.org/XML/1998/namespace";

    private byte[] _buffer = [];
    private int _offset;
    private int _count;
    private BinaryXmlReaderState _state;
    private readonly XmlDictionaryReaderQuotas _quotas = new();
    private NameTable _nameTable = new();
    private bool _fixedNamesInTable;    // whether the fixed names were put in _nameTable (when it was first handed out)
    private int _nameTableChars;        // characters this document counts against MaxNameTableCharCount
    private int _nameTableTotalChars;   // characters in the table, kept across SetInput up to a bound
    private const int NameTableRetainChars = 64 * 1024;
    private OnXmlDictionaryReaderClose? _onClose;
    private ReadState _readState = ReadState.Initial;

    // The current node.
    private XmlNodeType _nodeType;
    private int _depth;
    // An element's or end element's names are those of _openElements[_nameDepth] (written once, at the start tag);
    // other nodes have none (_nameDepth < 0).
    private int _nameDepth = -1;
    private string? _value = "";          // null: the text at _valueLocation, decoded or formatted on first use
    private RecordType _atomic;            // the current text node's typed …WithEndElement record (even form), or 0
    private bool _textClosesElement;       // the current text node's record is a …WithEndElement one
    private RecordType _textRecord;        // the current text node's record (even form; StartListText for a list)
    private ValueLocation _valueLocation;
    // The current node's value type as the record it follows (RecordTypes.GetValueType; 0, no record, gives string):
    // a byte, where the Type itself would be stored with a write barrier at every text node.
    private RecordType _valueTypeRecord;
    private XmlDictionaryString? _valueDictionary;
    private readonly List<Attr> _attributes = [];   // the current element's attribute nodes (see Attributes)
    private int _attributeCount;
    // The current element's attribute nodes are built when first asked for (Attributes): the native reader holds the
    // start tag's attribute records, validated, until it reads on. -1 when they are built (or there are none).
    private int _attributesOfElement = -1;
    private int _attributeIndex = -1;
    private bool _onAttributeValue;
    // Value was asked for on the current node (or attribute, or attribute value) since the reader moved there: .NET's
    // reader keeps the string it returned and from then on reports the node's ValueType as string.
    private bool _valueAsked;
    // What is left of the current node's value after a partial read (ReadValueChunk; a content read that keeps the
    // node): its value from then on, until the reader moves, as .NET's reader keeps it. Null when nothing was read.
    private string? _valueRest;
    // An Array record is presented lazily as repeated elements: node k after the first element is the text of
    // item k / 3 (k % 3 == 0), its end element (1) or the next item's element (2). The element's names are those of
    // _openElements[_arrayDepth].
    private RecordType _arrayItem;
    private int _arrayItemSize, _arrayCount, _arrayItemsOffset, _arrayDepth;
    private int _arrayNodesRead;
    // The names of the open elements by depth: the current element's, and its EndElement's (atomized once).
    private ElementName[] _openElements;

    private static ElementName s_noName = new() { Prefix = "", LocalName = "", Namespace = "" };

    /// <summary>
    /// An open element's names. An inline local name or namespace is atomized when first asked for (as .NET's reader
    /// decodes names only when asked, and adds them to its name table then): until then <see cref="LocalName"/> is null
    /// and the name is the UTF-8 at <see cref="LocalStart"/> in the input, and <see cref="Namespace"/> is null and the
    /// namespace is the one declared at <see cref="NamespaceFrom"/>.
    /// </summary>
    private struct ElementName
    {
        public string? Prefix;
        public string? LocalName;
        public int LocalStart, LocalLength;
        public string? Namespace;
        public XmlDictionaryString? Local, Ns;
        // Where the namespace is declared in this document: the next element at this depth mostly has the same.
        public NameRef NamespaceFrom;
        // The document (_documentSerial) whose start tag last wrote the entry; another: no start tag at this depth was
        // read by this reader in this document. Entries are kept from document to document, not cleared: their
        // strings are mostly the same, so that no reference (and its write barrier) is stored again.
        public int Document;
        // Over a stream (.NET's buffer index, for canonicalization): where the start tag begins, and the bytes the
        // start tags of this element and those around it take (NoteStreamedStartTag).
        public int TagStart, StartTagsLength;
    }

    /// <summary>The current node's names: its element's for an element or end element, empty for other nodes.</summary>
    private ref ElementName CurrentName => ref _nameDepth < 0 ? ref s_noName : ref _openElements[_nameDepth];

    private string CurrentPrefix => CurrentName.Prefix!;
    private string CurrentLocalName => LocalNameOf(ref CurrentName);
    private string CurrentNamespace => NamespaceOf(ref CurrentName);

    private string NamespaceOf(ref ElementName names) => names.Namespace ??= AtomizeInlineNamespace(names.NamespaceFrom);

    private string LocalNameOf(ref ElementName names) => names.LocalName ??= AtomizeInline(names.LocalStart, names.LocalLength);

    /// <summary>The nodes of the current Array record after its first element: text, end, element per item.</summary>
    private int ArrayNodes => 3 * _arrayCount - 1;

    /// <summary>The items whose text has not been read yet (on an item's element: that item and the ones after it).</summary>
    private int ArrayRemaining => _arrayCount - (_arrayNodesRead + 2) / 3;

    /// <summary>Whether <see cref="ArrayRemaining"/> is above 0 (3 × count &gt; nodes read + 2), without its division.</summary>
    private bool HasArrayItemsLeft => 3 * _arrayCount > _arrayNodesRead + 2;
    private char[] _chars;

    // xml:lang / xml:space scopes.
    private readonly List<(int Depth, string? Lang, XmlSpace Space)> _xmlScopes = [];

    private sealed class Attr
    {
        public string Prefix = "";
        public string? Namespace = "";            // null: the inline namespace declared at NamespaceFrom, atomized when first asked for
        public NameRef NamespaceFrom;
        public NameRef DeclaredFrom;              // a namespace declaration's inline namespace (its value, decoded when first asked for)
        public string? LocalName = "";            // null: the inline name at LocalStart, atomized when first asked for
        public int LocalStart, LocalLength;
        public string? Value = "";                // null: the text at AtomicValue, decoded on first use
        public Type ValueType = typeof(string);
        public XmlDictionaryString? LocalDictionary, NamespaceDictionary, ValueDictionary;
        public RecordType Atomic;                 // a typed value (converted directly by ReadContentAs*), or 0
        public ValueLocation AtomicValue;         // where the value's record is (an atomic or not yet decoded value)
        public object[]? ListItems;               // a list's items, as ReadContentAsObject gives them; null: not a list
    }

    /// <summary>An attribute's local name, atomized the first time it is asked for.</summary>
    private string AttrLocalName(Attr a) => a.LocalName ??= AtomizeInline(a.LocalStart, a.LocalLength);

    /// <summary>
    /// An attribute's value, decoded from the input the first time it is asked for. A namespace declaration's is its
    /// namespace, not atomized (as .NET's reader: it adds no name to its table).
    /// </summary>
    private string AttributeValue(Attr a) => a.Value ??= IsNamespaceDeclaration(a)
        ? Encoding.UTF8.GetString(Data.Slice(a.DeclaredFrom.Offset, a.DeclaredFrom.Length))
        : ValueReader(a.AtomicValue).GetString();

    /// <summary>An attribute's namespace, atomized the first time it is asked for.</summary>
    private string AttrNamespace(Attr a) => a.Namespace ??= AtomizeInlineNamespace(a.NamespaceFrom);

    /// <summary>A reader on a value read before (its token held in this reader's own value state).</summary>
    private BinaryXmlReader ValueReader(ValueLocation value) => new(Data, value, _valueState ??= ReaderState.RentScratch());

    private ReaderState? _valueState;

    private BinaryXmlDictionaryReader() => TakeWorkspace();

    /// <summary>Creates a reader over a whole buffer, as <c>XmlDictionaryReader.CreateBinaryReader(byte[], XmlDictionaryReaderQuotas)</c>.</summary>
    public static BinaryXmlDictionaryReader Create(byte[] buffer, XmlDictionaryReaderQuotas quotas)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        return Create(buffer, 0, buffer.Length, null, quotas, null, null);
    }

    /// <summary>Creates a reader over part of a buffer, as <c>XmlDictionaryReader.CreateBinaryReader(byte[], int, int, XmlDictionaryReaderQuotas)</c>.</summary>
    public static BinaryXmlDictionaryReader Create(byte[] buffer, int offset, int count, XmlDictionaryReaderQuotas quotas)
        => Create(buffer, offset, count, null, quotas, null, null);

    /// <summary>Creates a reader over a buffer, as <c>XmlDictionaryReader.CreateBinaryReader</c>.</summary>
    public static BinaryXmlDictionaryReader Create(byte[] buffer, int offset, int count, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session = null)
        => Create(buffer, offset, count, dictionary, quotas, session, null);

    /// <summary>
    /// Creates a reader over a buffer, as <c>XmlDictionaryReader.CreateBinaryReader</c>, with a callback called when
    /// the reader is closed.
    /// </summary>
    public static BinaryXmlDictionaryReader Create(byte[] buffer, int offset, int count, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        var reader = new BinaryXmlDictionaryReader();
        reader.SetInput(buffer, offset, count, dictionary, quotas, session, onClose);
        return reader;
    }

    /// <summary>Creates a reader over a stream, as <c>XmlDictionaryReader.CreateBinaryReader(Stream, XmlDictionaryReaderQuotas)</c> (see <see cref="Create(Stream, IXmlDictionary?, XmlDictionaryReaderQuotas, XmlBinaryReaderSession?)"/>).</summary>
    public static BinaryXmlDictionaryReader Create(Stream stream, XmlDictionaryReaderQuotas quotas) => Create(stream, null, quotas, null, null);

    /// <summary>
    /// Creates a reader over a stream, as <c>XmlDictionaryReader.CreateBinaryReader</c>: the stream is read to its end
    /// first, into a buffer the reader rents from <see cref="ArrayPool{T}.Shared"/> and returns when it is closed, when
    /// it also disposes the stream, as .NET's reader does (see
    /// <see cref="SetInput(Stream, IXmlDictionary?, XmlDictionaryReaderQuotas, XmlBinaryReaderSession?, OnXmlDictionaryReaderClose?)"/>).
    /// </summary>
    public static BinaryXmlDictionaryReader Create(Stream stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session = null)
        => Create(stream, dictionary, quotas, session, null);

    /// <summary>
    /// Creates a reader over a stream, as <c>XmlDictionaryReader.CreateBinaryReader</c>, with a callback called when
    /// the reader is closed (see <see cref="Create(Stream, IXmlDictionary?, XmlDictionaryReaderQuotas, XmlBinaryReaderSession?)"/>).
    /// </summary>
    public static BinaryXmlDictionaryReader Create(Stream stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        var reader = new BinaryXmlDictionaryReader();
        reader.SetInput(stream, dictionary, quotas, session, onClose);
        return reader;
    }

    /// <summary>
    /// Creates a reader over memory: memory of an array is read in place; other memory (native, or a memory manager's)
    /// is copied into a buffer the reader rents, as a sequence of it would be.
    /// </summary>
    public static BinaryXmlDictionaryReader Create(ReadOnlyMemory<byte> data, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session = null)
        => Create(new ReadOnlySequence<byte>(data), dictionary, quotas, session);

    /// <summary>
    /// Creates a reader over a sequence, such as a pipe's buffered message: a single segment backed by an array is read
    /// in place; otherwise the sequence is copied into a pooled buffer (returned on <see cref="Close"/>).
    /// </summary>
    public static BinaryXmlDictionaryReader Create(in ReadOnlySequence<byte> data, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session = null)
    {
        var reader = new BinaryXmlDictionaryReader();
        reader.SetInput(data, dictionary, quotas, session, null);
        return reader;
    }

    /// <summary>
    /// Reuses the reader for a document held in a sequence, such as a pipe's buffered message: a single array-backed
    /// segment is read in place; anything else is copied into a buffer the reader rents from
    /// <see cref="ArrayPool{T}.Shared"/>, keeps for the next message and returns when it is closed.
    /// </summary>
    // Out of line: inlined into a caller that creates a reader per message (with the array overload it calls), tier-1
    // code made that caller's whole read of a message about 4 µs slower (R6 SequenceAdapter, runs 488–490).
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public void SetInput(in ReadOnlySequence<byte> data, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        if (data.IsSingleSegment && System.Runtime.InteropServices.MemoryMarshal.TryGetArray(data.First, out ArraySegment<byte> segment))
        {
            SetInput(segment.Array!, segment.Offset, segment.Count, dictionary, quotas, session, onClose);
            return;
        }
        if (data.Length > Array.MaxLength) throw new ArgumentOutOfRangeException(nameof(data), "The sequence is longer than an array can be.");
        int length = (int)data.Length;
        byte[] buffer = OwnedBuffer(length, 0);
        data.CopyTo(buffer);
        SetInput(buffer, 0, length, dictionary, quotas, session, onClose);
    }

    /// <summary>
    /// The buffer that multi-segment sequences and streams are copied into (rented; kept from one input to the next;
    /// returned on <see cref="Close"/>).
    /// </summary>
    private byte[]? _ownedBuffer;

    /// <summary>
    /// The rented buffer, made at least <paramref name="length"/> bytes long, its first <paramref name="keep"/> bytes
    /// kept. A larger buffer is rented from <see cref="ArrayPool{T}.Shared"/> and the old one returned.
    /// </summary>
    private byte[] OwnedBuffer(int length, int keep)
    {
        byte[]? buffer = _ownedBuffer;
        if (buffer is not null && buffer.Length >= length) return buffer;
        byte[] larger = ArrayPool<byte>.Shared.Rent(length);
        buffer.AsSpan(0, keep).CopyTo(larger);
        // The document being read may be in the old buffer: it is released with the reader's state first.
        ReleaseState();
        ReturnOwnedBuffer();
        return _ownedBuffer = larger;
    }

    /// <summary>Gives the rented buffer back to the pool; input read from it is dropped.</summary>
    private void ReturnOwnedBuffer()
    {
        if (_ownedBuffer is null) return;
        if (ReferenceEquals(_buffer, _ownedBuffer))
        {
            _buffer = [];
            _offset = _count = 0;
        }
        ArrayPool<byte>.Shared.Return(_ownedBuffer);
        _ownedBuffer = null;
    }

    /// <inheritdoc/>
    public void SetInput(byte[] buffer, int offset, int count, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
        => SetInput(buffer, offset, count, dictionary, quotas, session, onClose, streamed: false);

    /// <summary>Starts reading a document in memory, read from a stream if <paramref name="streamed"/> (<see cref="_streamed"/>).</summary>
    private void SetInput(byte[] buffer, int offset, int count, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose, bool streamed)
    {
        ThrowHelper.CheckBufferRange(buffer, offset, count);
        ArgumentNullException.ThrowIfNull(quotas);
        // A reader closed before left its workspace to the next reader on its thread: it takes one again.
        if (_workspace.IsLeft) TakeWorkspace();
        _streamed = streamed;
        // As .NET's reader: another input is read, and the stream given before is no longer the reader's to dispose.
        if (!streamed) _inputStream = null;
        // The native reader's state is cleared in place for the new document (no trip through the thread's cache).
        ReaderState? previous = _state._state;
        if (!ReferenceEquals(_buffer, buffer)) _buffer = buffer;
        _offset = offset;
        _count = count;
        quotas.CopyTo(_quotas);
        if (!ReferenceEquals(_onClose, onClose)) _onClose = onClose;
        // As in .NET, string and array quotas apply to ReadContentAs* and array reads, not to reading Value; the
        // native reader enforces depth and (over an array, as .NET's reader) the attribute bytes of a start tag.
        BinaryXmlReaderState state = new BinaryXmlReader(Data, previous, dictionary, session, OptionsFor(quotas, streamed)).CurrentState;
        if (!ReferenceEquals(_state._state, state._state)) _state = state;
        // As the native reader's own: the UTF-8 of content text is checked as it is decoded (Value, value chunks), in
        // one pass, or by the next Read when the text is passed over (TextUnchecked).
        state._state!._contentTextChecks = TextChecks.DeferUtf8;
        _readState = ReadState.Initial;
        // Namespace atoms are found by their place in the input: valid for one document (stamped with its number).
        _documentSerial++;
        // The name table (and its atomized names) is kept for the next document, as .NET does, until it holds more
        // than the quota or 64K characters: a reused reader does not allocate a table per message, and a peer
        // sending new names in every message cannot grow it without bound.
        if (FixedNameChars + _nameTableTotalChars > Math.Min(_quotas.MaxNameTableCharCount, NameTableRetainChars))
        {
            _nameTable = new NameTable();
            _fixedNamesInTable = false;
            _nameTableTotalChars = 0;
            ClearRecentNames();
        }
        // Atoms found by dictionary id are those of the dictionary they were read with.
        // (Atoms are stored only under a dictionary: with none since they were last cleared, there is nothing to clear.)
        if (!ReferenceEquals(dictionary, _dictionaryAtomsOf))
        {
            if (_dictionaryAtomsOf is not null && _dictionaryAtoms is not null) Array.Clear(_dictionaryAtoms);
            _dictionaryAtomsOf = dictionary;
        }
        // Unlike .NET's reader, whose count goes on across SetInput (a reused reader fails once the documents it read
        // together exceed the quota), each document is counted on its own, from the fixed names.
        _nameTableChars = FixedNameChars;
        _nodeType = XmlNodeType.None;
        _depth = 0;
        _nameDepth = -1;
        _value = "";
        _atomic = 0;
        _nodeSerial++;
        // The open-element table is kept: an entry of an earlier document is told by its Document.
        _valueTypeRecord = 0;
        _attributeCount = 0;
        _attributesOfElement = -1;
        _attributeIndex = -1;
        _onAttributeValue = false;
        ForgetKeptValue();
        _arrayCount = _arrayNodesRead = 0;
        _xmlScopes.Clear();
    }

    /// <inheritdoc/>
    /// <remarks>
    /// The stream is read to its end first, into a buffer the reader rents and keeps for the next input (sized from the
    /// stream's length when it can seek, doubled as needed otherwise), so that a reader reused or created per message
    /// allocates nothing for its input in steady state. An exception from the stream reaches the caller and leaves the
    /// reader closed, calling neither the close callback given with the previous input nor <paramref name="onClose"/>,
    /// and the stream disposed. As .NET's reader, <see cref="Close"/> disposes the stream (unless another input was
    /// given since). The document is then read as .NET's reader reads a stream, through a window of
    /// <see cref="XmlDictionaryReaderQuotas.MaxBytesPerRead"/> bytes: text longer than the quota less five bytes comes
    /// as several text nodes, cut where .NET's reader cuts it, and start tags are not held to the quota (over an array
    /// they are, and text is not cut).
    /// </remarks>
    public void SetInput(Stream stream, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas quotas, XmlBinaryReaderSession? session, OnXmlDictionaryReaderClose? onClose)
    {
        ArgumentNullException.ThrowIfNull(stream);
        // The stream is read to its end into the rented buffer, which the reader keeps for the next input (a reader
        // created per message rents and returns it: no allocation for the input in steady state); the document is
        // then read from memory.
        int length;
        try
        {
            // The reader's from now on: its Close disposes it, as .NET's reader's does (also when it fails here).
            _inputStream = stream;
            length = ReadToEnd(stream);
            // Long text is reported in pieces, as .NET's reader reports it over a stream.
            length = SplitLongTextAsStreamed(length, dictionary, quotas, session);
        }
        catch
        {
            // The previous document may be partly overwritten: the reader is left closed (its close callback was
            // for that document, and is dropped).
            _onClose = null;
            Close();
            // Rented again by ReadToEnd when the reader was closed before (Close then only disposes the stream).
            ReturnOwnedBuffer();
            throw;
        }
        SetInput(_ownedBuffer!, 0, length, dictionary, quotas, session, onClose, streamed: true);
    }

    /// <summary>Reads <paramref name="stream"/> to its end into the rented buffer; returns the number of bytes read.</summary>
    private int ReadToEnd(Stream stream)
    {
        // A stream that knows its length is read into one buffer of that size (a byte more, so that the read that
        // finds the end needs no larger buffer); any other starts at 4 KB and doubles.
        int size = 4096;
        if (stream.CanSeek)
        {
            long left = stream.Length - stream.Position;
            if (left >= 0 && left < Array.MaxLength) size = (int)left + 1;
        }
        byte[] buffer = OwnedBuffer(size, 0);
        int length = 0;
        while (true)
        {
            if (length == buffer.Length)
            {
                if (length == Array.MaxLength) throw new IOException("The stream is longer than an array can be.");
                buffer = OwnedBuffer((int)Math.Min(2L * length, Array.MaxLength), length);
            }
            int read = stream.Read(buffer, length, buffer.Length - length);
            if (read == 0) return length;
            length += read;
        }
    }

    /// <summary>
    /// The native reader's options for <paramref name="quotas"/>: kept while the quotas they carry stay the same (no
    /// allocation per message). <see cref="XmlDictionaryReaderQuotas.MaxBytesPerRead"/> limits a start tag's
    /// attributes over an array only: .NET's reader checks it there, not over a stream (where it splits long text by
    /// it instead, <see cref="SplitLongTextAsStreamed"/>).
    /// </summary>
    private BinaryXmlReaderOptions OptionsFor(XmlDictionaryReaderQuotas quotas, bool streamed)
    {
        int maxBytesPerRead = streamed ? int.MaxValue : quotas.MaxBytesPerRead;
        if (_options is null || _options.MaxDepth != quotas.MaxDepth || _options.MaxBytesPerRead != maxBytesPerRead)
        {
            _options = new BinaryXmlReaderOptions
            {
                MaxDepth = quotas.MaxDepth,
                MaxBytesPerRead = maxBytesPerRead,
                MaxStringContentLength = int.MaxValue,
                MaxArrayLength = int.MaxValue,
            };
        }
        return _options;
    }

    // The input came from a stream: .NET's reader over a stream does not hold the document, so it does not know the
    // length of base64 content in advance (TryGetBase64ContentLength), which changes where ReadContentAsBase64() ends.
    private bool _streamed;

    /// <summary>The stream the input was read from, which <see cref="Close"/> disposes, as .NET's reader disposes it.</summary>
    private Stream? _inputStream;
    private BinaryXmlReaderOptions? _options;

    private ReadOnlySpan<byte> Data => _buffer.AsSpan(_offset, _count);

    /// <summary>The native reader on this reader's input and state (a reader in use, not closed, has both).</summary>
    private BinaryXmlReader NativeReader => new(Data, _state._state!);

    private void ReleaseState()
    {
        if (_valueState is not null)
        {
            ReaderState.ReturnScratch(_valueState);
            _valueState = null;
        }
        if (_state._state is null) return;
        new BinaryXmlReader(Data, _state).Dispose();
        _state = default;
    }

    // ---- Node properties ---------------------------------------------------------------------------------------

    /// <inheritdoc/>
    public override XmlDictionaryReaderQuotas Quotas => _quotas;

    /// <inheritdoc/>
    public override XmlNodeType NodeType => _attributeIndex < 0 ? _nodeType : _onAttributeValue ? XmlNodeType.Text : XmlNodeType.Attribute;

    /// <inheritdoc/>
    public override int Depth => _attributeIndex < 0 ? _depth : _depth + (_onAttributeValue ? 2 : 1);

    /// <inheritdoc/>
    public override string Prefix => _attributeIndex < 0 ? CurrentPrefix : _attributes[_attributeIndex].Prefix;

    /// <inheritdoc/>
    public override string LocalName => _attributeIndex < 0 ? CurrentLocalName : AttrLocalName(_attributes[_attributeIndex]);

    /// <inheritdoc/>
    public override string NamespaceURI => _attributeIndex < 0 ? CurrentNamespace : AttrNamespace(_attributes[_attributeIndex]);

    /// <inheritdoc/>
    /// <remarks>
    /// As .NET's reader, the node keeps the string returned: from then on its <see cref="ValueType"/> is string and
    /// its content is read as that string (see <see cref="ReadContentAsString"/>).
    /// </remarks>
    public override string Value
    {
        get
        {
            _valueAsked = true;
            return NodeValue;
        }
    }

    /// <summary>Whether the reader keeps a string of the current value (Value asked for, or what a partial read left), as .NET's keeps its own.</summary>
    private bool ValueStringKept => _valueAsked || _valueRest is not null;

    /// <summary>The reader moved: what .NET's reader keeps of the last node's value (Value asked for, the rest of a partial read) is gone.</summary>
    private void ForgetKeptValue()
    {
        _valueAsked = false;
        _valueRest = null;
    }

    /// <summary>The current node's value, for the reads built on it (which, unlike <see cref="Value"/>, leave the node as it is).</summary>
    private string NodeValue => _valueRest ?? (_attributeIndex >= 0 ? AttributeValue(_attributes[_attributeIndex]) : RecordValue);

    /// <summary>
    /// The current node's value as its record gives it: what reads from the record (value chunks of UTF-8 text, base64
    /// pieces) left of it, not counting reads of a string kept from it (<see cref="_valueRest"/>). .NET's reader
    /// canonicalizes this, its value handle.
    /// </summary>
    private string RecordValue
    {
        get
        {
            _listValueUnread = false;
            if (TextChunkReadUnderWay) return RemainingTextChunkValue();
            if (TryGetPieceRest(out ReadOnlySpan<byte> rest, out bool bytes, out string? text)) return text ?? (bytes ? Convert.ToBase64String(rest) : Encoding.UTF8.GetString(rest));
            // Text whose UTF-8 the native reader has not checked yet is checked as it is decoded.
            return _value ??= TextUnchecked ? NativeReader.GetString() : ValueReader().GetString();
        }
    }

    /// <summary>
    /// Whether the current text node's UTF-8 is still unchecked: the native reader leaves the check of content text to
    /// its first decoding (<see cref="NodeValue"/>, <see cref="ReadValueChunk(Span{char})"/>) or, for text passed over,
    /// to the next <see cref="Read"/>. Such text is on the native reader's current token.
    /// </summary>
    private bool TextUnchecked
    {
        get
        {
            bool owed = _attributeIndex < 0 && _state._state is { } s && (s._pending & PendingStep.CheckText) != 0;
            System.Diagnostics.Debug.Assert(!owed || (_nodeType == XmlNodeType.Text && _state._state!._valueStart == _valueLocation.Start));
            return owed;
        }
    }

    /// <summary>Checks the current text node's UTF-8 before its bytes are used as they are (base64 read from them).</summary>
    private void CheckTextBytes()
    {
        if (TextUnchecked) NativeReader.CheckDeferredText();
    }

    /// <inheritdoc/>
    public override Type ValueType => _valueAsked ? typeof(string) : _attributeIndex < 0 ? RecordTypes.GetValueType(_valueTypeRecord) : _attributes[_attributeIndex].ValueType;

    /// <inheritdoc/>
    public override bool HasValue => NodeType is XmlNodeType.Attribute or XmlNodeType.Text or XmlNodeType.CDATA or XmlNodeType.Whitespace
        or XmlNodeType.SignificantWhitespace or XmlNodeType.Comment;

    /// <inheritdoc/>
    public override int AttributeCount => _nodeType == XmlNodeType.Element ? _attributeCount : 0;

    /// <inheritdoc/>
    public override string BaseURI => "";

    /// <inheritdoc/>
    public override bool EOF => _readState == ReadState.EndOfFile;

    /// <inheritdoc/>
    public override bool IsEmptyElement => false;

    /// <inheritdoc/>
    public override XmlNameTable NameTable
    {
        get
        {
            // The fixed names are atoms without being looked up in the table (they are never added through AddName):
            // a caller that atomizes through the table gets the same instances.
            if (!_fixedNamesInTable)
            {
                foreach (string name in s_fixedNames) _nameTable.Add(name);
                _fixedNamesInTable = true;
            }
            return _nameTable;
        }
    }

    /// <inheritdoc/>
    public override ReadState ReadState => _readState;

    /// <inheritdoc/>
    public override string XmlLang => _xmlScopes.Count == 0 ? "" : _xmlScopes[^1].Lang ?? "";

    /// <inheritdoc/>
    public override XmlSpace XmlSpace => _xmlScopes.Count == 0 ? XmlSpace.None : _xmlScopes[^1].Space;

    // ---- Attributes --------------------------------------------------------------------------------------------

    /// <inheritdoc/>
    public override string GetAttribute(int i)
    {
        CheckAttributeIndex(i);
        return AttributeValue(Attributes[i]);
    }

    /// <summary>An attribute index out of range fails as in .NET's reader (its parameter named index, its messages).</summary>
    private void CheckAttributeIndex(int index)
    {
        if (_nodeType != XmlNodeType.Element) throw new ArgumentOutOfRangeException(nameof(index), "Only Element nodes have attributes.");
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        if (index >= _attributeCount) throw new ArgumentOutOfRangeException(nameof(index), $"The specified offset exceeds the buffer size ({_attributeCount} bytes).");
    }

    /// <inheritdoc/>
    public override string? GetAttribute(string name)
    {
        int i = FindAttribute(name);
        return i < 0 ? null : AttributeValue(_attributes[i]);
    }

    /// <inheritdoc/>
    public override string? GetAttribute(string localName, string? namespaceURI)
    {
        int i = FindAttribute(localName, namespaceURI ?? "", out ReadOnlySpan<AttributeRecord> records);
        if (i < 0) return null;
        // Found among the records of attributes not built yet: an attribute's value (not a declaration's, nor a list,
        // whose items are tokens) is read from its record by the native reader, as SetAttribute reads it, and the nodes
        // are still built only if asked for (a serializer asks each element for its i:nil or i:type and nothing more).
        if (i < records.Length && !records[i].IsXmlns && records[i].ValueType != (byte)RecordType.StartListText)
            return NativeReader.GetAttributeString(in records[i]);
        return AttributeValue(Attributes[i]);
    }

    /// <inheritdoc/>
    public override string? GetAttribute(XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(localName);
        return GetAttribute(localName.Value, namespaceUri?.Value);
    }

    // A null name is an argument error (as in .NET's binary reader), not a failed search.
    private int FindAttribute(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        for (int i = 0; i < AttributeCount; i++)
        {
            Attr a = Attributes[i];
            int prefix = a.Prefix.Length;
            if (prefix == 0 ? AttrLocalNameEquals(a, name) : name.Length > prefix && name[prefix] == ':' && name.StartsWith(a.Prefix, StringComparison.Ordinal) && AttrLocalNameEquals(a, name.AsSpan(prefix + 1))) return i;
        }
        return -1;
    }

    /// <summary>
    /// The index of the attribute named <paramref name="localName"/> in <paramref name="ns"/>, or -1. Attributes not
    /// built yet are looked for in their records (<paramref name="records"/>, empty once built), by the names the start
    /// tag's scan resolved: a search that finds nothing builds nothing.
    /// </summary>
    private int FindAttribute(string localName, string ns, out ReadOnlySpan<AttributeRecord> records)
    {
        ArgumentNullException.ThrowIfNull(localName);
        if (_attributesOfElement >= 0)
        {
            BinaryXmlReader r = NativeReader;
            if (r.TryGetPassedAttributes(_attributesOfElement, out records)) return FindAttributeRecord(in r, records, localName, ns);
        }
        records = default;
        for (int i = 0; i < AttributeCount; i++)
        {
            if (AttrNameEquals(Attributes[i], localName, ns)) return i;
        }
        return -1;
    }

    /// <summary>
    /// Whether an attribute node is the one named <paramref name="localName"/> in <paramref name="ns"/>. As in .NET's
    /// reader, a namespace declaration is named by the prefix it declares, in the xmlns namespace: the default
    /// namespace's by the empty name, not by its node's local name "xmlns".
    /// </summary>
    private bool AttrNameEquals(Attr a, string localName, string ns)
        => IsNamespaceDeclaration(a)
            ? ns == XmlnsNamespace && (a.Prefix.Length == 0 ? localName.Length == 0 : AttrLocalNameEquals(a, localName))
            : NamespaceEquals(a.Namespace, a.NamespaceFrom, ns) && AttrLocalNameEquals(a, localName);

    /// <summary>
    /// The index of the attribute named <paramref name="localName"/> in <paramref name="ns"/> among the records of a
    /// start tag, in the order of the nodes built from them, compared as those are (<see cref="AttrNameEquals"/>).
    /// </summary>
    private static int FindAttributeRecord(in BinaryXmlReader r, ReadOnlySpan<AttributeRecord> records, string localName, string ns)
    {
        for (int i = 0; i < records.Length; i++)
        {
            ref readonly AttributeRecord a = ref records[i];
            bool found = a.IsXmlns
                ? ns == XmlnsNamespace && r.NameEquals(a.Prefix, localName)
                : r.NameEquals(a.Namespace, ns) && r.NameEquals(a.LocalName, localName);
            if (found) return i;
        }
        return -1;
    }

    /// <inheritdoc/>
    public override void MoveToAttribute(int i)
    {
        CheckAttributeIndex(i);
        MoveTo(i);
    }

    /// <inheritdoc/>
    public override bool MoveToAttribute(string name) => MoveTo(FindAttribute(name));

    /// <inheritdoc/>
    public override bool MoveToAttribute(string localName, string? namespaceURI) => MoveTo(FindAttribute(localName, namespaceURI ?? "", out _));

    private bool MoveTo(int i)
    {
        if (i < 0) return false;
        if (_attributesOfElement >= 0) BuildAttributes();
        _attributeIndex = i;
        _onAttributeValue = false;
        ForgetKeptValue();
        return true;
    }

    /// <inheritdoc/>
    public override bool MoveToElement()
    {
        if (_attributeIndex < 0) return false;
        _attributeIndex = -1;
        _onAttributeValue = false;
        ForgetKeptValue();
        return true;
    }

    /// <inheritdoc/>
    public override bool MoveToFirstAttribute() => AttributeCount > 0 && MoveTo(0);

    /// <inheritdoc/>
    public override bool MoveToNextAttribute()
    {
        if (_nodeType != XmlNodeType.Element) return false;
        return _attributeIndex + 1 < _attributeCount && MoveTo(_attributeIndex + 1);
    }

    /// <inheritdoc/>
    public override bool ReadAttributeValue()
    {
        if (_attributeIndex < 0 || _onAttributeValue) return false;
        _onAttributeValue = true;
        ForgetKeptValue();
        return true;
    }

    /// <inheritdoc/>
    public override string? LookupNamespace(string prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        if (prefix == "xmlns") return XmlnsNamespace;
        if (_state._state is null) return null;
        var reader = new BinaryXmlReader(Data, _state);
        Span<byte> utf8 = stackalloc byte[Encoding.UTF8.GetMaxByteCount(Math.Min(prefix.Length, 64))];
        byte[] bytes = prefix.Length <= 64 ? [] : Encoding.UTF8.GetBytes(prefix);
        ReadOnlySpan<byte> p = prefix.Length <= 64 ? utf8[..Encoding.UTF8.GetBytes(prefix, utf8)] : bytes;
        return reader.TryLookupNamespace(p, out BinaryXmlName ns) ? Atomize(ns) : null;
    }

    /// <inheritdoc/>
    public override void ResolveEntity() => throw new InvalidOperationException("Operation is not valid due to the current state of the object.");

    // ---- Dictionary strings ------------------------------------------------------------------------------------

    // As .NET's reader: a name held as a dictionary string is reported as one, and an empty name (a text node's, the
    // empty namespace) as XmlDictionaryString.Empty; a namespace declaration reports none, not even its value.

    /// <inheritdoc/>
    public override bool TryGetLocalNameAsDictionaryString([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? localName)
    {
        localName = _attributeIndex >= 0 ? (IsNamespaceDeclaration(_attributes[_attributeIndex]) ? null : _attributes[_attributeIndex].LocalDictionary)
            : _nameDepth < 0 ? XmlDictionaryString.Empty
            : CurrentName.Local;
        return localName is not null;
    }

    /// <inheritdoc/>
    public override bool TryGetNamespaceUriAsDictionaryString([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? namespaceUri)
    {
        if (_attributeIndex >= 0)
        {
            Attr a = _attributes[_attributeIndex];
            namespaceUri = IsNamespaceDeclaration(a) ? null : a.NamespaceDictionary ?? EmptyIfEmpty(a.Namespace);
        }
        else
        {
            ref ElementName names = ref CurrentName;
            namespaceUri = names.Ns ?? EmptyIfEmpty(names.Namespace);
        }
        return namespaceUri is not null;

        // A namespace not atomized yet (null) is an inline one, never empty.
        static XmlDictionaryString? EmptyIfEmpty(string? ns) => ns is "" ? XmlDictionaryString.Empty : null;
    }

    /// <inheritdoc/>
    public override bool TryGetValueAsDictionaryString([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? value)
    {
        value = _attributeIndex < 0 ? _valueDictionary : IsNamespaceDeclaration(_attributes[_attributeIndex]) ? null : _attributes[_attributeIndex].ValueDictionary;
        return value is not null;
    }

    private static bool IsNamespaceDeclaration(Attr a) => ReferenceEquals(a.Namespace, XmlnsNamespace);

    // ---- Reading -----------------------------------------------------------------------------------------------

    /// <inheritdoc/>
    // Out of line: without a try region it could be inlined, and was, into the one-step reads that end with it
    // (ReadElementContentAsString, Skip), which left the node's own read a call there (R5 under DataContractSerializer
    // 8 % slower in the harness).
    [MethodImpl(MethodImplOptions.NoInlining)]
    public override bool Read()
    {
        if (_readState is ReadState.Closed or ReadState.EndOfFile) return false;
        if (_c14n is not null) CanonicalizeNode();
        _attributeIndex = -1;
        _onAttributeValue = false;
        ForgetKeptValue();
        if (_nodeType == XmlNodeType.EndElement && _xmlScopes.Count > 0) PopXmlScope(_depth);
        _valueDictionary = null;
        _atomic = 0;
        if (_arrayNodesRead < ArrayNodes)
        {
            _readState = ReadState.Interactive;
            ReadArrayNode();
            return true;
        }
        // _state is a handle on the native reader's state: it moves on with the reader, nothing to copy back.
        // The state is in a register for the first tests of the read (the reader's copy is read back from memory).
        ReaderState state = _state._state!;
        var reader = new BinaryXmlReader(Data, state);
        // In error until the node is read: a read that throws leaves the reader in error, without a try region in every
        // read (a catch that set it kept this reader and the method's locals in memory across the read: R2 through
        // this reader 4-8 % slower in the harness, benchmarks/HISTORY.md).
        _readState = ReadState.Error;
        bool more = ReadNode(ref reader, state);
        if (more)
        {
            _readState = ReadState.Interactive;
            return true;
        }
        _readState = ReadState.EndOfFile;
        SetNode(XmlNodeType.None, 0, "", 0);
        return false;
    }

    /// <summary>
    /// Skips the current element and its content, as <see cref="XmlReader.Skip"/>: the content is passed over by the
    /// native reader (every record still validated) without building nodes for it.
    /// </summary>
    public override void Skip()
    {
        if (_readState != ReadState.Interactive) return;
        MoveToElement();
        // Nodes are built one by one where they must be: while canonicalizing (each is signed) and inside an Array
        // record presented as repeated elements.
        if (_nodeType != XmlNodeType.Element || _c14n is not null || _arrayNodesRead < ArrayNodes)
        {
            base.Skip();
            return;
        }
        var reader = NativeReader;
        try
        {
            // The native reader is on the element's start tag, its last attribute or the end of that attribute's list
            // value: move it to the element's end tag.
            int depth = _depth;
            while (reader.ReadPassingAttributes() && !(reader.TokenType == BinaryXmlTokenType.EndElement && reader.CurrentDepth == depth))
            {
            }
        }
        catch (XmlException)
        {
            _readState = ReadState.Error;
            throw;
        }
        // On the end tag, as if read node by node (the element's names are still those of _openElements[_depth]).
        SetElementNode(XmlNodeType.EndElement, _depth);
        Read();
    }

    // The steps of a Read that every element takes (this, ReadElement, SetName, AtomizePrefix, and in the native
    // reader ReadStartElement and ResolveElementNamespace) are inlined by attribute, not left to the JIT's profile: code
    // compiled without one (dynamic PGO off, or compiled ahead of time) called each out of line, a third more time an
    // element (benchmarks/HISTORY.md, "R1's two levels traced to the benchmark's loop…").
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool ReadNode(ref BinaryXmlReader r, ReaderState state)
    {
        if (!r.ReadOn(state)) return false;
        switch (r.TokenType)
        {
            case BinaryXmlTokenType.StartElement:
                ReadElement(ref r);
                return true;
            case BinaryXmlTokenType.EndElement:
            {
                int depth = r.CurrentDepth;
                // The start tag's names, unless it was not read by this reader.
                if (depth >= _openElements.Length || _openElements[depth].Document != _documentSerial) SetName(ref r, depth);
                SetElementNode(XmlNodeType.EndElement, depth);
                return true;
            }
            case BinaryXmlTokenType.Text:
            {
                bool withEnd = ((byte)r.RecordType & 1) != 0;
                RecordType valueType = r.ValueType;
                _textClosesElement = withEnd;
                // The record's value type: a typed value closing its element is that type, bytes are bytes, the rest
                // is string (IsAtomicType and IsBytes, from one lookup).
                Type recordType = RecordTypes.GetValueType(valueType);
                bool bytes = recordType == typeof(byte[]);
                RecordType type = withEnd || bytes ? valueType : 0;
                // .NET's binary reader reports every text record as Text, whitespace included (even outside the root).
                _textRecord = valueType;
                if (withEnd && !bytes && recordType != typeof(string))
                {
                    // A typed value closing its element (.NET's "atomic" value): kept as the record, converted
                    // directly by ReadContentAs*, formatted as a string only if Value is asked for.
                    SetNode(XmlNodeType.Text, r.CurrentDepth, "", type);
                    _value = null;
                    _atomic = valueType;
                    _valueLocation = r.CurrentValue;
                    return true;
                }
                if (valueType == RecordType.DictionaryText && TrySetDictionaryTextNode(ref r, type)) return true;
                if (valueType == RecordType.QNameDictionaryText)
                {
                    SetNode(XmlNodeType.Text, r.CurrentDepth, r.GetString(), type);
                }
                else
                {
                    // Text is decoded only if Value (or a content read) asks for it, as .NET does.
                    SetNode(XmlNodeType.Text, r.CurrentDepth, "", type);
                    _value = null;
                    _valueLocation = r.CurrentValue;
                }
                return true;
            }
            case BinaryXmlTokenType.StartList:
            {
                int depth = r.CurrentDepth;
                _textRecord = RecordType.StartListText;
                _textClosesElement = false;
                SetNode(XmlNodeType.Text, depth, ReadListItems(ref r, out int items), 0);
                // An empty list is empty text to .NET's reader, which MoveToContent passes over.
                _listValueUnread = items > 0;
                return true;
            }
            case BinaryXmlTokenType.Comment:
                // A comment's text (its UTF-8 checked by the native reader) is decoded only if its value is asked for,
                // as .NET's reader decodes it.
                SetNode(XmlNodeType.Comment, r.CurrentDepth, "", 0);
                _value = null;
                _valueLocation = r.CurrentValue;
                return true;
            default:
                return ReadNode(ref r, state);
        }
    }

    /// <summary>
    /// A DictionaryText node whose string the dictionaries have: its value is the string. Out of line, so that the
    /// frame of <see cref="Read"/> holds no dictionary string the collector would track (and zero on every call).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TrySetDictionaryTextNode(ref BinaryXmlReader r, RecordType type)
    {
        if (!r.TryGetDictionaryString(out XmlDictionaryString? d)) return false;
        SetNode(XmlNodeType.Text, r.CurrentDepth, d.Value, type);
        _valueDictionary = d;
        return true;
    }

    /// <summary>
    /// Reads a list's items up to its EndListText and joins their text with single spaces (MC-NBFX 2.2.3.19); with
    /// <paramref name="objects"/>, also each item as the object .NET's reader gives for it (its typed value, Bytes as
    /// an array, text as a string).
    /// </summary>
    private static string ReadListItems(ref BinaryXmlReader r, out int items, List<object>? objects = null)
    {
        var sb = new StringBuilder();
        items = 0;
        while (r.Read() && r.TokenType == BinaryXmlTokenType.Text)
        {
            if (items++ > 0) sb.Append(' ');
            RecordType type = r.ValueType;
            if (IsBytes(type))
            {
                // .NET formats a Bytes item of a list with object.ToString, not as base64 (pinned against the oracle).
                sb.Append(typeof(byte[]).ToString());
                objects?.Add(r.ValueSpan.ToArray());
                continue;
            }
            string text = r.GetString();
            sb.Append(text);
            objects?.Add(IsAtomicType(type) ? AtomicObject(type, ref r) : text);
        }
        return sb.ToString();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ReadElement(ref BinaryXmlReader r)
    {
        int depth = r.CurrentDepth;
        bool isArray = r.IsArray;
        SetName(ref r, depth);
        SetElementNode(XmlNodeType.Element, depth);
        if (_streamed) NoteStreamedStartTag(depth, r.TokenStartIndex, r.BytesConsumed);
        _attributeCount = 0;
        _attributesOfElement = -1;
        // Most elements have neither attributes nor array items: what they need is out of line, so that the frame of
        // this method (zeroed on every call) stays small.
        if (r.NextIsAttribute) ReadStartTagAttributes(ref r, depth, isArray);
        if (isArray) ReadArrayStart(ref r, depth);
    }

    /// <summary>
    /// The attributes of the start tag the native reader is on: counted now and built when first asked for
    /// (<see cref="Attributes"/>), unless they begin an xml:lang or xml:space scope or precede an Array record's
    /// items (built now: the scope is the element's, the items follow the attributes in the native reader).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReadStartTagAttributes(ref BinaryXmlReader r, int depth, bool isArray)
    {
        if (isArray || r.StartTagHasXmlPrefixedAttribute())
        {
            ReadAttributes(ref r, depth);
            return;
        }
        _attributeCount = r.PassAttributes();
        _attributesOfElement = r.TokenStartIndex;
    }

    /// <summary>The current element's attribute nodes, built the first time they are asked for.</summary>
    private List<Attr> Attributes
    {
        get
        {
            if (_attributesOfElement >= 0) BuildAttributes();
            return _attributes;
        }
    }

    /// <summary>Builds the attribute nodes of the current element from the native reader, which is still on its start tag.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void BuildAttributes()
    {
        var r = NativeReader;
        int count = _attributeCount;
        // Built from the records the start tag's scan kept, without reading their tokens again; but for a list value,
        // whose items the native reader reads as tokens.
        if (r.TryGetPassedAttributes(_attributesOfElement, out ReadOnlySpan<AttributeRecord> records) && !AnyList(records))
        {
            _attributesOfElement = -1;
            _attributeCount = 0;
            foreach (ref readonly AttributeRecord record in records) SetAttribute(ref r, NextAttribute(), in record, _depth);
            System.Diagnostics.Debug.Assert(_attributeCount == count);
            return;
        }
        // Only a read that failed moves the native reader on and leaves this reader on the element: the reader stays
        // failed (see Read), and so do the attributes it had not read.
        if (!r.TryRewindAttributes(_attributesOfElement))
            throw new BinaryXmlException("The attributes of this element cannot be read: a read after its start tag failed before they were asked for", _attributesOfElement);
        _attributesOfElement = -1;
        _attributeCount = 0;
        ReadAttributes(ref r, _depth);
        System.Diagnostics.Debug.Assert(_attributeCount == count);
    }

    /// <summary>Whether an attribute of a start tag (not a declaration) has a list value.</summary>
    private static bool AnyList(ReadOnlySpan<AttributeRecord> attributes)
    {
        foreach (ref readonly AttributeRecord a in attributes)
        {
            if (!a.IsXmlns && a.ValueType == (byte)RecordType.StartListText) return true;
        }
        return false;
    }

    /// <summary>Builds the attribute nodes of the start tag the native reader is on, reading their tokens.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReadAttributes(ref BinaryXmlReader r, int depth)
    {
        while (r.NextIsAttribute)
        {
            r.Read();
            SetAttribute(ref r, NextAttribute(), in r.CurrentAttributeRecord, depth);
        }
    }

    /// <summary>
    /// Makes <paramref name="a"/> the node of an attribute record of the start tag the native reader is on. The reader
    /// is on the record's token when its value is a list, whose items it reads (<see cref="BuildAttributes"/> builds
    /// such a tag's nodes token by token).
    /// </summary>
    private void SetAttribute(ref BinaryXmlReader r, Attr a, in AttributeRecord record, int depth)
    {
        // An element's attributes mostly repeat those of the element before it: the Attr objects are reused, and each
        // reference is stored only when it changes (a store of a reference into the heap costs a write barrier call).
        if (record.IsXmlns)
        {
            SetDeclaration(ref r, a, record.Prefix, record.Namespace);
            return;
        }
        a.ListItems = null;
        SetLocalName(ref r, record.LocalName, out string? localName, out XmlDictionaryString? localDictionary, out a.LocalStart, out a.LocalLength);
        SetIfChanged(ref a.LocalName, localName);
        SetIfChanged(ref a.LocalDictionary, localDictionary);
        string prefix;
        if (record.Prefix.Kind != NameKind.None)
        {
            prefix = AtomizePrefix(ref r, record.Prefix);
            SetIfChanged(ref a.Prefix, prefix);
            SetNamespace(ref r, record.Namespace, ref a.Namespace, ref a.NamespaceFrom, ref a.NamespaceDictionary);
        }
        else
        {
            // An attribute without a prefix has no namespace.
            prefix = "";
            SetIfChanged(ref a.Prefix, "");
            SetIfChanged(ref a.Namespace, "");
            a.NamespaceDictionary = null;
        }
        var recordValueType = (RecordType)record.ValueType;
        a.Atomic = IsAtomicType(recordValueType) ? recordValueType : 0;
        a.AtomicValue = new ValueLocation(BinaryXmlTokenType.Attribute, record.ValueType, record.PayloadStart, record.PayloadLength);
        XmlDictionaryString? valueDictionary = null;
        string? value;
        Type valueType;
        if (recordValueType == RecordType.StartListText)
        {
            var objects = new List<object>();
            value = ReadListItems(ref r, out _, objects);
            a.ListItems = [.. objects];
            valueType = typeof(object[]);
        }
        else
        {
            valueType = RecordTypes.GetValueType(recordValueType);
            if (r.TryGetAttributeDictionaryString(in record, out XmlDictionaryString? d))
            {
                value = d.Value;
                valueDictionary = d;
            }
            else if (prefix != "xml" && (a.Atomic != 0 ? recordValueType != RecordType.QNameDictionaryText : IsCharsText(recordValueType) || IsBytes(recordValueType)))
            {
                // Decoded or formatted only if asked for, as .NET does. Not a QName of the session (its string is
                // resolved with the attribute nodes: the session may change before the value is asked for).
                value = null;
            }
            else
            {
                value = r.GetAttributeString(in record);
            }
        }
        SetIfChanged(ref a.Value, value);
        SetIfChanged(ref a.ValueType, valueType);
        SetIfChanged(ref a.ValueDictionary, valueDictionary);
        if (prefix == "xml") TrackXmlAttribute(a, depth);
    }

    /// <summary>
    /// Makes <paramref name="a"/> the node of a namespace declaration of <paramref name="prefix"/> (none: the default
    /// namespace) declaring the namespace at <paramref name="declared"/>.
    /// </summary>
    private void SetDeclaration(ref BinaryXmlReader r, Attr a, NameRef prefix, NameRef declared)
    {
        bool isDefault = prefix.Kind == NameKind.None;
        SetIfChanged(ref a.Prefix, isDefault ? "" : "xmlns");
        if (!isDefault && prefix.Kind == NameKind.Inline)
        {
            // The declared prefix, inline bytes, is the node's local name: atomized when first asked for, as an
            // attribute's inline name is (AttrLocalName). A serializer asks only for the namespace of most.
            a.LocalName = null;
            a.LocalStart = prefix.Offset;
            a.LocalLength = prefix.Length;
        }
        else
        {
            SetIfChanged(ref a.LocalName, isDefault ? "xmlns" : AtomizePrefix(ref r, prefix));
        }
        SetIfChanged(ref a.Namespace, XmlnsNamespace);
        // An inline namespace is decoded when the value is asked for (AttributeValue).
        SetNamespace(ref r, declared, ref a.Value, ref a.DeclaredFrom, ref a.ValueDictionary);
        SetIfChanged(ref a.ValueType, typeof(string));
        a.LocalDictionary = a.NamespaceDictionary = null;
        a.Atomic = 0;
        a.ListItems = null;
    }

    /// <summary>Starts presenting an Array record's items as repeated elements.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReadArrayStart(ref BinaryXmlReader r, int depth)
    {
        r.Read(); // ArrayData
        int count = r.ArrayLength;
        RecordType item = (RecordType)((byte)r.ArrayItemType & 0xFE);
        BinaryXmlPrimitives.IsArrayItemType(r.ArrayItemType, out int size);
        _arrayCount = count;
        _arrayItem = item;
        _arrayItemSize = size;
        _arrayItemsOffset = r.TokenStartIndex;
        _arrayDepth = depth;
        _arrayNodesRead = 0;
    }

    private Attr NextAttribute()
    {
        if (_attributeCount == _attributes.Count) _attributes.Add(new Attr());
        return _attributes[_attributeCount++];
    }

    private void TrackXmlAttribute(Attr a, int depth)
    {
        string? lang = XmlLang;
        XmlSpace space = XmlSpace;
        string local = AttrLocalName(a);
        if (local == "lang") lang = AttributeValue(a);
        else if (local == "space") space = AttributeValue(a) == "preserve" ? XmlSpace.Preserve : a.Value == "default" ? XmlSpace.Default : space;
        else return;
        _xmlScopes.Add((depth, lang, space));
    }

    private void PopXmlScope(int depth)
    {
        while (_xmlScopes.Count > 0 && _xmlScopes[^1].Depth >= depth) _xmlScopes.RemoveAt(_xmlScopes.Count - 1);
    }

    /// <summary>Moves to the next node of an Array record presented as repeated elements.</summary>
    private void ReadArrayNode()
    {
        int k = _arrayNodesRead++;
        int index = k / 3;
        switch (k % 3)
        {
            case 0:
                // The item is a typed value closing its element, as .NET presents it (its "atomic" value): the typed
                // reads convert the record, and Value formats it when asked for.
                _textRecord = _arrayItem;
                _textClosesElement = true;
                SetNode(XmlNodeType.Text, _arrayDepth + 1, "", _arrayItem);
                _value = null;
                _atomic = _arrayItem;
                _valueLocation = new ValueLocation(BinaryXmlTokenType.Text, (byte)_arrayItem, _arrayItemsOffset + index * _arrayItemSize, _arrayItemSize);
                break;
            case 1:
                SetElementNode(XmlNodeType.EndElement, _arrayDepth);
                break;
            default:
                SetElementNode(XmlNodeType.Element, _arrayDepth);
                break;
        }
    }

    // Changed by every move to a node (SetNode, SetElementNode, SetInput). What a read in pieces keeps (value chunks,
    // base64 content, bytes decoded whole) belongs to the node, and attribute, it was left on (NodeKey): a read whose
    // key is not the current one starts afresh. Not the value string: a dictionary string is the value of every node
    // that names it.
    private int _nodeSerial;

    /// <summary>The current node and attribute, as the state of a read in pieces records it.</summary>
    private long NodeKey => ((long)_nodeSerial << 32) | (uint)_attributeIndex;

    /// <summary>Moves to an element or end element whose names are those of the open element at <paramref name="depth"/>.</summary>
    private void SetElementNode(XmlNodeType type, int depth)
    {
        _nodeSerial++;
        _nodeType = type;
        _depth = depth;
        _nameDepth = depth;
        _value = "";
        _valueTypeRecord = 0;
    }

    /// <summary>
    /// Writes the current element's names into the open-element table at <paramref name="depth"/>: its prefix and
    /// namespace atomized, its local name atomized now if it is a dictionary string, else when first asked for.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SetName(ref BinaryXmlReader r, int depth)
    {
        if (depth >= _openElements.Length) Array.Resize(ref _openElements, Math.Max(depth + 1, _openElements.Length * 2));
        ref ElementName names = ref _openElements[depth];
        // Elements at one depth mostly repeat their prefix and namespace, and documents their names: a reference is
        // stored only when it changes (a store of a reference into the heap costs a write barrier call, a compare
        // does not). Where the namespace is declared is of this document only.
        bool written = names.Document == _documentSerial;
        names.Document = _documentSerial;
        ref ElementScope tag = ref r.TagScope;
        SetIfChanged(ref names.Prefix, AtomizePrefix(ref r, tag.Prefix));
        // Most names are inline (atomized when asked for) and most elements have no namespace: set here; dictionary
        // names and namespaces out of line, so that this frame holds no locals the collector tracks.
        NameRef local = tag.LocalName;
        names.LocalStart = local.Offset;
        names.LocalLength = local.Length;
        if (local.Kind == NameKind.Dictionary)
        {
            SetDictionaryLocalName(ref r, ref names, local);
        }
        else
        {
            SetIfChanged(ref names.LocalName, null);
            SetIfChanged(ref names.Local, null);
        }
        NameRef ns = r.NamespaceOf(ref tag);
        if (ns.Kind == NameKind.None)
        {
            SetIfChanged(ref names.Namespace, "");
            SetIfChanged(ref names.Ns, null);
            names.NamespaceFrom = default;
        }
        else if (!written || !ns.IsSameAs(names.NamespaceFrom))
        {
            SetNamespace(ref r, ns, ref names.Namespace, ref names.NamespaceFrom, ref names.Ns);
        }
    }

    private void SetDictionaryLocalName(ref BinaryXmlReader r, ref ElementName names, NameRef local)
    {
        SetIfChanged(ref names.LocalName, AtomizeDictionaryName(ref r, local, out XmlDictionaryString dictionary));
        SetIfChanged(ref names.Local, dictionary);
    }

    /// <summary>
    /// Sets a namespace (an element's or attribute's, or a declaration's value) from where it is declared: an inline
    /// namespace is left null, with its place, to be atomized (or decoded) when asked for and compared in the input
    /// until then (<see cref="NamespaceEquals"/>), as .NET's reader does; a dictionary string is atomized now.
    /// </summary>
    private void SetNamespace(ref BinaryXmlReader r, NameRef where, ref string? value, ref NameRef from, ref XmlDictionaryString? dictionary)
    {
        from = where;
        if (where.Kind == NameKind.Inline)
        {
            value = null;
            dictionary = null;
            return;
        }
        SetIfChanged(ref value, AtomizeNamespace(ref r, where, out XmlDictionaryString? atomDictionary));
        SetIfChanged(ref dictionary, atomDictionary);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void SetIfChanged<T>(ref T field, T value) where T : class?
    {
        if (!ReferenceEquals(field, value)) field = value;
    }

    /// <summary>
    /// An attribute's local name (<paramref name="local"/>): a dictionary string's atom (and the string), or an inline
    /// name's place in the input with no atom yet (<paramref name="atom"/> null: atomized when first asked for).
    /// </summary>
    private void SetLocalName(ref BinaryXmlReader r, NameRef local, out string? atom, out XmlDictionaryString? dictionary, out int start, out int length)
    {
        start = local.Offset;
        length = local.Length;
        if (local.Kind == NameKind.Dictionary)
        {
            atom = AtomizeDictionaryName(ref r, local, out XmlDictionaryString d);
            dictionary = d;
        }
        else
        {
            dictionary = null;
            atom = null;
        }
    }

    /// <summary>
    /// The atom of a dictionary name (and its string). Names of the static dictionary are kept by id: a document
    /// names the same few again and again, and the id finds the atom without resolving the string again (the native
    /// reader resolved and checked it while parsing). Session names are looked up each time (the caller may change the
    /// session between reads) and their atoms kept by the string the session gives: the lookup is an array index, the
    /// atomization is not.
    /// </summary>
    private string AtomizeDictionaryName(ref BinaryXmlReader r, NameRef name, out XmlDictionaryString dictionary)
    {
        int id = name.Id;
        if ((id & 1) == 0)
        {
            if (_dictionaryAtoms is { } atoms)
            {
                ref DictionaryAtom slot = ref atoms[(id >> 1) & (atoms.Length - 1)];
                if (slot.String is { } kept && kept.Key == id >> 1)
                {
                    dictionary = kept;
                    return slot.Atom!;
                }
            }
        }
        else if (_sessionAtoms is { } atoms && _state._state!._session!.TryLookup(id >> 1, out XmlDictionaryString? current))
        {
            ref DictionaryAtom slot = ref atoms[(id >> 1) & (atoms.Length - 1)];
            if (ReferenceEquals(slot.String, current))
            {
                dictionary = current;
                return slot.Atom!;
            }
        }
        return AtomizeNewDictionaryName(ref r, name, out dictionary);
    }

    private string AtomizeNewDictionaryName(ref BinaryXmlReader r, NameRef name, out XmlDictionaryString dictionary)
    {
        int id = name.Id;
        BinaryXmlName resolved = r.GetName(name);
        dictionary = resolved.DictionaryString!;
        string atom = Atomize(resolved);
        if ((id & 1) != 0)
        {
            AtomSlot(ref _sessionAtoms, id >> 1) = new DictionaryAtom { String = dictionary, Atom = atom };
        }
        // Kept by its key: a string the dictionary returns for this id with another key (a dictionary of its own
        // making may) is resolved each time.
        else if (dictionary.Key == id >> 1)
        {
            AtomSlot(ref _dictionaryAtoms, id >> 1) = new DictionaryAtom { String = dictionary, Atom = atom };
        }
        return atom;
    }

    /// <summary>
    /// The slot of <paramref name="atoms"/> for a dictionary string's index: the index's low bits. The table starts at
    /// <see cref="DictionaryAtoms"/> slots and grows to hold the largest index stored, up to
    /// <see cref="MaxDictionaryAtoms"/> (a session of thousands of strings, or MC-NBFS's 487, one slot each); past that,
    /// strings share slots. A grown table starts empty: its strings are atomized again as they are met.
    /// </summary>
    private static ref DictionaryAtom AtomSlot(ref DictionaryAtom[]? atoms, int index)
    {
        if (atoms is null || ((uint)index >= (uint)atoms.Length && atoms.Length < MaxDictionaryAtoms))
        {
            int size = Math.Min(MaxDictionaryAtoms, (int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(DictionaryAtoms, index + 1)));
            if (atoms is null || size > atoms.Length) atoms = new DictionaryAtom[size];
        }
        return ref atoms[index & (atoms.Length - 1)];
    }

    private const int DictionaryAtoms = 32;
    private const int MaxDictionaryAtoms = 4096;
    private DictionaryAtom[]? _dictionaryAtoms;     // allocated with the first static dictionary name
    private IXmlDictionary? _dictionaryAtomsOf;

    /// <summary>
    /// A dictionary string and its atom, valid for one name table: in <see cref="_dictionaryAtoms"/> a static string (its
    /// key is the id's index; valid for one dictionary), in <see cref="_sessionAtoms"/> a session string as the session
    /// gave it for an id.
    /// </summary>
    private struct DictionaryAtom
    {
        public XmlDictionaryString? String;
        public string? Atom;
    }

    private DictionaryAtom[]? _sessionAtoms;        // allocated with the first session name

    /// <summary>A prefix atomized: a prefix letter (PrefixElement, PrefixAttribute records) is its fixed name.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private string AtomizePrefix(ref BinaryXmlReader r, NameRef prefix)
    {
        // Most elements and attributes have no prefix or a letter one: answered here, without the call.
        return prefix.Kind switch
        {
            NameKind.None => "",
            NameKind.Letter => LetterName((uint)prefix.Offset)!,
            _ => AtomizeName(ref r, prefix, out _),
        };
    }

    /// <summary>
    /// Atomizes a name the native reader points at, without building it: inline bytes from the input, a letter as its
    /// fixed name, a dictionary string (returned in <paramref name="dictionaryString"/>) by reference.
    /// </summary>
    private string AtomizeName(ref BinaryXmlReader r, NameRef name, out XmlDictionaryString? dictionaryString)
    {
        dictionaryString = null;
        switch (name.Kind)
        {
            case NameKind.None:
                return "";
            case NameKind.Inline:
                return AtomizeUtf8(Data.Slice(name.Offset, name.Length), _state.BytesConsumed);
            case NameKind.Letter:
                return LetterName((uint)name.Offset)!;
            default:
                BinaryXmlName resolved = r.GetName(name);
                dictionaryString = resolved.DictionaryString;
                return Atomize(resolved);
        }
    }

    /// <summary>
    /// Atomizes a namespace by where it is in the input: a declaration's namespace. A static dictionary string is found
    /// by its id (<see cref="AtomizeDictionaryName"/>); most elements and attributes of a document share a few other
    /// declarations: the atom of each is kept by its place (its offset, or its session id), for this document only, and
    /// found again for the declaration itself and the elements and attributes bound to it.
    /// </summary>
    private string AtomizeNamespace(ref BinaryXmlReader r, NameRef where, out XmlDictionaryString? dictionaryString)
    {
        if (where.Kind == NameKind.None)
        {
            dictionaryString = null;
            return "";
        }
        if (where.Kind == NameKind.Dictionary && (where.Id & 1) == 0)
        {
            string staticAtom = AtomizeDictionaryName(ref r, where, out XmlDictionaryString d);
            dictionaryString = d;
            return staticAtom;
        }
        if (where.Kind == NameKind.Inline)
        {
            dictionaryString = null;
            return AtomizeInlineNamespace(where);
        }
        ref NamespaceAtom slot = ref NamespaceSlot(where, out int key, out bool kept);
        if (kept)
        {
            dictionaryString = slot.DictionaryString;
            return slot.Atom!;
        }
        string atom = AtomizeName(ref r, where, out dictionaryString);
        slot = new NamespaceAtom { Kind = where.Kind, Key = key, Document = _documentSerial, Atom = atom, DictionaryString = dictionaryString };
        return atom;
    }

    /// <summary>
    /// The atom of the inline namespace declared at <paramref name="where"/> ("" for none), kept by its offset for this
    /// document (see <see cref="AtomizeNamespace"/>); a failure of the name table quota names that offset.
    /// </summary>
    private string AtomizeInlineNamespace(NameRef where)
    {
        if (where.Kind == NameKind.None) return "";
        System.Diagnostics.Debug.Assert(where.Kind == NameKind.Inline);
        ref NamespaceAtom slot = ref NamespaceSlot(where, out int key, out bool kept);
        if (kept) return slot.Atom!;
        string atom = AtomizeUtf8(Data.Slice(where.Offset, where.Length), where.Offset);
        slot = new NamespaceAtom { Kind = NameKind.Inline, Key = key, Document = _documentSerial, Atom = atom };
        return atom;
    }

    /// <summary>
    /// The slot where the atom of the namespace declared at <paramref name="where"/> is kept (keyed by its offset, or by
    /// its index for a session string: an odd id, so that session namespaces spread over all the slots), and whether it
    /// holds that namespace's atom for this document.
    /// </summary>
    private ref NamespaceAtom NamespaceSlot(NameRef where, out int key, out bool kept)
    {
        key = where.Kind == NameKind.Dictionary ? where.Id >> 1 : where.Offset;
        ref NamespaceAtom slot = ref _namespaceAtoms[key & (NamespaceAtomCount - 1)];
        kept = slot.Kind == where.Kind && slot.Key == key && slot.Document == _documentSerial && slot.Atom is not null;
        return ref slot;
    }

    private const int NamespaceAtomCount = 8;
    private NamespaceAtom[] _namespaceAtoms;
    private int _documentSerial;        // counts SetInput calls: the document a namespace atom or an open element's entry belongs to

    /// <summary>An atomized namespace and where it was in the current document.</summary>
    private struct NamespaceAtom
    {
        public NameKind Kind;
        public int Key;
        public int Document;
        public string? Atom;
        public XmlDictionaryString? DictionaryString;
    }

    /// <summary>Moves to a node without names (text, comment, none).</summary>
    private void SetNode(XmlNodeType type, int depth, string value, RecordType valueType)
    {
        _nodeSerial++;
        _listValueUnread = false;
        _nodeType = type;
        _depth = depth;
        _nameDepth = -1;
        _value = value;
        _valueTypeRecord = valueType;
    }

    /// <summary>Adds a name to the name table, counting its characters against MaxNameTableCharCount.</summary>
    private string Atomize(BinaryXmlName name)
    {
        if (name.IsEmpty) return "";
        XmlDictionaryString? d = name.DictionaryString;
        if (d is not null)
        {
            // A dictionary string is atomized once: later uses find it by reference.
            int slot = RuntimeHelpers.GetHashCode(d) & (RecentNames - 1);
            if (ReferenceEquals(_recentDictionaryKeys[slot], d)) return _recentDictionaryNames[slot]!;
            string atom = _nameTable.Get(d.Value) ?? AddName(d.Value, _state.BytesConsumed);
            _recentDictionaryKeys[slot] = d;
            _recentDictionaryNames[slot] = atom;
            return atom;
        }
        return AtomizeUtf8(name.Utf8, _state.BytesConsumed);
    }

    /// <summary>Atomizes an inline name of the input (an element's local name asked for after its start tag was read).</summary>
    private string AtomizeInline(int start, int length) => AtomizeUtf8(Data.Slice(start, length), start);

    /// <summary>Atomizes an inline name; <paramref name="offset"/> is where the input is (for a quota failure).</summary>
    private string AtomizeUtf8(ReadOnlySpan<byte> utf8, int offset)
    {
        if (utf8.IsEmpty) return "";
        // A one-letter name (every prefix of a PrefixElement or PrefixAttribute record) is one of the fixed names.
        if (utf8.Length == 1 && LetterName((uint)(utf8[0] - 'a')) is string letterName) return letterName;
        // Names repeat: a small cache of recent ASCII names, compared byte to char, saves the decode and the lookup.
        // Two ways per set: a name is looked for at its slot and the slot's pair; a new one takes the slot and moves
        // the slot's name to the pair (the older of the two is dropped).
        // The length and three bytes, mixed multiplicatively (the slot is the top bits): names of one document spread
        // over the slots where a sum of the same bytes sent several to one pair of slots.
        uint mixed = ((uint)utf8.Length * 0x9E3779B9u) ^ ((uint)(utf8[0] | utf8[^1] << 8 | utf8[utf8.Length >> 1] << 16) * 0x85EBCA6Bu);
        int index = (int)(mixed >> (32 - RecentNameBits));
        string? recent = _recentInlineNames[index];
        if (recent is not null && AsciiText.Equals(utf8, recent)) return recent;
        string? pair = _recentInlineNames[index ^ 1];
        if (pair is not null && AsciiText.Equals(utf8, pair)) return pair;
        if (_chars.Length < utf8.Length) _chars = new char[Math.Max(utf8.Length, _chars.Length * 2)];
        int n = Encoding.UTF8.GetChars(utf8, _chars);
        string atomized = _nameTable.Get(_chars, 0, n) ?? AddName(new string(_chars, 0, n), offset);
        if (n == utf8.Length)
        {
            if (recent is not null) _recentInlineNames[index ^ 1] = recent;
            _recentInlineNames[index] = atomized;
        }
        return atomized;
    }

    private const int RecentNameBits = 5;
    private const int RecentNames = 1 << RecentNameBits;
    private string?[] _recentInlineNames;
    private XmlDictionaryString?[] _recentDictionaryKeys;
    private string?[] _recentDictionaryNames;

    private void ClearRecentNames()
    {
        Array.Clear(_recentInlineNames);
        Array.Clear(_recentDictionaryKeys);
        Array.Clear(_recentDictionaryNames);
        if (_dictionaryAtoms is not null) Array.Clear(_dictionaryAtoms);
        if (_sessionAtoms is not null) Array.Clear(_sessionAtoms);
    }

    /// <summary>
    /// The names .NET's reader puts in its name table when it creates it, and counts against MaxNameTableCharCount:
    /// "xml", "xmlns", their namespaces and the prefix letters a–z (99 characters; pinned by
    /// DictionaryReaderContractTests). Here they are atoms from the start, counted but not added to the table until
    /// the table is handed out (a reader whose table nobody asks for allocates no entries for them).
    /// </summary>
    private static readonly string[] s_fixedNames =
        ["xml", "xmlns", XmlnsNamespace, XmlNamespace, .. Enumerable.Range('a', 26).Select(c => ((char)c).ToString())];

    private static readonly int FixedNameChars = s_fixedNames.Sum(n => n.Length);

    private const int FirstLetterName = 4;

    /// <summary>The fixed name of the letter 'a' + <paramref name="letter"/>, or null past 'z'.</summary>
    private static string? LetterName(uint letter) => letter < 26 ? s_fixedNames[FirstLetterName + (int)letter] : null;

    /// <summary>The fixed name equal to <paramref name="s"/>, or null.</summary>
    private static string? FixedName(string s)
    {
        switch (s.Length)
        {
            case 1:
                return LetterName((uint)(s[0] - 'a'));
            case 3 or 5 or 29 or 36:
                for (int i = 0; i < FirstLetterName; i++)
                {
                    if (s_fixedNames[i] == s) return s_fixedNames[i];
                }
                return null;
            default:
                return null;
        }
    }

    /// <summary>Adds a name not found in the table (a fixed name is returned, not added or counted again).</summary>
    private string AddName(string s, int offset)
    {
        if (FixedName(s) is string fixedName) return fixedName;
        _nameTableChars += s.Length;
        _nameTableTotalChars += s.Length;
        if (_nameTableChars > _quotas.MaxNameTableCharCount)
            throw new BinaryXmlException($"The maximum nametable character count quota ({_quotas.MaxNameTableCharCount}) has been exceeded while reading XML data", offset);
        return _nameTable.Add(s);
    }

    // ---- Content -----------------------------------------------------------------------------------------------

    /// <summary>
    /// Reads text content as a string, enforcing MaxStringContentLength. As .NET's binary reader (not XmlReader), it
    /// stops at any node that is not text or a comment, an element included, and returns what it read ("" there).
    /// </summary>
    public override string ReadContentAsString()
    {
        // An attribute, or its value node: its value, the reader staying on it (as .NET's; not the content after it).
        // On the value node, a value the reader keeps (Value asked for, or what a partial read left) is taken: the
        // node's value is then empty, as in .NET's reader. A kept value is not held to MaxStringContentLength there.
        if (_attributeIndex >= 0)
        {
            string value = ValueStringKept ? NodeValue : CheckStringQuota(NodeValue);
            if (_onAttributeValue && ValueStringKept)
            {
                _valueRest = "";
                _valueAsked = true;
            }
            return value;
        }
        if (_valueAsked && _nodeType == XmlNodeType.Text && _textClosesElement)
        {
            // As .NET's reader: on text closing its element whose Value was asked for, that string is the content (not
            // held to MaxStringContentLength); the reader stays on the node, whose value is then empty (the next Read
            // moves to the end tag).
            string value = NodeValue;
            _valueRest = "";
            _atomic = 0;
            return value;
        }
        // As .NET's reader: a text node that takes the content over MaxStringContentLength fails where it is, unless it
        // is the first, which fails once the content has been read.
        string? single = null;
        int singleEnd = 0;
        StringBuilder? sb = null;
        while (NodeType is XmlNodeType.Text or XmlNodeType.Comment)
        {
            if (NodeType == XmlNodeType.Text)
            {
                if (single is null)
                {
                    single = NodeValue;
                    singleEnd = _state.BytesConsumed;
                }
                else
                {
                    (sb ??= new StringBuilder(single)).Append(NodeValue);
                    if (sb.Length > _quotas.MaxStringContentLength) ThrowStringQuota();
                }
            }
            if (!Read()) break;
        }
        if (single?.Length > _quotas.MaxStringContentLength && sb is null) ThrowStringQuota(singleEnd);
        return sb?.ToString() ?? single ?? "";
    }

    private string CheckStringQuota(string s)
    {
        if (s.Length > _quotas.MaxStringContentLength) ThrowStringQuota();
        return s;
    }

    private void ThrowStringQuota() => ThrowStringQuota(_state.BytesConsumed);

    /// <summary>Fails for text over MaxStringContentLength, naming <paramref name="textEnd"/>: the end of the text's record (the reader may have moved past it).</summary>
    private void ThrowStringQuota(int textEnd)
        => throw new BinaryXmlException($"The maximum string content length quota ({_quotas.MaxStringContentLength}) has been exceeded while reading XML data", textEnd);

    // ---- Name tests (what DataContractSerializer asks of every element) ---------------------------------------
    // The base class answers them through virtual NodeType, LocalName and NamespaceURI calls; these answer from the
    // current element's names directly, with the same results.

    /// <summary>
    /// Moves to the next content node as .NET's binary reader does: from an attribute to its element, and past
    /// comments and text that is only whitespace (the binary reader reports whitespace as Text, which
    /// <see cref="XmlReader.MoveToContent"/> would stop at).
    /// </summary>
    public override XmlNodeType MoveToContent()
    {
        do
        {
            // An attribute's value is a text node: content unless what is left of it is whitespace, as other text.
            if (_onAttributeValue)
            {
                if (!TextFormatting.IsXmlWhitespace(NodeValue)) break;
                continue;
            }
            if (_attributeIndex >= 0)
            {
                MoveToElement();
                break;
            }
            if (_nodeType is XmlNodeType.Element or XmlNodeType.EndElement) break;
            if (_nodeType == XmlNodeType.Text && !IsWhitespaceTextNode()) break;
        }
        while (Read());
        return NodeType;
    }

    // A list's text node whose Value has not been asked for: .NET's reader takes it for content even when its items
    // are whitespace (it tests a list's text only once decoded), so MoveToContent stops on it.
    private bool _listValueUnread;

    /// <summary>
    /// Whether the current text node's value is whitespace only, or empty (without decoding it when it is not yet). The
    /// part of the node that reads in pieces have used is gone, as in .NET's reader: a text node read to its end is
    /// empty, so that MoveToContent (ReadEndElement after ReadContentAsBase64()) passes over it.
    /// </summary>
    private bool IsWhitespaceTextNode()
    {
        if (_listValueUnread) return false;
        // .NET's MoveToContent stops on a node that keeps bytes of a base64 block for the next read, and otherwise tests
        // what is left of the value: the rest of a chunk read (its string, or its UTF-8 or UTF-16 in the input).
        if ((ValueTrailKept && _valueBlocks.TrailCount > 0) || (PieceReadUnderWay && _pieceBlocks.TrailCount > 0)) return false;
        if (_valueRest is not null) return TextFormatting.IsXmlWhitespace(_valueRest);
        if (TextChunkReadUnderWay)
        {
            return _utf8ChunkLowSurrogate == '\0'
                && BinaryXmlReader.IsWhitespaceText(_valueLocation.ValueType, TextChunkRest);
        }
        if (TryGetPieceRest(out ReadOnlySpan<byte> rest, out bool bytes, out _)) return BinaryXmlReader.IsWhitespaceText(bytes ? _valueLocation.ValueType : (byte)RecordType.Chars8Text, rest);
        if (_value is not null) return TextFormatting.IsXmlWhitespace(_value);
        return BinaryXmlReader.IsWhitespaceText(_valueLocation.ValueType, Data.Slice(_valueLocation.Start, _valueLocation.Length));
    }

    /// <inheritdoc/>
    public override bool IsStartElement(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
    {
        // As .NET's binary reader: null names are an argument error, not a false answer.
        ArgumentNullException.ThrowIfNull(localName);
        ArgumentNullException.ThrowIfNull(namespaceUri);
        return MoveToContent() == XmlNodeType.Element && IsLocalName(localName) && IsNamespaceUri(namespaceUri);
    }

    /// <inheritdoc/>
    /// <remarks>A null name is answered false without moving to content, as .NET's binary reader does.</remarks>
    public override bool IsStartElement(string name)
        => name is not null && MoveToContent() == XmlNodeType.Element && QualifiedNameEquals(name);

    /// <inheritdoc/>
    /// <remarks>A null name or namespace is answered false without moving to content, as .NET's binary reader does.</remarks>
    public override bool IsStartElement(string localname, string ns)
        => localname is not null && ns is not null && MoveToContent() == XmlNodeType.Element && ElementNameEquals(localname, ns);

    // Start and end tags: as .NET's reader, a tag that is not the one expected fails with what was found instead (the
    // start tag checks are XmlDictionaryReader's MoveToStartElement, which names it so).

    /// <inheritdoc/>
    public override void ReadStartElement()
    {
        if (MoveToContent() != XmlNodeType.Element) MoveToStartElement();
        Read();
    }

    /// <inheritdoc/>
    public override void ReadStartElement(string name)
    {
        // The names are compared without building the qualified name (or atomizing the local name).
        // A null name fails without moving to content, as .NET's.
        if (!IsStartElement(name)) MoveToStartElement(name!);
        Read();
    }

    /// <inheritdoc/>
    public override void ReadStartElement(string localname, string ns)
    {
        if (!IsStartElement(localname, ns)) MoveToStartElement(localname!, ns!);
        Read();
    }

    /// <inheritdoc/>
    public override void ReadEndElement()
    {
        if (MoveToContent() != XmlNodeType.EndElement) ThrowEndElementExpected();
        Read();
    }

    /// <summary>.NET's failure of <see cref="ReadEndElement"/> elsewhere than on an end tag: the element it expected to end and what it found.</summary>
    private void ThrowEndElementExpected()
    {
        int open = Depth - 1;
        if (open < 0 || _readState != ReadState.Interactive) throw new InvalidOperationException("No corresponding start element is open.");
        ref ElementName expected = ref _openElements[open];
        string found = NodeType switch
        {
            XmlNodeType.Element => $"element '{Name}' from namespace '{NamespaceURI}'",
            XmlNodeType.Text => $"text '{Value}'",
            _ => $"node {NodeType}",
        };
        throw new XmlException($"End element '{LocalNameOf(ref expected)}' from namespace '{NamespaceOf(ref expected)}' expected. Found {found}.");
    }

    /// <inheritdoc/>
    public override string ReadElementString()
    {
        // Text closing the element is read with its start and end tags in one step (as by ReadElementContentAsString).
        if (MoveToContent() == XmlNodeType.Element && TryReadCharsTextClosingElement(out string? text)) return text;
        ReadStartElement();
        return ReadStringToEndElement();
    }

    /// <inheritdoc/>
    public override string ReadElementString(string name)
    {
        if (IsStartElement(name) && TryReadCharsTextClosingElement(out string? text)) return text;
        ReadStartElement(name!);
        return ReadStringToEndElement();
    }

    /// <inheritdoc/>
    public override string ReadElementString(string localname, string ns)
    {
        if (IsStartElement(localname, ns) && TryReadCharsTextClosingElement(out string? text)) return text;
        ReadStartElement(localname!, ns!);
        return ReadStringToEndElement();
    }

    /// <summary>The rest of ReadElementString once its start tag is read, as .NET's: the text (ReadString) and the end tag.</summary>
    private string ReadStringToEndElement()
    {
        string s = ReadString();
        ReadEndElement();
        return s;
    }

    /// <summary>
    /// On an element (not on one of its attributes): whether its local name and namespace are these, compared without
    /// the virtual LocalName and NamespaceURI (an ASCII local name in the input, not atomized).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool ElementNameEquals(string localName, string ns)
    {
        ref ElementName names = ref CurrentName;
        return NamespaceEquals(names.Namespace, names.NamespaceFrom, ns) && LocalNameEquals(ref names.LocalName, names.LocalStart, names.LocalLength, localName);
    }

    /// <summary>On an element: whether its qualified name (<c>prefix:local</c>, or the local name alone) is <paramref name="name"/>.</summary>
    private bool QualifiedNameEquals(string name)
    {
        ref ElementName names = ref CurrentName;
        string prefix = CurrentPrefix;
        if (prefix.Length == 0) return LocalNameEquals(ref names.LocalName, names.LocalStart, names.LocalLength, name);
        return name.Length > prefix.Length + 1 && name[prefix.Length] == ':' && name.StartsWith(prefix, StringComparison.Ordinal)
            && LocalNameEquals(ref names.LocalName, names.LocalStart, names.LocalLength, name.AsSpan(prefix.Length + 1));
    }

    /// <inheritdoc/>
    public override bool IsLocalName(XmlDictionaryString localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        return LocalNameEquals(localName);
    }

    /// <inheritdoc/>
    public override bool IsNamespaceUri(XmlDictionaryString namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(namespaceUri);
        // Serializers ask for the same namespaces element after element, attribute after attribute, with their own
        // dictionary strings: the last match for an element and for an attribute is kept, so that a repeated question
        // is answered by comparing those instead of the characters again.
        if (_attributeIndex >= 0)
        {
            Attr a = _attributes[_attributeIndex];
            if (ReferenceEquals(a.NamespaceDictionary, namespaceUri)) return true;
            // An attribute's namespace has a place of declaration (NamespaceFrom) only while it is not atomized.
            return a.Namespace is null ? NamespaceMatches(ref _attributeNamespaceMatch, null, a.NamespaceFrom, namespaceUri) : a.Namespace == namespaceUri.Value;
        }
        ref ElementName names = ref CurrentName;
        return ReferenceEquals(names.Ns, namespaceUri) || NamespaceMatches(ref _elementNamespaceMatch, names.Namespace, names.NamespaceFrom, namespaceUri);
    }

    /// <summary>
    /// A dictionary string IsNamespaceUri found equal to a namespace, where that namespace is declared, and in which
    /// document (<see cref="_documentSerial"/>).
    /// </summary>
    private struct NamespaceMatch
    {
        public XmlDictionaryString? Key;
        public NameRef From;
        public int Document;
    }

    // The last match for an element's namespace, and for an attribute's.
    private NamespaceMatch _elementNamespaceMatch, _attributeNamespaceMatch;

    /// <summary>
    /// Whether a namespace (<paramref name="atom"/>, or not atomized yet and declared at <paramref name="from"/>) is
    /// <paramref name="namespaceUri"/>: answered by <paramref name="match"/> when it is the last one found equal there,
    /// otherwise compared (<see cref="NamespaceEquals"/>) and kept in <paramref name="match"/> when equal.
    /// </summary>
    private bool NamespaceMatches(ref NamespaceMatch match, string? atom, NameRef from, XmlDictionaryString namespaceUri)
    {
        if (ReferenceEquals(match.Key, namespaceUri) && from.IsSameAs(match.From) && match.Document == _documentSerial) return true;
        if (!NamespaceEquals(atom, from, namespaceUri.Value)) return false;
        match = new NamespaceMatch { Key = namespaceUri, From = from, Document = _documentSerial };
        return true;
    }

    /// <summary>
    /// Whether a namespace is <paramref name="value"/>: its atom when it has one, else the inline namespace declared at
    /// <paramref name="from"/>, compared in the input without atomizing it (as .NET's reader compares its names).
    /// </summary>
    private bool NamespaceEquals(string? atom, NameRef from, string value)
        => atom is not null ? atom == value : InlineEquals(Data.Slice(from.Offset, from.Length), value);

    /// <summary>
    /// Whether an attribute's local name is <paramref name="value"/>: the name found so is not atomized (a search
    /// through a start tag of many attributes does not add each name to the table).
    /// </summary>
    private bool AttrLocalNameEquals(Attr a, ReadOnlySpan<char> value)
        => a.LocalName is string atom ? value.SequenceEqual(atom) : InlineEquals(Data.Slice(a.LocalStart, a.LocalLength), value);

    /// <summary>
    /// Whether inline UTF-8 is the encoding of <paramref name="value"/>: compared in line when it can be ASCII (no longer
    /// than the value), otherwise by <see cref="BinaryXmlName.Utf8Equals"/>, whose rule this is.
    /// </summary>
    private static bool InlineEquals(ReadOnlySpan<byte> utf8, ReadOnlySpan<char> value)
        => utf8.Length <= value.Length ? AsciiText.Equals(utf8, value) : BinaryXmlName.Utf8Equals(utf8, value);

    /// <inheritdoc/>
    public override int IndexOfLocalName(XmlDictionaryString[] localNames, XmlDictionaryString namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(localNames);
        ArgumentNullException.ThrowIfNull(namespaceUri);
        if (!IsNamespaceUri(namespaceUri)) return -1;
        for (int i = 0; i < localNames.Length; i++)
        {
            if (LocalNameEquals(localNames[i] ?? throw new ArgumentNullException($"localNames[{i}]"))) return i;
        }
        return -1;
    }

    /// <inheritdoc/>
    public override bool IsLocalName(string localName)
    {
        ArgumentNullException.ThrowIfNull(localName);
        return LocalNameEquals(localName);
    }

    /// <inheritdoc/>
    public override bool IsNamespaceUri(string namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(namespaceUri);
        if (_attributeIndex >= 0)
        {
            Attr a = _attributes[_attributeIndex];
            return NamespaceEquals(a.Namespace, a.NamespaceFrom, namespaceUri);
        }
        ref ElementName names = ref CurrentName;
        return NamespaceEquals(names.Namespace, names.NamespaceFrom, namespaceUri);
    }

    /// <inheritdoc/>
    public override int IndexOfLocalName(string[] localNames, string namespaceUri)
    {
        ArgumentNullException.ThrowIfNull(localNames);
        ArgumentNullException.ThrowIfNull(namespaceUri);
        if (!IsNamespaceUri(namespaceUri)) return -1;
        for (int i = 0; i < localNames.Length; i++)
        {
            if (LocalNameEquals(localNames[i] ?? throw new ArgumentNullException($"localNames[{i}]"))) return i;
        }
        return -1;
    }

    /// <summary>
    /// Whether the local name that <see cref="IsLocalName(XmlDictionaryString)"/> and
    /// <see cref="IndexOfLocalName(XmlDictionaryString[], XmlDictionaryString)"/> compare equals <paramref name="value"/>:
    /// the same dictionary string, or the same characters (<see cref="LocalNameEquals(string)"/>). A namespace
    /// declaration has no dictionary string for its name.
    /// </summary>
    private bool LocalNameEquals(XmlDictionaryString value)
        => ReferenceEquals(_attributeIndex < 0 ? CurrentName.Local : _attributes[_attributeIndex].LocalDictionary, value)
            || LocalNameEquals(value.Value);

    /// <summary>
    /// Whether the local name that the name tests compare equals <paramref name="value"/>: <see cref="LocalName"/>,
    /// except on a default namespace declaration (<c>xmlns="…"</c>, or its value), which .NET's binary reader compares
    /// by its empty prefix although its LocalName is "xmlns" (pinned by DictionaryReaderProperties). An element's ASCII
    /// name not yet atomized is compared in the input.
    /// </summary>
    private bool LocalNameEquals(string value)
    {
        if (_attributeIndex >= 0)
        {
            Attr a = _attributes[_attributeIndex];
            if (a.Prefix.Length == 0 && IsNamespaceDeclaration(a)) return value.Length == 0;
            return LocalNameEquals(ref a.LocalName, a.LocalStart, a.LocalLength, value);
        }
        ref ElementName names = ref CurrentName;
        return LocalNameEquals(ref names.LocalName, names.LocalStart, names.LocalLength, value);
    }

    /// <summary>
    /// A local name against a string: by its atom when it has one, else an ASCII name compared in the input; a name that
    /// is not ASCII is atomized (into <paramref name="atom"/>) and compared.
    /// </summary>
    private bool LocalNameEquals(ref string? atom, int start, int length, string value)
        => atom is not null ? atom == value : LocalNameEquals(ref atom, start, length, value.AsSpan());

    private bool LocalNameEquals(ref string? atom, int start, int length, ReadOnlySpan<char> value)
        => atom is not null ? value.SequenceEqual(atom) : InputLocalNameEquals(ref atom, start, length, value);

    /// <summary>
    /// A local name not atomized yet (at <paramref name="start"/> in the input) against <paramref name="value"/>.
    /// Out of line: the name tests are inlined into callers' loops (a serializer's), where the input's span, its slice
    /// and the comparison would otherwise be three calls once the loop's inlining budget is spent.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool InputLocalNameEquals(ref string? atom, int start, int length, ReadOnlySpan<char> value)
    {
        // As InlineEquals: UTF-8 shorter than the value is never equal to it, UTF-8 of the value's length only as its
        // ASCII. Each way ends in its one call, so that nothing is kept across a call and an ASCII name, the common
        // case, is compared without saving a register (benchmarks/HISTORY.md, runs 1057–1059).
        if (length != value.Length) return length > value.Length && NonAsciiLocalNameEquals(ref atom, start, length, value);
        return AsciiText.Equals(Data.Slice(start, length), value);
    }

    /// <summary>A local name longer in UTF-8 than the value, atomized into <paramref name="atom"/> and compared unless it is ASCII (then it is not the value).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool NonAsciiLocalNameEquals(ref string? atom, int start, int length, ReadOnlySpan<char> value)
    {
        if (Ascii.IsValid(Data.Slice(start, length))) return false;
        atom = AtomizeInline(start, length);
        return value.SequenceEqual(atom);
    }

    /// <inheritdoc/>
    public override string ReadElementContentAsString()
    {
        if (TryReadTextClosingElement(out string? text)) return text;
        if (IsEmptyElement) { Read(); return ""; }
        ReadStartElement();
        string s = ReadContentAsString();
        ReadEndElement();
        return s;
    }

    /// <inheritdoc/>
    public override bool CanReadBinaryContent => true;

    /// <inheritdoc/>
    public override bool CanReadValueChunk => true;

    // A text node's UTF-8 or UTF-16 value read in chunks straight from the input: the node it belongs to, the bytes
    // decoded so far, and (UTF-8) the low surrogate owed when a one-character chunk split a pair ('\0': none).
    private long _textChunkKey = -1;
    private int _textChunkBytes;
    private char _utf8ChunkLowSurrogate;

    /// <summary>Whether the current text node's UTF-8 or UTF-16 value is being read in chunks from the input.</summary>
    private bool TextChunkReadUnderWay => _textChunkKey == NodeKey;

    /// <summary>The bytes of the current text node's record not yet read in chunks.</summary>
    private ReadOnlySpan<byte> TextChunkRest => Data.Slice(_valueLocation.Start + _textChunkBytes, _valueLocation.Length - _textChunkBytes);

    /// <summary>Starts reading the current text node's value in chunks from the input, unless that is under way.</summary>
    private void BeginTextChunkRead()
    {
        if (TextChunkReadUnderWay) return;
        _textChunkKey = NodeKey;
        _textChunkBytes = 0;
        _utf8ChunkLowSurrogate = '\0';
    }

    /// <summary>Reads the current value in pieces; a piece never ends between the two halves of a surrogate pair.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public override int ReadValueChunk(char[] buffer, int index, int count)
    {
        ThrowHelper.CheckBufferRange(buffer, index, count, "chars");
        return ReadValueChunk(buffer.AsSpan(index, count));
    }

    /// <summary>
    /// <see cref="ReadValueChunk(char[], int, int)"/> into a span (reads in blocks use it too), in line in the public
    /// method, which is kept whole and out of line as it was before: small (its check and a call), the R3 chunk rows of
    /// 8 and 64 characters drew 40–60 ns more in most processes (runs 848–853), level with before when whole (855, 857).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int ReadValueChunk(Span<char> destination)
    {
        // Character text straight from its record, unless a read in pieces (base64) has taken part of it: then, as
        // .NET's reader, what the pieces left.
        if (_attributeIndex < 0 && _valueRest is null && (TextChunkReadUnderWay || (_value is null && _atomic == 0 && IsCharsText((RecordType)_valueLocation.ValueType)))
            && !TryGetPieceRest(out _, out _, out _))
        {
            return IsUtf8Text((RecordType)_valueLocation.ValueType) ? ReadUtf8ValueChunk(destination) : ReadUtf16ValueChunk(destination);
        }
        if (_attributeIndex >= 0 && !ValueStringKept && _attributes[_attributeIndex] is { Value: null } undecoded && IsTextAttribute(undecoded)
            && TryReadAttributeValueChunk(undecoded, destination, out int read))
        {
            return read;
        }
        // As .NET's reader: the value as a string, and what is left of it the value from now on: the attribute's own
        // when its text is read straight from its record (a Chars or UnicodeChars value, Value not asked for on it;
        // .NET's reader consumes such an attribute's value itself, for GetAttribute and after a move too), otherwise
        // the node's until the reader moves.
        Attr? consumed = _attributeIndex >= 0 && !ValueStringKept && IsTextAttribute(_attributes[_attributeIndex]) ? _attributes[_attributeIndex] : null;
        string value = NodeValue;
        int n = Math.Min(destination.Length, value.Length);
        if (n > 1 && n < value.Length && char.IsHighSurrogate(value[n - 1])) n--;
        value.AsSpan(0, n).CopyTo(destination);
        if (consumed is not null)
        {
            consumed.Value = value[n..];
            return n;
        }
        _valueRest = value[n..];
        _valueAsked = true;
        return n;
    }

    /// <summary>
    /// <see cref="ReadValueChunk(Span{char})"/> of an attribute whose value is one Chars or UnicodeChars record not
    /// decoded yet: transcoded from the input into the caller's buffer, nothing allocated, and what is left of the
    /// record the attribute's value from now on (.NET's reader consumes the attribute's value so). False, and nothing
    /// read, where the chunk has room for one character only and the next is a surrogate pair: that is read from the
    /// value as a string, which splits the pair.
    /// </summary>
    private bool TryReadAttributeValueChunk(Attr a, Span<char> destination, out int count)
    {
        ValueLocation value = a.AtomicValue;
        ReadOnlySpan<byte> payload = Data.Slice(value.Start, value.Length);
        int read;
        if (IsUtf8Text((RecordType)value.ValueType))
        {
            // Checked when the start tag was read; a surrogate pair that does not fit is left whole for the next chunk.
            Utf8.ToUtf16(payload, destination, out read, out count, replaceInvalidSequences: false);
        }
        else
        {
            count = CopyUtf16Chunk(payload, destination);
            read = 2 * count;
        }
        if (count == 0 && !destination.IsEmpty && read < payload.Length) return false;
        a.AtomicValue = value with { Start = value.Start + read, Length = value.Length - read };
        return true;
    }

    /// <summary>Whether an attribute's value is one Chars or UnicodeChars record (not a namespace declaration's).</summary>
    private static bool IsTextAttribute(Attr a)
        => !IsNamespaceDeclaration(a) && IsCharsText((RecordType)a.AtomicValue.ValueType);

    /// <summary>Whether a text record's plain type is a Bytes record (its payload is the value's bytes).</summary>
    private static bool IsBytes(RecordType type) => type is RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text;

    /// <summary>Whether a text record's plain type is a Chars record (its payload is UTF-8).</summary>
    private static bool IsUtf8Text(RecordType type) => type is RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text;

    /// <summary>Whether a text record's plain type is a Chars or UnicodeChars record (its payload is characters).</summary>
    private static bool IsCharsText(RecordType type) => IsUtf8Text(type) || type is RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text;

    /// <summary>
    /// <see cref="ReadValueChunk(Span{char})"/> of a text node whose value is UTF-8 not decoded yet: transcoded from
    /// the input into the caller's buffer, nothing allocated. A surrogate pair is never split unless the chunk has room
    /// for one character only (then its low surrogate comes first in the next chunk).
    /// </summary>
    private int ReadUtf8ValueChunk(Span<char> destination)
    {
        ReadOnlySpan<byte> utf8 = Data.Slice(_valueLocation.Start, _valueLocation.Length);
        BeginTextChunkRead();
        int n = 0;
        if (_utf8ChunkLowSurrogate != '\0' && !destination.IsEmpty)
        {
            destination[0] = _utf8ChunkLowSurrogate;
            _utf8ChunkLowSurrogate = '\0';
            n = 1;
        }
        // Transcoded to the end or to the first character that does not fit, and checked as it goes (the native reader
        // left the check to the text's first decoding): text transcoded to its end is checked whole. Malformed UTF-8
        // fails once the characters before it have been returned, as .NET's reader fails (it may return fewer first).
        OperationStatus status = Utf8.ToUtf16(utf8[_textChunkBytes..], destination[n..], out int read, out int written, replaceInvalidSequences: false);
        _textChunkBytes += read;
        n += written;
        if (status == OperationStatus.InvalidData && n == 0) NativeReader.FailDeferredText();
        if (status == OperationStatus.Done && TextUnchecked) NativeReader.TextChecked();
        if (n == 0 && !destination.IsEmpty && _textChunkBytes < utf8.Length)
        {
            // A one-character chunk, and the next character a surrogate pair (a malformed sequence fails above).
            Span<char> pair = stackalloc char[2];
            Utf8.ToUtf16(utf8[_textChunkBytes..], pair, out read, out written, replaceInvalidSequences: false);
            System.Diagnostics.Debug.Assert(written == 2);
            _textChunkBytes += read;
            destination[0] = pair[0];
            _utf8ChunkLowSurrogate = pair[1];
            n = 1;
        }
        return n;
    }

    /// <summary>
    /// <see cref="ReadValueChunk(Span{char})"/> of a UnicodeChars text node: copied from the input into the caller's
    /// buffer, nothing allocated (the native reader checked it). A surrogate pair is never split unless the chunk has
    /// room for one character only.
    /// </summary>
    private int ReadUtf16ValueChunk(Span<char> destination)
    {
        BeginTextChunkRead();
        int n = CopyUtf16Chunk(TextChunkRest, destination);
        _textChunkBytes += 2 * n;
        return n;
    }

    /// <summary>
    /// Copies the first characters of a UnicodeChars payload into <paramref name="destination"/> and returns how many: as
    /// many as fit, less the high surrogate of a pair that does not, unless it is the only one that fits.
    /// </summary>
    private static int CopyUtf16Chunk(ReadOnlySpan<byte> utf16le, Span<char> destination)
    {
        int n = Math.Min(destination.Length, utf16le.Length / 2);
        if (n > 1 && n < utf16le.Length / 2 && char.IsHighSurrogate((char)BinaryPrimitives.ReadUInt16LittleEndian(utf16le[(2 * n - 2)..]))) n--;
        TextFormatting.CopyUtf16(utf16le[..(2 * n)], destination);
        return n;
    }

    /// <summary>As .NET's reader: once a text node's value has been read in chunks, <see cref="Value"/> is what is left of it.</summary>
    private string RemainingTextChunkValue()
    {
        ReadOnlySpan<byte> payload = TextChunkRest;
        if (!IsUtf8Text((RecordType)_valueLocation.ValueType)) return TextFormatting.DecodeCheckedUtf16(payload);
        string? rest;
        if (TextUnchecked)
        {
            // The chunks read were checked as they were transcoded, and end on a whole character: the rest checked, all is.
            if (!TextFormatting.TryDecodeUtf8(payload, out rest)) NativeReader.FailDeferredText();
            NativeReader.TextChecked();
        }
        else
        {
            rest = TextFormatting.DecodeUtf8(payload);
        }
        return _utf8ChunkLowSurrogate == '\0' ? rest : _utf8ChunkLowSurrogate + rest;
    }

    // ---- Lifetime ----------------------------------------------------------------------------------------------

    /// <inheritdoc/>
    /// <remarks>As .NET's reader: the stream the input was read from, if it was, is disposed (before the close callback).</remarks>
    public override void Close()
    {
        Stream? input = _inputStream;
        _inputStream = null;
        if (_readState == ReadState.Closed)
        {
            input?.Dispose();
            return;
        }
        int depth = Depth;
        _readState = ReadState.Closed;
        ReleaseState();
        _arrayCount = _arrayNodesRead = 0;
        // As .NET's reader: no node any more (no names, value or attributes), at the depth of the last one.
        _attributeIndex = -1;
        _onAttributeValue = false;
        ForgetKeptValue();
        _attributeCount = 0;
        _attributesOfElement = -1;
        SetNode(XmlNodeType.None, depth, "", 0);
        ReturnOwnedBuffer();
        LeaveWorkspace();
        // As .NET's reader: the stream the input came from is disposed, before the close callback is called.
        input?.Dispose();
        OnXmlDictionaryReaderClose? onClose = _onClose;
        _onClose = null;
        onClose?.Invoke(this);
    }
}
