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
    private static (int Exit, string Out, string Err) Binxml(params string[] args) => BinxmlWithInput(null, args);

    private static (int Exit, string Out, string Err) BinxmlWithInput(byte[]? stdin, params string[] args)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();
        int exit = BinxmlApp.Run(args, stdout, stderr, () => new MemoryStream(stdin ?? []));
        return (exit, stdout.ToString().ReplaceLineEndings("\n"), stderr.ToString().ReplaceLineEndings("\n"));
    }

    private static string SamplePath(string name) => Path.Combine(Samples.Folder, name);

    private static string Xml(string name) => File.ReadAllText(SamplePath(Path.ChangeExtension(name, ".xml")), Encoding.UTF8).ReplaceLineEndings("\n");

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
        }
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
        string dir = Directory.CreateTempSubdirectory().FullName;
        string hexFile = Path.Combine(dir, "m.hex");
        File.WriteAllText(hexFile, string.Join("\n", bytes.Chunk(16).Select(c => string.Join(" ", c.Select(b => "0x" + b.ToString("x2"))))));
        Assert.Equal(expected, Binxml("decode", "--input", "hex", hexFile).Out);
        string b64File = Path.Combine(dir, "m.b64");
        File.WriteAllText(b64File, Convert.ToBase64String(bytes));
        Assert.Equal(expected, Binxml("decode", "--input", "base64", b64File).Out);
        Assert.Equal(expected, BinxmlWithInput(bytes, "decode", "-").Out);
    }

    [Fact]
    public void Decode_with_a_private_dictionary_and_indent()
    {
        string dir = Directory.CreateTempSubdirectory().FullName;
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
        string dir = Directory.CreateTempSubdirectory().FullName;
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
        string dir = Directory.CreateTempSubdirectory().FullName;
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
        string dir = Directory.CreateTempSubdirectory().FullName;
        string file = Path.Combine(dir, "t.xml");
        File.WriteAllText(file, "<v xmlns:t=\"urn:binaryxml:types\"><n t:type=\"int\">300</n><s>300</s><d t:type=\"double\">0.5</d></v>");
        (int exit, string hex, _) = Binxml("encode", "--format", "nbfx", file);
        Assert.Equal(0, exit);
        Assert.Equal("40 01 76 40 01 6E 8B 2C 01 40 01 73 99 03 33 30 30 40 01 64 91 00 00 00 3F 01", hex.Trim());
    }

    [Fact]
    public void Errors_are_one_line_with_offset_record_and_a_hint()
    {
        (int exit, string output, string error) = Binxml("decode", "--format", "msbin1", SamplePath("nettcp-stream.bin"));
        Assert.Equal(1, exit);
        Assert.Equal("", output);
        string line = Assert.Single(error.TrimEnd('\n').Split('\n'));
        Assert.StartsWith("binxml: error: ", line);
        Assert.Contains("at byte offset 0, record Reserved(0x00)", line);
        Assert.Contains("try --format nmf", line);

        (_, _, string session) = Binxml("decode", "--format", "msbin1", SamplePath("session/message-1.bin"));
        Assert.Contains("try --format msbinsession1", session);

        string dir = Directory.CreateTempSubdirectory().FullName;
        string broken = Path.Combine(dir, "broken.bin");
        byte[] bytes = File.ReadAllBytes(SamplePath("msbin1-request.bin"));
        File.WriteAllBytes(broken, bytes[..40]);
        (int cutExit, _, string cut) = Binxml("decode", "--format", "msbin1", broken);
        Assert.Equal(1, cutExit);
        Assert.Matches(@"^binxml: error: .*broken\.bin: .* \(at byte offset \d+(, record \w+)?\)\n$", cut);

        (int missingExit, _, string missing) = Binxml("decode", Path.Combine(dir, "nope.bin"));
        Assert.Equal(1, missingExit);
        Assert.StartsWith("binxml: error: ", missing);
    }

    [Fact]
    public void Auto_detects_gzip_and_deflate()
    {
        byte[] bytes = File.ReadAllBytes(SamplePath("session/message-1.bin"));
        string dir = Directory.CreateTempSubdirectory().FullName;
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
