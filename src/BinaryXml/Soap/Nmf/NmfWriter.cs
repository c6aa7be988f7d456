using System.Buffers;
using System.Text;

namespace BinaryXml.Soap.Nmf;

/// <summary>Writes an MC-NMF stream: the preamble, sized or unsized envelopes and the end record.</summary>
public sealed class NmfWriter(IBufferWriter<byte> output)
{
    private readonly IBufferWriter<byte> _output = output ?? throw new ArgumentNullException(nameof(output));

    /// <summary>Writes Version 1.0, Mode, Via and KnownEncoding (MC-NMF 2.2.6), then PreambleEnd.</summary>
    public void WritePreamble(NmfMode mode, string via, NmfKnownEncoding encoding)
    {
        int n = WriteModeAndVia(mode, via, 2 + 1, out Span<byte> span);
        span[n++] = (byte)NmfRecordType.KnownEncoding; span[n++] = (byte)encoding;
        span[n++] = (byte)NmfRecordType.PreambleEnd;
        _output.Advance(n);
    }

    /// <summary>
    /// Writes Version 1.0, Mode, Via and an ExtensibleEncoding record of <paramref name="contentType"/> (MC-NMF 2.2.3.5:
    /// a content type such as <c>application/soap+msbinsession1+gzip</c>, <see cref="BinaryMessageContentType"/>), then
    /// PreambleEnd.
    /// </summary>
    public void WritePreamble(NmfMode mode, string via, string contentType)
    {
        ArgumentNullException.ThrowIfNull(contentType);
        int n = WriteModeAndVia(mode, via, 1 + MultiByteInt31.MaxLength + Encoding.UTF8.GetByteCount(contentType) + 1, out Span<byte> span);
        span[n++] = (byte)NmfRecordType.ExtensibleEncoding;
        n += BinaryXmlPrimitives.WriteString(span[n..], contentType);
        span[n++] = (byte)NmfRecordType.PreambleEnd;
        _output.Advance(n);
    }

    /// <summary>Writes Version 1.0, Mode and Via into a span with room for <paramref name="more"/> bytes after them; returns the bytes written.</summary>
    private int WriteModeAndVia(NmfMode mode, string via, int more, out Span<byte> span)
    {
        ArgumentNullException.ThrowIfNull(via);
        span = _output.GetSpan(3 + 2 + 1 + MultiByteInt31.MaxLength + Encoding.UTF8.GetByteCount(via) + more);
        int n = 0;
        span[n++] = (byte)NmfRecordType.Version; span[n++] = 1; span[n++] = 0;
        span[n++] = (byte)NmfRecordType.Mode; span[n++] = (byte)mode;
        span[n++] = (byte)NmfRecordType.Via;
        n += BinaryXmlPrimitives.WriteString(span[n..], via);
        return n;
    }

    /// <summary>Writes the receiver's PreambleAck.</summary>
    public void WritePreambleAck() => WriteByte(NmfRecordType.PreambleAck);

    /// <summary>Writes a SizedEnvelope record holding one encoded message.</summary>
    public void WriteSizedEnvelope(ReadOnlySpan<byte> message)
    {
        Span<byte> span = _output.GetSpan(1 + MultiByteInt31.MaxLength + message.Length);
        span[0] = (byte)NmfRecordType.SizedEnvelope;
        int n = 1 + MultiByteInt31.Write(span[1..], message.Length);
        message.CopyTo(span[n..]);
        _output.Advance(n + message.Length);
    }

    /// <summary>The size of an unsized envelope's data chunks unless another is given: 64 KB.</summary>
    public const int DefaultMaxChunkSize = 65536;

    /// <summary>
    /// Writes an UnsizedEnvelope record holding one encoded message (MC-NMF 2.2.4.3, what streamed net.tcp sends in
    /// <see cref="NmfMode.SingletonUnsized"/>): the message in data chunks of at most <paramref name="maxChunkSize"/>
    /// bytes, each after its size, then the terminator 0x00.
    /// </summary>
    /// <exception cref="ArgumentException">The message is empty (an unsized envelope holds at least one chunk).</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxChunkSize"/> is not positive.</exception>
    public void WriteUnsizedEnvelope(ReadOnlySpan<byte> message, int maxChunkSize = DefaultMaxChunkSize)
    {
        if (message.IsEmpty) throw new ArgumentException("An unsized envelope holds at least one chunk of data.", nameof(message));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxChunkSize);
        WriteByte(NmfRecordType.UnsizedEnvelope);
        while (!message.IsEmpty)
        {
            int size = Math.Min(message.Length, maxChunkSize);
            Span<byte> span = _output.GetSpan(MultiByteInt31.MaxLength + size);
            int n = MultiByteInt31.Write(span, size);
            message[..size].CopyTo(span[n..]);
            _output.Advance(n + size);
            message = message[size..];
        }
        // The terminator: a chunk size of 0.
        _output.GetSpan(1)[0] = 0;
        _output.Advance(1);
    }

    /// <summary>Writes the End record.</summary>
    public void WriteEnd() => WriteByte(NmfRecordType.End);

    private void WriteByte(NmfRecordType type)
    {
        _output.GetSpan(1)[0] = (byte)type;
        _output.Advance(1);
    }
}
