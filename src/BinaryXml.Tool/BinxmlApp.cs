using System.Buffers;
using System.CommandLine;
using System.Text;
using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Soap.Nmf;

namespace BinaryXml.Tool;

/// <summary>The <c>binxml</c> command line: decode, encode and dump. Runs in-process with any streams.</summary>
public static class BinxmlApp
{
    /// <summary>Exit code for success.</summary>
    public const int Success = 0;

    /// <summary>Exit code for input that could not be decoded or encoded.</summary>
    public const int InputError = 1;

    /// <summary>Runs the tool; returns the exit code.</summary>
    public static int Run(string[] args, TextWriter stdout, TextWriter stderr, Func<Stream> stdin)
    {
        RootCommand root = Build(stdout, stderr, stdin);
        // No response files: an argument starting with '@' is what it says (a file's name, a Via as decode printed it),
        // not the name of a file of more arguments (fuzz finding nmf-crash-f51c7c99b089: a Via "@\u0001").
        var parsing = new ParserConfiguration { ResponseFileTokenReplacer = null };
        return root.Parse(args, parsing).Invoke(new InvocationConfiguration { Output = stdout, Error = stderr });
    }

    private static RootCommand Build(TextWriter stdout, TextWriter stderr, Func<Stream> stdin)
    {
        var files = new Argument<string[]>("FILE") { Description = "Input files, in order; '-' reads standard input.", Arity = ArgumentArity.OneOrMore };
        var format = new Option<MessageFormat>("--format", "-f") { Description = "auto, nbfx, msbin1, msbinsession1 or nmf.", DefaultValueFactory = _ => MessageFormat.Auto };
        var dictionary = new Option<string?>("--dictionary", "-d") { Description = "A private dictionary: lines of 'id<TAB>string' with raw wire ids." };
        var input = new Option<InputEncoding>("--input", "-i") { Description = "How the files hold the bytes: binary, hex or base64.", DefaultValueFactory = _ => InputEncoding.Binary };
        var indent = new Option<bool>("--indent") { Description = "Indent the XML." };
        var maxSessionSize = new Option<int>("--max-session-size") { Description = "The session quota in bytes (WCF's MaxSessionSize, 2048 unless a service sets more).", DefaultValueFactory = _ => 2048 };
        var types = new Option<bool>("--types") { Description = $"Mark the values' record types (attributes in {ValueTypeMarks.Namespace}; beside other content, processing instructions <?t type?>), so that encode writes the same records." };

        var decode = new Command("decode", "Print the XML of every message. Several files are consecutive messages of one session direction.")
        {
            files, format, dictionary, input, indent, types, maxSessionSize,
        };
        decode.SetAction(result => Guard(stderr, () => Decode(
            result.GetValue(files)!, result.GetValue(format), result.GetValue(dictionary), result.GetValue(input), result.GetValue(indent), result.GetValue(types),
            SessionSize(result.GetValue(maxSessionSize)), stdout, stderr, stdin)));

        var encodeFiles = new Argument<string[]>("FILE") { Description = "XML files, in order, each of one message or several (one top-level element each, as decode prints them); '-' reads standard input.", Arity = ArgumentArity.OneOrMore };
        var encodeFormat = new Option<MessageFormat>("--format", "-f") { Description = "nbfx, msbin1, msbinsession1 or nmf.", DefaultValueFactory = _ => MessageFormat.Msbin1 };
        var output = new Option<string?>("--output", "-o") { Description = "Where to write: a file (one message, or nmf), else a directory of <name>.bin files (<name>-1.bin, … for a file of several). Without it, hex on standard output." };
        var outputEncoding = new Option<InputEncoding>("--output-format") { Description = "hex, base64 or binary (binary needs --output).", DefaultValueFactory = _ => InputEncoding.Hex };
        var compress = new Option<MessageCompression>("--compress") { Description = "None, gzip or deflate: each message compressed (an nmf stream announces it as WCF does, application/soap+msbinsession1+gzip).", DefaultValueFactory = _ => MessageCompression.None };
        var reply = new Option<bool>("--reply") { Description = "With --format nmf: the reply direction (PreambleAck, the envelopes, End) instead of the request's preamble." };
        var ignoreWhitespace = new Option<bool>("--ignore-whitespace") { Description = "Drop white space between tags (what decode --indent adds); white space alone in an element stays its text." };
        var via = new Option<string>("--via") { Description = "The Via of an nmf stream.", DefaultValueFactory = _ => "net.tcp://localhost/binxml" };
        var chunkSize = new Option<int>("--chunk-size") { Description = "With --mode SingletonUnsized: the size of the data chunks of an unsized envelope (the last may be shorter).", DefaultValueFactory = _ => NmfWriter.DefaultMaxChunkSize };
        var mode = new Option<NmfMode>("--mode") { Description = "The mode of an nmf stream: Duplex (buffered net.tcp: msbinsession1, sized envelopes), Simplex (the same, one way), SingletonUnsized (streamed net.tcp: one msbin1 message in an unsized envelope) or SingletonSized (one msbin1 message, sized).", DefaultValueFactory = _ => NmfMode.Duplex };
        var encode = new Command("encode", "Turn XML text into binary XML, using the MC-NBFS dictionary and a session as WCF does.")
        {
            encodeFiles, encodeFormat, dictionary, output, outputEncoding, via, mode, chunkSize, reply, compress, ignoreWhitespace, maxSessionSize,
        };
        encode.SetAction(result => Guard(stderr, () => Encode(
            result.GetValue(encodeFiles)!, result.GetValue(encodeFormat), result.GetValue(dictionary), result.GetValue(output), result.GetValue(outputEncoding),
            result.GetValue(via)!, result.GetValue(mode), result.GetValue(chunkSize), result.GetValue(reply), result.GetValue(compress), result.GetValue(ignoreWhitespace), SessionSize(result.GetValue(maxSessionSize)), stdout, stdin)));

        var dumpFile = new Argument<string[]>("FILE") { Description = "Input files, in order (consecutive messages of one session direction).", Arity = ArgumentArity.OneOrMore };
        var dump = new Command("dump", "List every record: offset, type byte, record name, value and raw bytes; StringTables with the ids they assign.")
        {
            dumpFile, format, dictionary, input, maxSessionSize,
        };
        dump.SetAction(result => Guard(stderr, () => Dump(
            result.GetValue(dumpFile)!, result.GetValue(format), result.GetValue(dictionary), result.GetValue(input), SessionSize(result.GetValue(maxSessionSize)), stdout, stderr, stdin)));

        return new RootCommand("binxml: decode, encode and dump .NET binary XML (MC-NBFX), WCF msbin1/msbinsession1 messages and net.tcp (MC-NMF) captures.")
        {
            decode, encode, dump,
        };
    }

    /// <summary>
    /// What decode says of an nmf stream's framing, with the encode options that write it again: a reply direction (no
    /// preamble), its Via, its mode unless Duplex (encode's default; a reply of unsized envelopes is streamed net.tcp's,
    /// SingletonUnsized), its unsized envelopes' chunk size unless encode's default would chunk them so.
    /// </summary>
    private static string Framing(Decoding decoding)
    {
        var parts = new List<string>();
        var options = new List<string>();
        if (decoding.IsReply)
        {
            parts.Add("a reply direction");
            options.Add("--reply");
        }
        if (decoding.Via is not null) parts.Add("via " + Printable.Escape(decoding.Via));
        NmfMode? mode = decoding.Mode ?? (decoding.ChunkSize is not null ? NmfMode.SingletonUnsized : null);
        if (mode is NmfMode m && m != NmfMode.Duplex)
        {
            parts.Add($"mode {m}");
            options.Add($"--mode {m}");
        }
        if (decoding.ChunkSize is -1)
        {
            parts.Add("chunks of different sizes (encode writes chunks of one size)");
        }
        else if (decoding.ChunkSize is int size && size > 0 && size != NmfWriter.DefaultMaxChunkSize)
        {
            parts.Add($"chunks of {size} bytes");
            options.Add($"--chunk-size {size}");
        }
        return string.Join(", ", parts) + (options.Count == 0 ? "" : $" (encode {string.Join(' ', options)})");
    }

    private static int SessionSize(int bytes) => bytes >= 0 ? bytes : throw new ToolException("--max-session-size is a number of bytes, 0 or more.");

    /// <summary>Turns every failure into one line on standard error and exit code 1.</summary>
    private static int Guard(TextWriter stderr, Func<int> action)
    {
        try
        {
            return action();
        }
        catch (ToolException e)
        {
            stderr.WriteLine("binxml: error: " + Printable.Escape(e.Message));
            return InputError;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or XmlException or ArgumentException or InvalidOperationException)
        {
            stderr.WriteLine("binxml: error: " + Printable.Escape(e.Message));
            return InputError;
        }
    }

    private static int Decode(string[] files, MessageFormat format, string? dictionaryPath, InputEncoding input, bool indent, bool types, int maxSessionSize, TextWriter stdout, TextWriter stderr, Func<Stream> stdin)
    {
        DictionaryFile? dictionary = dictionaryPath is null ? null : DictionaryFile.Load(dictionaryPath);
        var decoding = new Decoding(format, dictionary, types, maxSessionSize);
        foreach (string file in files)
        {
            byte[] data = InputFile.Read(file, input, stdin);
            var messages = new List<DecodedMessage>();
            BinaryXmlException? failure = null;
            try
            {
                decoding.Decode(data, messages);
            }
            catch (BinaryXmlException e)
            {
                failure = e;
            }
            // The messages decoded before a failure are printed before it is reported.
            if (decoding.Detected is not null) stderr.WriteLine($"binxml: {file}: detected {decoding.Detected}");
            if (decoding.IsNmf && Framing(decoding) is { Length: > 0 } framing) stderr.WriteLine($"binxml: {file}: {framing}");
            foreach (DecodedMessage m in messages)
            {
                string? indented = indent ? Indent(m.Xml) : null;
                if (indent && indented is null) stderr.WriteLine($"binxml: {file}: a message at byte offset {m.Offset} is printed as it is, not indented: read back as XML it would not be the same (a comment holding '-->', a name that is not an XML name, a carriage return){(types ? ": encode will not give its bytes" : "")}");
                else if (types && !indent && !ReadsBackAsIs(m.Xml)) stderr.WriteLine($"binxml: {file}: a message at byte offset {m.Offset} would not read back as the same XML (a comment holding '-->', a name that is not an XML name): encode will not give its bytes");
                stdout.WriteLine(indented ?? m.Xml);
            }
            if (failure is not null) throw Describe(file, decoding.Input, decoding.Compression, failure, format);
        }
        return Success;
    }

    private static int Dump(string[] files, MessageFormat format, string? dictionaryPath, InputEncoding input, int maxSessionSize, TextWriter stdout, TextWriter stderr, Func<Stream> stdin)
    {
        DictionaryFile? dictionary = dictionaryPath is null ? null : DictionaryFile.Load(dictionaryPath);
        var detector = new Decoding(MessageFormat.Auto, dictionary, maxSessionSize: maxSessionSize);
        BinaryMessageDecoder? session = null;
        foreach (string file in files)
        {
            byte[] data = InputFile.Read(file, input, stdin);
            MessageFormat f = format;
            MessageCompression compression = MessageCompression.None;
            if (f == MessageFormat.Auto)
            {
                (f, compression, data) = detector.Detect(data);
                stderr.WriteLine($"binxml: {file}: detected {f.ToString().ToLowerInvariant()}{(compression == MessageCompression.None ? "" : " (" + compression.ToString().ToLowerInvariant() + ")")}");
            }
            string decompressed = compression == MessageCompression.None ? "" : $" {compression.ToString().ToLowerInvariant()}-decompressed";
            stdout.WriteLine($"# {file}: {data.Length} bytes{decompressed}, {f.ToString().ToLowerInvariant()}");
            var dumper = new Dumper(stdout, XmlEncoder.DictionaryFor(f, dictionary), maxSessionSize);
            try
            {
                switch (f)
                {
                    case MessageFormat.Nmf:
                        dumper.DumpNmf(data);
                        break;
                    case MessageFormat.Msbinsession1:
                        session ??= new BinaryMessageDecoder(session: true, maxSessionSize: maxSessionSize, dictionary: XmlEncoder.DictionaryFor(f, dictionary), readerOptions: Decoding.Options);
                        dumper.DumpMessage(data, session, 0);
                        break;
                    default:
                        dumper.DumpDocument(data, 0, dictionary?.Session);
                        break;
                }
            }
            catch (BinaryXmlException e)
            {
                throw Describe(file, data, compression, e, format);
            }
        }
        return Success;
    }

    private static int Encode(string[] files, MessageFormat format, string? dictionaryPath, string? output, InputEncoding outputEncoding, string via, NmfMode mode, int chunkSize, bool reply, MessageCompression compress, bool ignoreWhitespace, int maxSessionSize, TextWriter stdout, Func<Stream> stdin)
    {
        if (format == MessageFormat.Auto) throw new ToolException("encode needs --format nbfx, msbin1, msbinsession1 or nmf.");
        if (reply && format != MessageFormat.Nmf) throw new ToolException("--reply is a direction of an nmf stream: give --format nmf.");
        if (mode != NmfMode.Duplex && format != MessageFormat.Nmf) throw new ToolException("--mode is the mode of an nmf stream: give --format nmf.");
        if (!Enum.IsDefined(mode)) throw new ToolException($"--mode {mode} is not an MC-NMF mode (Duplex, Simplex, SingletonUnsized, SingletonSized).");
        if (chunkSize <= 0) throw new ToolException("--chunk-size is a number of bytes, 1 or more.");
        if (chunkSize != NmfWriter.DefaultMaxChunkSize && mode != NmfMode.SingletonUnsized) throw new ToolException("--chunk-size is the size of an unsized envelope's chunks: give --mode SingletonUnsized.");
        // A reply has no preamble to announce its encoding: its envelopes are read as WCF writes them there, not compressed.
        if (reply && compress != MessageCompression.None) throw new ToolException("--reply with --compress: a reply stream has no encoding record to announce compression.");
        // WCF writes a singleton stream's message (streamed net.tcp) without a session.
        bool singleton = format == MessageFormat.Nmf && mode is NmfMode.SingletonUnsized or NmfMode.SingletonSized;
        if (outputEncoding == InputEncoding.Binary && output is null) throw new ToolException("binary output needs --output FILE.");
        DictionaryFile? dictionary = dictionaryPath is null ? null : DictionaryFile.Load(dictionaryPath);
        IXmlDictionary? staticDictionary = XmlEncoder.DictionaryFor(format, dictionary);
        var xml = new XmlEncoder(staticDictionary, ignoreWhitespace);
        var encoder = new BinaryMessageEncoder(session: format is MessageFormat.Msbinsession1 || (format == MessageFormat.Nmf && !singleton), compress, maxSessionSize, staticDictionary);
        // A file may hold several messages, one top-level element each (what decode prints for several).
        var messages = new List<(string Name, byte[] Bytes)>();
        foreach (string file in files)
        {
            string text = file == "-" ? new StreamReader(stdin(), Encoding.UTF8).ReadToEnd() : File.ReadAllText(file, Encoding.UTF8);
            var fromFile = new List<byte[]>();
            try
            {
                using XmlEncoder.MessageText m = xml.Open(new StringReader(text));
                while (XmlEncoder.HasMessage(m))
                {
                    fromFile.Add(format == MessageFormat.Nbfx
                        ? EncodeDocument(m, xml, staticDictionary, compress)
                        : encoder.WriteMessage(w => xml.Write(w, m)));
                }
            }
            catch (XmlException e)
            {
                string message = fromFile.Count == 0 ? "" : $" (message {fromFile.Count + 1})";
                throw new ToolException($"{file}{message}: {e.Message}");
            }
            if (fromFile.Count == 0) throw new ToolException($"{file}: there is no XML element.");
            string stem = Path.GetFileNameWithoutExtension(file);
            for (int i = 0; i < fromFile.Count; i++) messages.Add((fromFile.Count == 1 ? stem : $"{stem}-{i + 1}", fromFile[i]));
        }
        if (format == MessageFormat.Nmf)
        {
            var stream = new ArrayBufferWriter<byte>();
            var nmf = new NmfWriter(stream);
            if (singleton && messages.Count > 1) throw new ToolException($"--mode {mode} carries one message; the files hold {messages.Count}.");
            if (reply) nmf.WritePreambleAck();
            else if (compress == MessageCompression.None) nmf.WritePreamble(mode, via, singleton ? NmfKnownEncoding.Soap12Binary : NmfKnownEncoding.Soap12BinarySession);
            else nmf.WritePreamble(mode, via, encoder.ContentType);
            foreach ((_, byte[] bytes) in messages)
            {
                if (mode == NmfMode.SingletonUnsized) nmf.WriteUnsizedEnvelope(bytes, chunkSize);
                else nmf.WriteSizedEnvelope(bytes);
            }
            nmf.WriteEnd();
            messages = [("stream", stream.WrittenSpan.ToArray())];
        }
        if (output is null)
        {
            foreach ((_, byte[] bytes) in messages) stdout.WriteLine(Format(bytes, outputEncoding));
        }
        else if (messages.Count == 1)
        {
            WriteOutput(output, messages[0].Bytes, outputEncoding);
        }
        else
        {
            Directory.CreateDirectory(output);
            foreach ((string name, byte[] bytes) in messages) WriteOutput(Path.Combine(output, name + ".bin"), bytes, outputEncoding);
        }
        return Success;
    }

    private static byte[] EncodeDocument(XmlEncoder.MessageText text, XmlEncoder xml, IXmlDictionary? dictionary, MessageCompression compress)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(buffer, dictionary)) xml.Write(w, text);
        return compress == MessageCompression.None ? buffer.WrittenSpan.ToArray() : MessageCompressor.Compress(buffer.WrittenSpan, compress);
    }

    private static void WriteOutput(string path, byte[] bytes, InputEncoding encoding)
    {
        if (encoding == InputEncoding.Binary) File.WriteAllBytes(path, bytes);
        else File.WriteAllText(path, Format(bytes, encoding) + "\n");
    }

    private static string Format(byte[] bytes, InputEncoding encoding) => encoding switch
    {
        InputEncoding.Base64 => Convert.ToBase64String(bytes),
        _ => string.Join(' ', bytes.Select(b => b.ToString("X2", System.Globalization.CultureInfo.InvariantCulture))),
    };

    /// <summary>
    /// One line: the file, what was wrong and the offset (in decimal, and in hex as dump prints it), in the bytes as they
    /// were decoded (<paramref name="data"/>, decompressed from <paramref name="compression"/>), the record of the node
    /// being read (and where it starts, when the offset is beyond its first byte: a field, or an attribute of a start
    /// tag), and, when a format was given, what the input looks like if it looks like another.
    /// </summary>
    private static ToolException Describe(string file, byte[] data, MessageCompression compression, BinaryXmlException e, MessageFormat given)
    {
        string input = compression == MessageCompression.None ? "" : $" of the {compression.ToString().ToLowerInvariant()}-decompressed input";
        long node = e.NodeOffset;
        string record = node < 0 || node >= data.Length ? ""
            : node == e.Offset ? $", record {RecordTypes.GetName(data[node])}"
            : $", in the node that starts at {node} = 0x{node:X} with record {RecordTypes.GetName(data[node])}";
        // Detection chose the format the input looks like: a hint to try another would mislead.
        string? hint = e.Reason.Contains("MaxSessionSize", StringComparison.Ordinal) ? "a service may allow more: try --max-session-size"
            : given == MessageFormat.Auto ? null : Decoding.Hint(data, given);
        return new ToolException($"{file}: {e.Reason} (at byte offset {e.Offset} = 0x{e.Offset:X}{input}{record}){(hint is null ? "" : "; " + hint)}");
    }

    /// <summary>
    /// Indents rendered XML (two spaces per level) by reading it back as XML, or returns null when what is read back is
    /// not what was rendered (see <see cref="ReadsBackAsIs"/>), so that indenting adds white space between tags and
    /// changes nothing else.
    /// </summary>
    internal static string? Indent(string xml) => ReadsBackAsIs(xml) ? Rewrite(xml, indent: true) : null;

    /// <summary>
    /// Whether XML text read by an XML parser and written again (unindented) is the same text: nothing in it is lost or
    /// normalized (a name that is not an XML name, a comment holding <c>--&gt;</c>, a carriage return not escaped).
    /// </summary>
    internal static bool ReadsBackAsIs(string xml)
    {
        try
        {
            return Rewrite(xml, indent: false) == xml;
        }
        catch (Exception e) when (e is XmlException or ArgumentException)
        {
            return false;
        }
    }

    private static string Rewrite(string xml, bool indent)
    {
        var settings = new XmlReaderSettings { ConformanceLevel = ConformanceLevel.Fragment, CheckCharacters = false };
        var sb = new StringBuilder();
        using (XmlReader r = XmlReader.Create(new StringReader(xml), settings))
        using (XmlWriter w = XmlWriter.Create(sb, new XmlWriterSettings { Indent = indent, OmitXmlDeclaration = true, ConformanceLevel = ConformanceLevel.Fragment, CheckCharacters = false, NewLineChars = "\n", NewLineHandling = NewLineHandling.Entitize }))
        {
            w.WriteNode(r, defattr: true);
        }
        return sb.ToString();
    }
}

/// <summary>A failure reported as one line, without a stack trace.</summary>
internal sealed class ToolException(string message) : Exception(message);
