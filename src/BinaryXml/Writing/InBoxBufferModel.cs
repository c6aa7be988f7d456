using System.Runtime.CompilerServices;

namespace BinaryXml;

/// <summary>
/// A model of the position in .NET's 512-byte output buffer (<c>XmlStreamNodeWriter</c>). .NET folds an end element
/// into the previous text record only while that record's type byte is still in this buffer; every write reserves
/// a worst-case size first and flushes the buffer when the reservation does not fit. Mirroring the position costs
/// one compare per reservation and keeps fold decisions identical for documents of any size.
/// </summary>
/// <remarks>
/// The model keeps no offset of its own: .NET's buffer holds the same bytes as the writer's, so its offset is the
/// writer's position (its pending byte count) less the position where the buffer last began. The model stores where
/// the buffer would be full, <see cref="_end"/>, which changes only when the modelled buffer is flushed or the writer's
/// positions move back (<see cref="Rebase"/>). A record is modelled by one compare with no store: an offset updated by
/// every record was a chain of read-modify-writes, each record waiting for the store of the one before it. Every
/// method takes the writer's position before the bytes it models; the bytes advance the offset as the writer counts
/// them. Whether a text record's type byte is still in the buffer follows from its position likewise
/// (<see cref="InBuffer"/>). The model also keeps where the writer's output memory ends, and the lower of the two
/// ends (<see cref="RoomEnd"/>): a non-text record that fits below it needs neither a flush of .NET's buffer nor more
/// memory, which the writer tells with one compare instead of one for each.
/// </remarks>
internal struct InBoxBufferModel
{
    public const int BufferLength = 512;

    /// <summary>The writer's position at which .NET's buffer is full (its start plus <see cref="BufferLength"/>).</summary>
    private int _end;

    /// <summary>The writer's position at which its output memory ends (0: it has none), as the writer last set it.</summary>
    private int _memoryEnd;

    /// <summary>The lower of <see cref="_end"/> and <see cref="_memoryEnd"/>, kept by every change of either.</summary>
    private int _roomEnd;

    /// <summary>The writer's position at which its output memory ends: the memory's length (0: it has none).</summary>
    public readonly int MemoryEnd
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _memoryEnd;
    }

    /// <summary>
    /// The writer's position up to which both .NET's buffer and the writer's output memory have room: a record that
    /// ends there or before needs neither a flush of the buffer nor more memory, which one compare tells the writer.
    /// </summary>
    public readonly int RoomEnd
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _roomEnd;
    }

    /// <summary>
    /// The writer's output memory now ends at <paramref name="memoryEnd"/> (its length; 0 when it has none). The writer
    /// sets it whenever the memory changes, and after every move of its positions (<see cref="Rebase"/>), which always
    /// goes with new memory or none.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void SetMemoryEnd(int memoryEnd)
    {
        _memoryEnd = memoryEnd;
        _roomEnd = Math.Min(_end, memoryEnd);
    }

    /// <summary>
    /// The writer has no output memory now (<see cref="SetMemoryEnd"/> of 0): no record fits before memory is taken,
    /// whatever the buffer's end, so the room ends at 0 without comparing.
    /// </summary>
    public void ForgetMemory()
    {
        _memoryEnd = 0;
        _roomEnd = 0;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SetEnd(int end)
    {
        _end = end;
        _roomEnd = Math.Min(end, _memoryEnd);
    }

    /// <summary>
    /// Whether the byte at the writer's <paramref name="position"/> (a text record's type byte, written since the
    /// buffer was last flushed or before) is still in the modelled buffer: an end element folds into the record only
    /// then.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool InBuffer(int position) => position >= _end - BufferLength;

    /// <summary>
    /// The writer at its position 0 with no output memory, and .NET's buffer beginning there: a new document, or a
    /// flush that handed every byte on. Three stores, where a reset, a flush and the memory forgotten in turn took six
    /// inlined steps of the inlining budget of a one-element document's caller (benchmarks/HISTORY.md).
    /// </summary>
    public void Restart()
    {
        _end = BufferLength;
        _memoryEnd = 0;
        _roomEnd = 0;
    }

    /// <summary>A flush of the buffer at <paramref name="position"/>: explicit, or because a reservation did not fit.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Flush(int position) => SetEnd(position + BufferLength);

    /// <summary>The writer's positions moved back by <paramref name="count"/> bytes (handed to its output).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Rebase(int count) => SetEnd(_end - count);

    /// <summary><c>GetBuffer(count)</c> at <paramref name="position"/>: flush unless <paramref name="count"/> bytes fit.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Reserve(int position, int count)
    {
        if (position + count > _end) Flush(position);
    }

    /// <summary><c>WriteByte</c> at <paramref name="position"/>: flush only when the buffer is completely full.</summary>
    public void WriteByte(int position)
    {
        if (position >= _end) Flush(position);
    }

    /// <summary>
    /// A non-text record at <paramref name="position"/>: <see cref="WriteByte"/> of its type, then <see cref="Reserve"/>
    /// of <paramref name="payloadReservation"/> bytes for its name or id.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNodeType(int position, int payloadReservation)
    {
        // Covers both flushes: a full buffer at the type byte fails this test too.
        if (position + 1 + payloadReservation > _end) WriteNodeTypeFlushing(position, payloadReservation);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteNodeTypeFlushing(int position, int payloadReservation)
    {
        WriteByte(position);
        Reserve(position + 1, payloadReservation);
    }

    /// <summary>
    /// An Array record's EndElement and item type at <paramref name="position"/> (<see cref="WriteNodeType"/> of no
    /// payload each), then the reservation of its count (a MultiByteInt31).
    /// </summary>
    public void WriteArrayHeader(int position)
    {
        if (position + 2 + MultiByteInt31.MaxLength > _end)
        {
            WriteNodeType(position, 0);
            WriteNodeType(position + 1, 0);
            Reserve(position + 2, MultiByteInt31.MaxLength);
        }
    }

    /// <summary>
    /// <c>WriteBytes(span)</c> of <paramref name="count"/> bytes at <paramref name="position"/>: under 512 bytes it is
    /// reserved; otherwise the buffer is flushed and the bytes bypass it (the buffer begins after them).
    /// </summary>
    public void WriteBlock(int position, int count)
    {
        if (count < BufferLength) Reserve(position, count);
        else Flush(position + count);
    }

    /// <summary><paramref name="count"/> writes of <paramref name="itemSize"/> bytes each at <paramref name="position"/>, in closed form.</summary>
    public void WriteItems(int position, int count, int itemSize)
    {
        int fitting = (_end - position) / itemSize;
        if (count <= fitting) return;
        int perBuffer = BufferLength / itemSize;
        int rest = count - fitting;
        // Positions past int's range wrap, and wrap back when the writer rebases after handing the items on.
        Flush(unchecked(position + count * itemSize - ((rest - 1) % perBuffer + 1) * itemSize));
    }

    /// <summary>
    /// Sets the offset at <paramref name="position"/> to what it was at <paramref name="modelledPosition"/>: for bytes
    /// modelled by an estimate of their count (see the writer's ModelChunks), which the estimate must not outlive.
    /// </summary>
    public void MoveTo(int modelledPosition, int position) => SetEnd(_end + position - modelledPosition);
}
