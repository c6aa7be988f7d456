using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// A forward-only writer of MC-NBFX binary XML over an <see cref="IBufferWriter{T}"/> or a <see cref="Stream"/>.
/// For the same calls it produces exactly the bytes of <c>XmlDictionaryWriter.CreateBinaryWriter</c>: the same
/// records, namespace declarations and generated prefixes, and the same end-element folding decisions.
/// </summary>
/// <remarks>
/// Methods follow the <see cref="XmlWriter"/> verbs. Misuse (an attribute after content, an unbalanced end, writing
/// after <see cref="Close"/>) throws <see cref="InvalidOperationException"/>; bad arguments throw the
/// <see cref="ArgumentException"/> family, as the in-box writer does. The writer does not allocate in steady state:
/// reuse it across documents with <see cref="Reset(IBufferWriter{byte}, IXmlDictionary?, XmlBinaryWriterSession?)"/>.
/// A writer created per document should be closed (or disposed): its namespace scopes and buffers then go to the next
/// writer created on the same thread, so that a new writer allocates only itself.
/// </remarks>
public sealed partial class BinaryXmlWriter : IDisposable
{
    private const int MinimumChunk = 256;

    private readonly BinaryXmlWriterOptions _options;
    private IBufferWriter<byte> _output;
    private StreamBufferWriter? _streamOutput;
    private IXmlDictionary? _dictionary;
    private XmlBinaryWriterSession? _session;

    // Output: bytes are written into _memory[.._pending] and handed to _output on growth or Flush. MemoryLength (kept
    // in _model, below) is the length in use: 0 when there is none (the next write asks the output for memory), while
    // _memory and its array keep the references of the last memory given until another is (see ForgetMemory).
    private Memory<byte> _memory;
    private byte[]? _memoryArray;       // _memory's array when it has one: spans from it cost less than Memory.Span
    private int _memoryArrayOffset;
    private int _pending;
    private long _committed;

    // End-element folding: position in _memory of the last text record's type byte, or -1.
    private int _textNodeStart = -1;
    // .NET's buffer, modelled in _pending's positions: bytes counted into _pending move it; bytes committed to the
    // output (Commit, Grow, a block handed to the stream) rebase it.
    private InBoxBufferModel _model;

    /// <summary>Creates a writer over a buffer writer.</summary>
    /// <param name="output">Where the bytes go.</param>
    /// <param name="dictionary">The static dictionary whose strings are written as even ids (<c>2 × key</c>), or null.</param>
    /// <param name="session">The session whose strings are written as odd ids (<c>2 × id + 1</c>), or null.</param>
    /// <param name="options">Options, or null for the defaults.</param>
    public BinaryXmlWriter(IBufferWriter<byte> output, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null, BinaryXmlWriterOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        _options = options ?? BinaryXmlWriterOptions.Default;
        _output = output;
        TakeScratch();
        SetState(dictionary, session);
    }

    /// <summary>
    /// Creates a writer over a stream, through a pooled buffer of 4 KB: bytes reach the stream when the buffer fills,
    /// on <see cref="Flush"/> and on <see cref="Close"/>; a block of 2 KB or more (array items, base64, text written as
    /// UTF-16) is written to the stream as it is, and long UTF-8 text (past 1,398,099 characters; shorter text is
    /// transcoded into the buffer whole, 4 MB at most), names and comments past 65,536 characters, and DateTime items
    /// with local ones are converted and written 192 KB at a time, so that the buffer does not grow with the document.
    /// </summary>
    /// <param name="stream">Where the bytes go.</param>
    /// <param name="dictionary">The static dictionary, or null.</param>
    /// <param name="session">The session, or null.</param>
    /// <param name="ownsStream">Whether <see cref="Close"/> disposes the stream.</param>
    /// <param name="options">Options, or null for the defaults.</param>
    public BinaryXmlWriter(Stream stream, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null, bool ownsStream = false, BinaryXmlWriterOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _options = options ?? BinaryXmlWriterOptions.Default;
        _streamOutput = new StreamBufferWriter(stream) { OwnsStream = ownsStream };
        _output = _streamOutput;
        TakeScratch();
        SetState(dictionary, session);
        TakeStreamMemory(0);
    }

    /// <summary>The bytes handed to the output so far.</summary>
    public long BytesCommitted => _committed;

    /// <summary>The bytes written but not yet handed to the output.</summary>
    public int BytesPending => _pending;

    /// <summary>The writer's state, as <see cref="XmlWriter.WriteState"/> reports it.</summary>
    public WriteState WriteState => _writeState;

    /// <summary>The static dictionary in use, or null.</summary>
    public IXmlDictionary? Dictionary => _dictionary;

    /// <summary>The session in use, or null.</summary>
    public XmlBinaryWriterSession? Session => _session;

    /// <summary>
    /// Starts a new document on the same output (a stream stays the output, owned as before), dropping any state.
    /// Pending bytes are discarded.
    /// </summary>
    public void Reset()
    {
        if (_streamOutput is not null) Reset(_streamOutput.Stream, _dictionary, _session, _streamOutput.OwnsStream);
        else Reset(_output, _dictionary, _session);
    }

    /// <summary>Starts a new document on another output.</summary>
    public void Reset(IBufferWriter<byte> output, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        ArgumentNullException.ThrowIfNull(output);
        if (_streamOutput is not null) LeaveStreamOutput();
        if (!ReferenceEquals(_output, output)) _output = output;
        SetState(dictionary, session);
    }

    // Out of line, as the other steps a reset rarely takes: Reset is inlined into its callers, and what it inlines
    // counts against their inlining budget, which a one-element document needs for its flush.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void LeaveStreamOutput()
    {
        _streamOutput!.Release();
        _streamOutput = null;
    }

    /// <summary>Starts a new document on a stream.</summary>
    public void Reset(Stream stream, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null, bool ownsStream = false)
    {
        ArgumentNullException.ThrowIfNull(stream);
        if (_streamOutput is null) _streamOutput = new StreamBufferWriter(stream);
        else _streamOutput.Reset(stream);
        // A writer reused per message is given the same stream and dictionary each time: references are stored only
        // when they change (a store costs a write barrier call, a compare does not).
        if (!ReferenceEquals(_output, _streamOutput)) _output = _streamOutput;
        _streamOutput.OwnsStream = ownsStream;
        SetState(dictionary, session);
        TakeStreamMemory(0);
    }

    private void SetState(IXmlDictionary? dictionary, XmlBinaryWriterSession? session)
    {
        if (_scratch is null) TakeScratch();
        if (!ReferenceEquals(_dictionary, dictionary)) _dictionary = dictionary;
        if (!ReferenceEquals(_session, session)) _session = session;
        // Another document: the session may have been reset, or used by another writer, since the last.
        _scratch.SessionKeys.Forget();
        _pending = 0;
        _committed = 0;
        _textNodeStart = -1;
        _model.Restart();
        ResetXmlState();
    }

    /// <summary>
    /// Hands all pending bytes to the output (and, over a stream, writes and flushes the stream). Like .NET's
    /// writer, a flush ends the chance to fold the next end element into the text record before it.
    /// </summary>
    public void Flush()
    {
        ThrowIfClosed();
        FlushOutput();
    }

    /// <summary>
    /// Flushes as <see cref="Flush"/> does, the bytes written to a stream output and the stream's own flush done
    /// asynchronously (a stream that refuses synchronous writes, as an HTTP response body may, is flushed this way).
    /// </summary>
    /// <param name="cancellationToken">Cancels the stream's write and flush.</param>
    public async Task FlushAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfClosed();
        CommitForFlush();
        if (_streamOutput is not null)
        {
            await _streamOutput.WriteToStreamAsync(cancellationToken).ConfigureAwait(false);
            await _streamOutput.Stream.FlushAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private void FlushOutput()
    {
        CommitForFlush();
        if (_streamOutput is not null) FlushStream(_streamOutput);
    }

    // Out of line: a flush is inlined into its callers, and the stream's steps inlined there took inlining budget that
    // a one-element document's own short paths need.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void FlushStream(StreamBufferWriter output)
    {
        output.WriteToStream();
        output.Stream.Flush();
    }

    /// <summary>
    /// What a flush does before the output's own: the bytes written so far committed, and the flush modelled. Then the
    /// writer is at its position 0 again with no memory, and .NET's buffer begins there, as at a document's start.
    /// </summary>
    private void CommitForFlush()
    {
        HandOnPending();
        _model.Restart();
    }

    /// <summary>Hands the pending bytes on and drops the output memory; the writer's positions move back by their count.</summary>
    private void Commit()
    {
        _model.Rebase(HandOnPending());
        ForgetMemory();
    }

    /// <summary>Hands the pending bytes to the output (no fold into them after this); returns how many.</summary>
    private int HandOnPending()
    {
        int count = _pending;
        if (count > 0)
        {
            Advance(count);
            _committed += count;
        }
        _pending = 0;
        _textNodeStart = -1;
        return count;
    }

    /// <summary>Closes open elements, flushes, and releases the output (and the stream when owned).</summary>
    public void Close()
    {
        if (_writeState == WriteState.Closed) return;
        try
        {
            FinishDocument();
            AutoComplete(WriteState.Closed);
            FlushOutput();
        }
        finally
        {
            _writeState = WriteState.Closed;
            _plain = PlainState.None;
            ReleaseMemory();
            Capture.Release();
            ReturnScratch();
            if (_streamOutput is not null)
            {
                _streamOutput.Release();
                if (_streamOutput.OwnsStream) _streamOutput.Stream.Dispose();
            }
        }
    }

    /// <summary>Same as <see cref="Close"/>.</summary>
    public void Dispose() => Close();

    private void ThrowIfClosed()
    {
        if (_writeState == WriteState.Closed) ThrowHelper.ThrowWriterClosed();
    }

    // ---- Output buffer ---------------------------------------------------------------------------------------

    /// <summary>
    /// Returns exactly <paramref name="size"/> bytes at the write position: a span whose length the JIT knows where
    /// <paramref name="size"/> is a constant, so that writes at constant offsets into it need no bounds checks. The
    /// two kinds of memory meet in the span's start, not in the span: spans made on both paths and merged had a
    /// length the JIT no longer knew, and each write was range-checked.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> GetSpan(int size)
    {
        if (MemoryLength - _pending < size) Grow(size);
        // The array in a local: known not null in ArrayStart, where a field read again would be tested again.
        byte[]? array = _memoryArray;
        return MemoryMarshal.CreateSpan(ref array is not null ? ref ArrayStart(array, size) : ref MemoryTailStart(size), size);
    }

    /// <summary>
    /// Room for <paramref name="size"/> bytes of records at the write position, in one buffer request, where both the
    /// output memory and .NET's buffer have it: every reservation .NET makes for records that fit in that room ends
    /// within it, so the model of its buffer has nothing to do for them (the one-request paths of small arrays and short
    /// element strings, which reserve their records' worst case). A document's first record takes the output memory
    /// first, as its first request does (nothing is written: no position moves). False, with nothing written, where the
    /// room is not there; the caller then writes its records one by one.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryTakeRoom(int size, out Span<byte> span)
    {
        span = default;
        if (_pending + size > _model.RoomEnd || _memoryArray is null)
        {
            if (_pending != 0 || MemoryLength != 0) return false;
            GrowInline(size);
            if (size > _model.RoomEnd || _memoryArray is null) return false;
        }
        span = MemoryMarshal.CreateSpan(ref ArrayStart(_memoryArray, size), size);
        return true;
    }

    /// <summary>
    /// The first of the <paramref name="size"/> bytes at the write position in the output memory's array, without the
    /// range check of a span constructor (W1 in three calls about a tenth faster without it). In range: the memory lies
    /// within its array (<see cref="SetMemory(Memory{byte}, byte[], int)"/> takes an array segment's, or our own stream
    /// buffer's), and <see cref="GetSpan"/> calls this only with <paramref name="size"/> bytes free after
    /// <see cref="_pending"/> (<see cref="Grow"/> fails if the output gives less).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref byte ArrayStart(byte[] array, int size)
    {
        Debug.Assert(_pending >= 0 && size >= 0 && MemoryLength - _pending >= size);
        return ref MemoryByte(array, _pending);
    }

    /// <summary>
    /// The byte at <paramref name="position"/> of the output memory's array, without a bounds check: for
    /// <see cref="ArrayStart"/> and the fold, whose positions lie within the memory in use.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref byte MemoryByte(byte[] array, int position)
    {
        Debug.Assert(array == _memoryArray && (uint)position <= (uint)MemoryLength && _memoryArrayOffset >= 0
            && _memoryArrayOffset + MemoryLength <= array.Length);
        return ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(array), (nint)(uint)(_memoryArrayOffset + position));
    }

    // Output memory that is not an array (rare): out of line, so that the common path stays small. The slice checks
    // the range.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ref byte MemoryTailStart(int size) => ref MemoryMarshal.GetReference(_memory.Span.Slice(_pending, size));

    private Span<byte> MemorySpan => _memoryArray is not null ? new Span<byte>(_memoryArray, _memoryArrayOffset, MemoryLength) : _memory.Span;

    /// <summary>
    /// Memory a buffer writer gave, as the output memory. A writer reused over one buffer writer is mostly given the
    /// memory it was given for the document before (the start of the same array, its written count reset): then only
    /// its length is taken, the array and its offset already known, without <see cref="SetMemory(Memory{byte})"/>'s
    /// array test (W2's 8 characters about 1–2.5 ns faster in benchmark runs 620–630; see benchmarks/HISTORY.md).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void TakeOutputMemory(Memory<byte> memory)
    {
        if (_memoryArray is not null && memory.Equals(_memory)) SetMemoryLength(memory.Length);
        else SetMemory(memory);
    }

    // Out of line: its array test's locals took a frame of zeroed stack in Grow, where TakeOutputMemory is inlined.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void SetMemory(Memory<byte> memory)
    {
        if (!memory.IsEmpty && System.Runtime.InteropServices.MemoryMarshal.TryGetArray(memory, out ArraySegment<byte> segment))
            SetMemory(memory, segment.Array, segment.Offset);
        else
            SetMemory(memory, null, 0);
    }

    /// <summary>
    /// Our own buffer over a stream as the output memory, with at least <paramref name="sizeHint"/> bytes free: its
    /// array directly, without the interface call and Memory's type test. Taken when a document starts on a stream too
    /// (the buffer is empty then), so that its first write does not go through <see cref="Grow"/>.
    /// </summary>
    private void TakeStreamMemory(int sizeHint)
    {
        byte[] array = _streamOutput!.GetArray(sizeHint, out int offset);
        SetMemory(array.AsMemory(offset), array, offset);
    }

    /// <summary>
    /// Drops the output memory (at a reset and after each commit): its length only. The references stay until the
    /// next memory given replaces them, which stores them only if they differ (a writer reused per message is mostly
    /// given the same array again: a reference stored is a write barrier call, a compare is not), or until the writer
    /// closes (<see cref="ReleaseMemory"/>).
    /// </summary>
    private void ForgetMemory() => _model.ForgetMemory();

    /// <summary>
    /// The length of the output memory in use. The model of .NET's buffer keeps it (the memory's end in the writer's
    /// positions), so that a record's short path tells with one compare that both have room.
    /// </summary>
    private int MemoryLength => _model.MemoryEnd;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SetMemoryLength(int length) => _model.SetMemoryEnd(length);

    /// <summary>Drops the output memory and its references (the writer is closed).</summary>
    private void ReleaseMemory()
    {
        ForgetMemory();
        _memory = default;
        _memoryArray = null;
        _memoryArrayOffset = 0;
    }

    /// <summary>The output memory, and its array when it has one (spans from the array cost less than <c>Memory.Span</c>).</summary>
    private void SetMemory(Memory<byte> memory, byte[]? array, int arrayOffset)
    {
        if (!_memory.Equals(memory)) _memory = memory;
        if (!ReferenceEquals(_memoryArray, array)) _memoryArray = array;
        _memoryArrayOffset = arrayOffset;
        SetMemoryLength(memory.Length);
    }

    private void Advance(int count)
    {
        if (_streamOutput is not null) _streamOutput.Advance(count);
        else _output.Advance(count);
    }

    // Once per output chunk: out of line, so that it never takes the inlining budget of a caller's loop that the
    // short paths are inlined into (inlined there, its pool, copy and interface calls left their span and record
    // helpers as calls: W1 in one call 12–21 ns per element instead of 5 in some processes of the harness).
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void Grow(int size) => GrowInline(size);

    /// <summary><see cref="Grow"/>'s body, also inlined into the one out-of-line step of a non-text record, which is a document's first record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void GrowInline(int size)
    {
        // Nothing written yet (a document's first record): memory only, without the frame the kept tail needs (a
        // short document's first buffer request is a fifth of its time).
        if (_pending == 0)
        {
            TakeMemory(size, Math.Max(size, MinimumChunk));
            return;
        }
        GrowKeepingTail(size);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void GrowKeepingTail(int size)
    {
        // Keep the last text record writable while a fold into it is still possible.
        if (!CanFoldEndElement) _textNodeStart = -1;
        int keepFrom = _textNodeStart >= 0 ? _textNodeStart : _pending;
        int keep = _pending - keepFrom;
        byte[]? tail = null;
        if (keep > 0)
        {
            tail = ArrayPool<byte>.Shared.Rent(keep);
            _memory.Span.Slice(keepFrom, keep).CopyTo(tail);
        }
        if (keepFrom > 0)
        {
            Advance(keepFrom);
            _committed += keepFrom;
            _model.Rebase(keepFrom);
        }
        int request = Math.Max(size + keep, MinimumChunk);
        TakeMemory(size + keep, request);
        _pending = keep;
        if (tail is not null)
        {
            tail.AsSpan(0, keep).CopyTo(MemorySpan);
            ArrayPool<byte>.Shared.Return(tail);
            _textNodeStart = 0;
        }
    }

    /// <summary>Takes memory of <paramref name="request"/> bytes from the output, of which at least <paramref name="needed"/> must be given.</summary>
    private void TakeMemory(int needed, int request)
    {
        if (_streamOutput is not null) TakeStreamMemory(request);
        else TakeOutputMemory(_output.GetMemory(request));
        // IBufferWriter promises at least the size asked for; spans are made from the memory on that promise.
        if (MemoryLength < needed) ThrowOutputTooSmall(MemoryLength, request);
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private void ThrowOutputTooSmall(int given, int asked)
    {
        // Nothing more is written into that memory.
        ForgetMemory();
        _model.Rebase(_pending);
        _pending = 0;
        _textNodeStart = -1;
        throw new InvalidOperationException($"The output ({_output.GetType()}) gave {given} bytes of memory where at least {asked} were asked for.");
    }

    // ---- Node-level writes (what .NET's XmlBinaryNodeWriter does) ---------------------------------------------

    /// <summary>Writes a one-byte non-text record type and forgets the last text record.</summary>
    private void WriteNode(RecordType type)
    {
        // BeginNode without the span after the type byte: less code where this is inlined (EndElement).
        _textNodeStart = -1;
        NonTextRecordStart(1, 0) = (byte)type;
        _pending++;
    }

    /// <summary>
    /// Starts a non-text record with room for <paramref name="payloadReservation"/> bytes after its type: forgets the
    /// last text record, models the record in .NET's buffer (the <c>WriteByte</c> of its type, then the reservation
    /// of the payload), writes the type byte and returns the space after it. The caller writes the payload and adds
    /// <c>1 + written</c> to <see cref="_pending"/>. One buffer request for the record and its name or id instead of
    /// two; with <paramref name="extraBytes"/>, room for a record that follows too (modelled by its own writer).
    /// </summary>
    private Span<byte> BeginNode(RecordType type, int payloadReservation, int extraBytes = 0)
    {
        // No end element folds into the last text record now: Grow must know before it keeps that record's bytes.
        _textNodeStart = -1;
        int size = 1 + payloadReservation + extraBytes;
        ref byte start = ref NonTextRecordStart(size, payloadReservation);
        start = (byte)type;
        return MemoryMarshal.CreateSpan(ref Unsafe.Add(ref start, 1), size - 1);
    }

    /// <summary>
    /// The first of <paramref name="size"/> bytes at the write position for a non-text record, modelled in .NET's
    /// buffer as the <c>WriteByte</c> of its type and the reservation of <paramref name="payloadReservation"/> bytes
    /// (<paramref name="size"/> is at least one more). Where the record fits both the output memory and .NET's buffer,
    /// as nearly every record does, that is one compare: neither is flushed nor grown. (A compare for each, with the
    /// span's range tested apart: W3's elements of dictionary names 7.6–12.0 ns an element, 5.3–6.2 ns with one compare,
    /// benchmark runs 639–642; see benchmarks/HISTORY.md.)
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref byte NonTextRecordStart(int size, int payloadReservation)
    {
        Debug.Assert(size > payloadReservation);
        byte[]? array = _memoryArray;
        if (_pending + size <= _model.RoomEnd && array is not null) return ref MemoryByte(array, _pending);
        return ref NonTextRecordStartFlushingOrGrowing(size, payloadReservation);
    }

    /// <summary><see cref="NonTextRecordStart"/> where .NET's buffer may flush or the memory must grow (or is not an array's).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ref byte NonTextRecordStartFlushingOrGrowing(int size, int payloadReservation)
    {
        // The model first, at the position before any growth: growth moves the positions and the model's alike. Growth
        // in line here, not a second call: a document's first record takes this step (W2's 8 characters about 2 ns
        // slower with Grow called from here, in the harness).
        _model.WriteNodeType(_pending, payloadReservation);
        if (MemoryLength - _pending < size) GrowInline(size);
        byte[]? array = _memoryArray;
        return ref array is not null ? ref ArrayStart(array, size) : ref MemoryTailStart(size);
    }

    /// <summary>Writes a non-text record whose payload is a name (an element's or attribute's local name).</summary>
    private void WriteNodeWithName(RecordType type, string name)
    {
        if (!IsShortName(name.Length))
        {
            // Empty and long names: the general String writer.
            WriteNode(type);
            WriteName(name);
            return;
        }
        WriteNodeWithShortName(type, name, 0);
    }

    /// <summary>Whether a name of <paramref name="length"/> characters is written with one reservation for it and its record (1 to 41 characters).</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private static bool IsShortName(int length) => (uint)(length - 1) < ShortNameChars - 1;

    /// <summary>
    /// Writes a non-text record with a short name (<see cref="IsShortName"/>) in one buffer request that also holds
    /// <paramref name="extraBytes"/> more; returns the space after the name (at least <paramref name="extraBytes"/>).
    /// </summary>
    private Span<byte> WriteNodeWithShortName(RecordType type, string name, int extraBytes)
    {
        int reservation = 1 + name.Length * MaxBytesPerChar;
        Span<byte> span = BeginNode(type, reservation, extraBytes);
        int length = TranscodeName(name, span.Slice(1, reservation - 1));
        span[0] = (byte)length;
        _pending += 2 + length;
        return span.Slice(1 + length);
    }

    /// <summary>Writes a non-text record whose payload is a dictionary id (MultiByteInt31; .NET reserves 5 bytes).</summary>
    private void WriteNodeWithId(RecordType type, int id)
    {
        Span<byte> span = BeginNode(type, MultiByteInt31.MaxLength);
        // The id first, then the count: `_pending += 1 + Write(…)` reads the count before the id's write, whose long
        // form is a call, and the count went through the stack on every record (W3's dictionary names).
        int written = MultiByteInt31.Write(span, id);
        _pending += 1 + written;
    }

    /// <summary>Marks the text record whose type byte is at <paramref name="position"/> as the fold candidate.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private void SetTextNode(int position) => _textNodeStart = position;

    /// <summary>Starts a text record: checks the single-value rule inside attributes and models the reservation.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private void BeginTextNode(int reservation)
    {
        if (_inAttribute) WroteAttributeValue();
        _model.Reserve(_pending, reservation);
    }

    /// <summary>Writes a text record that is only a type byte (Zero, One, False, True, Empty, or Dictionary before its id).</summary>
    private void WriteTextNode(RecordType type) => EndTypedTextNode(FixedRecord(BeginTypedTextNode(), type, 0));

    /// <summary>
    /// Starts a text record of fixed size (a <c>Format…Record</c> rule or <see cref="FixedRecord"/> writes it; every
    /// typed value, and the one-byte records): checks the single-value rule
    /// inside attributes and returns room for the largest. <see cref="EndTypedTextNode"/> models its reservation once
    /// its size is known (.NET reserves the record it chose, then writes it).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private Span<byte> BeginTypedTextNode()
    {
        if (_inAttribute) WroteAttributeValue();
        return GetSpan(MaxTypedRecordSize);
    }

    /// <summary>Ends a typed text record of <paramref name="size"/> bytes begun with <see cref="BeginTypedTextNode"/>: it is the fold candidate.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private void EndTypedTextNode(int size)
    {
        int position = _pending;
        _textNodeStart = position;
        _pending = position + size;
        _model.Reserve(position, size);
    }

    /// <summary>Writes the header of a Chars, Bytes or UnicodeChars record sized for <paramref name="length"/> bytes.</summary>
    private void WriteTextNodeWithLength(RecordType baseType, int length)
    {
        RecordType type = BinaryXmlPrimitives.GetSizedTextType(baseType, length);
        int headerSize = TextHeaderSize(type);
        BeginTextNode(headerSize);
        WriteTextHeader(GetSpan(headerSize), type, headerSize, length);
    }

    /// <summary>
    /// Writes the header of a sized text record (begun with <see cref="BeginTextNode"/>) at the start of
    /// <paramref name="destination"/>, marks it as the fold candidate and counts it (its payload is the caller's).
    /// </summary>
    private void WriteTextHeader(Span<byte> destination, RecordType type, int headerSize, int length)
    {
        BinaryXmlPrimitives.WriteSizedTextHeader(destination, type, length);
        SetTextNode(_pending);
        _pending += headerSize;
    }

    /// <summary>Writes a MultiByteInt31 (names' lengths, dictionary ids, array counts); .NET reserves 5 bytes.</summary>
    private void WriteMultiByteInt31(int value)
    {
        _model.Reserve(_pending, MultiByteInt31.MaxLength);
        int n = MultiByteInt31.Write(GetSpan(MultiByteInt31.MaxLength), value);
        _pending += n;
    }

    /// <summary>
    /// Blocks from this size on go straight to an output stream rather than through the buffer: one copy instead of
    /// two, for one more <c>Stream.Write</c>. .NET's writer passes blocks over its 512-byte buffer; at 2 KB the copy
    /// saved already outweighs the call (base64 of 4 KB through the drop-in writer 30 % faster, arrays of 1,024 doubles
    /// 38 %, than at 16 KB), while smaller blocks keep to the buffer and its one write per flush.
    /// </summary>
    private const int StreamPassThroughSize = 2 * 1024;

    /// <summary>Writes raw bytes as .NET's <c>WriteBytes</c>: reserved when under 512 bytes, else past the buffer.</summary>
    private void WriteBlock(ReadOnlySpan<byte> bytes)
    {
        _model.WriteBlock(_pending, bytes.Length);
        WriteModelledBytes(bytes);
    }

    /// <summary>
    /// Whether <see cref="WriteModelledBytes"/> hands a block of <paramref name="length"/> bytes to the output stream as
    /// it is: over a stream, a large block (array items, base64, long text) is written to it directly, copied once, not
    /// twice; not while the text record before it may still take a folded end element (see Grow).
    /// </summary>
    [System.Diagnostics.CodeAnalysis.MemberNotNullWhen(true, nameof(_streamOutput))]
    private bool PassesToStream(int length)
        => _streamOutput is not null && length >= StreamPassThroughSize
            && !CanFoldEndElement;

    /// <summary>
    /// Writes bytes the model of .NET's buffer has already counted (as one block, or as items written one by one).
    /// </summary>
    private void WriteModelledBytes(ReadOnlySpan<byte> bytes)
    {
        if (PassesToStream(bytes.Length))
        {
            WriteToStream(bytes);
            return;
        }
        bytes.CopyTo(GetSpan(bytes.Length));
        _pending += bytes.Length;
    }

    /// <summary>
    /// Over a stream, where <see cref="PassesToStream"/>: the pending bytes, then <paramref name="bytes"/> (modelled
    /// already), written to the stream.
    /// </summary>
    private void WriteToStream(ReadOnlySpan<byte> bytes)
    {
        CommitToStream();
        if (bytes.IsEmpty) return;
        _streamOutput!.Stream.Write(bytes);
        _committed += bytes.Length;
        _model.Rebase(bytes.Length);
    }

    /// <summary>
    /// Over a stream, where <see cref="PassesToStream"/>: the pending bytes written to the stream. A bulk payload
    /// converted as it is written (long UTF-8 text, DateTime items with local ones) goes a piece of at most
    /// <see cref="StreamPieceSize"/> bytes at a time, each written into the buffer and then handed on by this.
    /// </summary>
    private void CommitToStream()
    {
        Commit();
        _streamOutput!.WriteToStream();
    }

    /// <summary>
    /// The most bytes of a bulk payload converted as it is written that the buffer holds at a time over a stream
    /// (<see cref="CommitToStream"/>): the buffer stays this size whatever the payload's, and the stream has the
    /// payload when the call returns, as .NET's writer hands on its buffer as it fills.
    /// </summary>
    private const int StreamPieceSize = 192 * 1024;

    /// <summary>
    /// The end of an element: folds into the last text record when the rule allows (MC-NBFX 2.2.3.31), otherwise
    /// writes EndElement. The rule: .NET folds only while the record's type byte is still in its 512-byte buffer;
    /// with <see cref="BinaryXmlWriterOptions.AlwaysFoldEndElements"/> the writer folds whenever it still can.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteEndElementNode()
    {
        if (CanFoldEndElement) FoldEndElement();
        else WriteNode(RecordType.EndElement);
    }

    /// <summary>
    /// Whether an end element would fold into the last text record now: there is one, and .NET's buffer still holds its
    /// type byte (or <see cref="BinaryXmlWriterOptions.AlwaysFoldEndElements"/>).
    /// </summary>
    private bool CanFoldEndElement
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _textNodeStart >= 0 && (_model.InBuffer(_textNodeStart) || _options.AlwaysFoldEndElements);
    }

    /// <summary>Turns the last text record into its <c>…WithEndElement</c> form (its type + 1).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void FoldEndElement()
    {
        byte[]? array = _memoryArray;
        if (array is not null)
        {
            // The record's type byte lies before the write position.
            Debug.Assert((uint)_textNodeStart < (uint)_pending);
            MemoryByte(array, _textNodeStart)++;
        }
        else
        {
            FoldInMemory();
        }
        _textNodeStart = -1;
    }

    // Output memory that is not an array (rare): out of line, so that the common fold saves no registers.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void FoldInMemory() => _memory.Span[_textNodeStart]++;

    /// <summary>The record of a one-letter prefix (a–z): the A form's type plus the letter's place after 'a' (MC-NBFX 2.3.1).</summary>
    private static RecordType LetterRecord(RecordType letterA, char prefixLetter) => (RecordType)((byte)letterA + (prefixLetter - 'a'));

    /// <summary>
    /// The record of an element with <paramref name="prefix"/> where the prefix has a form of its own: the short form
    /// for no prefix, a letter's form for a–z (<see cref="LetterRecord"/>); false for any other prefix, which the
    /// general form writes as a string. The callers write either form from one call site, so that the JIT inlines the
    /// record's writing once: written at two (no prefix, a letter), it left a prefixed element's record a call in a
    /// caller's loop. Attributes keep a branch a form: taken through this, W3_Attributes' prefixed attributes were
    /// slower (benchmarks/HISTORY.md, "Prefixed start tags").
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryGetShortFormRecord(string prefix, RecordType shortForm, RecordType letterA, out RecordType type)
    {
        type = shortForm;
        if (prefix.Length == 0) return true;
        type = LetterRecord(letterA, prefix[0]);
        return prefix.Length == 1 && char.IsAsciiLetterLower(prefix[0]);
    }

    /// <summary>
    /// The dictionary id of a string, as .NET's writer finds it: the static dictionary first (even ids), then the
    /// session, which is asked to add strings it does not have yet (odd ids).
    /// </summary>
    private bool TryGetKey(XmlDictionaryString s, out int key)
    {
        if (s.Dictionary == _dictionary)
        {
            key = s.Key * 2;
            return true;
        }
        if (_dictionary is { } dictionary && !KnowsOnlyItsOwnStrings(dictionary) && FindInDictionary(dictionary, s) is int found and >= 0)
        {
            key = found * 2;
            return true;
        }
        if (_session is not null && _scratch!.SessionKeys.TryGetKey(_session, s, out int sessionKey))
        {
            key = sessionKey * 2 + 1;
            return true;
        }
        key = -1;
        return false;
    }

    /// <summary>
    /// The key of a string of another dictionary in the static dictionary (by value, as its lookup finds it), or -1.
    /// Out of line: the lookup's <see langword="out"/> string, inlined into a caller's loop with the rest of
    /// <see cref="TryGetKey"/>, was a reference on the stack cleared on every element, also where no static dictionary
    /// is used (W3's prefixed names; benchmarks/HISTORY.md, runs 1043 on).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int FindInDictionary(IXmlDictionary dictionary, XmlDictionaryString s) =>
        dictionary.TryLookup(s, out XmlDictionaryString? t) ? t.Key : -1;

    /// <summary>
    /// Whether <paramref name="dictionary"/> answers <see cref="IXmlDictionary.TryLookup(XmlDictionaryString, out
    /// XmlDictionaryString?)"/> only for its own strings, so that asking it for another dictionary's string can only
    /// find nothing: MC-NBFS and <see cref="XmlDictionary"/> itself (not a type derived from it, which may override the
    /// lookup). DataContractSerializer's names are strings of its own dictionaries, so over MC-NBFS most of a
    /// message's names were such a call. Told in line by the dictionary's type (two compares), not kept in a field: a
    /// writer created per message is allocated whole, and W7's target is a tenth of in-box's allocation.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool KnowsOnlyItsOwnStrings(IXmlDictionary dictionary)
        => dictionary is Soap.NbfsDictionary || dictionary.GetType() == typeof(XmlDictionary);
}
