using System.Text;

namespace BinaryXml.Soap.Nmf;

/// <summary>One envelope of an MC-NMF stream, decoded.</summary>
/// <param name="Offset">The offset of the envelope's message in the stream (of its first byte: an unsized envelope's lies in chunks, <see cref="NmfReader.StreamOffsetOf"/>).</param>
/// <param name="Message">The encoded message bytes.</param>
/// <param name="Xml">The message as XML text.</param>
public sealed record NmfEnvelope(int Offset, byte[] Message, string Xml);

/// <summary>
/// Decodes a whole MC-NMF stream: reads the preamble and hands each envelope to an msbin1 or msbinsession1
/// decoder chosen by the announced encoding (7 binary, 8 binary with in-band dictionary), keeping one session for
/// the stream. Text encodings are returned as their text.
/// </summary>
public static class NmfDecoder
{
    /// <summary>Decodes every envelope.</summary>
    /// <exception cref="BinaryXmlException">
    /// The framing or a message is malformed; offsets are stream offsets (for a compressed message, its envelope's, the
    /// reason giving the offset in the decompressed message).
    /// </exception>
    /// <param name="stream">The MC-NMF stream.</param>
    /// <param name="encoding">The known encoding announced (msbinsession1 when none is).</param>
    /// <param name="via">The Via record's URI, or null.</param>
    /// <param name="maxSessionSize">The session quota in bytes.</param>
    /// <param name="readerOptions">Reader limits for the messages.</param>
    /// <param name="markValueTypes">Whether binary messages' XML marks the values' record types (<see cref="ValueTypeMarks"/>).</param>
    public static List<NmfEnvelope> Decode(ReadOnlySpan<byte> stream, out NmfKnownEncoding encoding, out string? via, int maxSessionSize = 2048, BinaryXmlReaderOptions? readerOptions = null, bool markValueTypes = false)
    {
        var envelopes = new List<NmfEnvelope>();
        Decode(stream, envelopes, out encoding, out via, maxSessionSize, readerOptions, markValueTypes);
        return envelopes;
    }

    /// <summary>
    /// Decodes every envelope into <paramref name="envelopes"/>, each added as soon as it is decoded: when the framing
    /// or a message is malformed, the envelopes before it are there when the exception is thrown (what a capture
    /// viewer shows before the error).
    /// </summary>
    /// <exception cref="BinaryXmlException">As <see cref="Decode(ReadOnlySpan{byte}, out NmfKnownEncoding, out string?, int, BinaryXmlReaderOptions?, bool)"/>.</exception>
    public static void Decode(ReadOnlySpan<byte> stream, ICollection<NmfEnvelope> envelopes, out NmfKnownEncoding encoding, out string? via, int maxSessionSize = 2048, BinaryXmlReaderOptions? readerOptions = null, bool markValueTypes = false)
    {
        ArgumentNullException.ThrowIfNull(envelopes);
        var reader = new NmfReader(stream);
        BinaryMessageDecoder? decoder = null;
        encoding = NmfKnownEncoding.Soap12BinarySession;
        via = null;
        bool encodingSeen = false;
        while (reader.Read())
        {
            switch (reader.RecordType)
            {
                case NmfRecordType.Via:
                    via = reader.Text;
                    break;
                case NmfRecordType.KnownEncoding:
                case NmfRecordType.ExtensibleEncoding:
                    if (reader.RecordType == NmfRecordType.KnownEncoding) encoding = reader.KnownEncoding;
                    encodingSeen = true;
                    decoder = CreateMessageDecoder(reader, maxSessionSize, readerOptions);
                    break;
                case NmfRecordType.Fault:
                    throw new BinaryXmlException($"The stream carries an MC-NMF fault: {reader.Text}", reader.RecordOffset);
                case NmfRecordType.SizedEnvelope:
                case NmfRecordType.UnsizedEnvelope:
                {
                    if (!encodingSeen)
                    {
                        decoder = CreateMessageDecoder(reader, maxSessionSize, readerOptions);
                        encodingSeen = true;
                    }
                    ReadOnlySpan<byte> message = reader.Envelope;
                    string xml;
                    if (decoder is null)
                    {
                        xml = DecodeText(message);
                    }
                    else
                    {
                        try
                        {
                            xml = decoder.ToXml(message, markValueTypes);
                        }
                        catch (BinaryXmlException e)
                        {
                            throw EnvelopeException(e, reader, decoder.Compression);
                        }
                    }
                    envelopes.Add(new NmfEnvelope(reader.PayloadOffset, message.ToArray(), xml));
                    break;
                }
            }
        }
    }

    /// <summary>
    /// The decoder for the envelopes that follow the record <paramref name="reader"/> is on: for a KnownEncoding or an
    /// ExtensibleEncoding record, the one its encoding names (null for an encoding that is not binary, whose envelopes
    /// are text); for an envelope before any encoding record (a reply direction, which has no preamble), what WCF
    /// writes there: msbinsession1 in sized envelopes (buffered net.tcp's default), msbin1 in unsized ones (streamed).
    /// </summary>
    /// <param name="reader">A reader on an encoding or envelope record.</param>
    /// <param name="maxSessionSize">The session quota in bytes.</param>
    /// <param name="readerOptions">Reader limits for the messages.</param>
    public static BinaryMessageDecoder? CreateMessageDecoder(scoped in NmfReader reader, int maxSessionSize = 2048, BinaryXmlReaderOptions? readerOptions = null) => reader.RecordType switch
    {
        NmfRecordType.KnownEncoding => reader.KnownEncoding switch
        {
            NmfKnownEncoding.Soap12Binary => new BinaryMessageDecoder(session: false, maxSessionSize: maxSessionSize, readerOptions: readerOptions),
            NmfKnownEncoding.Soap12BinarySession => new BinaryMessageDecoder(session: true, maxSessionSize: maxSessionSize, readerOptions: readerOptions),
            _ => null,
        },
        NmfRecordType.ExtensibleEncoding => BinaryMessageContentType.TryParse(reader.Text, out bool session, out MessageCompression compression)
            ? new BinaryMessageDecoder(session, compression, maxSessionSize, readerOptions: readerOptions) : null,
        // A reply direction has no preamble: sized envelopes are buffered net.tcp's (Duplex), unsized ones streamed
        // net.tcp's (SingletonUnsized), whose messages WCF writes without a session.
        NmfRecordType.UnsizedEnvelope => new BinaryMessageDecoder(session: false, maxSessionSize: maxSessionSize, readerOptions: readerOptions),
        _ => new BinaryMessageDecoder(session: true, maxSessionSize: maxSessionSize, readerOptions: readerOptions),
    };

    /// <summary>
    /// A message's failure as one of the stream's: its offset (and <see cref="BinaryXmlException.NodeOffset"/>) a stream
    /// offset, or, for a compressed message, whose bytes are not the stream's, its envelope's offset and the offset in
    /// the decompressed message in the reason.
    /// </summary>
    /// <param name="e">The message's failure, its offset in the (decompressed) message.</param>
    /// <param name="messageOffset">The offset of the message in the stream.</param>
    /// <param name="compression">The compression of the message.</param>
    public static BinaryXmlException EnvelopeException(BinaryXmlException e, int messageOffset, MessageCompression compression)
    {
        ArgumentNullException.ThrowIfNull(e);
        return compression == MessageCompression.None
            ? e.InLargerInput(messageOffset, $"Envelope at offset {messageOffset}")
            : new BinaryXmlException($"Envelope at offset {messageOffset}, at byte offset {e.Offset} of its decompressed message: {e.Reason}", messageOffset, e);
    }

    /// <summary>
    /// A failure of the message of the envelope <paramref name="reader"/> is on as one of the stream's, as
    /// <see cref="EnvelopeException(BinaryXmlException, int, MessageCompression)"/> gives it; the offsets of an unsized
    /// envelope's message, which lies in chunks, mapped to the chunk that holds each (<see cref="NmfReader.StreamOffsetOf"/>).
    /// </summary>
    /// <param name="e">The message's failure, its offset in the (decompressed) message.</param>
    /// <param name="reader">A reader on the envelope.</param>
    /// <param name="compression">The compression of the message.</param>
    public static BinaryXmlException EnvelopeException(BinaryXmlException e, scoped in NmfReader reader, MessageCompression compression)
    {
        ArgumentNullException.ThrowIfNull(e);
        if (compression != MessageCompression.None) return EnvelopeException(e, reader.PayloadOffset, compression);
        return e.InLargerInput(reader.StreamOffsetOf(e.Offset), reader.StreamOffsetOf(e.NodeOffset), $"Envelope at offset {reader.PayloadOffset}");
    }

    /// <summary>
    /// The text of an envelope of a text encoding, its encoding told as an XML parser tells it (XML 1.0 appendix F): a
    /// byte order mark, else "&lt;" as UTF-16 (little- or big-endian), else UTF-8. The known encodings' numbers are not
    /// used: sources disagree on which of 0x01 and 0x02 (0x04 and 0x05) is little-endian.
    /// </summary>
    /// <param name="message">The envelope's message.</param>
    public static string DecodeText(ReadOnlySpan<byte> message)
    {
        if (message.StartsWith((ReadOnlySpan<byte>)[0xFF, 0xFE])) return Encoding.Unicode.GetString(message[2..]);
        if (message.StartsWith((ReadOnlySpan<byte>)[0xFE, 0xFF])) return Encoding.BigEndianUnicode.GetString(message[2..]);
        if (message.StartsWith((ReadOnlySpan<byte>)[0xEF, 0xBB, 0xBF])) return Encoding.UTF8.GetString(message[3..]);
        if (message.StartsWith((ReadOnlySpan<byte>)[(byte)'<', 0x00])) return Encoding.Unicode.GetString(message);
        if (message.StartsWith((ReadOnlySpan<byte>)[0x00, (byte)'<'])) return Encoding.BigEndianUnicode.GetString(message);
        return Encoding.UTF8.GetString(message);
    }

    /// <summary>Whether the data starts like an MC-NMF stream: a Version 1.x record and a Mode record, or a PreambleAck and an envelope.</summary>
    public static bool LooksLikeNmf(ReadOnlySpan<byte> data)
        => (data.Length >= 4 && data[0] == (byte)NmfRecordType.Version && data[1] == 1 && data[3] == (byte)NmfRecordType.Mode)
        || (data.Length >= 2 && data[0] == (byte)NmfRecordType.PreambleAck && data[1] is (byte)NmfRecordType.SizedEnvelope or (byte)NmfRecordType.UnsizedEnvelope);
}
