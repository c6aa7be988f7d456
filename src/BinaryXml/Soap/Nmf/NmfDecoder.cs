namespace BinaryXml.Soap.Nmf;

/// <summary>One envelope of an MC-NMF stream, decoded.</summary>
/// <param name="Offset">The offset of the envelope's message in the stream.</param>
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
    /// <exception cref="BinaryXmlException">The framing or a message is malformed; offsets are stream offsets.</exception>
    public static List<NmfEnvelope> Decode(ReadOnlySpan<byte> stream, out NmfKnownEncoding encoding, out string? via, int maxSessionSize = 2048, BinaryXmlReaderOptions? readerOptions = null)
    {
        var reader = new NmfReader(stream);
        var envelopes = new List<NmfEnvelope>();
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
                    encoding = reader.KnownEncoding;
                    encodingSeen = true;
                    decoder = encoding switch
                    {
                        NmfKnownEncoding.Soap12Binary => new BinaryMessageDecoder(session: false, readerOptions: readerOptions),
                        NmfKnownEncoding.Soap12BinarySession => new BinaryMessageDecoder(session: true, maxSessionSize: maxSessionSize, readerOptions: readerOptions),
                        _ => null,
                    };
                    break;
                case NmfRecordType.ExtensibleEncoding:
                    encodingSeen = true;
                    decoder = BinaryMessageContentType.TryParse(reader.Text, out bool session, out MessageCompression compression)
                        ? new BinaryMessageDecoder(session, compression, maxSessionSize, readerOptions: readerOptions) : null;
                    break;
                case NmfRecordType.Fault:
                    throw new BinaryXmlException($"The stream carries an MC-NMF fault: {reader.Text}", reader.RecordOffset);
                case NmfRecordType.SizedEnvelope:
                case NmfRecordType.UnsizedEnvelope:
                {
                    // A reply direction has no preamble (only PreambleAck): assume msbinsession1, net.tcp's default.
                    if (!encodingSeen)
                    {
                        decoder = new BinaryMessageDecoder(session: true, maxSessionSize: maxSessionSize, readerOptions: readerOptions);
                        encodingSeen = true;
                    }
                    ReadOnlySpan<byte> message = reader.Envelope;
                    string xml;
                    if (decoder is null)
                    {
                        xml = System.Text.Encoding.UTF8.GetString(message);
                    }
                    else
                    {
                        try
                        {
                            xml = decoder.ToXml(message);
                        }
                        catch (BinaryXmlException e)
                        {
                            throw new BinaryXmlException($"Envelope at offset {reader.PayloadOffset}: {e.Reason}", reader.PayloadOffset + e.Offset, e);
                        }
                    }
                    envelopes.Add(new NmfEnvelope(reader.PayloadOffset, message.ToArray(), xml));
                    break;
                }
            }
        }
        return envelopes;
    }

    /// <summary>Whether the data starts like an MC-NMF stream: a Version 1.x record and a Mode record, or a PreambleAck.</summary>
    public static bool LooksLikeNmf(ReadOnlySpan<byte> data)
        => (data.Length >= 4 && data[0] == (byte)NmfRecordType.Version && data[1] == 1 && data[3] == (byte)NmfRecordType.Mode)
        || (data.Length >= 2 && data[0] == (byte)NmfRecordType.PreambleAck && data[1] == (byte)NmfRecordType.SizedEnvelope);
}
