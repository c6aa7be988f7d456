using System.Text;
using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Soap.Nmf;

namespace BinaryXml.Tool;

/// <summary>
/// The record-by-record view of a capture: offset, type byte, record name, decoded value and raw bytes, with the
/// StringTable of session messages (and the ids it assigns) and the records of MC-NMF framing.
/// </summary>
internal sealed class Dumper(TextWriter output, IXmlDictionary? dictionary, int maxSessionSize = 2048)
{
    private const int MaxRawBytes = 24;
    private const int MaxValueChars = 60;

    /// <summary>
    /// Lists the records of a document, <paramref name="baseOffset"/> added to each offset. When the document is
    /// malformed, the records read before the failure are listed before its exception (with its offsets in the document,
    /// <see cref="BinaryXmlException.NodeOffset"/> set) is thrown.
    /// </summary>
    public void DumpDocument(ReadOnlySpan<byte> doc, int baseOffset, XmlBinaryReaderSession? session) => DumpDocument(doc, offset => baseOffset + offset, session);

    /// <summary>Lists the records of a document as <see cref="DumpDocument(ReadOnlySpan{byte}, int, XmlBinaryReaderSession?)"/>, each at the offset <paramref name="offsetOf"/> gives.</summary>
    private void DumpDocument(ReadOnlySpan<byte> doc, Func<long, long> offsetOf, XmlBinaryReaderSession? session)
    {
        var entries = new List<(int Offset, string Value)>();
        BinaryXmlException? failure = null;
        int end;
        var reader = new BinaryXmlReader(doc, dictionary, session, new BinaryXmlReaderOptions { RequireBoundPrefixes = false, MaxDepth = int.MaxValue, MaxStringContentLength = int.MaxValue, MaxArrayLength = int.MaxValue, MaxBytesPerRead = int.MaxValue });
        // Where the node being read starts (as BinaryXmlText keeps it): where the last ended while the next is read, the
        // token's start while it is listed (an array's items, the Array record's).
        int node = 0, arrayRecord = -1;
        try
        {
            while (true)
            {
                node = reader.BytesConsumed;
                if (!reader.Read()) break;
                int at = reader.TokenStartIndex;
                node = reader.TokenType == BinaryXmlTokenType.ArrayData ? arrayRecord : at;
                switch (reader.TokenType)
                {
                    case BinaryXmlTokenType.StartElement:
                        if (reader.IsArray) arrayRecord = at;
                        entries.Add((at, QName(reader.Prefix, reader.LocalName) + (reader.IsArray ? " (array element)" : "")));
                        break;
                    case BinaryXmlTokenType.Attribute:
                        entries.Add((at, QName(reader.Prefix, reader.LocalName) + "=" + (reader.ValueType == RecordType.StartListText ? "(list)" : Quote(reader.GetString()))));
                        break;
                    case BinaryXmlTokenType.NamespaceDeclaration:
                        entries.Add((at, (reader.Prefix.IsEmpty ? "xmlns" : "xmlns:" + Printable.Escape(reader.Prefix.ToString())) + "=" + Quote(reader.NamespaceUri.ToString())));
                        break;
                    case BinaryXmlTokenType.Text:
                        entries.Add((at, Quote(reader.GetString())));
                        break;
                    case BinaryXmlTokenType.Comment:
                        entries.Add((at, Quote(reader.GetString())));
                        break;
                    case BinaryXmlTokenType.StartList:
                    case BinaryXmlTokenType.EndList:
                        entries.Add((at, ""));
                        break;
                    case BinaryXmlTokenType.EndElement:
                        // An end implied by a …WithEndElement record has no record of its own.
                        if (doc[at] == (byte)RecordType.EndElement) entries.Add((at, "/" + QName(reader.Prefix, reader.LocalName)));
                        break;
                    case BinaryXmlTokenType.ArrayData:
                        entries.Add((at, ArraySummary(ref reader)));
                        break;
                }
            }
        }
        catch (BinaryXmlException e)
        {
            failure = node < doc.Length ? new BinaryXmlException(e.Reason, e.Offset, node, e) : e;
        }
        finally
        {
            // After a failure, the records listed end where the failing node starts.
            end = failure is null ? doc.Length : node;
            reader.Dispose();
        }
        ListEntries(doc, offsetOf, entries, end);
        if (failure is not null) throw failure;
    }

    /// <summary>One line a record: its end is where the next entry starts, the last one's <paramref name="end"/>.</summary>
    private void ListEntries(ReadOnlySpan<byte> doc, Func<long, long> offsetOf, List<(int Offset, string Value)> entries, int end)
    {
        for (int i = 0; i < entries.Count; i++)
        {
            (int offset, string value) = entries[i];
            int next = end;
            for (int j = i + 1; j < entries.Count; j++)
            {
                if (entries[j].Offset > offset) { next = entries[j].Offset; break; }
            }
            byte type = doc[offset];
            string name = entries[i].Value.Contains(" items: ", StringComparison.Ordinal) ? "(array items)" : RecordTypes.GetName(type);
            Line(offsetOf(offset), type, name, value, doc[offset..Math.Max(offset, next)]);
        }
    }

    /// <summary>
    /// Lists a message of <paramref name="decoder"/>'s: its StringTable (msbinsession1) and its document's records, at
    /// offsets from <paramref name="baseOffset"/>, or, for a compressed message, at offsets in the decompressed message.
    /// A failure's offset is in the (decompressed) message, as <see cref="BinaryMessageDecoder.ToXml"/> gives it.
    /// </summary>
    public void DumpMessage(ReadOnlySpan<byte> message, BinaryMessageDecoder decoder, int baseOffset) => DumpMessage(message, decoder, offset => baseOffset + offset);

    /// <summary>
    /// Lists a message as <see cref="DumpMessage(ReadOnlySpan{byte}, BinaryMessageDecoder, int)"/> does, each byte of
    /// it at the offset <paramref name="offsetOf"/> gives (an unsized envelope's message lies in chunks).
    /// </summary>
    public void DumpMessage(ReadOnlySpan<byte> message, BinaryMessageDecoder decoder, Func<long, long> offsetOf)
    {
        int firstId = decoder.SessionStrings.Count;
        ReadOnlySpan<byte> doc = decoder.ReadDocument(message);
        if (decoder.Compression != MessageCompression.None)
        {
            // The records are the decompressed message's: their offsets too (the caller reports a failure as the
            // envelope's, with the offset in the decompressed message).
            output.WriteLine($"{offsetOf(0):X6}  {decoder.Compression} message: {message.Length} bytes; the offsets below are in its {doc.Length + decoder.LastStringTable.Size} bytes decompressed");
            offsetOf = offset => offset;
        }
        int size = 0;
        if (decoder.IsSession)
        {
            (size, IReadOnlyList<string> strings) = decoder.LastStringTable;
            // A compressed message's table is in its decompressed bytes, which the decoder keeps to itself.
            string raw = decoder.Compression == MessageCompression.None ? $"  [{Raw(message[..size])}]" : "";
            output.WriteLine($"{offsetOf(0):X6}  StringTable: {size} bytes, {strings.Count} new string{(strings.Count == 1 ? "" : "s")}{raw}");
            for (int i = 0; i < strings.Count; i++) output.WriteLine($"          id {2 * (firstId + i) + 1} (session {firstId + i}) = {Quote(strings[i])}");
        }
        try
        {
            DumpDocument(doc, offset => offsetOf(size + offset), decoder.Session);
        }
        catch (BinaryXmlException e) when (size != 0)
        {
            throw e.InLargerInput(size);
        }
    }

    /// <summary>Lists the records of an MC-NMF stream, and those of each envelope's message.</summary>
    public void DumpNmf(ReadOnlySpan<byte> stream)
    {
        var reader = new NmfReader(stream);
        BinaryMessageDecoder? decoder = null;
        bool encodingSeen = false;
        while (reader.Read())
        {
            string detail = reader.RecordType switch
            {
                NmfRecordType.Version => $"{reader.Version.Major}.{reader.Version.Minor}",
                NmfRecordType.Mode => reader.Mode.ToString(),
                NmfRecordType.KnownEncoding => $"{(byte)reader.KnownEncoding} {reader.KnownEncoding}",
                NmfRecordType.Via or NmfRecordType.ExtensibleEncoding or NmfRecordType.Fault or NmfRecordType.UpgradeRequest => Quote(reader.Text),
                NmfRecordType.SizedEnvelope => $"{reader.Envelope.Length} bytes",
                NmfRecordType.UnsizedEnvelope => $"{reader.Envelope.Length} bytes in {Chunks(reader.ChunkSizes())}",
                _ => "",
            };
            output.WriteLine($"{reader.RecordOffset:X6}  {(byte)reader.RecordType:X2}  NMF {reader.RecordType,-30} {detail}");
            bool envelope = reader.RecordType is NmfRecordType.SizedEnvelope or NmfRecordType.UnsizedEnvelope;
            if (reader.RecordType is NmfRecordType.KnownEncoding or NmfRecordType.ExtensibleEncoding || (envelope && !encodingSeen))
            {
                decoder = NmfDecoder.CreateMessageDecoder(reader, maxSessionSize, Decoding.Options);
                encodingSeen = true;
            }
            // An envelope of a text encoding is text: the start of it.
            if (envelope && decoder is null)
                output.WriteLine($"{reader.PayloadOffset:X6}  text message: {Quote(Truncate(NmfDecoder.DecodeText(reader.Envelope)))}");
            if (envelope && decoder is not null)
            {
                try
                {
                    DumpMessage(reader.Envelope, decoder, reader.StreamOffsetMap());
                }
                catch (BinaryXmlException e)
                {
                    throw NmfDecoder.EnvelopeException(e, reader, decoder.Compression);
                }
            }
        }
    }

    /// <summary>An unsized envelope's chunks: their count and size (the last's if it differs), or their sizes when they differ.</summary>
    private static string Chunks(int[] sizes)
    {
        if (sizes.Length <= 1) return sizes.Length == 0 ? "no chunk" : "1 chunk";
        if (Decoding.ChunkSizeOf(sizes) is int size) return $"{sizes.Length} chunks of {size}" + (sizes[^1] == size ? "" : $" (the last {sizes[^1]})");
        return $"{sizes.Length} chunks of {string.Join(", ", sizes.Take(8))}{(sizes.Length > 8 ? ", …" : "")}";
    }

    private void Line(long offset, byte type, string name, string value, ReadOnlySpan<byte> raw)
        => output.WriteLine($"{offset:X6}  {type:X2}  {name,-34} {Truncate(value),-62} {Raw(raw)}");

    private static string ArraySummary(ref BinaryXmlReader reader)
    {
        BinaryXmlPrimitives.IsArrayItemType(reader.ArrayItemType, out int size);
        RecordType plain = (RecordType)((byte)reader.ArrayItemType & 0xFE);
        var sb = new StringBuilder($"{reader.ArrayLength} items: ");
        for (int i = 0; i < Math.Min(reader.ArrayLength, 8); i++)
        {
            if (i > 0) sb.Append(", ");
            sb.Append(BinaryXmlText.FormatValue(plain, reader.ValueSpan.Slice(i * size, size)));
        }
        if (reader.ArrayLength > 8) sb.Append(", …");
        return sb.ToString();
    }

    private static string QName(BinaryXmlName prefix, BinaryXmlName local)
        => Printable.Escape((prefix.IsEmpty ? "" : prefix.ToString() + ":") + local.ToString()) + (local.IsDictionaryString ? $" [id {local.DictionaryId}]" : "");

    private static string Quote(string s) => "\"" + Printable.Escape(s) + "\"";

    private static string Truncate(string s) => s.Length <= MaxValueChars ? s : s[..(MaxValueChars - 1)] + "…";

    private static string Raw(ReadOnlySpan<byte> raw)
    {
        string hex = Convert.ToHexString(raw[..Math.Min(raw.Length, MaxRawBytes)]);
        var sb = new StringBuilder();
        for (int i = 0; i < hex.Length; i += 2) sb.Append(i == 0 ? "" : " ").Append(hex, i, 2);
        if (raw.Length > MaxRawBytes) sb.Append($" … ({raw.Length} bytes)");
        return sb.ToString();
    }
}
