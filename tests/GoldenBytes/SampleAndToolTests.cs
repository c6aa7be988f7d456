using System.Buffers;
using System.Text;
using BinaryXml.Tool;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// The shipped samples are what the library writes and decode to their committed XML; every binxml command runs
/// in-process on them with its output checked.
/// </summary>
public sealed class SampleAndToolTests
{
    internal static (int Exit, string Out, string Err) Binxml(params string[] args) => BinxmlWithInput(null, args);

    private static (int Exit, string Out, string Err) BinxmlWithInput(byte[]? stdin, params string[] args)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();
        int exit = BinxmlApp.Run(args, stdout, stderr, () => new MemoryStream(stdin ?? []));
        return (exit, stdout.ToString().ReplaceLineEndings("\n"), stderr.ToString().ReplaceLineEndings("\n"));
    }

    internal static string SamplePath(string name) => Path.Combine(Samples.Folder, name);

    /// <summary>Writes <paramref name="bytes"/> to a file of that name in a new temporary folder; returns its path.</summary>
    internal static string WriteTemp(string name, byte[] bytes)
    {
        string file = Path.Combine(TempFolders.Create(), name);
        File.WriteAllBytes(file, bytes);
        return file;
    }

    private static string Xml(string name) => File.ReadAllText(SamplePath(Path.ChangeExtension(name, ".xml")), Encoding.UTF8).ReplaceLineEndings("\n");

    [Fact]
    public void An_argument_starting_with_an_at_sign_is_taken_as_it_is_not_as_a_response_file()
    {
        // A Via beginning with '@' (fuzz finding nmf-crash-f51c7c99b089), and a file named so: System.CommandLine would
        // read each as the name of a response file of more arguments.
        string folder = TempFolders.Create();
        string xml = Path.Combine(folder, "@message.xml");
        File.Copy(SamplePath("nettcp-stream.types.xml"), xml);
        string stream = Path.Combine(folder, "stream.bin");
        var (exit, _, error) = Binxml("encode", "--format", "nmf", "--via", "@orders", "--ignore-whitespace", "--output", stream, "--output-format", "binary", xml);
        Assert.True(exit == 0, error);
        (exit, string nmf, error) = Binxml("dump", stream);
        Assert.True(exit == 0, error);
        Assert.Contains("\"@orders\"", nmf);
    }

    [Fact]
    public void Samples_are_what_the_library_writes_and_regenerate_when_asked()
    {
        bool regenerate = Environment.GetEnvironmentVariable("BINARYXML_REGENERATE_SAMPLES") == "1";
        string root = regenerate ? Path.Combine(FindRepositoryRoot(), "samples") : Samples.Folder;
        foreach ((string path, byte[] bytes) in Samples.Generate())
        {
            string file = Path.Combine(root, path);
            if (regenerate)
            {
                Directory.CreateDirectory(Path.GetDirectoryName(file)!);
                File.WriteAllBytes(file, bytes);
                continue;
            }
            Assert.True(File.Exists(file), file + " is missing");
            Assert.Equal(Hex.Format(bytes), Hex.Format(File.ReadAllBytes(file)));
        }
        if (regenerate)
        {
            foreach ((string path, _) in Samples.Generate().Where(s => !s.Path.StartsWith("session/", StringComparison.Ordinal)))
                File.WriteAllText(Path.Combine(root, Path.ChangeExtension(path, ".xml")), Binxml("decode", Path.Combine(root, path)).Out, new UTF8Encoding(false));
            string[] session = Directory.GetFiles(Path.Combine(root, "session"), "*.bin").Order(StringComparer.Ordinal).ToArray();
            string[] xml = Binxml(["decode", .. session]).Out.TrimEnd('\n').Split('\n');
            for (int i = 0; i < session.Length; i++) File.WriteAllText(Path.ChangeExtension(session[i], ".xml"), xml[i] + "\n", new UTF8Encoding(false));
            File.WriteAllText(Path.Combine(root, "nettcp-stream.types.xml"), Binxml("decode", "--types", "--indent", Path.Combine(root, "nettcp-stream.bin")).Out, new UTF8Encoding(false));
        }
    }

    [Fact]
    public void The_committed_marked_xml_is_what_decode_types_prints_and_encodes_to_the_stream()
    {
        // samples/nettcp-stream.types.xml: the stream as a user edits it (decode --types --indent), and back.
        (int exit, string output, string error) = Binxml("decode", "--types", "--indent", SamplePath("nettcp-stream.bin"));
        Assert.True(exit == 0, error);
        Assert.Equal(File.ReadAllText(SamplePath("nettcp-stream.types.xml"), Encoding.UTF8).ReplaceLineEndings("\n"), output);
        string stream = Path.Combine(TempFolders.Create(), "stream.bin");
        (exit, _, error) = Binxml("encode", "--format", "nmf", "--via", "net.tcp://localhost:8000/orders", "--ignore-whitespace", "--output", stream, "--output-format", "binary", SamplePath("nettcp-stream.types.xml"));
        Assert.True(exit == 0, error);
        Assert.Equal(Hex.Format(File.ReadAllBytes(SamplePath("nettcp-stream.bin"))), Hex.Format(File.ReadAllBytes(stream)));
    }

    [Theory]
    [InlineData("msbin1-request.bin", "msbin1")]
    [InlineData("nettcp-stream.bin", "nmf")]
    public void Decode_prints_the_committed_xml_and_says_what_it_detected(string sample, string detected)
    {
        (int exit, string output, string error) = Binxml("decode", SamplePath(sample));
        Assert.Equal(0, exit);
        Assert.Equal(Xml(sample), output);
        Assert.Contains("detected " + detected, error);
    }

    [Fact]
    public void Decode_of_a_session_conversation_uses_one_cumulative_table()
    {
        string[] files = Enumerable.Range(1, 4).Select(i => SamplePath($"session/message-{i}.bin")).ToArray();
        (int exit, string output, string error) = Binxml(["decode", .. files]);
        Assert.Equal(0, exit);
        Assert.Equal(string.Concat(Enumerable.Range(1, 4).Select(i => Xml($"session/message-{i}.bin"))), output);
        Assert.Equal(4, error.Split('\n').Count(l => l.Contains("detected msbinsession1")));
        // The later messages alone refer to ids the first message defined.
        (int alone, _, string reason) = Binxml("decode", "--format", "msbinsession1", files[1]);
        Assert.Equal(1, alone);
        Assert.Contains("not defined in the session", reason);
    }

    [Fact]
    public void Decode_reads_hex_base64_and_standard_input()
    {
        byte[] bytes = File.ReadAllBytes(SamplePath("msbin1-request.bin"));
        string expected = Xml("msbin1-request.bin");
        string dir = TempFolders.Create();
        string hexFile = Path.Combine(dir, "m.hex");
        File.WriteAllText(hexFile, string.Join("\n", bytes.Chunk(16).Select(c => string.Join(" ", c.Select(b => "0x" + b.ToString("x2"))))));
        Assert.Equal(expected, Binxml("decode", "--input", "hex", hexFile).Out);
        string b64File = Path.Combine(dir, "m.b64");
        File.WriteAllText(b64File, Convert.ToBase64String(bytes));
        Assert.Equal(expected, Binxml("decode", "--input", "base64", b64File).Out);
        Assert.Equal(expected, BinxmlWithInput(bytes, "decode", "-").Out);
        // Base64 broken into lines, as captures are often copied.
        File.WriteAllText(b64File, string.Join("\r\n", Convert.ToBase64String(bytes).Chunk(76).Select(c => new string(c))));
        Assert.Equal(expected, Binxml("decode", "--input", "base64", b64File).Out);

        // Text that is not hex or base64: one line naming the file.
        File.WriteAllText(hexFile, "56 0G");
        (int hexExit, _, string hexError) = Binxml("decode", "--input", "hex", hexFile);
        Assert.Equal(1, hexExit);
        Assert.Equal($"binxml: error: {hexFile}: '0G' is not hex.\n", hexError);
        File.WriteAllText(b64File, "VmA*");
        (int b64Exit, _, string b64Error) = Binxml("decode", "--input", "base64", b64File);
        Assert.Equal(1, b64Exit);
        Assert.StartsWith($"binxml: error: {b64File}: ", b64Error);
    }

    [Fact]
    public void Decode_with_a_private_dictionary_and_indent()
    {
        string dir = TempFolders.Create();
        string dict = Path.Combine(dir, "dict.tsv");
        File.WriteAllText(dict, "0x0A\tOrder\n0x0C\tId\n0x03\tsessionName\n");
        string doc = Path.Combine(dir, "doc.bin");
        File.WriteAllBytes(doc, Hex.Parse("42 0A 42 0C 89 07 42 03 A8 01 01"));
        (int exit, string output, _) = Binxml("decode", "--format", "nbfx", "--dictionary", dict, doc);
        Assert.Equal(0, exit);
        Assert.Equal("<Order><Id>7</Id><sessionName></sessionName></Order>\n", output);
        (_, string indented, _) = Binxml("decode", "--format", "nbfx", "--dictionary", dict, "--indent", doc);
        Assert.Equal("<Order>\n  <Id>7</Id>\n  <sessionName></sessionName>\n</Order>\n", indented.Replace("\r", ""));
    }

    [Fact]
    public void Dump_lists_every_record_with_offsets_and_the_string_table_ids()
    {
        (int exit, string output, _) = Binxml("dump", SamplePath("session/message-1.bin"));
        Assert.Equal(0, exit);
        Assert.Contains("StringTable:", output);
        Assert.Contains("id 1 (session 0) = \"http://tempuri.org/IOrderService/GetOrder\"", output);
        Assert.Contains("PrefixDictionaryElementS", output);
        Assert.Contains("s:Envelope [id 2]", output);
        Assert.Contains("DictionaryTextWithEndElement", output);
        Assert.Contains("UniqueIdTextWithEndElement", output);
        // Offsets are message offsets: the first record after the table.
        byte[] bytes = File.ReadAllBytes(SamplePath("session/message-1.bin"));
        BinaryXml.Soap.SessionStringTable.Read(bytes, out int tableSize);
        Assert.Contains($"{tableSize:X6}  56  PrefixDictionaryElementS", output);

        (int nmfExit, string nmf, _) = Binxml("dump", SamplePath("nettcp-stream.bin"));
        Assert.Equal(0, nmfExit);
        Assert.Contains("NMF Version", nmf);
        Assert.Contains("NMF Via                            \"net.tcp://localhost:8000/orders\"", nmf);
        Assert.Contains("NMF KnownEncoding                  8 Soap12BinarySession", nmf);
        Assert.Equal(3, nmf.Split('\n').Count(l => l.Contains("NMF SizedEnvelope")));
        Assert.Contains("6 items: 3, 1, 4, 1, 5, 9", nmf);
    }

    [Theory]
    [InlineData("msbin1")]
    [InlineData("msbinsession1")]
    [InlineData("nbfx")]
    public void Decode_then_encode_round_trips_to_the_same_xml(string format)
    {
        string dir = TempFolders.Create();
        string[] xmlFiles = new[] { "msbin1-request.xml", "session/message-1.xml", "session/message-3.xml" }
            .Select(f => { string to = Path.Combine(dir, Path.GetFileName(f)); File.Copy(SamplePath(f), to); return to; }).ToArray();
        string outDir = Path.Combine(dir, "out");
        (int exit, _, string error) = Binxml(["encode", "--format", format, "--output", outDir, "--output-format", "binary", .. xmlFiles]);
        Assert.True(exit == 0, error);
        string[] encoded = xmlFiles.Select(f => Path.Combine(outDir, Path.GetFileNameWithoutExtension(f) + ".bin")).ToArray();
        (int decodeExit, string output, string decodeError) = Binxml(["decode", "--format", format, .. encoded]);
        Assert.True(decodeExit == 0, decodeError);
        Assert.Equal(string.Concat(xmlFiles.Select(f => File.ReadAllText(f).ReplaceLineEndings("\n"))), output);
    }

    [Fact]
    public void Encode_to_nmf_uses_the_static_dictionary_and_one_session()
    {
        string dir = TempFolders.Create();
        string a = Path.Combine(dir, "a.xml"), b = Path.Combine(dir, "b.xml");
        File.Copy(SamplePath("session/message-1.xml"), a);
        File.Copy(SamplePath("session/message-2.xml"), b);
        (int exit, string hex, _) = Binxml("encode", "--format", "nmf", a, b);
        Assert.Equal(0, exit);
        byte[] stream = Hex.Parse(hex);
        Assert.True(BinaryXml.Soap.Nmf.NmfDecoder.LooksLikeNmf(stream));
        var envelopes = BinaryXml.Soap.Nmf.NmfDecoder.Decode(stream, out _, out _);
        Assert.Equal([File.ReadAllText(a).TrimEnd('\n'), File.ReadAllText(b).TrimEnd('\n')], envelopes.Select(e => e.Xml));
        Assert.True(envelopes[1].Message.Length < envelopes[0].Message.Length);
        Assert.Equal(0, envelopes[1].Message[0]); // the second message adds nothing to the session
    }

    [Fact]
    public void Encode_honours_type_markers()
    {
        string dir = TempFolders.Create();
        string file = Path.Combine(dir, "t.xml");
        File.WriteAllText(file, "<v xmlns:t=\"urn:binaryxml:types\"><n t:type=\"int\">300</n><s>300</s><d t:type=\"double\">0.5</d></v>");
        (int exit, string hex, _) = Binxml("encode", "--format", "nbfx", file);
        Assert.Equal(0, exit);
        Assert.Equal("40 01 76 40 01 6E 8B 2C 01 40 01 73 99 03 33 30 30 40 01 64 91 00 00 00 3F 01", hex.Trim());
    }

    [Fact]
    public void Errors_are_one_line_with_the_offset_and_a_hint()
    {
        (int exit, string output, string error) = Binxml("decode", "--format", "msbin1", SamplePath("nettcp-stream.bin"));
        Assert.Equal(1, exit);
        Assert.Equal("", output);
        string line = Assert.Single(error.TrimEnd('\n').Split('\n'));
        Assert.StartsWith("binxml: error: ", line);
        Assert.Contains("Record type 0x00 is reserved (at byte offset 0 = 0x0, record Reserved(0x00))", line);
        Assert.Contains("try --format nmf", line);

        (_, _, string session) = Binxml("decode", "--format", "msbin1", SamplePath("session/message-1.bin"));
        Assert.Contains("try --format msbinsession1", session);

        string dir = TempFolders.Create();
        string broken = Path.Combine(dir, "broken.bin");
        byte[] bytes = File.ReadAllBytes(SamplePath("msbin1-request.bin"));
        File.WriteAllBytes(broken, bytes[..40]);
        (int cutExit, _, string cut) = Binxml("decode", "--format", "msbin1", broken);
        Assert.Equal(1, cutExit);
        Assert.Matches(@"^binxml: error: .*broken\.bin: .* \(at byte offset \d+ = 0x[0-9A-F]+(, record \w+|, in the node that starts at \d+ = 0x[0-9A-F]+ with record \w+)?\)\n$", cut);

        (int missingExit, _, string missing) = Binxml("decode", Path.Combine(dir, "nope.bin"));
        Assert.Equal(1, missingExit);
        Assert.StartsWith("binxml: error: ", missing);
    }

    [Fact]
    public void An_error_at_a_field_names_the_record_of_the_node_it_is_in()
    {
        // PrefixDictionaryElementS with id 2 and no dictionary: the failure is at the id, whose byte (0x02) is a Comment
        // record's type; the error was once labelled with that record, not with the element's.
        string file = WriteTemp("id.bin", [0x56, 0x02]);
        foreach (string command in new[] { "decode", "dump" })
        {
            (int exit, _, string error) = Binxml(command, "--format", "nbfx", file);
            Assert.Equal(1, exit);
            Assert.EndsWith("id.bin: Static dictionary id 2 is used but no dictionary was given (at byte offset 1 = 0x1, in the node that starts at 0 = 0x0 with record PrefixDictionaryElementS)\n", error);
            Assert.DoesNotContain("Comment", error);
        }
    }

    [Fact]
    public void Names_from_the_input_are_printed_with_control_characters_escaped()
    {
        // An element named "a", a line feed, "ESC[31m" and "b", left open: the error names it, and dump lists it; a
        // line break or a terminal's escape sequence from a capture must not reach the terminal as it is.
        byte[] name = Encoding.UTF8.GetBytes("a\n\u001B[31mb");
        string file = WriteTemp("names.bin", [0x40, (byte)name.Length, .. name, 0x40, 0x01, (byte)'c', 0x98, 0x01, (byte)'x']);
        foreach (string command in new[] { "decode", "dump" })
        {
            (int exit, string output, string error) = Binxml(command, "--format", "nbfx", file);
            Assert.Equal(1, exit);
            Assert.Equal($"binxml: error: {file}: Unexpected end of file. Following elements are not closed: c, a\\x0A\\x1B[31mb (at byte offset {name.Length + 8} = 0x{name.Length + 8:X})\n", error);
            if (command == "dump") Assert.Contains("000000  40  ShortElement                       a\\x0A\\x1B[31mb ", output);
        }
    }

    [Theory]
    [InlineData("comment", new byte[] { 0x40, 0x01, (byte)'a', 0x02, 0x05, (byte)'a', (byte)'-', (byte)'-', (byte)'>', (byte)'b', 0x01 })]
    [InlineData("name", new byte[] { 0x40, 0x03, (byte)'a', (byte)' ', (byte)'b', 0x01 })]
    [InlineData("carriage return", new byte[] { 0x40, 0x01, (byte)'a', 0x99, 0x03, (byte)'x', (byte)'\r', (byte)'\n' })]
    public void Indent_changes_nothing_but_white_space_between_tags_or_leaves_the_message_as_it_is(string what, byte[] doc)
    {
        // A comment holding "-->" read back as XML is a comment and text; a name with a space does not read back; a
        // carriage return reads back as a line feed. Such a message is printed as rendered, and standard error says so.
        string file = WriteTemp("odd.bin", doc);
        (int exit, string plain, _) = Binxml("decode", "--format", "nbfx", file);
        Assert.Equal(0, exit);
        (int indentExit, string indented, string note) = Binxml("decode", "--format", "nbfx", "--indent", file);
        Assert.Equal(0, indentExit);
        Assert.Equal(plain, indented);
        Assert.Contains("is printed as it is, not indented", note);
        Assert.True(note.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length == 1, what);
    }

    [Fact]
    public void A_text_envelope_is_decoded_and_dumped_as_its_text()
    {
        const string xml = "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>Zoë</s:Body></s:Envelope>";
        var buffer = new ArrayBufferWriter<byte>();
        var nmf = new BinaryXml.Soap.Nmf.NmfWriter(buffer);
        nmf.WritePreamble(BinaryXml.Soap.Nmf.NmfMode.Duplex, "net.tcp://localhost/", BinaryXml.Soap.Nmf.NmfKnownEncoding.Soap12Utf16);
        nmf.WriteSizedEnvelope(Encoding.Unicode.GetBytes(xml));
        nmf.WriteEnd();
        string file = WriteTemp("text.bin", buffer.WrittenSpan.ToArray());
        (int exit, string output, _) = Binxml("decode", file);
        Assert.Equal(0, exit);
        Assert.Equal(xml + "\n", output);
        (int dumpExit, string dump, _) = Binxml("dump", file);
        Assert.Equal(0, dumpExit);
        Assert.Contains("text message: \"<s:Envelope xmlns:s=", dump);
    }

    [Fact]
    public void Dump_lists_the_records_before_a_failure()
    {
        string broken = WriteTemp("broken.bin", File.ReadAllBytes(SamplePath("msbin1-request.bin"))[..60]);
        (int exit, string output, string error) = Binxml("dump", broken);
        Assert.Equal(1, exit);
        (_, string whole, _) = Binxml("dump", SamplePath("msbin1-request.bin"));
        // Every record that ends within the 60 bytes is listed as the whole file's dump lists it.
        string[] lines = output.TrimEnd('\n').Split('\n')[1..];
        Assert.True(lines.Length >= 5, output);
        string[] wholeLines = whole.Split('\n');
        foreach (string line in lines[..^1]) Assert.Contains(line, wholeLines);
        Assert.StartsWith("000000  56  PrefixDictionaryElementS", lines[0]);
        Assert.Contains("Following elements are not closed", error);
        Assert.Contains("(at byte offset 60 = 0x3C)", error);
    }

    [Fact]
    public void A_stream_broken_in_its_third_envelope_prints_the_first_two_and_the_stream_offset()
    {
        byte[] stream = File.ReadAllBytes(SamplePath("nettcp-stream.bin"));
        var envelopes = BinaryXml.Soap.Nmf.NmfDecoder.Decode(stream, out _, out _);
        Assert.Equal(3, envelopes.Count);
        // The third message's last byte, its last EndElement, made a reserved record type.
        int at = envelopes[2].Offset + envelopes[2].Message.Length - 1;
        Assert.Equal(0x01, stream[at]);
        stream[at] = 0x3F;
        string file = WriteTemp("stream.bin", stream);
        string[] xml = Xml("nettcp-stream.bin").TrimEnd('\n').Split('\n');
        foreach (string[] args in new[] { new[] { "decode", file }, ["decode", "--format", "nmf", file] })
        {
            (int exit, string output, string error) = Binxml(args);
            Assert.Equal(1, exit);
            Assert.Equal(xml[0] + "\n" + xml[1] + "\n", output);
            string line = error.TrimEnd('\n').Split('\n')[^1];
            Assert.EndsWith($"Envelope at offset {envelopes[2].Offset}: An attribute record (PrefixAttributeZ) appears where element content is expected (at byte offset {at} = 0x{at:X}, record PrefixAttributeZ)", line);
        }
        (int dumpExit, string dump, string dumpError) = Binxml("dump", file);
        Assert.Equal(1, dumpExit);
        // Offsets in the dump and in its error are the stream's, the error the one decode gives, without a hint to
        // try the format that was detected.
        Assert.Contains($"{at - 1:X6}  01  EndElement", dump);
        Assert.EndsWith($"Envelope at offset {envelopes[2].Offset}: An attribute record (PrefixAttributeZ) appears where element content is expected (at byte offset {at} = 0x{at:X}, record PrefixAttributeZ)\n", dumpError);
        Assert.DoesNotContain("try --format", dumpError);
    }

    [Fact]
    public void A_compressed_input_reports_offsets_in_its_decompressed_bytes()
    {
        byte[] message = File.ReadAllBytes(SamplePath("msbin1-request.bin"))[..60];
        string file = WriteTemp("cut.gz", BinaryXml.Soap.MessageCompressor.Compress(message, BinaryXml.Soap.MessageCompression.GZip));
        foreach (string command in new[] { "decode", "dump" })
        {
            (int exit, string output, string error) = Binxml(command, file);
            Assert.Equal(1, exit);
            Assert.EndsWith("(at byte offset 60 = 0x3C of the gzip-decompressed input)\n", error);
            Assert.DoesNotContain("try --format", error);
            if (command == "dump") Assert.StartsWith("# " + file + ": 60 bytes gzip-decompressed, msbin1\n", output);
        }
    }

    [Fact]
    public void Dump_and_decode_read_compressed_envelopes_of_an_extensible_encoding()
    {
        // An MC-NMF stream announcing application/soap+msbinsession1+gzip (an ExtensibleEncoding record): the two
        // messages of the session sample, compressed, the second cut short.
        byte[] first = File.ReadAllBytes(SamplePath("session/message-1.bin")), second = File.ReadAllBytes(SamplePath("session/message-2.bin"));
        byte[] Gz(byte[] m) => BinaryXml.Soap.MessageCompressor.Compress(m, BinaryXml.Soap.MessageCompression.GZip);
        var buffer = new ArrayBufferWriter<byte>();
        buffer.Write<byte>([0x00, 0x01, 0x00, 0x01, 0x02, 0x02, 0x03, (byte)'v', (byte)'i', (byte)'a']);
        byte[] contentType = Encoding.UTF8.GetBytes(BinaryXml.Soap.BinaryMessageContentType.Get(session: true, BinaryXml.Soap.MessageCompression.GZip));
        buffer.Write<byte>([0x04, (byte)contentType.Length, .. contentType, 0x0C]);
        var nmf = new BinaryXml.Soap.Nmf.NmfWriter(buffer);
        nmf.WriteSizedEnvelope(Gz(first));
        int secondOffset = buffer.WrittenCount + 2;
        nmf.WriteSizedEnvelope(Gz(second[..40]));
        nmf.WriteEnd();
        string file = WriteTemp("gzip-session.bin", buffer.WrittenSpan.ToArray());

        (int exit, string output, string error) = Binxml("decode", file);
        Assert.Equal(1, exit);
        Assert.Equal(Xml("session/message-1.bin"), output);
        // The failure the plain messages give, in the second message's bytes.
        var decoder = new BinaryXml.Soap.BinaryMessageDecoder(session: true);
        decoder.ToXml(first);
        BinaryXmlException plainFailure = Assert.Throws<BinaryXmlException>(() => decoder.ToXml(second[..40]));
        string reason = $"Envelope at offset {secondOffset}, at byte offset {plainFailure.Offset} of its decompressed message: {plainFailure.Reason}";
        Assert.Contains(reason, error);
        Assert.EndsWith($"(at byte offset {secondOffset} = 0x{secondOffset:X})\n", error);

        (int dumpExit, string dump, string dumpError) = Binxml("dump", file);
        Assert.Equal(1, dumpExit);
        Assert.Contains(reason, dumpError);
        // The first message's records, at offsets in its decompressed bytes, as the plain message's dump gives them.
        Assert.Contains($"GZip message: {Gz(first).Length} bytes; the offsets below are in its {first.Length} bytes decompressed", dump);
        (_, string plain, _) = Binxml("dump", SamplePath("session/message-1.bin"));
        string[] dumpLines = dump.Split('\n');
        foreach (string line in plain.Split('\n').Skip(1).Where(l => l.Length > 0 && !l.Contains("StringTable"))) Assert.Contains(line, dumpLines);
    }

    [Fact]
    public void Regression_corpus_decodes_and_dumps_with_the_tool_or_fails_with_its_one_line_error()
    {
        // (nmf-crash-51a64fb21035: an unsized envelope of no chunk, which decode's report of the chunk size and dump's
        // summary of the chunks indexed past.)
        string dir = Path.Combine(AppContext.BaseDirectory, "regressions");
        string[] files = Directory.GetFiles(dir, "*.bin");
        Assert.Contains(files, f => f.EndsWith("nmf-crash-51a64fb21035.bin", StringComparison.Ordinal));
        foreach (string file in files)
        {
            foreach (string[] command in new[] { new[] { "decode", "--types", file }, ["decode", "--indent", file], ["dump", file] })
            {
                (int exit, _, string error) = Binxml(command);
                string last = error.TrimEnd('\n').Split('\n')[^1];
                Assert.True(exit == 0 || (exit == 1 && last.StartsWith("binxml: error: ", StringComparison.Ordinal)), $"{string.Join(' ', command)}: exit {exit}\n{error}");
            }
        }
    }

    /// <summary>A streamed net.tcp request as WCF's client sends it: mode SingletonUnsized, msbin1, one unsized envelope, End.</summary>
    internal static byte[] StreamedCapture(byte[] message, string via, int maxChunkSize = 65536)
    {
        var output = new ArrayBufferWriter<byte>();
        var nmf = new BinaryXml.Soap.Nmf.NmfWriter(output);
        nmf.WritePreamble(BinaryXml.Soap.Nmf.NmfMode.SingletonUnsized, via, BinaryXml.Soap.Nmf.NmfKnownEncoding.Soap12Binary);
        nmf.WriteUnsizedEnvelope(message, maxChunkSize);
        nmf.WriteEnd();
        return output.WrittenSpan.ToArray();
    }

    [Fact]
    public void Dump_lists_an_unsized_envelopes_records_at_their_offsets_in_its_chunks()
    {
        // The sample request in chunks of 16 bytes: each record at the stream offset of its first byte, past the chunk
        // headers before it. The first chunk's data starts at 0x20; the third record of its second chunk (an
        // attribute's value, 0x82, at 0x31 after the header at 0x30) is followed by Action's text at 0x32.
        byte[] message = File.ReadAllBytes(SamplePath("msbin1-request.bin"));
        byte[] stream = StreamedCapture(message, "net.tcp://localhost/", maxChunkSize: 16);
        Assert.Equal(0x10, stream[0x30]);
        Assert.Equal(0x99, stream[0x32]);
        (int exit, string dump, string error) = Binxml("dump", WriteTemp("chunked.bin", stream));
        Assert.True(exit == 0, error);
        Assert.Contains("\n00001E  05  NMF UnsizedEnvelope                204 bytes in 13 chunks of 16 (the last 12)\n", dump);
        Assert.Contains("\n000020  56  PrefixDictionaryElementS ", dump);
        Assert.Contains("\n000032  99  Chars8TextWithEndElement ", dump);
        // The offset of the message's last byte, past twelve chunk headers (204 bytes in chunks of 16).
        Assert.Contains($"\n{0x20 + message.Length - 1 + 12:X6}  01  EndElement ", dump);
    }

    [Fact]
    public void Auto_detects_gzip_and_deflate()
    {
        byte[] bytes = File.ReadAllBytes(SamplePath("session/message-1.bin"));
        string dir = TempFolders.Create();
        foreach ((BinaryXml.Soap.MessageCompression c, string name) in new[] { (BinaryXml.Soap.MessageCompression.GZip, "gzip"), (BinaryXml.Soap.MessageCompression.Deflate, "deflate") })
        {
            string file = Path.Combine(dir, name + ".bin");
            File.WriteAllBytes(file, BinaryXml.Soap.MessageCompressor.Compress(bytes, c));
            (int exit, string output, string error) = Binxml("decode", file);
            Assert.Equal(0, exit);
            Assert.Equal(Xml("session/message-1.bin"), output);
            Assert.Contains($"detected msbinsession1 ({name})", error);
        }
    }

    private static string FindRepositoryRoot()
    {
        for (DirectoryInfo? d = new(AppContext.BaseDirectory); d is not null; d = d.Parent)
        {
            if (File.Exists(Path.Combine(d.FullName, "BinaryXml.sln"))) return d.FullName;
        }
        throw new InvalidOperationException("BinaryXml.sln not found");
    }
}
