using System.Buffers;
using System.Text;
using System.Text.Unicode;

namespace BinaryXml.Soap.Nmf;

/// <summary>
/// A pull reader of an MC-NMF stream (one direction of a net.tcp connection) over a span: each <see cref="Read"/>
/// moves to the next record. Every length is checked against the remaining input; anything malformed throws
/// <see cref="BinaryXmlException"/> with the offset.
/// </summary>
public ref struct NmfReader
{
    private readonly ReadOnlySpan<byte> _data;
    private int _pos;
    private ReadOnlySpan<byte> _payload;
    private byte[]? _unsized;
    // An unsized envelope's chunks: where each starts in the message and in the stream.
    private List<(int Message, int Stream)>? _chunks;

    /// <summary>Creates a reader over a whole captured stream.</summary>
    public NmfReader(ReadOnlySpan<byte> data) => _data = data;

    /// <summary>The current record's type.</summary>
    public NmfRecordType RecordType { readonly get; private set; }

    /// <summary>The offset of the current record.</summary>
    public int RecordOffset { readonly get; private set; }

    /// <summary>
    /// The offset of the current record's payload (for envelopes, of the message's first byte: an unsized envelope's
    /// message lies in chunks, <see cref="StreamOffsetOf"/>).
    /// </summary>
    public int PayloadOffset { readonly get; private set; }

    /// <summary>
    /// The stream offset of the byte at <paramref name="envelopeOffset"/> in the current envelope's message: after
    /// <see cref="PayloadOffset"/> in a sized envelope; in an unsized one, in the chunk that holds it (the message's
    /// length maps to the end of the last chunk).
    /// </summary>
    public readonly long StreamOffsetOf(long envelopeOffset) => StreamOffset(RecordType == NmfRecordType.UnsizedEnvelope ? _chunks : null, PayloadOffset, envelopeOffset);

    /// <summary>The sizes of the current unsized envelope's data chunks, in order (none for any other record).</summary>
    public readonly int[] ChunkSizes()
    {
        if (RecordType != NmfRecordType.UnsizedEnvelope || _chunks is null) return [];
        var sizes = new int[_chunks.Count];
        for (int i = 0; i < sizes.Length; i++) sizes[i] = (i + 1 < sizes.Length ? _chunks[i + 1].Message : _payload.Length) - _chunks[i].Message;
        return sizes;
    }

    /// <summary><see cref="StreamOffsetOf"/> for the current envelope, as a function that can be kept after the reader moves on.</summary>
    public readonly Func<long, long> StreamOffsetMap()
    {
        (int, int)[]? chunks = RecordType == NmfRecordType.UnsizedEnvelope ? _chunks?.ToArray() : null;
        int payload = PayloadOffset;
        return offset => StreamOffset(chunks, payload, offset);
    }

    private static long StreamOffset(IReadOnlyList<(int Message, int Stream)>? chunks, int payload, long envelopeOffset)
    {
        if (chunks is null || chunks.Count == 0 || envelopeOffset < 0) return payload + envelopeOffset;
        // The last chunk that starts at or before the offset (dump maps every record's: a search, not a walk).
        int low = 0, high = chunks.Count - 1;
        while (low < high)
        {
            int middle = (low + high + 1) / 2;
            if (chunks[middle].Message <= envelopeOffset) low = middle;
            else high = middle - 1;
        }
        return chunks[low].Stream + (envelopeOffset - chunks[low].Message);
    }

    /// <summary>Version: major and minor.</summary>
    public (byte Major, byte Minor) Version { readonly get; private set; }

    /// <summary>Mode record value.</summary>
    public NmfMode Mode { readonly get; private set; }

    /// <summary>Known encoding record value.</summary>
    public NmfKnownEncoding KnownEncoding { readonly get; private set; }

    /// <summary>The text of Via, ExtensibleEncoding, Fault and UpgradeRequest records.</summary>
    public readonly string Text => Encoding.UTF8.GetString(_payload);

    /// <summary>The message of a SizedEnvelope or UnsizedEnvelope record (chunks joined).</summary>
    public readonly ReadOnlySpan<byte> Envelope => _payload;

    /// <summary>The bytes read so far.</summary>
    public readonly int BytesConsumed => _pos;

    /// <summary>Moves to the next record; false at the end of the input.</summary>
    public bool Read()
    {
        if (_pos >= _data.Length) return false;
        RecordOffset = _pos;
        byte type = _data[_pos++];
        _payload = default;
        switch ((NmfRecordType)type)
        {
            case NmfRecordType.Version:
                Need(2, "Version");
                Version = (_data[_pos], _data[_pos + 1]);
                if (Version.Major != 1) throw new BinaryXmlException($"MC-NMF version {Version.Major}.{Version.Minor} is not supported (1.x)", RecordOffset);
                _pos += 2;
                break;
            case NmfRecordType.Mode:
                Need(1, "Mode");
                Mode = (NmfMode)_data[_pos++];
                if (Mode is < NmfMode.SingletonUnsized or > NmfMode.SingletonSized) throw new BinaryXmlException($"MC-NMF mode {(byte)Mode} is not defined", RecordOffset);
                break;
            case NmfRecordType.KnownEncoding:
                Need(1, "KnownEncoding");
                KnownEncoding = (NmfKnownEncoding)_data[_pos++];
                if (KnownEncoding > NmfKnownEncoding.Soap12BinarySession) throw new BinaryXmlException($"MC-NMF known encoding {(byte)KnownEncoding} is not defined", RecordOffset);
                break;
            case NmfRecordType.Via:
            case NmfRecordType.ExtensibleEncoding:
            case NmfRecordType.Fault:
            case NmfRecordType.UpgradeRequest:
                ReadSized(validateUtf8: true);
                break;
            case NmfRecordType.SizedEnvelope:
                ReadSized(validateUtf8: false);
                break;
            case NmfRecordType.UnsizedEnvelope:
                ReadChunks();
                break;
            case NmfRecordType.End:
            case NmfRecordType.UpgradeResponse:
            case NmfRecordType.PreambleAck:
            case NmfRecordType.PreambleEnd:
                break;
            default:
                throw new BinaryXmlException($"0x{type:X2} is not an MC-NMF record type", RecordOffset);
        }
        RecordType = (NmfRecordType)type;
        return true;
    }

    private readonly void Need(int count, string record)
    {
        if (_data.Length - _pos < count) throw new BinaryXmlException($"The stream ends inside an MC-NMF {record} record", RecordOffset);
    }

    private int ReadSize()
    {
        OperationStatus status = MultiByteInt31.Decode(_data[_pos..], out int size, out int n);
        if (status == OperationStatus.NeedMoreData) throw new BinaryXmlException("The stream ends inside an MC-NMF record size", _pos);
        if (status == OperationStatus.InvalidData) throw new BinaryXmlException("An MC-NMF record size is not a valid MultiByteInt31", _pos);
        _pos += n;
        return size;
    }

    private void ReadSized(bool validateUtf8)
    {
        int size = ReadSize();
        if (size > _data.Length - _pos) throw new BinaryXmlException($"The MC-NMF record declares {size} bytes but {_data.Length - _pos} remain", RecordOffset);
        PayloadOffset = _pos;
        _payload = _data.Slice(_pos, size);
        if (validateUtf8 && !Utf8.IsValid(_payload)) throw new BinaryXmlException("An MC-NMF record's text is not valid UTF-8", _pos);
        _pos += size;
    }

    private void ReadChunks()
    {
        (_chunks ??= []).Clear();
        var joined = new ArrayBufferWriter<byte>();
        while (true)
        {
            int size = ReadSize();
            if (_chunks.Count == 0) PayloadOffset = _pos;
            if (size == 0) break;
            if (size > _data.Length - _pos) throw new BinaryXmlException($"An MC-NMF data chunk declares {size} bytes but {_data.Length - _pos} remain", _pos);
            _chunks.Add((joined.WrittenCount, _pos));
            joined.Write(_data.Slice(_pos, size));
            _pos += size;
        }
        _unsized = joined.WrittenSpan.ToArray();
        _payload = _unsized;
    }
}
