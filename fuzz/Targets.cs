using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Soap.Nmf;
using BinaryXml.Tests;

namespace BinaryXml.Fuzz;

/// <summary>One decoder under test. <see cref="Run"/> must only ever throw <see cref="BinaryXmlException"/>.</summary>
/// <param name="Name">The target's name on the command line.</param>
/// <param name="Run">Feeds one input to the decoder.</param>
/// <param name="CiExecutions">Executions in the deterministic CI run (sized so that all targets take about 60 s).</param>
internal sealed record Target(string Name, Action<byte[]> Run, int CiExecutions);

/// <summary>The fuzz targets: every decoder, each fed the whole input.</summary>
internal static class Targets
{
    private static readonly XmlDictionary s_dictionary = BuildDictionary();

    private static XmlDictionary BuildDictionary()
    {
        var d = new XmlDictionary();
        for (int i = 0; i < 600; i++) d.Add("s" + i);
        return d;
    }

    private static XmlBinaryReaderSession Session()
    {
        var s = new XmlBinaryReaderSession();
        for (int i = 0; i < 64; i++) s.Add(i, "session" + i);
        return s;
    }

    public static readonly Target[] All =
    [
        new("native", NativeFull, 700_000),
        new("adapter", Adapter, 200_000),
        new("session", SessionDecoder, 700_000),
        new("nmf", Nmf, 700_000),
        new("renderer", input => BinaryXmlText.ToXml(input, s_dictionary, Session()), 700_000),
        new("tool", Tool, 50_000),
        new("marks", Marks, 500_000),
    ];

    /// <summary>Every token, every typed accessor that applies, names and namespaces, array copies, Skip, element reads in one call.</summary>
    private static void NativeFull(byte[] input)
    {
        var r = new BinaryXmlReader(input, s_dictionary, Session());
        Span<char> chars = stackalloc char[64];
        try
        {
            int tokens = 0;
            while (r.Read())
            {
                tokens++;
                if (r.TokenType is BinaryXmlTokenType.StartElement or BinaryXmlTokenType.Attribute or BinaryXmlTokenType.EndElement)
                {
                    _ = r.LocalName.ToString();
                    _ = r.Prefix.ToString();
                    _ = r.NamespaceUri.ToString();
                }
                if (r.TokenType is BinaryXmlTokenType.Text or BinaryXmlTokenType.Attribute)
                {
                    _ = r.GetString();
                    _ = r.TryGetInt64(out _);
                    _ = r.TryGetDouble(out _);
                    _ = r.TryGetDecimal(out _);
                    _ = r.TryGetDateTime(out _);
                    _ = r.TryGetGuid(out _);
                    _ = r.TryGetBoolean(out _);
                    try { r.CopyString(chars); } catch (ArgumentException) { }
                }
                if (r.TokenType == BinaryXmlTokenType.ArrayData) CopyArray(ref r);
                if (r.TokenType == BinaryXmlTokenType.Comment) _ = r.GetString();
                if (tokens % 7 == 3 && r.TokenType == BinaryXmlTokenType.StartElement) r.Skip();
                else if (tokens % 7 == 5 && r.TokenType == BinaryXmlTokenType.StartElement && !r.IsArray) ReadElementContent(ref r, tokens);
            }
        }
        finally
        {
            r.Dispose();
        }
    }

    /// <summary>
    /// One of the ReadElementContentAs… reads, by the token count. An element that holds something other than one value
    /// (or a value of another type) is the caller's mistake, not the input's: those exceptions are documented; malformed
    /// input must still throw <see cref="BinaryXmlException"/>.
    /// </summary>
    private static void ReadElementContent(ref BinaryXmlReader r, int tokens)
    {
        try
        {
            switch (tokens / 7 % 11)
            {
                case 0: _ = r.ReadElementContentAsString(); break;
                case 1: _ = r.ReadElementContentAsBoolean(); break;
                case 2: _ = r.ReadElementContentAsInt32(); break;
                case 3: _ = r.ReadElementContentAsInt64(); break;
                case 4: _ = r.ReadElementContentAsUInt64(); break;
                case 5: _ = r.ReadElementContentAsSingle(); break;
                case 6: _ = r.ReadElementContentAsDouble(); break;
                case 7: _ = r.ReadElementContentAsDecimal(); break;
                case 8: _ = r.ReadElementContentAsDateTime(); break;
                case 9: _ = r.ReadElementContentAsTimeSpan(); break;
                default: _ = r.ReadElementContentAsGuid(); break;
            }
        }
        catch (Exception e) when (e is InvalidOperationException or FormatException or OverflowException)
        {
        }
    }

    private static void CopyArray(ref BinaryXmlReader r)
    {
        int n = Math.Min(r.ArrayLength, 4096);
        switch (r.ArrayItemType)
        {
            case RecordType.BoolTextWithEndElement: r.CopyArray(new bool[n]); break;
            case RecordType.Int16TextWithEndElement: r.CopyArray(new short[n]); break;
            case RecordType.Int32TextWithEndElement: r.CopyArray(new int[n]); break;
            case RecordType.Int64TextWithEndElement: r.CopyArray(new long[n]); break;
            case RecordType.FloatTextWithEndElement: r.CopyArray(new float[n]); break;
            case RecordType.DoubleTextWithEndElement: r.CopyArray(new double[n]); break;
            case RecordType.DecimalTextWithEndElement: r.CopyArray(new decimal[n]); break;
            case RecordType.DateTimeTextWithEndElement: r.CopyArray(new DateTime[n]); break;
            case RecordType.TimeSpanTextWithEndElement: r.CopyArray(new TimeSpan[n]); break;
            case RecordType.UuidTextWithEndElement: r.CopyArray(new Guid[n]); break;
        }
    }

    private static void Adapter(byte[] input)
    {
        using XmlDictionaryReader r = OurReader(input);
        int elements = 0;
        bool more = r.Read();
        while (more)
        {
            _ = r.Value;
            _ = r.ValueType;
            for (int i = 0; i < r.AttributeCount; i++) _ = r.GetAttribute(i);
            if (r.IsStartArray(out _)) _ = r.TryGetArrayLength(out _);
            // Some elements are skipped (the native reader passes over their content) rather than read node by node.
            if (r.NodeType == XmlNodeType.Element && elements++ % 5 == 2)
            {
                r.Skip();
                more = r.ReadState == ReadState.Interactive;
            }
            else
            {
                more = r.Read();
            }
        }
    }

    private static void SessionDecoder(byte[] input)
    {
        var decoder = new BinaryMessageDecoder(session: true, dictionary: s_dictionary);
        decoder.ToXml(input);
    }

    /// <summary>
    /// <c>decode --types</c> then <c>encode</c>: marked XML that reads back as itself (what decode checks) and that a
    /// writer takes is written to a document of the same XML (names, namespaces, attributes and text, the marks aside),
    /// and that document, decoded and encoded again, gives the same bytes.
    /// </summary>
    private static void Marks(byte[] input)
    {
        string marked = BinaryXmlText.ToXml(input, s_dictionary, Session(), markValueTypes: true);
        if (!BinaryXml.Tool.BinxmlApp.ReadsBackAsIs(marked)) return;
        (byte[] Bytes, XmlBinaryReaderSession Session) written;
        try
        {
            written = Encode(marked);
        }
        catch (Exception e) when (e is XmlException or InvalidOperationException or ArgumentException)
        {
            return; // not a document a writer writes (two root elements, an undeclared prefix, …)
        }
        try
        {
            string again = BinaryXmlText.ToXml(written.Bytes, s_dictionary, written.Session, markValueTypes: true);
            if (!Infoset(again).SequenceEqual(Infoset(marked))) throw new InvalidOperationException("Marked XML written back is not the same XML:\n" + marked + "\n" + again);
            if (!Encode(again).Bytes.AsSpan().SequenceEqual(written.Bytes)) throw new InvalidOperationException("Marked XML of what encode wrote does not encode to the same bytes:\n" + again);
        }
        catch (Exception e) when (e is XmlException or ArgumentException)
        {
            throw new InvalidOperationException("What encode wrote does not decode and encode again: " + marked, e);
        }
    }

    /// <summary>Writes marked XML as <c>binxml encode</c> does, with a session of its own; returns the bytes and the session to read them.</summary>
    private static (byte[] Bytes, XmlBinaryReaderSession Session) Encode(string xml)
    {
        var output = new System.Buffers.ArrayBufferWriter<byte>();
        var session = new RecordingWriterSession();
        using (var w = new BinaryXmlWriter(output, s_dictionary, session)) new BinaryXml.Tool.XmlEncoder(s_dictionary).Write(w, new StringReader(xml));
        return (output.WrittenSpan.ToArray(), session.ToReaderSession());
    }

    /// <summary>
    /// The XML's nodes as an XML parser reads them: names by namespace, values; namespace declarations and marks left
    /// out. Numbers are compared by value: a DoubleText holding a float is written as FloatText, a FloatText holding an
    /// integer as an integer record (as .NET does), whose texts differ; base64 by its bytes' text, without the spaces
    /// between records (a record of bytes that are not whole groups is written as two).
    /// </summary>
    private static List<string> Infoset(string xml)
    {
        var nodes = new List<string>();
        using XmlReader r = XmlReader.Create(new StringReader(xml), new XmlReaderSettings { CheckCharacters = false, ConformanceLevel = ConformanceLevel.Fragment });
        string? type = null, textMark = null;
        int base64 = -1;
        while (r.Read())
        {
            if (r.NodeType == XmlNodeType.Whitespace && r.Depth == 0) continue;
            // (A mark is on an element whose only content is its text, or before a text record beside other content.)
            if (r.NodeType == XmlNodeType.ProcessingInstruction && r.LookupNamespace(r.Name) == ValueTypeMarks.Namespace)
            {
                textMark = r.Value;
                continue;
            }
            if (r.NodeType == XmlNodeType.Element) type = r.IsEmptyElement ? null : r.GetAttribute(ValueTypeMarks.Type, ValueTypeMarks.Namespace);
            else if (r.NodeType == XmlNodeType.EndElement) type = null;
            string? textType = r.NodeType == XmlNodeType.Text ? textMark ?? type : null;
            textMark = null;
            // Base64 records next to each other are one value, their bytes: records of bytes that are not whole groups
            // (which .NET's writer writes only last) are written back as the writer groups them.
            if (textType == "base64" && base64 >= 0)
            {
                nodes[base64] += Value(r.Value, textType);
                continue;
            }
            base64 = textType == "base64" ? nodes.Count : -1;
            nodes.Add($"{r.NodeType} {r.NamespaceURI} {r.LocalName} {(r.NodeType == XmlNodeType.Text ? Value(r.Value, textType) : r.Value)}");
            Dictionary<string, string> attributeTypes = (r.NodeType == XmlNodeType.Element ? r.GetAttribute(ValueTypeMarks.AttributeTypes, ValueTypeMarks.Namespace) : null)?
                .Split(' ', StringSplitOptions.RemoveEmptyEntries).ToDictionary(e => e[..e.LastIndexOf('=')], e => e[(e.LastIndexOf('=') + 1)..]) ?? [];
            for (bool more = r.MoveToFirstAttribute(); more; more = r.MoveToNextAttribute())
            {
                if (r.NamespaceURI is not (XmlnsNamespace or ValueTypeMarks.Namespace)) nodes.Add($"@{r.NamespaceURI} {r.LocalName}={Value(r.Value, attributeTypes.GetValueOrDefault(r.Name))}");
            }
        }
        return nodes;
    }

    private static string Value(string text, string? type) => type switch
    {
        "float" or "float[]" => Number(XmlConvert.ToSingle(text)),
        "double" or "double[]" => Number(XmlConvert.ToDouble(text)),
        "base64" => Convert.ToHexString(text.Split(' ', StringSplitOptions.RemoveEmptyEntries).SelectMany(Convert.FromBase64String).ToArray()),
        _ => text,
    };

    /// <summary>A float's or double's text as an integer's when it is one (.NET writes it as one), else as a double's.</summary>
    private static string Number(double value) => Math.Floor(value) == value && Math.Abs(value) < 9.2e18
        ? ((long)value).ToString(System.Globalization.CultureInfo.InvariantCulture)
        : XmlConvert.ToString(value);

    private static readonly TextWriter s_null = TextWriter.Null;

    /// <summary><c>binxml decode</c> in-process; a decoding error is exit code 1, anything else is a crash.</summary>
    private static void Tool(byte[] input)
    {
        string file = Path.Combine(Path.GetTempPath(), $"binxml-fuzz-{Environment.ProcessId}.bin");
        File.WriteAllBytes(file, input);
        var error = new StringWriter();
        // Both commands that read bytes, by the input's length; each says what it detected, then, for input it cannot
        // read, one line with the reason and the byte offset (anything else caught there would be a bug's exception;
        // a message --indent leaves as it is has a note before the line, or alone with exit 0).
        // Decode with --indent every other time (inputs of a length divisible by four), with --types every fourth time
        // (lengths 2 more than a multiple of eight).
        string command = (input.Length & 1) == 0 ? "decode" : "dump";
        string[] args = (input.Length & 3) == 0 ? [command, "--indent", file] : (input.Length & 7) == 2 ? [command, "--types", file] : [command, file];
        int exit = BinaryXml.Tool.BinxmlApp.Run(args, s_null, error, () => Stream.Null);
        string last = error.ToString().TrimEnd('\n', '\r').Split('\n')[^1];
        if (exit != 0 && !(last.StartsWith("binxml: error: ", StringComparison.Ordinal) && last.Contains("(at byte offset ", StringComparison.Ordinal)))
            throw new InvalidOperationException($"binxml {command} failed without its one-line error naming the offset: " + error);
    }

    /// <summary>An MC-NMF stream decoded; one that decodes also decoded, encoded and decoded again by binxml (<see cref="NmfRoundTrip"/>).</summary>
    private static void Nmf(byte[] input)
    {
        NmfDecoder.Decode(input, out _, out _);
        if (NmfDecoder.LooksLikeNmf(input)) NmfRoundTrip(input);
    }

    /// <summary>
    /// A net.tcp stream decoded with <c>--types</c> and encoded again with the options decode named (a reply direction,
    /// the mode, the chunk size) and its Via decodes to the same XML: the framing as decode reports it and
    /// the marks together. Streams encode does not write (text or compressed envelopes, XML that would not read back,
    /// what encode refuses with its one-line error) are passed over.
    /// </summary>
    private static void NmfRoundTrip(byte[] input)
    {
        string file = Path.Combine(Path.GetTempPath(), $"binxml-fuzz-nmf-{Environment.ProcessId}.bin");
        File.WriteAllBytes(file, input);
        var output = new StringWriter();
        var errors = new StringWriter();
        if (BinaryXml.Tool.BinxmlApp.Run(["decode", "--types", file], output, errors, () => Stream.Null) != 0)
            throw new InvalidOperationException("binxml decode failed on a stream the decoder reads: " + errors);
        string xml = output.ToString(), notes = errors.ToString();
        if (notes.Contains("would not read back", StringComparison.Ordinal)) return;
        var reader = new NmfReader(input);
        string? via = null;
        while (reader.Read())
        {
            if (reader.RecordType == NmfRecordType.Via) via = reader.Text;
            if (reader.RecordType == NmfRecordType.ExtensibleEncoding || (reader.RecordType == NmfRecordType.KnownEncoding
                && reader.KnownEncoding is not (NmfKnownEncoding.Soap12Binary or NmfKnownEncoding.Soap12BinarySession)))
            {
                return;
            }
        }
        int options = notes.LastIndexOf(" (encode ", StringComparison.Ordinal);
        string[] framing = options < 0 ? [] : notes[(options + " (encode ".Length)..notes.IndexOf(')', options)].Split(' ');
        string xmlFile = file + ".xml", again = file + ".again";
        File.WriteAllText(xmlFile, xml);
        var error = new StringWriter();
        string[] EncodeArgs(string input, string output) => ["encode", "--format", "nmf", .. framing, .. (via is null ? (string[])[] : ["--via", via]), "--output", output, "--output-format", "binary", input];
        string[] encode = EncodeArgs(xmlFile, again);
        if (BinaryXml.Tool.BinxmlApp.Run(encode, s_null, error, () => Stream.Null) != 0)
        {
            if (!error.ToString().StartsWith("binxml: error: ", StringComparison.Ordinal)) throw new InvalidOperationException("binxml encode failed without its one-line error: " + error);
            return;
        }
        var decoded = new StringWriter();
        error = new StringWriter();
        if (BinaryXml.Tool.BinxmlApp.Run(["decode", "--types", again], decoded, error, () => Stream.Null) != 0)
            throw new InvalidOperationException("What encode wrote of a decoded stream does not decode: " + error + "\n" + xml);
        string second = decoded.ToString();
        if (second == xml) return;
        // A record of bytes that are not whole groups (which .NET's writer writes only last) is written back as the
        // writer groups them, so the XML may differ where its base64 text is cut into records (nmf-crash-3c675f15f5df:
        // one record of 29 bytes, written back as 27 and 2). Then it is compared as the marks target compares it (base64
        // by its bytes, everything else as it is), and what encode wrote must encode to itself again.
        if (!Infoset(second).SequenceEqual(Infoset(xml)))
            throw new InvalidOperationException($"A stream decoded, encoded ({string.Join(' ', encode)}) and decoded again is not the same XML:\n{xml}\n{second}");
        string secondFile = again + ".xml", third = again + ".again";
        File.WriteAllText(secondFile, second);
        string[] encodeAgain = EncodeArgs(secondFile, third);
        error = new StringWriter();
        if (BinaryXml.Tool.BinxmlApp.Run(encodeAgain, s_null, error, () => Stream.Null) != 0)
            throw new InvalidOperationException("binxml encode failed on what it wrote, decoded: " + error + "\n" + second);
        if (!File.ReadAllBytes(third).AsSpan().SequenceEqual(File.ReadAllBytes(again)))
            throw new InvalidOperationException($"A stream decoded, encoded ({string.Join(' ', encode)}), decoded and encoded again is not the same stream:\n{second}");
    }

    /// <summary>The in-box reader's view of an input, for the differential oracle: its node stream, or its exception.</summary>
    public static (List<string>? Nodes, Exception? Error) InBox(byte[] input)
    {
        try
        {
            return (NodeStream.FromInBox(input, s_dictionary, Session()), null);
        }
        catch (Exception e) when (IsInBoxRejection(e))
        {
            return (null, e);
        }
    }

    private const string XsiNamespace = "http://www.w3.org/2001/XMLSchema-instance";
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    /// <summary>
    /// For an input both readers accept: the name tests with dictionary strings at every node, attributes looked up by
    /// name and namespace, attributes asked for the namespaces of those seen before, the names of an attribute's value
    /// node, MoveToContent from an attribute and on elements, some text nodes read with ReadValueChunk, some content
    /// read with ReadContentAsBase64 (in pieces, or whole) and some arrays with the typed array reads: a trace to
    /// compare between the readers.
    /// (MoveToContent over text is left out: there .NET's answer depends on what was read before; pinned by
    /// DictionaryReaderContractTests.)
    /// </summary>
    /// <param name="r">The reader, over the input.</param>
    /// <param name="exactArrays">Read every other array with <c>ReadArray</c> for exactly its items instead of the typed
    /// array read, whose search for more items of the name ends in <c>MoveToContent</c> over whatever follows (see
    /// <see cref="HasHistoryDependentText"/>).</param>
    /// <param name="turn">Where the turn of the element reads (attributes, typed reads and their kinds) starts: the
    /// input's length, so that small inputs meet every kind of read.</param>
    public static List<string> ContentTrace(XmlDictionaryReader r, bool exactArrays = false, int turn = 0)
    {
        var names = new XmlDictionary();
        XmlDictionaryString empty = names.Add(""), other = names.Add("no-such-name");
        var trace = new List<string>();
        int elements = 0, texts = 0, arrays = 0;
        // Set once a typed base64 read failed on content that is not base64: .NET's reader keeps the bytes it had
        // decoded and hands them to the next binary read of any node (README, "Drop-in replacements"), so binary reads
        // are no longer compared; everything else is.
        bool bytesHandedOn = false;
        char[] chunk = new char[3];
        var attributeNamespaces = new List<XmlDictionaryString>();
        using (r)
        {
            while (r.Read())
            {
                XmlDictionaryString local = names.Add(r.LocalName), ns = names.Add(r.NamespaceURI);
                trace.Add($"{r.NodeType} {r.Prefix}:{r.LocalName}@{r.NamespaceURI} {r.IsLocalName(local)}{r.IsLocalName(empty)}{r.IsNamespaceUri(ns)}{r.IsNamespaceUri(other)} {r.IndexOfLocalName([other, empty, local], ns)}");
                int which = r.NodeType == XmlNodeType.Text ? texts++ % 4 : -1;
                if (bytesHandedOn && which is 0 or 2) continue;
                if (which == 0)
                {
                    // The first of every four text nodes, and the content after it, read as base64 in pieces of five
                    // bytes (one block of characters a call), or of seven every other time (two blocks: white space
                    // counts among the characters a call reads): the length known in advance, the bytes, what is left
                    // of the node after the first piece (after every piece, every other time: Value asked between
                    // pieces turns the next one to characters, adapter seed 1078) and the node after them; an error
                    // ends the trace (readers differ in where they stop).
                    var bytes = new System.Text.StringBuilder();
                    byte[] piece = new byte[(texts / 8 + turn) % 2 == 0 ? 5 : 7];
                    bool everyPiece = (texts / 4 + turn) % 2 != 0;
                    try
                    {
                        trace.Add($"base64 length {r.TryGetBase64ContentLength(out int length)} {length}");
                        int n;
                        while ((n = r.ReadContentAsBase64(piece, 0, piece.Length)) > 0)
                        {
                            if (bytes.Length == 0 || everyPiece) trace.Add($"piece {n}, left {r.TryGetBase64ContentLength(out length)} {length} '{r.Value}' {r.NodeType}");
                            bytes.Append(Convert.ToHexString(piece, 0, n));
                        }
                    }
                    catch (XmlException)
                    {
                        trace.Add($"base64 {bytes} error");
                        // One more piece: it goes on from what the read that failed left (the characters of a block
                        // begun, what is left of the node), as .NET's does. Then the trace ends.
                        if (r.ReadState == ReadState.Interactive) trace.Add($"after the error {PieceAfterError(r, piece)}");
                        break;
                    }
                    trace.Add($"base64 {bytes} then {r.NodeType} {r.Depth}");
                    continue;
                }
                if (which == 2)
                {
                    // The third: the content read whole as base64 (through the length known in advance, when it is,
                    // as XmlDictionaryReader does), and the node after it; an error ends the trace.
                    try
                    {
                        trace.Add($"whole base64 {Convert.ToHexString(r.ReadContentAsBase64())} then {r.NodeType} {r.Depth} '{r.Value}' {r.MoveToContent()}");
                    }
                    catch (XmlException)
                    {
                        trace.Add("whole base64 error");
                        break;
                    }
                    continue;
                }
                if (which == 1 && !exactArrays && (texts / 4 + turn) % 2 == 0 && !(bytesHandedOn && (texts / 8 + turn) % 2 != 0))
                {
                    // Every other second one read in chunks to its end, or one base64 byte read from it, then
                    // MoveToContent, which passes over a node read to its end and stops on one that keeps bytes of a
                    // base64 block (not where a text record's being white space depends on history, see
                    // HasHistoryDependentText): what was read, the value left and where the reader is; an error ends
                    // the trace.
                    bool oneByte = (texts / 8 + turn) % 2 != 0;
                    try
                    {
                        string part = oneByte ? ReadOneBase64Byte(r) : ReadChunksToEnd(r, chunk);
                        trace.Add($"part '{part}' left '{r.Value}' then {r.MoveToContent()} {r.Depth} {r.LocalName}");
                    }
                    catch (XmlException)
                    {
                        trace.Add("part error");
                        break;
                    }
                    // The rest of that base64 block stays with its node in ours; .NET's reader hands it to the next
                    // binary read of any node (a difference kept, README "Drop-in replacements"; seed 935 found a
                    // later whole-base64 read on another element given the two bytes first): the trace ends here.
                    if (oneByte) break;
                    continue;
                }
                if (which == 1)
                {
                    // The second read in chunks of three characters: their lengths and the text they make.
                    var lengths = new System.Text.StringBuilder();
                    var text = new System.Text.StringBuilder();
                    int n;
                    while ((n = r.ReadValueChunk(chunk, 0, chunk.Length)) > 0)
                    {
                        lengths.Append(n);
                        text.Append(chunk, 0, n);
                    }
                    trace.Add($"chunks {lengths} {text}");
                }
                if (r.NodeType is not (XmlNodeType.Element or XmlNodeType.EndElement)) continue;
                trace.Add($"start {r.IsStartElement(local, ns)} {r.IsStartElement(other, ns)}");
                if (r.IsStartArray(out Type? itemType) && arrays++ % 2 == 0)
                {
                    // Every other array read whole with its typed read (by string, or by dictionary string), which
                    // gathers what follows of the same name: the items and the node after them; an error ends the trace.
                    try
                    {
                        string items = exactArrays ? ReadExactArray(r, itemType) : ReadTypedArray(r, itemType, arrays % 4 == 1 ? null : local, ns);
                        trace.Add($"array {items} then {r.NodeType} {r.LocalName} {r.Depth}");
                    }
                    catch (XmlException)
                    {
                        trace.Add("array error");
                        break;
                    }
                    continue;
                }
                if (r.NodeType != XmlNodeType.Element) continue;
                int element = elements++ + turn;
                if (element % 3 == 2)
                {
                    // Every third element read whole with a typed read (the one-step path when one typed record closes
                    // it, or Bytes records make its content): the value and the node after it. A read that fails
                    // leaves the reader where .NET's leaves it, and the trace goes on from there, but after malformed
                    // input (the reader failed). After base64 content that is not base64 it goes on without binary
                    // reads (bytesHandedOn), this kind of read then taking the element as a string.
                    int kind = element / 3 % 12;
                    if (bytesHandedOn && kind == Base64Kind) kind = StringKind;
                    try
                    {
                        trace.Add($"typed {ReadTypedElement(r, kind)} then {r.NodeType} {r.LocalName} {r.Depth}");
                    }
                    catch (XmlException)
                    {
                        trace.Add($"typed error, on {r.NodeType} {r.LocalName} {r.Depth} {r.ReadState}");
                        if (r.ReadState != ReadState.Interactive) break;
                        bytesHandedOn |= kind == Base64Kind;
                    }
                    continue;
                }
                if (element % 3 == 0)
                {
                    // Every third element's attributes looked up by name and namespace before anything else reads them
                    // (ours looks among the start tag's records, and builds the nodes only to move): the element's own
                    // name (in no namespace and in its own), xsi's nil, the default and a prefix's declaration, then
                    // a move to the last of them found; an error ends the trace.
                    try
                    {
                        string localName = r.LocalName, elementNs = r.NamespaceURI;
                        (string, string)[] lookups = [(localName, ""), (localName, elementNs), ("nil", XsiNamespace), ("", XmlnsNamespace), (r.Prefix, XmlnsNamespace)];
                        var found = new System.Text.StringBuilder("lookup");
                        foreach ((string name, string lookupNs) in lookups) found.Append(' ').Append(r.GetAttribute(name, lookupNs) ?? "-");
                        for (int i = lookups.Length - 1; i >= 0; i--)
                        {
                            if (!r.MoveToAttribute(lookups[i].Item1, lookups[i].Item2)) continue;
                            found.Append($" moved {r.Name} {r.Value}");
                            r.MoveToElement();
                            break;
                        }
                        trace.Add(found.ToString());
                    }
                    catch (XmlException)
                    {
                        trace.Add("lookup error");
                        break;
                    }
                    continue;
                }
                if (element % 3 != 1) continue;
                // Every attribute asked, twice over, whether it is in each namespace of the attributes seen before, by
                // their dictionary strings, its own namespace never read (which atomizes it; found by its prefix
                // instead): as a serializer asks, attribute after attribute (ours answers a namespace not atomized from
                // its last match). Then back to the element.
                var asked = new System.Text.StringBuilder("namespaces");
                for (int pass = 0; pass < 2; pass++)
                {
                    while (r.MoveToNextAttribute())
                    {
                        foreach (XmlDictionaryString q in attributeNamespaces) asked.Append(r.IsNamespaceUri(q) ? 'N' : 'n');
                        XmlDictionaryString seen = names.Add(r.Prefix.Length == 0 ? "" : r.LookupNamespace(r.Prefix) ?? "");
                        if (!attributeNamespaces.Contains(seen)) attributeNamespaces.Add(seen);
                        if (attributeNamespaces.Count > 4) attributeNamespaces.RemoveAt(0);
                        asked.Append(' ');
                    }
                    r.MoveToElement();
                }
                trace.Add(asked.ToString());
                if (!r.MoveToFirstAttribute()) continue;
                XmlDictionaryString attributeNs = names.Add(r.NamespaceURI);
                trace.Add($"attribute {r.Name} {r.IsLocalName(empty)}{r.IsNamespaceUri(attributeNs)} {r.IndexOfLocalName([other, empty, names.Add(r.LocalName)], attributeNs)}");
                bool declaration = r.NamespaceURI == XmlnsNamespace;
                if (r.ReadAttributeValue())
                {
                    trace.Add($"value {r.NodeType} {r.Depth} {r.Prefix}:{r.LocalName} {r.NamespaceURI}");
                    // The value node's content: the attribute's value, the reader staying there. Not of a namespace
                    // declaration, whose value node's content .NET's reader reads until it runs out of memory.
                    try
                    {
                        if (!declaration) trace.Add($"value content '{r.ReadContentAsString()}' then {r.NodeType} {r.Depth} '{r.Value}'");
                    }
                    catch (XmlException)
                    {
                        trace.Add("value content error");
                        break;
                    }
                }
                r.MoveToElement();
                if (r.MoveToFirstAttribute()) trace.Add($"content {r.MoveToContent()} {r.Depth} {r.Prefix}:{r.LocalName}");
                if (!bytesHandedOn && r.MoveToFirstAttribute())
                {
                    // Then the first attribute read as bytes in pieces (base64 content in twos, BinHex in threes, or
                    // the value as base64 in fours), which may read on past the start tag: the bytes, and where the
                    // reader is after them; an error ends the trace.
                    int kind = element / 3 % 3;
                    byte[] piece = new byte[kind + 2];
                    var bytes = new System.Text.StringBuilder();
                    try
                    {
                        int n, pieces = 0;
                        while ((n = kind switch { 0 => r.ReadContentAsBase64(piece, 0, 2), 1 => r.ReadContentAsBinHex(piece, 0, 3), _ => r.ReadValueAsBase64(piece, 0, 4) }) > 0)
                        {
                            bytes.Append(Convert.ToHexString(piece, 0, n));
                            // Each piece takes at least one byte of the (small) input: a million is a read that never ends.
                            if (++pieces > 1 << 20) throw new InvalidOperationException("A read in pieces does not end");
                        }
                    }
                    catch (XmlException)
                    {
                        trace.Add($"attribute bytes {bytes} error");
                        break;
                    }
                    trace.Add($"attribute bytes {bytes} then {r.NodeType} {r.Depth} {r.Name} '{(r.NodeType is XmlNodeType.Attribute or XmlNodeType.Text ? r.Value : "")}'");
                }
            }
        }
        return trace;
    }

    /// <summary>A piece of base64 content read after a read that failed: its bytes, or "error", the node and the length left.</summary>
    private static string PieceAfterError(XmlDictionaryReader r, byte[] piece)
    {
        string read;
        try
        {
            int n = r.ReadContentAsBase64(piece, 0, piece.Length);
            read = Convert.ToHexString(piece, 0, n);
        }
        catch (XmlException)
        {
            read = "error";
        }
        return $"{read} on {r.NodeType} {r.Depth}, left {r.TryGetBase64ContentLength(out int length)} {length}";
    }

    /// <summary>The kind of <see cref="ReadTypedElement"/> that reads base64 content.</summary>
    private const int Base64Kind = 5;

    /// <summary>The kind of <see cref="ReadTypedElement"/> that reads the content as a string.</summary>
    private const int StringKind = 6;

    /// <summary>One of twelve typed element reads of the current element, its value as invariant text (base64 content as hex).</summary>
    private static string ReadTypedElement(XmlDictionaryReader r, int kind) => kind switch
    {
        0 => r.ReadElementContentAsLong().ToString(System.Globalization.CultureInfo.InvariantCulture),
        1 => r.ReadElementContentAsInt().ToString(System.Globalization.CultureInfo.InvariantCulture),
        2 => r.ReadElementContentAsDouble().ToString("R", System.Globalization.CultureInfo.InvariantCulture),
        3 => r.ReadElementContentAsBoolean().ToString(),
        4 => r.ReadElementContentAsDateTime().ToString("O", System.Globalization.CultureInfo.InvariantCulture),
        5 => Convert.ToHexString(r.ReadElementContentAsBase64()),
        6 => r.ReadElementContentAsString(),
        7 => r.ReadElementContentAsFloat().ToString("R", System.Globalization.CultureInfo.InvariantCulture),
        8 => r.ReadElementContentAsDecimal().ToString(System.Globalization.CultureInfo.InvariantCulture),
        9 => r.ReadElementContentAsTimeSpan().ToString("c", System.Globalization.CultureInfo.InvariantCulture),
        10 => r.ReadElementContentAsGuid().ToString(),
        _ => r.ReadElementContentAsUniqueId().ToString(),
    };

    /// <summary>The typed array read of <paramref name="item"/> at the current element (by dictionary string when <paramref name="local"/> is given), its items as text.</summary>
    private static string ReadTypedArray(XmlDictionaryReader r, Type item, XmlDictionaryString? local, XmlDictionaryString ns)
    {
        string l = r.LocalName, n = r.NamespaceURI;
        Array items = item switch
        {
            _ when item == typeof(bool) => local is null ? r.ReadBooleanArray(l, n) : r.ReadBooleanArray(local, ns),
            _ when item == typeof(short) => local is null ? r.ReadInt16Array(l, n) : r.ReadInt16Array(local, ns),
            _ when item == typeof(int) => local is null ? r.ReadInt32Array(l, n) : r.ReadInt32Array(local, ns),
            _ when item == typeof(long) => local is null ? r.ReadInt64Array(l, n) : r.ReadInt64Array(local, ns),
            _ when item == typeof(float) => local is null ? r.ReadSingleArray(l, n) : r.ReadSingleArray(local, ns),
            _ when item == typeof(double) => local is null ? r.ReadDoubleArray(l, n) : r.ReadDoubleArray(local, ns),
            _ when item == typeof(decimal) => local is null ? r.ReadDecimalArray(l, n) : r.ReadDecimalArray(local, ns),
            _ when item == typeof(DateTime) => local is null ? r.ReadDateTimeArray(l, n) : r.ReadDateTimeArray(local, ns),
            _ when item == typeof(TimeSpan) => local is null ? r.ReadTimeSpanArray(l, n) : r.ReadTimeSpanArray(local, ns),
            _ => local is null ? r.ReadGuidArray(l, n) : r.ReadGuidArray(local, ns),
        };
        return ItemsText(items);
    }

    /// <summary>Array items as invariant text, each followed by a comma.</summary>
    private static string ItemsText(Array items)
    {
        var text = new System.Text.StringBuilder();
        foreach (object? value in items) text.Append(value is double or float or decimal ? Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture) : value).Append(',');
        return text.ToString();
    }

    /// <summary>The current node's value read in chunks to its end (at most 64 of them).</summary>
    private static string ReadChunksToEnd(XmlDictionaryReader r, char[] chunk)
    {
        var text = new System.Text.StringBuilder();
        for (int i = 0, n; i < 64 && (n = r.ReadValueChunk(chunk, 0, chunk.Length)) > 0; i++) text.Append(chunk, 0, n);
        return text.ToString();
    }

    /// <summary>One byte of the content read as base64: its hex, or "" when the content has none.</summary>
    private static string ReadOneBase64Byte(XmlDictionaryReader r)
    {
        byte[] one = new byte[1];
        return Convert.ToHexString(one, 0, r.ReadContentAsBase64(one, 0, 1));
    }

    /// <summary>
    /// The items of the Array record the reader is on, read with one <c>ReadArray</c> call for exactly their number
    /// (the readers' fast path: no search for more items of the name after them), as text.
    /// </summary>
    private static string ReadExactArray(XmlDictionaryReader r, Type item)
    {
        string l = r.LocalName, n = r.NamespaceURI;
        r.TryGetArrayLength(out int count);
        Array items = item switch
        {
            _ when item == typeof(bool) => Exact<bool>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(short) => Exact<short>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(int) => Exact<int>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(long) => Exact<long>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(float) => Exact<float>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(double) => Exact<double>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(decimal) => Exact<decimal>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(DateTime) => Exact<DateTime>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ when item == typeof(TimeSpan) => Exact<TimeSpan>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
            _ => Exact<Guid>(count, (a, c) => r.ReadArray(l, n, a, 0, c)),
        };
        return ItemsText(items);

        static T[] Exact<T>(int count, Func<T[], int, int> read)
        {
            var array = new T[count];
            return array[..read(array, count)];
        }
    }

    /// <summary>
    /// Whether the input holds a text record whose being whitespace, to .NET's reader, depends on what was read before
    /// it, so that <c>MoveToContent</c> passes over it or stops at it by history: an EmptyText (whitespace unless the
    /// text node before it left a length behind) or a QNameDictionaryText (passed over unless its Value was read).
    /// Ours goes by the value (pinned by <c>DictionaryReaderContractTests.MoveToContent_differs_from_in_box_where_in_box_depends_on_what_was_read</c>
    /// and <c>A_typed_array_read_passes_over_an_empty_text_after_the_array_where_the_in_box_reader_may_stop</c>).
    /// </summary>
    public static bool HasHistoryDependentText(byte[] input)
    {
        var r = new BinaryXmlReader(input, s_dictionary, Session());
        try
        {
            while (r.Read())
            {
                if (r.TokenType == BinaryXmlTokenType.Text && r.ValueType is RecordType.EmptyText or RecordType.QNameDictionaryText) return true;
            }
            return false;
        }
        catch (BinaryXmlException)
        {
            return false;
        }
        finally
        {
            r.Dispose();
        }
    }

    /// <summary>The exceptions with which the in-box reader rejects malformed input (its own bugs included).</summary>
    public static bool IsInBoxRejection(Exception e)
        => e is XmlException or ArgumentException or InvalidOperationException or FormatException or OverflowException or InvalidCastException or IndexOutOfRangeException;

    /// <summary>
    /// A reader's view of <paramref name="input"/> read from a stream with a small MaxBytesPerRead (16 to 79 bytes, by the
    /// input's length), where .NET's reader cuts long text into several nodes and does not hold start tags to the quota:
    /// each node's type, depth, names and value and its attributes'; or its exception; or neither where it read more
    /// nodes than the input could make (.NET's reader cutting text where its quota holds no whole character reports
    /// empty text without end: README, "Drop-in replacements").
    /// </summary>
    public static (List<string>? Nodes, Exception? Error) Streamed(byte[] input, bool inBox)
    {
        var nodes = new List<string>();
        try
        {
            using XmlDictionaryReader r = StreamReader(input, inBox);
            while (r.Read())
            {
                if (nodes.Count > 2 * input.Length + 16) return (null, null);
                var line = new System.Text.StringBuilder($"{r.NodeType} {r.Depth} {r.Prefix}:{r.LocalName}@{r.NamespaceURI} '{r.Value}'");
                for (int i = 0; i < r.AttributeCount; i++)
                {
                    r.MoveToAttribute(i);
                    line.Append($" {r.Prefix}:{r.LocalName}@{r.NamespaceURI}='{r.Value}'");
                }
                r.MoveToElement();
                nodes.Add(line.ToString());
            }
            return (nodes, null);
        }
        catch (Exception e) when (inBox ? IsInBoxRejection(e) : e is BinaryXmlException)
        {
            return (null, e);
        }
    }

    /// <summary>A new in-box or drop-in reader over <paramref name="input"/> as a stream, with the quotas of <see cref="Streamed"/>.</summary>
    public static XmlDictionaryReader StreamReader(byte[] input, bool inBox)
    {
        XmlDictionaryReaderQuotas quotas = StreamWindow.Quotas(input.Length);
        return inBox
            ? XmlDictionaryReader.CreateBinaryReader(new MemoryStream(input), s_dictionary, quotas, Session())
            : BinaryXmlDictionaryReader.Create(new MemoryStream(input), s_dictionary, quotas, Session());
    }

    public static XmlDictionaryReader InBoxReader(byte[] input) => XmlDictionaryReader.CreateBinaryReader(input, 0, input.Length, s_dictionary, XmlDictionaryReaderQuotas.Max, Session());

    /// <summary>
    /// Our reader over <paramref name="input"/>: the thread's one reader, given the input with <c>SetInput</c> after
    /// reading part of <see cref="s_priming"/> (namespaces, prefixes, depth, attributes, dictionary names) and of the
    /// input with its letters shifted, so that what a reused reader keeps from the document before is fuzzed too, the
    /// same way for every input (a finding replays alone).
    /// </summary>
    public static XmlDictionaryReader OurReader(byte[] input)
    {
        t_reader ??= BinaryXmlDictionaryReader.Create(s_priming, 0, s_priming.Length, s_dictionary, XmlDictionaryReaderQuotas.Max, Session());
        var init = (IXmlBinaryReaderInitializer)t_reader;
        init.SetInput(s_priming, 0, s_priming.Length, s_dictionary, XmlDictionaryReaderQuotas.Max, Session(), null);
        for (int i = 0; i < 9 && t_reader.Read(); i++)
        {
            _ = t_reader.NamespaceURI;
            _ = t_reader.LocalName;
        }
        // Then the input with its letters shifted (a→b … z→a): its strings differ at the same offsets, so anything
        // kept by offset from it and found again in the input is caught by the differential.
        byte[] shifted = new byte[input.Length];
        for (int i = 0; i < input.Length; i++) shifted[i] = input[i] is >= (byte)'a' and <= (byte)'z' ? (byte)('a' + (input[i] - 'a' + 1) % 26) : input[i];
        init.SetInput(shifted, 0, shifted.Length, s_dictionary, XmlDictionaryReaderQuotas.Max, Session(), null);
        try
        {
            for (int i = 0; i < 64 && t_reader.Read(); i++)
            {
                _ = t_reader.NamespaceURI;
                _ = t_reader.LocalName;
                _ = t_reader.Prefix;
            }
        }
        catch (BinaryXmlException)
        {
            // Shifting letters may break the document; what was read before the error is kept all the same.
        }
        init.SetInput(input, 0, input.Length, s_dictionary, XmlDictionaryReaderQuotas.Max, Session(), null);
        return t_reader;
    }

    [ThreadStatic]
    private static BinaryXmlDictionaryReader? t_reader;

    private static readonly byte[] s_priming = BuildPriming();

    private static byte[] BuildPriming()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, s_dictionary, null, ownsStream: false))
        {
            XmlDictionaryString s1 = s_dictionary.Add("s1"), s2 = s_dictionary.Add("s2");
            w.WriteStartElement("p", "a", "urn:priming:one");
            w.WriteAttributeString("q", "x", "urn:priming:two", "1");
            w.WriteStartElement("b", "urn:priming:default");
            w.WriteStartElement("p", s1, s2);
            w.WriteStartElement("c");
            w.WriteAttributeString("xml", "lang", null, "en");
            w.WriteString("text");
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
        }
        return stream.ToArray();
    }

    public static (List<string>? Nodes, Exception? Error) Ours(byte[] input)
    {
        try
        {
            return (NodeStream.FromAdapter(input, s_dictionary, Session()), null);
        }
        catch (BinaryXmlException e)
        {
            return (null, e);
        }
    }
}
