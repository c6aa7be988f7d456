using System.Buffers;
using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Soap.Nmf;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>msbin1, msbinsession1 (MC-NBFSE), MC-NMF framing and compression.</summary>
public sealed class SoapTests
{
    private const string S1Xml = "<s:Envelope xmlns:a=\"http://www.w3.org/2005/08/addressing\" xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Header><a:Action s:mustUnderstand=\"1\">action</a:Action></s:Header><s:Body><Inventory>0</Inventory></s:Body></s:Envelope>";
    private static readonly byte[] S1 = Hex.Parse("56 02 0B 01 61 06 0B 01 73 04 56 08 44 0A 1E 00 82 99 06 61 63 74 69 6F 6E 01 56 0E 40 09 49 6E 76 65 6E 74 6F 72 79 81 01 01");
    private static readonly byte[] S2 = Hex.Parse("11 06 61 63 74 69 6F 6E 09 49 6E 76 65 6E 74 6F 72 79 56 02 0B 01 61 06 0B 01 73 04 56 08 44 0A 1E 00 82 AB 01 01 56 0E 42 03 81 01 01");

    private static readonly XmlDictionary Names = new();
    private static readonly XmlDictionaryString Action = Names.Add("urn:orders/Get"), Order = Names.Add("Order"), Id = Names.Add("Id"), OrdersNs = Names.Add("urn:orders");

    /// <summary>A SOAP 1.2 + WS-Addressing message as WCF writes it: envelope names from MC-NBFS, the rest as dictionary strings.</summary>
    private static void WriteOrder(BinaryXmlWriter w, int id)
    {
        NbfsDictionary d = NbfsDictionary.Instance;
        d.TryLookup("http://www.w3.org/2003/05/soap-envelope", out XmlDictionaryString? soap);
        d.TryLookup("http://www.w3.org/2005/08/addressing", out XmlDictionaryString? wsa);
        d.TryLookup("Envelope", out XmlDictionaryString? envelope);
        d.TryLookup("Header", out XmlDictionaryString? header);
        d.TryLookup("Body", out XmlDictionaryString? body);
        d.TryLookup("Action", out XmlDictionaryString? action);
        d.TryLookup("mustUnderstand", out XmlDictionaryString? mustUnderstand);
        w.WriteStartElement("s", envelope!, soap);
        w.WriteXmlnsAttribute("a", wsa!);
        w.WriteStartElement("s", header!, soap);
        w.WriteStartElement("a", action!, wsa);
        w.WriteStartAttribute("s", mustUnderstand!, soap);
        w.WriteValue(1);
        w.WriteEndAttribute();
        w.WriteString(Action);
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteStartElement("s", body!, soap);
        w.WriteStartElement(Order, OrdersNs);
        w.WriteStartElement(Id, OrdersNs);
        w.WriteValue(id);
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteEndElement();
    }

    private static string OrderXml(int id) =>
        $"<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:a=\"http://www.w3.org/2005/08/addressing\"><s:Header><a:Action s:mustUnderstand=\"1\">urn:orders/Get</a:Action></s:Header><s:Body><Order xmlns=\"urn:orders\"><Id>{id}</Id></Order></s:Body></s:Envelope>";

    [Fact]
    public void S1_and_S2_decode_through_the_message_decoders()
    {
        Assert.Equal(S1Xml, new BinaryMessageDecoder(session: false).ToXml(S1));
        var decoder = new BinaryMessageDecoder(session: true);
        Assert.Equal(S1Xml, decoder.ToXml(S2));
        Assert.Equal(["action", "Inventory"], decoder.SessionStrings);
        Assert.Equal(18, decoder.LastStringTable.Size);
    }

    [Fact]
    public void Msbin1_round_trips_and_uses_no_session()
    {
        var encoder = new BinaryMessageEncoder();
        byte[] message = encoder.WriteMessage(w => WriteOrder(w, 7));
        Assert.Equal(BinaryMessageContentType.Binary, encoder.ContentType);
        Assert.Equal(0x56, message[0]); // PrefixDictionaryElementS Envelope: no StringTable
        Assert.Equal(OrderXml(7), new BinaryMessageDecoder().ToXml(message));
        Assert.Empty(encoder.SessionStrings);
    }

    [Fact]
    public void Session_strings_are_numbered_across_messages_and_reused()
    {
        var encoder = new BinaryMessageEncoder(session: true);
        var decoder = new BinaryMessageDecoder(session: true);
        byte[] first = encoder.WriteMessage(w => WriteOrder(w, 1));
        byte[] second = encoder.WriteMessage(w => WriteOrder(w, 2));
        Assert.Equal(["urn:orders/Get", "Order", "urn:orders", "Id"], encoder.SessionStrings);
        Assert.NotEqual(0, first[0]);
        Assert.Equal(0, second[0]);          // nothing new: the table is the single byte 00
        Assert.Equal(OrderXml(1), decoder.ToXml(first));
        Assert.Equal(OrderXml(2), decoder.ToXml(second));
        Assert.Equal(encoder.SessionStrings, decoder.SessionStrings);
        Assert.True(second.Length < first.Length - 20);
        // The second message refers to ids 1, 3, 5, 7 defined by the first.
        var fresh = new BinaryMessageDecoder(session: true);
        Assert.Contains("not defined in the session", Assert.Throws<BinaryXmlException>(() => fresh.ToXml(second)).Message);
    }

    [Fact]
    public void MaxSessionSize_stops_adding_and_names_go_inline()
    {
        // "urn:orders/Get" costs 15, "Order" 6, "urn:orders" 11, "Id" 3: a quota of 22 admits the first two only,
        // and after "urn:orders" does not fit nothing more is added (not even the 3-byte "Id").
        var encoder = new BinaryMessageEncoder(session: true, maxSessionSize: 22);
        byte[] message = encoder.WriteMessage(w => WriteOrder(w, 1));
        Assert.Equal(["urn:orders/Get", "Order"], encoder.SessionStrings);
        Assert.Equal(0, encoder.SessionBytesRemaining);
        Assert.Equal(OrderXml(1), new BinaryMessageDecoder(session: true, maxSessionSize: 22).ToXml(message));
        // A decoder with a smaller quota than the peer used refuses the table.
        var strict = new BinaryMessageDecoder(session: true, maxSessionSize: 20);
        Assert.Contains("MaxSessionSize", Assert.Throws<BinaryXmlException>(() => strict.ToXml(message)).Message);
        Assert.Contains("cannot be used", Assert.Throws<BinaryXmlException>(() => strict.ToXml(message)).Message);
    }

    [Theory]
    [InlineData("12 06 61 63 74 69 6F 6E 09 49 6E 76 65 6E 74 6F 72 79 05 40 01 61 01", "runs past the table")] // 18-byte table: the last string starts at its final byte
    [InlineData("7F 06 61 63 74 69 6F 6E", "declares 127 bytes")]                                           // size beyond the message
    [InlineData("05 09 61 63 74 69", "runs past the table")]                                               // string longer than the table
    [InlineData("FF FF FF FF 07 00", "declares 2147483647 bytes")]                                          // near int.MaxValue
    [InlineData("FF FF FF FF FF", "not a valid MultiByteInt31")]
    [InlineData("80", "ends inside the StringTable size")]
    [InlineData("02 01 FF 40 01 61 01", "not valid UTF-8")]
    public void Malformed_string_tables_are_rejected(string hex, string reason)
    {
        var decoder = new BinaryMessageDecoder(session: true);
        Assert.Contains(reason, Assert.Throws<BinaryXmlException>(() => decoder.ToXml(Hex.Parse(hex))).Message);
    }

    [Theory]
    [InlineData(MessageCompression.GZip)]
    [InlineData(MessageCompression.Deflate)]
    public void Compressed_messages_round_trip(MessageCompression compression)
    {
        var encoder = new BinaryMessageEncoder(session: true, compression: compression);
        var decoder = new BinaryMessageDecoder(session: true, compression: compression);
        for (int i = 0; i < 3; i++) Assert.Equal(OrderXml(i), decoder.ToXml(encoder.WriteMessage(w => WriteOrder(w, i))));
        Assert.EndsWith(compression == MessageCompression.GZip ? "+gzip" : "+deflate", encoder.ContentType);
        Assert.Throws<BinaryXmlException>(() => new BinaryMessageDecoder(compression: compression).ToXml([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    }

    [Fact]
    public void Decompression_is_bounded()
    {
        byte[] bomb = MessageCompressor.Compress(new byte[1 << 20], MessageCompression.GZip);
        Assert.True(bomb.Length < 4096);
        Assert.Contains("expands past", Assert.Throws<BinaryXmlException>(() => MessageCompressor.Decompress(bomb, MessageCompression.GZip, 65536)).Message);
    }

    [Fact]
    public void Content_types_cover_the_four_media_types_and_compression()
    {
        Assert.Equal("application/soap+msbin1", BinaryMessageContentType.Get(false));
        Assert.Equal("application/soap+msbinsession1+deflate", BinaryMessageContentType.Get(true, MessageCompression.Deflate));
        Assert.True(BinaryMessageContentType.TryParse("application/soap+msbinsession1+gzip; charset=x", out bool session, out MessageCompression c));
        Assert.True(session);
        Assert.Equal(MessageCompression.GZip, c);
        Assert.False(BinaryMessageContentType.TryParse("text/xml", out _, out _));
    }

    private static byte[] NmfStream(int messages, NmfKnownEncoding encoding)
    {
        var output = new ArrayBufferWriter<byte>();
        var nmf = new NmfWriter(output);
        nmf.WritePreamble(NmfMode.Duplex, "net.tcp://localhost:8000/orders", encoding);
        var encoder = new BinaryMessageEncoder(session: encoding == NmfKnownEncoding.Soap12BinarySession);
        for (int i = 0; i < messages; i++) nmf.WriteSizedEnvelope(encoder.WriteMessage(w => WriteOrder(w, i)));
        nmf.WriteEnd();
        return output.WrittenSpan.ToArray();
    }

    [Theory]
    [InlineData(NmfKnownEncoding.Soap12BinarySession)]
    [InlineData(NmfKnownEncoding.Soap12Binary)]
    public void Nmf_streams_with_several_envelopes_decode_with_one_session(NmfKnownEncoding encoding)
    {
        byte[] stream = NmfStream(3, encoding);
        Assert.True(NmfDecoder.LooksLikeNmf(stream));
        List<NmfEnvelope> envelopes = NmfDecoder.Decode(stream, out NmfKnownEncoding announced, out string? via);
        Assert.Equal(encoding, announced);
        Assert.Equal("net.tcp://localhost:8000/orders", via);
        Assert.Equal([OrderXml(0), OrderXml(1), OrderXml(2)], envelopes.Select(e => e.Xml));
    }

    [Fact]
    public void Nmf_framing_errors_name_the_offset()
    {
        byte[] stream = NmfStream(2, NmfKnownEncoding.Soap12BinarySession);
        for (int cut = 1; cut < stream.Length - 1; cut++)
        {
            Exception? e = Record.Exception(() => NmfDecoder.Decode(stream.AsSpan(0, cut), out _, out _));
            Assert.True(e is null or BinaryXmlException, $"cut {cut}: {e}");
        }
        byte[] oversized = [0x00, 0x01, 0x00, 0x01, 0x02, 0x0C, 0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00];
        Assert.Contains("declares 2147483647 bytes", Assert.Throws<BinaryXmlException>(() => NmfDecoder.Decode(oversized, out _, out _)).Message);
        Assert.Contains("not an MC-NMF record type", Assert.Throws<BinaryXmlException>(() => NmfDecoder.Decode([0x00, 0x01, 0x00, 0x42], out _, out _)).Message);
    }

    [Fact]
    public void Nmf_envelopes_decoded_before_a_failure_are_kept_and_the_failure_is_the_streams()
    {
        byte[] stream = NmfStream(3, NmfKnownEncoding.Soap12BinarySession);
        List<NmfEnvelope> whole = NmfDecoder.Decode(stream, out _, out _);
        // The type byte of the third message's first record, after its StringTable, made reserved.
        SessionStringTable.Read(whole[2].Message, out int tableSize);
        int at = whole[2].Offset + tableSize;
        stream[at] = 0x00;
        var envelopes = new List<NmfEnvelope>();
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => NmfDecoder.Decode(stream, envelopes, out _, out _));
        Assert.Equal([OrderXml(0), OrderXml(1)], envelopes.Select(x => x.Xml));
        Assert.Equal(at, e.Offset);
        Assert.Equal(at, e.NodeOffset);
        Assert.StartsWith($"Envelope at offset {whole[2].Offset}: ", e.Reason);
    }

    [Theory]
    [InlineData(MessageCompression.GZip)]
    [InlineData(MessageCompression.Deflate)]
    public void Nmf_compressed_envelopes_of_an_extensible_encoding_decode_and_fail_at_the_envelope(MessageCompression compression)
    {
        var encoder = new BinaryMessageEncoder(session: true);
        byte[] first = encoder.WriteMessage(w => WriteOrder(w, 0)), second = encoder.WriteMessage(w => WriteOrder(w, 1));
        byte[] contentType = System.Text.Encoding.UTF8.GetBytes(BinaryMessageContentType.Get(session: true, compression));
        var output = new ArrayBufferWriter<byte>();
        var nmf = new NmfWriter(output);
        nmf.WritePreamble(NmfMode.Duplex, "v", BinaryMessageContentType.Get(session: true, compression));
        // Version 1.0, Mode duplex, Via "v", ExtensibleEncoding of the content type, PreambleEnd.
        Assert.Equal([0x00, 0x01, 0x00, 0x01, 0x02, 0x02, 0x01, (byte)'v', 0x04, (byte)contentType.Length, .. contentType, 0x0C], output.WrittenSpan.ToArray());
        nmf.WriteSizedEnvelope(MessageCompressor.Compress(first, compression));
        int secondOffset = output.WrittenCount + 2;
        nmf.WriteSizedEnvelope(MessageCompressor.Compress(second.AsSpan(0, second.Length - 1), compression));
        nmf.WriteEnd();
        var envelopes = new List<NmfEnvelope>();
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => NmfDecoder.Decode(output.WrittenSpan, envelopes, out _, out _));
        Assert.Equal(OrderXml(0), Assert.Single(envelopes).Xml);
        // A decompressed byte has no offset in the stream: the envelope's is given, and the byte's in the reason.
        Assert.Equal(secondOffset, e.Offset);
        Assert.Equal(-1, e.NodeOffset);
        Assert.StartsWith($"Envelope at offset {secondOffset}, at byte offset {second.Length - 1} of its decompressed message: ", e.Reason);
    }

    [Theory]
    [InlineData(NmfKnownEncoding.Soap11Utf8)]
    [InlineData(NmfKnownEncoding.Soap12Utf16)]
    [InlineData(NmfKnownEncoding.Soap12UnicodeLittleEndian)]
    public void Nmf_text_envelopes_are_read_in_the_encoding_their_bytes_show(NmfKnownEncoding encoding)
    {
        // UTF-16 either way round, with or without a byte order mark, and UTF-8 with or without one, whatever text
        // encoding the preamble names: the envelopes were decoded as UTF-8 before, so UTF-16 came out garbled.
        const string xml = "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>Zoë — 東京</s:Body></s:Envelope>";
        byte[][] messages =
        [
            [.. System.Text.Encoding.Unicode.GetPreamble(), .. System.Text.Encoding.Unicode.GetBytes(xml)],
            System.Text.Encoding.Unicode.GetBytes(xml),
            [.. System.Text.Encoding.BigEndianUnicode.GetPreamble(), .. System.Text.Encoding.BigEndianUnicode.GetBytes(xml)],
            System.Text.Encoding.BigEndianUnicode.GetBytes(xml),
            [.. System.Text.Encoding.UTF8.GetPreamble(), .. System.Text.Encoding.UTF8.GetBytes(xml)],
            System.Text.Encoding.UTF8.GetBytes(xml),
        ];
        var output = new ArrayBufferWriter<byte>();
        var nmf = new NmfWriter(output);
        nmf.WritePreamble(NmfMode.Duplex, "net.tcp://localhost/", encoding);
        foreach (byte[] message in messages) nmf.WriteSizedEnvelope(message);
        nmf.WriteEnd();
        List<NmfEnvelope> envelopes = NmfDecoder.Decode(output.WrittenSpan, out NmfKnownEncoding announced, out _);
        Assert.Equal(encoding, announced);
        Assert.Equal(Enumerable.Repeat(xml, messages.Length), envelopes.Select(e => e.Xml));
    }

    [Fact]
    public void An_unsized_envelope_is_written_in_chunks_of_at_most_the_size_given()
    {
        byte[] message = new byte[150_000];
        new Random(7).NextBytes(message);
        var output = new ArrayBufferWriter<byte>();
        new NmfWriter(output).WriteUnsizedEnvelope(message);
        // The record type, then chunks of 65,536, 65,536 and 18,928 bytes, each after its MultiByteInt31 size, then 0x00.
        byte[] expected =
        [
            0x05, 0x80, 0x80, 0x04, .. message.AsSpan(0, 65536), 0x80, 0x80, 0x04, .. message.AsSpan(65536, 65536),
            0xF0, 0x93, 0x01, .. message.AsSpan(131072), 0x00,
        ];
        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(output.WrittenSpan));
        var reader = new NmfReader(output.WrittenSpan);
        Assert.True(reader.Read());
        Assert.Equal(NmfRecordType.UnsizedEnvelope, reader.RecordType);
        Assert.True(reader.Envelope.SequenceEqual(message));
        Assert.False(reader.Read());

        output.ResetWrittenCount();
        new NmfWriter(output).WriteUnsizedEnvelope([1, 2, 3], maxChunkSize: 2);
        Assert.Equal("05" + "020102" + "0103" + "00", Convert.ToHexString(output.WrittenSpan));
        Assert.Throws<ArgumentException>(() => new NmfWriter(output).WriteUnsizedEnvelope([]));
        Assert.Throws<ArgumentOutOfRangeException>(() => new NmfWriter(output).WriteUnsizedEnvelope([1], maxChunkSize: 0));
    }

    [Fact]
    public void A_reply_of_unsized_envelopes_is_read_as_msbin1_and_one_of_sized_envelopes_as_msbinsession1()
    {
        // A reply direction has no preamble: WCF's streamed net.tcp replies in an unsized envelope without a session,
        // its buffered net.tcp in sized envelopes of the connection's session.
        var output = new ArrayBufferWriter<byte>();
        var nmf = new NmfWriter(output);
        nmf.WritePreambleAck();
        nmf.WriteUnsizedEnvelope(new BinaryMessageEncoder().WriteMessage(w => WriteOrder(w, 9)));
        nmf.WriteEnd();
        Assert.True(NmfDecoder.LooksLikeNmf(output.WrittenSpan));
        Assert.Equal(OrderXml(9), Assert.Single(NmfDecoder.Decode(output.WrittenSpan, out _, out _)).Xml);

        output.ResetWrittenCount();
        nmf.WritePreambleAck();
        nmf.WriteSizedEnvelope(new BinaryMessageEncoder(session: true).WriteMessage(w => WriteOrder(w, 9)));
        nmf.WriteEnd();
        Assert.Equal(OrderXml(9), Assert.Single(NmfDecoder.Decode(output.WrittenSpan, out _, out _)).Xml);
    }

    [Fact]
    public void A_failure_in_an_unsized_envelope_names_the_stream_offset_of_the_byte_in_its_chunk()
    {
        // A message in chunks of 16 bytes: a byte of it that is not a record lies at a stream offset past every chunk
        // header before it, which the failure names (not the message's offset after the first header).
        byte[] message = new BinaryMessageEncoder().WriteMessage(w => WriteOrder(w, 9));
        var output = new ArrayBufferWriter<byte>();
        var nmf = new NmfWriter(output);
        nmf.WritePreamble(NmfMode.SingletonUnsized, "net.tcp://localhost/", NmfKnownEncoding.Soap12Binary);
        nmf.WriteUnsizedEnvelope(message, maxChunkSize: 16);
        nmf.WriteEnd();
        byte[] stream = output.WrittenSpan.ToArray();
        Assert.Equal(OrderXml(9), Assert.Single(NmfDecoder.Decode(stream, out _, out _)).Xml);

        var reader = new NmfReader(stream);
        while (reader.Read() && reader.RecordType != NmfRecordType.UnsizedEnvelope)
        {
        }
        int firstData = reader.PayloadOffset;
        Assert.Equal(0x05, stream[firstData - 2]);
        Assert.Equal(16, stream[firstData - 1]);
        // Message byte 40 is in the third chunk: two headers of one byte after the first.
        Assert.Equal(firstData + 40 + 2, reader.StreamOffsetOf(40));
        Assert.Equal(firstData + 15, reader.StreamOffsetOf(15));
        Assert.Equal(firstData + 16 + 1, reader.StreamOffsetOf(16));
        Assert.Equal(message[40], stream[reader.StreamOffsetOf(40)]);
        Assert.Equal(message[^1], stream[reader.StreamOffsetOf(message.Length - 1)]);

        // The message's last record (the envelope's end) made a byte that is no record.
        long last = reader.StreamOffsetOf(message.Length - 1);
        stream[last] = 0xFF;
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => NmfDecoder.Decode(stream, out _, out _));
        Assert.Equal(last, e.Offset);
        Assert.StartsWith($"Envelope at offset {firstData}: ", e.Message);
    }

    [Fact]
    public void Unsized_envelopes_are_joined_from_chunks()
    {
        byte[] message = new BinaryMessageEncoder().WriteMessage(w => WriteOrder(w, 9));
        var output = new ArrayBufferWriter<byte>();
        output.Write<byte>([0x00, 0x01, 0x00, 0x01, 0x01, 0x02, 0x00, 0x03, 0x07, 0x0C, 0x05]);
        int half = message.Length / 2;
        output.Write<byte>([(byte)half]);
        output.Write(message.AsSpan(0, half));
        output.Write<byte>([(byte)(message.Length - half)]);
        output.Write(message.AsSpan(half));
        output.Write<byte>([0x00, 0x07]);
        Assert.Equal(OrderXml(9), Assert.Single(NmfDecoder.Decode(output.WrittenSpan, out _, out _)).Xml);
    }
}
