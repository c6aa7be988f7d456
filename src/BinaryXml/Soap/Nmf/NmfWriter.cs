using System.Buffers;
using System.Text;

namespace BinaryXml.Soap.Nmf;

/// <summary>Writes an MC-NMF stream: the preamble, sized envelopes and the end record.</summary>
public sealed class NmfWriter(IBufferWriter<byte> output)
{
    private readonly IBufferWriter<byte> _output = output ?? throw new ArgumentNullException(nameof(output));

    /// <summary>Writes Version 1.0, Mode, Via and KnownEncoding (MC-NMF 2.2.6), then PreambleEnd.</summary>
    public void WritePreamble(NmfMode mode, string via, NmfKnownEncoding encoding)
    {
        ArgumentNullException.ThrowIfNull(via);
        int viaLength = Encoding.UTF8.GetByteCount(via);
        Span<byte> span = _output.GetSpan(3 + 2 + 1 + MultiByteInt31.MaxLength + viaLength + 2 + 1);
        int n = 0;
        span[n++] = (byte)NmfRecordType.Version; span[n++] = 1; span[n++] = 0;
        span[n++] = (byte)NmfRecordType.Mode; span[n++] = (byte)mode;
        span[n++] = (byte)NmfRecordType.Via;
        n += BinaryXmlPrimitives.WriteString(span[n..], via);
        span[n++] = (byte)NmfRecordType.KnownEncoding; span[n++] = (byte)encoding;
        span[n++] = (byte)NmfRecordType.PreambleEnd;
        _output.Advance(n);
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

    /// <summary>Writes the End record.</summary>
    public void WriteEnd() => WriteByte(NmfRecordType.End);

    private void WriteByte(NmfRecordType type)
    {
        _output.GetSpan(1)[0] = (byte)type;
        _output.Advance(1);
    }
}
