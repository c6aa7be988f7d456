namespace BinaryXml;

/// <summary>
/// A model of the position in .NET's 512-byte output buffer (<c>XmlStreamNodeWriter</c>). .NET folds an end element
/// into the previous text record only while that record's type byte is still in this buffer; every write reserves
/// a worst-case size first and flushes the buffer when the reservation does not fit. Mirroring the position costs
/// one compare per reservation and keeps fold decisions identical for documents of any size.
/// </summary>
internal struct InBoxBufferModel
{
    public const int BufferLength = 512;

    private int _offset;

    /// <summary>Whether the last text record's type byte is still in the modelled buffer.</summary>
    public bool TextNodeInBuffer;

    public readonly int Offset => _offset;

    public void Reset()
    {
        _offset = 0;
        TextNodeInBuffer = false;
    }

    /// <summary>A flush of the buffer: explicit, or because a reservation did not fit.</summary>
    public void Flush()
    {
        _offset = 0;
        TextNodeInBuffer = false;
    }

    /// <summary><c>GetBuffer(count)</c>: flush unless <paramref name="count"/> bytes fit after the current position.</summary>
    public void Reserve(int count)
    {
        if (ReserveFlushes(_offset, count)) Flush();
    }

    public void Advance(int count) => _offset += count;

    /// <summary><c>WriteByte</c>: flush only when the buffer is completely full.</summary>
    public void WriteByte()
    {
        if (WriteByteFlushes(_offset)) Flush();
        _offset++;
    }

    private static bool ReserveFlushes(int offset, int count) => offset + count > BufferLength;

    private static bool WriteByteFlushes(int offset) => offset >= BufferLength;

    /// <summary>
    /// A non-text record: <see cref="WriteByte"/> of its type, then <see cref="Reserve"/> of
    /// <paramref name="payloadReservation"/> bytes for its name or id, in registers; no text record is in the buffer
    /// afterwards.
    /// </summary>
    public void WriteNodeType(int payloadReservation)
    {
        _offset = AfterNodeType(_offset, payloadReservation);
        TextNodeInBuffer = false;
    }

    /// <summary>The offset after a non-text record's type byte and its payload's reservation, from <paramref name="offset"/>.</summary>
    private static int AfterNodeType(int offset, int payloadReservation)
    {
        offset = WriteByteFlushes(offset) ? 1 : offset + 1;
        return ReserveFlushes(offset, payloadReservation) ? 0 : offset;
    }

    /// <summary>
    /// <see cref="WriteNodeType(int)"/> and then <see cref="Advance"/> by <paramref name="written"/>, for a record whose
    /// payload is already written: the offset is loaded and stored once (updates of the field one after another each
    /// wait for the store before them).
    /// </summary>
    public void WriteNodeType(int payloadReservation, int written)
    {
        _offset = AfterNodeType(_offset, payloadReservation) + written;
        TextNodeInBuffer = false;
    }

    /// <summary>
    /// An Array record's EndElement and item type (<see cref="WriteNodeType(int)"/> of no payload each), then its
    /// count: a MultiByteInt31's reservation and its <paramref name="countLength"/> bytes; with one load and one store.
    /// </summary>
    public void WriteArrayHeader(int countLength)
    {
        int offset = AfterNodeType(AfterNodeType(_offset, 0), 0);
        if (ReserveFlushes(offset, MultiByteInt31.MaxLength)) offset = 0;
        _offset = offset + countLength;
        TextNodeInBuffer = false;
    }

    /// <summary>
    /// A text record of <paramref name="size"/> bytes reserved and written at once (a typed value): afterwards its type
    /// byte is in the buffer, the record an end element may fold into.
    /// </summary>
    public void WriteTextRecord(int size)
    {
        Write(size);
        TextNodeInBuffer = true;
    }

    /// <summary>A reservation followed by writing exactly that many bytes.</summary>
    public void Write(int count)
    {
        int offset = _offset;
        if (ReserveFlushes(offset, count))
        {
            offset = 0;
            TextNodeInBuffer = false;
        }
        _offset = offset + count;
    }

    /// <summary><c>WriteBytes(span)</c>: under 512 bytes it is reserved; otherwise the buffer is flushed and the bytes bypass it.</summary>
    public void WriteBlock(int count)
    {
        if (count < BufferLength) Write(count);
        else Flush();
    }

    /// <summary><paramref name="count"/> writes of <paramref name="itemSize"/> bytes each, in closed form.</summary>
    public void WriteItems(int count, int itemSize)
    {
        int fitting = (BufferLength - _offset) / itemSize;
        if (count <= fitting)
        {
            _offset += count * itemSize;
            return;
        }
        Flush();
        int perBuffer = BufferLength / itemSize;
        int rest = count - fitting;
        _offset = ((rest - 1) % perBuffer + 1) * itemSize;
    }
}
