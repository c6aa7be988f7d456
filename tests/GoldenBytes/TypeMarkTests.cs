using System.Buffers;
using System.Runtime.Serialization;
using System.Text;
using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Tool;
using Xunit;
using static BinaryXml.Tests.SampleAndToolTests;

namespace BinaryXml.Tests;

/// <summary>
/// <c>binxml decode --types</c> marks the values' record types and the names' kinds (<see cref="ValueTypeMarks"/>);
/// <c>binxml encode</c> reads the marks, so that a decoded message, edited or not, is written back with the same
/// records: the samples and .NET's own DataContractSerializer output come back byte for byte.
/// </summary>
public sealed class TypeMarkTests
{
    private static readonly string[] s_session = ["session/message-1.bin", "session/message-2.bin", "session/message-3.bin", "session/message-4.bin"];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Samples_decoded_with_types_encode_to_the_same_bytes(bool indent)
    {
        string[] decodeOptions = indent ? ["--types", "--indent"] : ["--types"];
        string[] encodeOptions = indent ? ["--ignore-whitespace"] : [];

        Assert.Equal(File.ReadAllBytes(SamplePath("msbin1-request.bin")), RoundTrip("msbin1", decodeOptions, encodeOptions, [SamplePath("msbin1-request.bin")], [])[0]);

        byte[][] session = RoundTrip("msbinsession1", decodeOptions, encodeOptions, s_session.Select(SamplePath).ToArray(), []);
        Assert.Equal(s_session.Select(f => Convert.ToHexString(File.ReadAllBytes(SamplePath(f)))), session.Select(Convert.ToHexString));

        // decode says the stream's Via, which encode --via takes.
        Assert.Contains("nettcp-stream.bin: via net.tcp://localhost:8000/orders\n", Binxml("decode", SamplePath("nettcp-stream.bin")).Err);
        byte[] stream = RoundTrip("nmf", decodeOptions, encodeOptions, [SamplePath("nettcp-stream.bin")], ["--via", "net.tcp://localhost:8000/orders"])[0];
        Assert.Equal(Convert.ToHexString(File.ReadAllBytes(SamplePath("nettcp-stream.bin"))), Convert.ToHexString(stream));
    }

    [Fact]
    public void A_reply_stream_decoded_with_types_encodes_to_the_same_bytes()
    {
        // The reply direction of a net.tcp stream: PreambleAck, then the envelopes of its own session, then End.
        var encoder = new BinaryMessageEncoder(session: true, dictionary: NbfsDictionary.Instance);
        var stream = new ArrayBufferWriter<byte>();
        var nmf = new BinaryXml.Soap.Nmf.NmfWriter(stream);
        nmf.WritePreambleAck();
        foreach (int id in new[] { 1001, 1002 })
        {
            nmf.WriteSizedEnvelope(encoder.WriteMessage(w =>
            {
                w.WriteStartElement("s", Nbfs("Envelope"), Nbfs("http://www.w3.org/2003/05/soap-envelope"));
                w.WriteStartElement("s", Nbfs("Body"), Nbfs("http://www.w3.org/2003/05/soap-envelope"));
                w.WriteElementValue("GetOrderResult", id);
                w.WriteEndElement();
                w.WriteEndElement();
            }));
        }
        nmf.WriteEnd();
        byte[] captured = stream.WrittenSpan.ToArray();
        string file = WriteTemp("reply.bin", captured);
        Assert.Contains("reply.bin: a reply direction (encode --reply)\n", Binxml("decode", file).Err);
        byte[] encoded = RoundTrip("nmf", ["--types"], ["--reply"], [file], [])[0];
        Assert.Equal(Convert.ToHexString(captured), Convert.ToHexString(encoded));

        (int exit, _, string error) = Binxml("encode", "--format", "msbin1", "--reply", WriteTemp("m.xml", Encoding.UTF8.GetBytes("<a/>")));
        Assert.Equal(1, exit);
        Assert.Contains("--reply is a direction of an nmf stream", error);
    }

    [Fact]
    public void A_streamed_net_tcp_capture_decoded_with_types_encodes_to_the_same_bytes_in_its_mode()
    {
        // Streamed net.tcp: mode SingletonUnsized, one msbin1 message in an unsized envelope; its reply, after a
        // PreambleAck, another. decode says the mode, which encode --mode takes.
        byte[] request = File.ReadAllBytes(SamplePath("msbin1-request.bin"));
        byte[] captured = StreamedCapture(request, "net.tcp://localhost:8000/files");
        string file = WriteTemp("streamed.bin", captured);
        (int exit, string xml, string error) = Binxml("decode", "--types", file);
        Assert.Equal(0, exit);
        Assert.Contains("streamed.bin: via net.tcp://localhost:8000/files, mode SingletonUnsized (encode --mode SingletonUnsized)\n", error);
        Assert.Equal(BinaryXmlText.ToXml(request, NbfsDictionary.Instance, markValueTypes: true) + "\n", xml);
        byte[] encoded = RoundTrip("nmf", ["--types"], ["--mode", "SingletonUnsized", "--via", "net.tcp://localhost:8000/files"], [file], [])[0];
        Assert.Equal(Convert.ToHexString(captured), Convert.ToHexString(encoded));

        var stream = new ArrayBufferWriter<byte>();
        var nmf = new BinaryXml.Soap.Nmf.NmfWriter(stream);
        nmf.WritePreambleAck();
        nmf.WriteUnsizedEnvelope(request);
        nmf.WriteEnd();
        captured = stream.WrittenSpan.ToArray();
        file = WriteTemp("streamed-reply.bin", captured);
        Assert.Contains("streamed-reply.bin: a reply direction, mode SingletonUnsized (encode --reply --mode SingletonUnsized)\n", Binxml("decode", file).Err);
        encoded = RoundTrip("nmf", ["--types"], ["--mode", "SingletonUnsized", "--reply"], [file], [])[0];
        Assert.Equal(Convert.ToHexString(captured), Convert.ToHexString(encoded));

        // The buffered sample stream is Duplex, which decode does not name (encode's default).
        Assert.DoesNotContain("mode", Binxml("decode", SamplePath("nettcp-stream.bin")).Err);
    }

    [Fact]
    public void Decode_says_the_chunk_size_of_unsized_envelopes_which_encode_takes()
    {
        // Chunks of 16 bytes (the last shorter): said, and written again so.
        byte[] request = File.ReadAllBytes(SamplePath("msbin1-request.bin"));
        byte[] captured = StreamedCapture(request, "net.tcp://localhost/", maxChunkSize: 16);
        string file = WriteTemp("chunked16.bin", captured);
        Assert.Contains("chunked16.bin: via net.tcp://localhost/, mode SingletonUnsized, chunks of 16 bytes (encode --mode SingletonUnsized --chunk-size 16)\n", Binxml("decode", file).Err);
        byte[] encoded = RoundTrip("nmf", ["--types"], ["--mode", "SingletonUnsized", "--chunk-size", "16", "--via", "net.tcp://localhost/"], [file], [])[0];
        Assert.Equal(Convert.ToHexString(captured), Convert.ToHexString(encoded));

        // One chunk larger than encode's default: the size it needs at least.
        byte[] large = new BinaryMessageEncoder().WriteMessage(w =>
        {
            w.WriteStartElement("s", Nbfs("Envelope"), Nbfs("http://www.w3.org/2003/05/soap-envelope"));
            w.WriteElementString("data", new string('x', 70_000));
            w.WriteEndElement();
        });
        captured = StreamedCapture(large, "net.tcp://localhost/", maxChunkSize: large.Length);
        file = WriteTemp("large.bin", captured);
        Assert.Contains($"large.bin: via net.tcp://localhost/, mode SingletonUnsized, chunks of {large.Length} bytes (encode --mode SingletonUnsized --chunk-size {large.Length})\n", Binxml("decode", file).Err);
        encoded = RoundTrip("nmf", ["--types"], ["--mode", "SingletonUnsized", "--chunk-size", large.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), "--via", "net.tcp://localhost/"], [file], [])[0];
        Assert.Equal(Convert.ToHexString(captured), Convert.ToHexString(encoded));

        // Chunks of 10, 20 and 100 bytes, then the rest (74): no one size writes them again.
        Assert.Equal(204, request.Length);
        var stream = new ArrayBufferWriter<byte>();
        stream.Write<byte>([0x00, 0x01, 0x00, 0x01, 0x01, 0x02, 0x00, 0x03, 0x07, 0x0C, 0x05, 10, .. request.AsSpan(0, 10), 20, .. request.AsSpan(10, 20),
            100, .. request.AsSpan(30, 100), 74, .. request.AsSpan(130), 0x00, 0x07]);
        Assert.Contains("mode SingletonUnsized, chunks of different sizes (encode writes chunks of one size) (encode --mode SingletonUnsized)\n", Binxml("decode", WriteTemp("varying.bin", stream.WrittenSpan.ToArray())).Err);
    }

    [Theory]
    [InlineData(new[] { "--format", "nmf", "--mode", "SingletonUnsized" }, 2, "--mode SingletonUnsized carries one message; the files hold 2.")]
    [InlineData(new[] { "--format", "nmf", "--mode", "SingletonSized" }, 2, "--mode SingletonSized carries one message; the files hold 2.")]
    [InlineData(new[] { "--format", "msbin1", "--mode", "SingletonUnsized" }, 1, "--mode is the mode of an nmf stream: give --format nmf.")]
    [InlineData(new[] { "--format", "nmf", "--mode", "9" }, 1, "--mode 9 is not an MC-NMF mode")]
    [InlineData(new[] { "--format", "nmf", "--mode", "SingletonUnsized", "--chunk-size", "0" }, 1, "--chunk-size is a number of bytes, 1 or more.")]
    [InlineData(new[] { "--format", "nmf", "--chunk-size", "16" }, 1, "--chunk-size is the size of an unsized envelope's chunks: give --mode SingletonUnsized.")]
    public void Encode_refuses_a_mode_that_does_not_fit(string[] options, int messages, string reason)
    {
        string xml = string.Concat(Enumerable.Repeat("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body/></s:Envelope>\n", messages));
        (int exit, _, string error) = Binxml(["encode", .. options, WriteTemp("modes.xml", Encoding.UTF8.GetBytes(xml))]);
        Assert.Equal(1, exit);
        Assert.Contains(reason, error);
    }

    [Theory]
    [InlineData("SingletonSized", "04", "07", "01")]
    [InlineData("Simplex", "03", "08", "01")]
    public void Encode_writes_each_mode_with_its_encoding_and_envelopes(string mode, string modeByte, string encodingByte, string sizedEnvelopes)
    {
        string xml = "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body/></s:Envelope>";
        (int exit, string hex, string error) = Binxml("encode", "--format", "nmf", "--mode", mode, "--via", "net.tcp://h/", WriteTemp("mode.xml", Encoding.UTF8.GetBytes(xml)));
        Assert.True(exit == 0, error);
        byte[] stream = Convert.FromHexString(hex.Replace(" ", "").Trim());
        var reader = new BinaryXml.Soap.Nmf.NmfReader(stream);
        var records = new List<string>();
        while (reader.Read()) records.Add(reader.RecordType.ToString());
        Assert.Equal(["Version", "Mode", "Via", "KnownEncoding", "PreambleEnd", .. Enumerable.Repeat("SizedEnvelope", int.Parse(sizedEnvelopes)), "End"], records);
        Assert.Equal(modeByte, Convert.ToHexString(stream, 4, 1));
        Assert.Equal(encodingByte, Convert.ToHexString(stream, 4 + 1 + 1 + 1 + "net.tcp://h/".Length + 1, 1));
        // And decode reads it back.
        Assert.Equal(xml.Replace("<s:Body/>", "<s:Body></s:Body>") + "\n", Binxml("decode", WriteTemp("mode.bin", stream)).Out);
    }

    [Theory]
    [InlineData("gzip")]
    [InlineData("deflate")]
    public void Encode_compresses_each_message_and_decode_reads_it_back(string compression)
    {
        // A capture decoded and encoded back compressed: the XML is the same (a compressor's bytes are its own). With a
        // session (msbinsession1, nmf) the marks are too; without one, the session's dictionary text becomes text.
        (int exit, string marked, string error) = Binxml("decode", "--types", SamplePath("nettcp-stream.bin"));
        Assert.True(exit == 0, error);
        (_, string plain, _) = Binxml("decode", SamplePath("nettcp-stream.bin"));
        string file = WriteTemp("messages.xml", Encoding.UTF8.GetBytes(marked));
        foreach (string format in new[] { "nmf", "msbinsession1", "msbin1", "nbfx" })
        {
            string output = Path.Combine(TempFolders.Create(), "out");
            (exit, _, error) = Binxml("encode", "--format", format, "--compress", compression, "--via", "net.tcp://localhost:8000/orders", "--output", output, "--output-format", "binary", file);
            Assert.True(exit == 0, error);
            string[] encoded = format == "nmf" ? [output] : Enumerable.Range(1, 3).Select(i => Path.Combine(output, $"messages-{i}.bin")).ToArray();
            bool session = format is "nmf" or "msbinsession1";
            (exit, string again, error) = Binxml(["decode", .. session ? ["--types"] : Array.Empty<string>(), .. encoded]);
            Assert.True(exit == 0, error);
            Assert.Equal(session ? marked : plain, again);
            Assert.Contains(format == "nmf" ? "detected nmf" : $"detected {(format == "nbfx" ? "msbin1" : format)} ({compression})", error);
            if (format == "nmf") Assert.Contains($"NMF ExtensibleEncoding             \"application/soap+msbinsession1+{compression}\"", Binxml("dump", output).Out);
        }
    }

    [Fact]
    public void A_session_of_a_larger_quota_is_read_and_written_with_max_session_size()
    {
        // A service that sets MaxSessionSize above WCF's 2048 bytes: its messages carry more session strings.
        var encoder = new BinaryMessageEncoder(session: true, maxSessionSize: 8192);
        var names = new XmlDictionary();
        byte[] message = encoder.WriteMessage(w =>
        {
            w.WriteStartElement(null, names.Add("Order"), names.Add("urn:shop"));
            for (int i = 0; i < 100; i++) w.WriteElementValue(names.Add($"AQuiteLongMemberNameNumber{i:D3}"), names.Add("urn:shop"), i);
            w.WriteEndElement();
        });
        string file = WriteTemp("big.bin", message);
        (int exit, _, string error) = Binxml("decode", file);
        Assert.Equal(1, exit);
        Assert.Contains("exceed MaxSessionSize (2048 bytes)", error);
        Assert.Contains("; a service may allow more: try --max-session-size", error);

        (exit, string xml, error) = Binxml("decode", "--types", "--max-session-size", "8192", file);
        Assert.True(exit == 0, error);
        Assert.Contains("<AQuiteLongMemberNameNumber099 t:type=\"int\">99</AQuiteLongMemberNameNumber099>", xml);
        (exit, string dump, error) = Binxml("dump", "--max-session-size", "8192", file);
        Assert.True(exit == 0, error);
        Assert.Contains("id 203 (session 101) = \"AQuiteLongMemberNameNumber099\"", dump);

        string output = Path.Combine(TempFolders.Create(), "again.bin");
        (exit, _, error) = Binxml("encode", "--format", "msbinsession1", "--max-session-size", "8192", "--output", output, "--output-format", "binary", WriteTemp("big.xml", Encoding.UTF8.GetBytes(xml)));
        Assert.True(exit == 0, error);
        Assert.Equal(Convert.ToHexString(message), Convert.ToHexString(File.ReadAllBytes(output)));

        (exit, _, error) = Binxml("decode", "--max-session-size", "-1", file);
        Assert.Equal(1, exit);
        Assert.Contains("--max-session-size is a number of bytes, 0 or more.", error);
    }

    [Fact]
    public void Without_types_the_samples_do_not_come_back_byte_for_byte()
    {
        // What the marks are for: the plain XML encodes to the same XML but not to the same records.
        byte[] plain = RoundTrip("msbin1", [], [], [SamplePath("msbin1-request.bin")], [])[0];
        Assert.NotEqual(File.ReadAllBytes(SamplePath("msbin1-request.bin")), plain);
    }

    /// <summary>
    /// Decodes <paramref name="inputs"/> into one file, as a user would (decode prints each message, one after
    /// another), and encodes that file; returns the binary messages.
    /// </summary>
    private static byte[][] RoundTrip(string format, string[] decodeOptions, string[] encodeOptions, string[] inputs, string[] extra)
    {
        (int exit, string xml, string error) = Binxml(["decode", .. decodeOptions, .. inputs]);
        Assert.True(exit == 0, error);
        string dir = TempFolders.Create();
        string file = Path.Combine(dir, "messages.xml");
        File.WriteAllText(file, xml);
        string output = Path.Combine(dir, format == "nmf" ? "stream.bin" : "out");
        (exit, _, error) = Binxml(["encode", "--format", format, "--output", output, "--output-format", "binary", .. encodeOptions, .. extra, file]);
        Assert.True(exit == 0, error);
        if (File.Exists(output)) return [File.ReadAllBytes(output)];
        // Several messages from one file: messages-1.bin, messages-2.bin, …
        return Enumerable.Range(1, inputs.Length).Select(i => File.ReadAllBytes(Path.Combine(output, $"messages-{i}.bin"))).ToArray();
    }

    [Fact]
    public void A_file_of_several_messages_is_encoded_message_by_message()
    {
        // Top-level comments go with the message after them; those after the last, with the last.
        string file = WriteTemp("two.xml", Encoding.UTF8.GetBytes("<?xml version=\"1.0\"?>\n<!--x--><a>1</a>\n<b/><!--y-->\n"));
        (int exit, string hex, string error) = Binxml("encode", "--format", "nbfx", file);
        Assert.True(exit == 0, error);
        Assert.Equal("02 01 78 40 01 61 83\n40 01 62 01 02 01 79\n", hex);

        (exit, _, error) = Binxml("encode", "--format", "nbfx", WriteTemp("text.xml", Encoding.UTF8.GetBytes("<a/>text")));
        Assert.Equal(1, exit);
        Assert.Contains("text.xml: Text outside the top-level element (each message is one element)", error);
        (exit, _, error) = Binxml("encode", "--format", "nbfx", WriteTemp("empty.xml", []));
        Assert.Equal(1, exit);
        Assert.Contains("empty.xml: there is no XML element.", error);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void DataContractSerializer_output_of_the_in_box_writer_encodes_back_byte_for_byte(bool session)
    {
        var order = new Order
        {
            Id = 1001, Customer = "Zoë — 東京", Placed = new DateTime(2026, 11, 1, 8, 30, 0, DateTimeKind.Utc), Total = 19.950m,
            Weight = 2.5, Ratio = 0.1f, Paid = true, Key = new Guid("5f0e2b7c-1a2b-4c3d-9e8f-706152433401"),
            Signature = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], Tags = [3, 1, 4, 1, 5, 9], Note = null, Window = TimeSpan.FromMinutes(90),
            Big = long.MaxValue, Huge = ulong.MaxValue, Any = 5, Link = new Uri("http://example.org/a?b=c&d"),
            Lines = [new Line { Sku = "A-100", Quantity = 2, Price = 9.975m }, new Line { Sku = "B-7", Quantity = 1, Price = 0m }],
            Scores = [1.5, double.NaN, -0.0, 1e300], Flags = [true, false], Empty = [],
            // Long text and bytes: records of several buffers' length.
            Body = string.Concat(Enumerable.Repeat("Zoë — 東京 ", 9000)), Blob = Enumerable.Range(0, 100_001).Select(i => (byte)i).ToArray(),
            Local = new DateTime(2026, 3, 29, 1, 30, 0, DateTimeKind.Local),
        };
        var writerSession = session ? new RecordingWriterSession() : null;
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, NbfsDictionary.Instance, writerSession))
        {
            new DataContractSerializer(typeof(Order)).WriteObject(w, order);
        }
        byte[] inBox = stream.ToArray();

        string marked = BinaryXmlText.ToXml(inBox, NbfsDictionary.Instance, writerSession?.ToReaderSession(), BinaryXmlReaderOptions.Trusted, markValueTypes: true);
        Assert.Contains("t:type=\"int[]\"", marked);
        Assert.Contains("i:nil=bool", marked);
        if (session)
        {
            // DCS's strings are its own dictionary's: the XMLSchema-instance namespace and the type name "int", in
            // MC-NBFS too, go to the session.
            Assert.Contains("t:session=\"xmlns:i\"", marked);
            Assert.Contains("i:type=sessionQname", marked);
        }

        var again = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(again, NbfsDictionary.Instance, session ? new RecordingWriterSession() : null))
        {
            new XmlEncoder(NbfsDictionary.Instance).Write(w, new StringReader(marked));
        }
        Assert.Equal(Convert.ToHexString(inBox), Convert.ToHexString(again.WrittenSpan));
    }

    [Theory]
    [InlineData(4096)]
    [InlineData(1000)]
    [InlineData(2)]
    public void Base64_written_in_several_calls_comes_back_in_the_same_records(int chunk)
    {
        // A streamed body: .NET's writer writes each call's whole groups of three bytes as a record.
        byte[] data = Enumerable.Range(0, 10_001).Select(i => (byte)(i * 7)).ToArray();
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("Body");
            for (int i = 0; i < data.Length; i += chunk) w.WriteBase64(data, i, Math.Min(chunk, data.Length - i));
            w.WriteEndElement();
        }
        byte[] inBox = stream.ToArray();
        string marked = BinaryXmlText.ToXml(inBox, options: BinaryXmlReaderOptions.Trusted, markValueTypes: true);
        Assert.StartsWith("<Body t:type=\"base64\" xmlns:t=\"urn:binaryxml:types\">", marked);
        Assert.Contains(' ', marked[50..]);
        Assert.Equal(Convert.ToHexString(inBox), Convert.ToHexString(Encode(marked)));
        // Unmarked, the records' texts are one value, as MC-NBFX renders them.
        Assert.Equal("<Body>" + Convert.ToBase64String(data) + "</Body>", BinaryXmlText.ToXml(inBox, options: BinaryXmlReaderOptions.Trusted));
    }

    [Fact]
    public void Indented_xml_with_ignore_whitespace_keeps_white_space_that_is_an_elements_text()
    {
        byte[] doc = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteElementString("a", " ");
            w.WriteElementValue("b", 5);
            w.WriteStartElement("c");
            w.WriteStartElement("d");
            w.WriteString(" \n ");
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
        });
        (int exit, string xml, string error) = Binxml("decode", "--format", "nbfx", "--types", "--indent", WriteTemp("ws.bin", doc));
        Assert.True(exit == 0, error);
        Assert.Equal("<r xmlns:t=\"urn:binaryxml:types\">\n  <a> </a>\n  <b t:type=\"int\">5</b>\n  <c>\n    <d> \n </d>\n  </c>\n</r>\n", xml);
        string file = WriteTemp("ws.xml", Encoding.UTF8.GetBytes(xml));
        (exit, string hex, error) = Binxml("encode", "--format", "nbfx", "--ignore-whitespace", file);
        Assert.True(exit == 0, error);
        Assert.Equal(Convert.ToHexString(doc), hex.Trim().Replace(" ", "", StringComparison.Ordinal));
    }

    [Fact]
    public void Marks_take_a_prefix_the_document_does_not_use()
    {
        byte[] doc = Write(w =>
        {
            w.WriteStartElement("t", "a", "urn:t");
            w.WriteXmlnsAttribute("t1", "urn:t1");
            w.WriteStartElement("t1", "b", "urn:t1");
            w.WriteValue(5);
            w.WriteEndElement();
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal("<t:a xmlns:t=\"urn:t\" xmlns:t1=\"urn:t1\" xmlns:t2=\"urn:binaryxml:types\"><t1:b t2:type=\"int\">5</t1:b></t:a>", marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
    }

    [Fact]
    public void A_value_is_marked_on_its_element_when_it_is_the_only_content_and_where_it_stands_beside_other_content()
    {
        byte[] doc = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartElement("mixed");
            w.WriteValue(5);
            w.WriteString("x");
            w.WriteEndElement();
            w.WriteStartElement("before");
            w.WriteValue(true);
            w.WriteStartElement("c");
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteStartElement("one");
            w.WriteValue(1.5);
            w.WriteEndElement();
            w.WriteStartElement("text");
            w.WriteString("5");
            w.WriteEndElement();
            w.WriteStartElement("zero");
            w.WriteValue(0);
            w.WriteEndElement();
            w.WriteStartElement("empty");
            w.WriteBase64([], 0, 0);
            w.WriteEndElement();
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal(
            "<r xmlns:t=\"urn:binaryxml:types\"><mixed><?t int?>5<?t?>x</mixed><before><?t bool?>true<c></c></before><one t:type=\"float\">1.5</one><text>5</text><zero>0</zero><empty></empty></r>",
            marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
    }

    [Fact]
    public void Text_records_beside_other_content_come_back_as_the_same_records()
    {
        // .NET's writer writes a qualified name whose local name is no dictionary string as three text records (a
        // SOAP fault's subcode, for example): each is marked as a record of its own, so that they are not joined.
        byte[] doc = InBox(w =>
        {
            w.WriteStartElement("s", "Value", "http://www.w3.org/2003/05/soap-envelope");
            w.WriteXmlnsAttribute("a", "urn:faults");
            w.WriteQualifiedName("Denied", "urn:faults");
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal("<s:Value xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:a=\"urn:faults\" xmlns:t=\"urn:binaryxml:types\">a<?t?>:<?t?>Denied</s:Value>", marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
        // Unmarked, the text is one record.
        Assert.NotEqual(Convert.ToHexString(doc), Convert.ToHexString(Encode(BinaryXmlText.ToXml(doc))));
    }

    [Fact]
    public void White_space_beside_other_content_is_marked_so_that_ignore_whitespace_keeps_it()
    {
        byte[] doc = InBox(w =>
        {
            w.WriteStartElement("r");
            w.WriteWhitespace(" ");
            w.WriteStartElement("c");
            w.WriteEndElement();
            w.WriteWhitespace("\n\t");
            w.WriteStartElement("d");
            w.WriteString(" ");
            w.WriteEndElement();
            w.WriteString("x");
            w.WriteWhitespace(" ");
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        // White space alone in an element (d) is its content, kept unmarked, as before.
        Assert.Equal("<r xmlns:t=\"urn:binaryxml:types\"><?t?> <c></c><?t?>\n\t<d> </d>x<?t?> </r>", marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
        string indented = BinxmlApp.Indent(marked)!;
        Assert.NotEqual(marked, indented);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(indented, ignoreWhitespace: true)));
    }

    [Fact]
    public void Values_beside_other_content_come_back_byte_for_byte_through_indenting()
    {
        byte[] doc = InBox(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartElement("c");
            w.WriteEndElement();
            w.WriteValue(3.5);
            w.WriteValue(true);
            w.WriteString("z");
            w.WriteComment("k");
            w.WriteValue(Guid.Empty);
            w.WriteStartElement("c");
            w.WriteEndElement();
            w.WriteValue(new DateTime(2026, 12, 4, 0, 0, 0, DateTimeKind.Utc));
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal("<r xmlns:t=\"urn:binaryxml:types\"><c></c><?t float?>3.5<?t bool?>true<?t?>z<!--k--><?t guid?>00000000-0000-0000-0000-000000000000<c></c><?t dateTime?>2026-12-04T00:00:00Z</r>", marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(BinxmlApp.Indent(marked)!, ignoreWhitespace: true)));
    }

    [Fact]
    public void Base64_beside_other_content_is_one_value_of_its_records()
    {
        byte[] doc = InBox(w =>
        {
            w.WriteStartElement("r");
            w.WriteString("x");
            w.WriteBase64([1, 2, 3, 4], 0, 4);
            w.WriteBase64([5, 6], 0, 2);
            w.WriteStartElement("c");
            w.WriteEndElement();
            w.WriteBase64([9], 0, 1);
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        // .NET's writer wrote the first call's whole group, then the rest with the second call's: two records, one value.
        Assert.Equal("<r xmlns:t=\"urn:binaryxml:types\">x<?t base64?>AQID BAUG<c></c><?t base64?>CQ==</r>", marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
    }

    [Fact]
    public void A_base64_record_of_bytes_not_in_whole_groups_comes_back_as_dotnets_writer_groups_them()
    {
        // One Bytes8Text record of 29 bytes beside an element: no writer call writes it (.NET's writer writes a call's
        // whole groups of three bytes, and the rest only with the next call's or at the end). Written back, it is the
        // bytes of one call: 27 in one record, 2 in the next; that document's own rendering is a fixed point
        // (fuzz finding nmf-crash-3c675f15f5df: its decode and the decode of what encode wrote differed there).
        byte[] data = Enumerable.Range(0, 29).Select(i => (byte)(i * 7 + 1)).ToArray();
        byte[] doc = [0x40, 0x01, (byte)'r', 0x9E, 29, .. data, 0x40, 0x01, (byte)'c', 0x01, 0x01];
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal($"<r xmlns:t=\"urn:binaryxml:types\"><?t base64?>{Convert.ToBase64String(data)}<c></c></r>", marked);
        byte[] written = Encode(marked);
        byte[] inBox = InBox(w =>
        {
            w.WriteStartElement("r");
            w.WriteBase64(data, 0, data.Length);
            w.WriteStartElement("c");
            w.WriteEndElement();
            w.WriteEndElement();
        });
        Assert.Equal(Convert.ToHexString(inBox), Convert.ToHexString(written));
        Assert.Equal(0x9E, written[3]);
        Assert.Equal(27, written[4]);
        Assert.Equal([0x9E, 2, data[27], data[28]], written[(5 + 27)..(5 + 27 + 4)]);
        string again = BinaryXmlText.ToXml(written, markValueTypes: true);
        Assert.Equal($"<r xmlns:t=\"urn:binaryxml:types\"><?t base64?>{Convert.ToBase64String(data, 0, 27)} {Convert.ToBase64String(data, 27, 2)}<c></c></r>", again);
        Assert.Equal(Convert.ToHexString(written), Convert.ToHexString(Encode(again)));
    }

    [Fact]
    public void Lists_are_marked_with_their_items_types_and_come_back_as_the_same_records()
    {
        // .NET's WriteValue of an array writes a list: StartListText, a record an item, EndListText.
        byte[] doc = InBox(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartElement("a");
            w.WriteValue(new object[] { "abc", 7, "de", 1, 0, 2.5, true, Guid.Empty, 5L, new DateTime(2020, 1, 1) });
            w.WriteEndElement();
            w.WriteStartElement("b");
            w.WriteString("x");
            w.WriteValue(new[] { 1, 2 });
            w.WriteString("y");
            w.WriteEndElement();
            w.WriteStartElement("c");
            w.WriteStartAttribute("p");
            w.WriteValue(new object[] { 1.5, 0, 1, 300 });
            w.WriteEndAttribute();
            w.WriteEndElement();
            w.WriteEndElement();
        });
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal(
            "<r xmlns:t=\"urn:binaryxml:types\"><a><?t list:text,int,text,int,int,float,bool,guid,int,dateTime?>abc 7 de 1 0 2.5 true 00000000-0000-0000-0000-000000000000 5 2020-01-01T00:00:00</a>"
            + "<b>x<?t list:int,int?>1 2<?t?>y</b><c p=\"1.5 0 1 300\" t:attributeTypes=\"p=list:float,int,int,int\"></c></r>",
            marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(BinxmlApp.Indent(marked)!, ignoreWhitespace: true)));
    }

    [Fact]
    public void A_list_whose_items_could_not_be_told_apart_again_is_not_marked()
    {
        // An item holding a space; an attribute's list holding text, which .NET's writer leaves out of one (so no call
        // writes it back); each is still kept apart from the text before it.
        byte[] spaced = InBox(w =>
        {
            w.WriteStartElement("a");
            w.WriteString("x");
            w.WriteValue(new object[] { "b c", 3 });
            w.WriteEndElement();
        });
        Assert.Equal("<a xmlns:t=\"urn:binaryxml:types\">x<?t?>b c 3</a>", BinaryXmlText.ToXml(spaced, markValueTypes: true));
        byte[] attributeText = [0x40, 0x01, 0x61, 0x04, 0x01, 0x70, 0xA4, 0x98, 0x01, 0x7A, 0x88, 0x03, 0xA6, 0x01];
        Assert.Equal("<a p=\"z 3\" xmlns:t=\"urn:binaryxml:types\"></a>", BinaryXmlText.ToXml(attributeText, markValueTypes: true));
        // Nor a dictionary string (DictionaryText "Envelope"), which .NET's writer also keeps out of an attribute's list.
        byte[] attributeDictionary = [0x40, 0x01, 0x61, 0x04, 0x01, 0x70, 0xA4, 0xAA, 0x02, 0x88, 0x03, 0xA6, 0x01];
        Assert.Equal("<a p=\"Envelope 3\" t:inline=\"a\" xmlns:t=\"urn:binaryxml:types\"></a>", BinaryXmlText.ToXml(attributeDictionary, NbfsDictionary.Instance, markValueTypes: true));
        Assert.NotEqual(Convert.ToHexString(attributeDictionary), Convert.ToHexString(InBox(w =>
        {
            w.WriteStartElement("a");
            w.WriteStartAttribute("p");
            w.WriteValue(new object[] { Nbfs("Envelope"), 3 });
            w.WriteEndAttribute();
            w.WriteEndElement();
        })));
    }

    [Theory]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t list:int,int?>1 2 3</r>", "the list marked list:int,int has 2 items, its text '1 2 3' 3")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t list:int,base64?>1 AQID</r>", "a list's item cannot be base64")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t list:list:int?>1</r>", "a list's item cannot be list:int")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\" a=\"1 x\" t:attributeTypes=\"a=list:int,int\"/>", "'x' is not a int value")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t int?><c/></r>", "a text mark (int) is followed by a Element, not by the text it marks")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\">a<?t?></r>", "a text mark (a record of its own) is followed by a EndElement")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t int?><?t int?>5</r>", "is followed by a ProcessingInstruction")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t number?>5</r>", "'number' is not a value type binxml knows")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t int?>five</r>", "'five' is not a int value")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\"><?t int[]?>5</r>", "text cannot be an array (int[])")]
    [InlineData("<r xmlns:t=\"urn:binaryxml:types\" t:type=\"int\"><?t int?>5</r>", "holds one value: its text takes no mark")]
    [InlineData("<r><?t int?>5</r>", "Binary XML cannot hold the processing instruction 't'")]
    public void A_text_mark_that_marks_no_text_or_an_unknown_type_is_an_error(string xml, string reason)
    {
        var e = Assert.ThrowsAny<XmlException>(() => Encode(xml));
        Assert.Contains(reason, e.Message);
    }

    [Fact]
    public void Marked_xml_escapes_what_an_xml_parser_would_normalize()
    {
        byte[] doc = Write(w =>
        {
            w.WriteStartElement("a");
            w.WriteAttributeString("v", "x\ty\nz\r");
            w.WriteString("1\r\n2\r");
            w.WriteEndElement();
        });
        Assert.Equal("<a v=\"x\ty\nz\r\">1\r\n2\r</a>", BinaryXmlText.ToXml(doc));
        string marked = BinaryXmlText.ToXml(doc, markValueTypes: true);
        Assert.Equal("<a v=\"x&#x9;y&#xA;z&#xD;\" xmlns:t=\"urn:binaryxml:types\">1&#xD;\n2&#xD;</a>", marked);
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(Encode(marked)));
    }

    [Fact]
    public void An_array_with_attributes_is_not_marked()
    {
        // 03 Array: ShortElement "a", ShortAttribute "x"="y", EndElement, Int32TextWithEndElement, 2 items.
        byte[] doc = [0x40, 0x01, 0x72, 0x03, 0x40, 0x01, 0x61, 0x04, 0x01, 0x78, 0x98, 0x01, 0x79, 0x01, 0x8D, 0x02, 1, 0, 0, 0, 2, 0, 0, 0, 0x01];
        Assert.Equal("<r xmlns:t=\"urn:binaryxml:types\"><a x=\"y\">1</a><a x=\"y\">2</a></r>", BinaryXmlText.ToXml(doc, markValueTypes: true));
    }

    [Fact]
    public void Names_written_inline_or_to_the_session_where_a_writer_would_not_are_marked()
    {
        var session = new RecordingWriterSession();
        var other = new XmlDictionary();
        byte[] doc = Write(w =>
        {
            // "Envelope" is in MC-NBFS: as a string it is written inline; as another dictionary's string, to the session.
            w.WriteStartElement("s", "Envelope", "http://www.w3.org/2003/05/soap-envelope");
            w.WriteStartElement(null, other.Add("Body"), other.Add("urn:x"));
            w.WriteEndElement();
            w.WriteEndElement();
        }, NbfsDictionary.Instance, session);
        string marked = BinaryXmlText.ToXml(doc, NbfsDictionary.Instance, session.ToReaderSession(), markValueTypes: true);
        Assert.Equal(
            "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" t:inline=\"s:Envelope xmlns:s\" xmlns:t=\"urn:binaryxml:types\"><Body xmlns=\"urn:x\" t:session=\"Body\"></Body></s:Envelope>",
            marked);
        var again = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(again, NbfsDictionary.Instance, new RecordingWriterSession()))
        {
            new XmlEncoder(NbfsDictionary.Instance).Write(w, new StringReader(marked));
        }
        Assert.Equal(Convert.ToHexString(doc), Convert.ToHexString(again.WrittenSpan));
    }

    [Fact]
    public void Decode_says_when_a_marked_message_would_not_read_back()
    {
        // ShortElement "a b": a name that is not an XML name (an XML parser reads an element "a" with an attribute).
        string file = WriteTemp("name.bin", [0x40, 0x03, 0x61, 0x20, 0x62, 0x01]);
        (int exit, string output, string error) = Binxml("decode", "--format", "nbfx", "--types", file);
        Assert.Equal(0, exit);
        Assert.Equal("<a b xmlns:t=\"urn:binaryxml:types\"></a b>\n", output);
        Assert.EndsWith("name.bin: a message at byte offset 0 would not read back as the same XML (a comment holding '-->', a name that is not an XML name): encode will not give its bytes\n", error);

        string good = WriteTemp("good.bin", [0x40, 0x01, 0x61, 0x89, 0x05]);
        (exit, output, error) = Binxml("decode", "--format", "nbfx", "--types", good);
        Assert.Equal(0, exit);
        Assert.Equal("<a t:type=\"int\" xmlns:t=\"urn:binaryxml:types\">5</a>\n", output);
        Assert.Equal("", error);
    }

    [Fact]
    public void A_marked_document_keeps_plain_text_plain_where_encode_would_guess()
    {
        const string Envelope = "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:a=\"http://www.w3.org/2005/08/addressing\"{0}><s:Header><a:Action>urn:do</a:Action></s:Header></s:Envelope>";
        // Unmarked, Action's text is a dictionary string as WCF writes it; in a marked document it is what it says.
        Assert.Contains("DictionaryText", Dump(EncodeFile(string.Format(Envelope, ""), "msbinsession1")));
        Assert.DoesNotContain("DictionaryText", Dump(EncodeFile(string.Format(Envelope, " xmlns:t=\"urn:binaryxml:types\""), "msbinsession1")));
    }

    [Theory]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:type=\"integer\">5</a>", "'integer' is not a value type binxml knows")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:type=\"int\">five</a>", "'five' is not a int value")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:type=\"int\"/>", "'' is not a int value")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:colour=\"red\"/>", "'colour' is not a mark binxml knows")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:attributeTypes=\"b=int\"/>", "attributeTypes names 'b', which the element does not have")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" b=\"1\" t:attributeTypes=\"b\"/>", "'b' in attributeTypes is not name=type")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:inline=\"c\"/>", "inline names 'c', which the start tag does not have")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\"><b x=\"1\" t:type=\"int[]\">1</b></a>", "an array item (int[]) cannot have attributes")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\"><b t:type=\"int[]\">1<c/></b></a>", "an array item holds text only, not a Element")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\"><b t:type=\"int[]\">x</b></a>", "an item of the b array is not a int value")]
    [InlineData("<a xmlns:t=\"urn:binaryxml:types\" t:type=\"qname\">p:b</a>", "the prefix of the qname 'p:b' is not declared")]
    public void Encode_reports_a_bad_mark_with_its_line(string xml, string reason)
    {
        string file = WriteTemp("bad.xml", Encoding.UTF8.GetBytes("\n" + xml));
        (int exit, _, string error) = Binxml("encode", "--format", "nbfx", file);
        Assert.Equal(1, exit);
        Assert.StartsWith("binxml: error: ", error);
        Assert.Contains("bad.xml: ", error);
        Assert.Contains(reason, error);
        Assert.Contains("Line 2, position", error);
    }

    private static XmlDictionaryString Nbfs(string value) => NbfsDictionary.Instance.TryLookup(value, out XmlDictionaryString? s) ? s : throw new ArgumentException(value);

    private static byte[] Write(Action<BinaryXmlWriter> write, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(output, dictionary, session)) write(w);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>A document as .NET's own writer writes it, with no dictionary.</summary>
    private static byte[] InBox(Action<XmlDictionaryWriter> write)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream)) write(w);
        return stream.ToArray();
    }

    private static byte[] Encode(string xml, bool ignoreWhitespace = false)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(output)) new XmlEncoder(null, ignoreWhitespace).Write(w, new StringReader(xml));
        return output.WrittenSpan.ToArray();
    }

    private static string EncodeFile(string xml, string format)
    {
        string file = WriteTemp("m.xml", Encoding.UTF8.GetBytes(xml));
        string bin = Path.ChangeExtension(file, ".bin");
        (int exit, _, string error) = Binxml("encode", "--format", format, "--output", bin, "--output-format", "binary", file);
        Assert.True(exit == 0, error);
        return bin;
    }

    private static string Dump(string file)
    {
        (int exit, string output, string error) = Binxml("dump", file);
        Assert.True(exit == 0, error);
        return output;
    }

    [DataContract(Namespace = "http://example.org/shop")]
    public sealed class Order
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string? Customer { get; set; }
        [DataMember] public DateTime Placed { get; set; }
        [DataMember] public decimal Total { get; set; }
        [DataMember] public double Weight { get; set; }
        [DataMember] public float Ratio { get; set; }
        [DataMember] public bool Paid { get; set; }
        [DataMember] public Guid Key { get; set; }
        [DataMember] public byte[]? Signature { get; set; }
        [DataMember] public int[]? Tags { get; set; }
        [DataMember] public string? Note { get; set; }
        [DataMember] public TimeSpan Window { get; set; }
        [DataMember] public long Big { get; set; }
        [DataMember] public ulong Huge { get; set; }
        [DataMember] public object? Any { get; set; }
        [DataMember] public Uri? Link { get; set; }
        [DataMember] public List<Line>? Lines { get; set; }
        [DataMember] public double[]? Scores { get; set; }
        [DataMember] public bool[]? Flags { get; set; }
        [DataMember] public long[]? Empty { get; set; }
        [DataMember] public string? Body { get; set; }
        [DataMember] public byte[]? Blob { get; set; }
        [DataMember] public DateTime Local { get; set; }
    }

    [DataContract(Namespace = "http://example.org/shop")]
    public sealed class Line
    {
        [DataMember] public string? Sku { get; set; }
        [DataMember] public int Quantity { get; set; }
        [DataMember] public decimal Price { get; set; }
    }
}
