using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Canonicalization through the drop-in reader against .NET's binary reader: the same reads must give the same
/// canonical bytes, the same values and the same exception types.
/// </summary>
public sealed class ReaderCanonicalizationContractTests
{
    private static readonly byte[] Document = CreateDocument();

    private static byte[] CreateDocument()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, CanonicalizationContractTests.Dictionary, null, false))
        {
            w.WriteComment("before the root");
            CanonicalizationContractTests.WriteEnvelopeStart(w);
            w.WriteStartElement("s", "Body", "http://www.w3.org/2003/05/soap-envelope");
            w.WriteAttributeString("u", "Id", "urn:utility", "body");
            CanonicalizationContractTests.WriteRichContent(w);
            CanonicalizationContractTests.WriteArrays(w);
            w.WriteStartElement("", "defaults", "urn:d");
            w.WriteStartElement("", "none", "");
            w.WriteElementString("leaf", "", "x");
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteComment("after the root");
        }
        return stream.ToArray();
    }

    private sealed record Outcome(string Canonical, string Log, Type? Error, string? ErrorMessage);

    private static Outcome Run(bool ours, Action<XmlDictionaryReader, Stream, StringBuilder> reads)
    {
        XmlDictionaryReaderQuotas quotas = XmlDictionaryReaderQuotas.Max;
        XmlDictionaryReader r = ours
            ? BinaryXmlDictionaryReader.Create(Document, 0, Document.Length, CanonicalizationContractTests.Dictionary, quotas)
            : XmlDictionaryReader.CreateBinaryReader(Document, 0, Document.Length, CanonicalizationContractTests.Dictionary, quotas);
        var canonical = new MemoryStream();
        var log = new StringBuilder();
        Exception? error = null;
        try
        {
            reads(r, canonical, log);
        }
        catch (Exception e)
        {
            error = e;
        }
        return new Outcome(Encoding.UTF8.GetString(canonical.ToArray()), log.ToString(), error?.GetType(), error?.ToString());
    }

    private static string Same(Action<XmlDictionaryReader, Stream, StringBuilder> reads, bool valid = true)
    {
        Outcome inBox = Run(ours: false, reads);
        Outcome ours = Run(ours: true, reads);
        if (valid) Assert.True(inBox.Error is null, "in-box: " + inBox.ErrorMessage);
        Assert.True(inBox.Error == ours.Error, $"in-box: {inBox.ErrorMessage ?? "no error"}\nours: {ours.ErrorMessage ?? "no error"}");
        Assert.Equal(inBox.Log, ours.Log);
        Assert.Equal(inBox.Canonical, ours.Canonical);
        return inBox.Canonical;
    }

    [Theory]
    [MemberData(nameof(CanonicalizationContractTests.Options), MemberType = typeof(CanonicalizationContractTests))]
    public void The_whole_document_read_node_by_node_is_canonicalized_alike(bool includeComments, string inclusive)
    {
        string canonical = Same((r, c, log) =>
        {
            r.StartCanonicalization(c, includeComments, CanonicalizationContractTests.Prefixes(inclusive));
            while (r.Read()) log.Append(r.NodeType).Append(' ');
            r.EndCanonicalization();
        });
        Assert.Contains("<i32 xmlns=\"urn:x\">2</i32>", canonical);
        Assert.Equal(includeComments, canonical.Contains("<!--after the root-->", StringComparison.Ordinal));
    }

    [Theory]
    [MemberData(nameof(CanonicalizationContractTests.Options), MemberType = typeof(CanonicalizationContractTests))]
    public void A_body_skipped_from_its_start_element_is_canonicalized_alike(bool includeComments, string inclusive)
    {
        string canonical = Same((r, c, log) =>
        {
            r.MoveToContent();
            r.ReadStartElement("Envelope", "http://www.w3.org/2003/05/soap-envelope");
            r.Skip();
            log.Append(r.LocalName);
            r.StartCanonicalization(c, includeComments, CanonicalizationContractTests.Prefixes(inclusive));
            r.Skip();
            r.EndCanonicalization();
            log.Append(' ').Append(r.NodeType);
        });
        Assert.StartsWith("<s:Body ", canonical);
        Assert.EndsWith("</s:Body>", canonical);
    }

    [Theory]
    [MemberData(nameof(CanonicalizationContractTests.Options), MemberType = typeof(CanonicalizationContractTests))]
    public void Typed_reads_and_array_reads_while_canonicalizing_are_alike(bool includeComments, string inclusive)
    {
        Same((r, c, log) =>
        {
            while (r.Read() && r.LocalName != "arrays") { }
            r.StartCanonicalization(c, includeComments, CanonicalizationContractTests.Prefixes(inclusive));
            r.ReadStartElement();
            log.Append(r.IsStartArray(out Type? type)).Append(type).Append(' ');
            log.Append(string.Join(",", r.ReadBooleanArray("b", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadInt16Array("i16", "http://www.w3.org/2003/05/soap-envelope"))).Append(' ');
            int[] ints = new int[4];
            log.Append(r.ReadArray("i32", "urn:x", ints, 0, 1)).Append(' ');
            log.Append(r.ReadElementContentAsInt()).Append(' ');
            log.Append(string.Join(",", r.ReadInt64Array("i64", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadSingleArray("f", ""))).Append(' ');
            log.Append(r.ReadElementContentAsDouble()).Append(' ');
            log.Append(r.ReadElementContentAsString()).Append(' ');
            log.Append(string.Join(",", r.ReadDecimalArray("m", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadDateTimeArray("dt", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadGuidArray("g", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadTimeSpanArray("ts", ""))).Append(' ');
            log.Append(r.ReadElementContentAsInt()).Append(' ');
            r.EndCanonicalization();
            log.Append(r.NodeType).Append(r.LocalName);
        });
    }

    /// <summary>The canonical form of a document read from its first node on, canonicalization started there.</summary>
    private static byte[] CanonicalFromFirstNode(XmlDictionaryReader r)
    {
        var c = new MemoryStream();
        r.Read();
        r.StartCanonicalization(c, false, null);
        while (r.Read()) { }
        r.EndCanonicalization();
        return c.ToArray();
    }

    /// <summary>
    /// U+FFFE and U+FFFF in text and attribute values, beside markup to escape. .NET's reader hands a Chars record's
    /// UTF-8 to its canonicalizer as bytes, whose escaping makes the two characters references only where their index
    /// in the reader's buffer plus two is below the value's byte count, and keeps them as they are elsewhere: here the
    /// attribute's value starts at byte 9, so in a value of 14 bytes the character at its byte 2 is a reference and
    /// those after it are not, and the text, later in the document, keeps all. A UnicodeChars record's characters are
    /// handed over as text, and both are references. The drop-in reader gives the same bytes, pinned here as well as
    /// compared with in-box's, and over the document at byte 20 of an array, where a Chars record keeps all.
    /// </summary>
    [Theory]
    [InlineData("a<\uFFFFb\uFFFE", 0x98, "<r at=\"a&lt;\uFFFFb\uFFFE\">a&lt;\uFFFFb\uFFFE</r>")]
    [InlineData("a<\uFFFF&\uFFFE\"b\uFFFF", 0x98, "<r at=\"a&lt;&#xFFFF;&amp;\uFFFE&quot;b\uFFFF\">a&lt;\uFFFF&amp;\uFFFE\"b\uFFFF</r>")]
    [InlineData("日本語日本語<\uFFFF&\uFFFE日本", 0xB6, "<r at=\"日本語日本語&lt;&#xFFFF;&amp;&#xFFFE;日本\">日本語日本語&lt;&#xFFFF;&amp;&#xFFFE;日本</r>")]
    public void Noncharacters_are_canonicalized_by_the_record_and_the_place_they_come_from(string value, int record, string expected)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteAttributeString("at", value);
            w.WriteString(value);
            w.WriteEndElement();
        }
        byte[] document = stream.ToArray();
        // The writer chose the record the case is about for the attribute's value: Chars8Text or UnicodeChars8Text.
        Assert.Equal(record, document[7]);
        byte[] inBox = CanonicalFromFirstNode(XmlDictionaryReader.CreateBinaryReader(document, XmlDictionaryReaderQuotas.Max));
        byte[] ours = CanonicalFromFirstNode(BinaryXmlDictionaryReader.Create(document, 0, document.Length, null, XmlDictionaryReaderQuotas.Max, null));
        Assert.Equal(expected, System.Text.Encoding.UTF8.GetString(inBox));
        Assert.Equal(Convert.ToHexString(inBox), Convert.ToHexString(ours));
        // The same document at byte 20 of an array: the index that counts is the array's.
        byte[] padded = new byte[20 + document.Length];
        document.CopyTo(padded, 20);
        byte[] inBoxPadded = CanonicalFromFirstNode(XmlDictionaryReader.CreateBinaryReader(padded, 20, document.Length, XmlDictionaryReaderQuotas.Max));
        byte[] oursPadded = CanonicalFromFirstNode(BinaryXmlDictionaryReader.Create(padded, 20, document.Length, null, XmlDictionaryReaderQuotas.Max, null));
        Assert.Equal(Convert.ToHexString(inBoxPadded), Convert.ToHexString(oursPadded));
        Assert.Equal(record == 0x98, !System.Text.Encoding.UTF8.GetString(inBoxPadded).Contains("&#xFFFF;", StringComparison.Ordinal));
    }

    /// <summary>
    /// Over a stream .NET's reader moves each node it reads to the end of its open elements' start tags in its buffer, so
    /// the index its escaping of U+FFFE and U+FFFF compares is a value's place after those start tags, not in the
    /// document: nested elements, attributes and text, with long text cut into pieces by MaxBytesPerRead, give the
    /// same canonical bytes from both readers over a stream. The sample has noncharacters kept as they are and made
    /// references both.
    /// </summary>
    [Fact]
    public void Noncharacters_over_a_stream_are_canonicalized_by_their_place_in_NETs_window()
    {
        var random = new Random(20261204);
        int raw = 0, references = 0;
        for (int trial = 0; trial < 300; trial++)
        {
            var stream = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
            {
                w.WriteStartElement("root");
                int depth = 0;
                for (int i = random.Next(1, 30); i > 0; i--)
                {
                    switch (random.Next(5))
                    {
                        case 0:
                            w.WriteStartElement("e" + random.Next(100));
                            depth++;
                            break;
                        case 1 when depth > 0:
                            w.WriteEndElement();
                            depth--;
                            break;
                        case 2:
                            w.WriteStartElement("v");
                            w.WriteAttributeString("a", Text(random));
                            w.WriteEndElement();
                            break;
                        default:
                            w.WriteString(Text(random));
                            break;
                    }
                }
                while (depth-- > 0) w.WriteEndElement();
                w.WriteEndElement();
            }
            byte[] document = stream.ToArray();
            XmlDictionaryReaderQuotas quotas = trial % 2 == 0
                ? XmlDictionaryReaderQuotas.Max
                : new XmlDictionaryReaderQuotas { MaxBytesPerRead = 40 + trial % 50, MaxStringContentLength = int.MaxValue, MaxDepth = 64 };
            byte[] inBox = CanonicalFromFirstNode(XmlDictionaryReader.CreateBinaryReader(new PacedStream(document, 7, seekable: false), quotas));
            byte[] ours = CanonicalFromFirstNode(BinaryXmlDictionaryReader.Create(new PacedStream(document, 7, seekable: false), null, quotas));
            Assert.True(inBox.AsSpan().SequenceEqual(ours), $"document {trial}: {Convert.ToHexString(document)}");
            string canonical = Encoding.UTF8.GetString(inBox);
            raw += canonical.Count(c => c is '\uFFFE' or '\uFFFF');
            references += canonical.Split("&#xFFF").Length - 1;
        }
        Assert.True(raw > 100 && references > 100, $"{raw} kept, {references} references");

        static string Text(Random random)
        {
            var chars = new char[random.Next(0, 200)];
            for (int i = 0; i < chars.Length; i++)
                chars[i] = random.Next(10) switch { 0 => '\uFFFF', 1 => '\uFFFE', 2 => '<', 3 => '&', 4 => 'é', _ => (char)('a' + random.Next(26)) };
            return new string(chars);
        }
    }

    [Fact]
    public void Canonicalization_can_start_on_text_and_comments_and_run_twice()
    {
        Same((r, c, log) =>
        {
            while (r.Read() && r.NodeType != XmlNodeType.Comment) { }
            r.StartCanonicalization(c, true, null);
            r.Read();
            r.Read();
            r.EndCanonicalization();
            while (r.Read() && r.NodeType != XmlNodeType.Text) { }
            r.StartCanonicalization(c, true, null);
            r.Read();
            r.Read();
            r.EndCanonicalization();
            log.Append(r.NodeType);
        });
    }

    [Fact]
    public void Reading_on_from_an_attribute_while_canonicalizing_fails_alike()
    {
        Same((r, c, log) =>
        {
            while (r.Read() && r.LocalName != "a") { }
            r.StartCanonicalization(c, false, null);
            r.Read();
            r.MoveToContent();
            log.Append(r.MoveToFirstAttribute());
            r.Read();
        }, valid: false);
    }

    [Fact]
    public void Misuse_throws_the_same_exception_types()
    {
        Same((r, c, log) => r.EndCanonicalization(), valid: false);
        Same((r, c, log) =>
        {
            r.StartCanonicalization(c, false, null);
            r.StartCanonicalization(c, false, null);
        }, valid: false);
        Same((r, c, log) => r.StartCanonicalization(null!, false, null), valid: false);
        Same((r, c, log) =>
        {
            r.StartCanonicalization(c, false, null);
            r.EndCanonicalization();
            log.Append(c.CanWrite);
            r.EndCanonicalization();
        }, valid: false);
        Assert.True(BinaryXmlDictionaryReader.Create(Document, 0, Document.Length, null, XmlDictionaryReaderQuotas.Max).CanCanonicalize);
    }

    /// <summary>
    /// Pinned difference: reading, while canonicalizing, past the end of an element that was open when
    /// canonicalization started makes .NET's reader fail with an IndexOutOfRangeException; ours fails with an
    /// InvalidOperationException.
    /// </summary>
    [Fact]
    public void Reading_past_the_element_canonicalization_started_in_is_refused()
    {
        static void Reads(XmlDictionaryReader r, Stream c, StringBuilder log)
        {
            while (r.Read() && r.LocalName != "defaults") { }
            r.Read();
            r.StartCanonicalization(c, false, null);
            while (r.Read()) { }
        }
        Assert.Equal(typeof(IndexOutOfRangeException), Run(ours: false, Reads).Error);
        Assert.Equal(typeof(InvalidOperationException), Run(ours: true, Reads).Error);
    }

    [Fact]
    public void A_value_read_in_part_is_canonicalized_as_in_box()
    {
        // .NET's reader canonicalizes a node's value handle when it moves on: what reads from the record (value
        // chunks of UTF-8 text, base64 pieces) left of it, but the whole value when the reads took a string kept from
        // it (Value asked for first, a typed value formatted for chunks). Ours canonicalized what any read left, so a
        // typed value read in chunks, or text read in chunks after Value, lost its start. Not compared: after Value
        // was asked for, base64 pieces (.NET canonicalizes the whole value; ours what the pieces left) and UTF-8
        // chunks read before Value and after it (.NET keeps what the first chunks left; ours what all of them left),
        // UnicodeChars text read in chunks (.NET reads its record, and canonicalizes what is left; ours reads a string
        // decoded from it, and canonicalizes the whole text), and the node of a read that failed.
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("a");
            w.WriteStartAttribute("x");
            w.WriteBase64([1, 2, 3, 4, 5, 6], 0, 6);
            w.WriteEndAttribute();
            w.WriteAttributeString("y", "AQIDBAUG");
            w.WriteString("hello world");
            w.WriteComment("c");
            w.WriteString("AQIDBAUG");
            w.WriteValue(1.5);
            w.WriteBase64([7, 8, 9, 10], 0, 4);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] doc = stream.ToArray();
        (string Name, Action<XmlDictionaryReader> Read)[] reads =
        [
            ("nothing", r => { }),
            ("a chunk of the text", r => { r.Read(); r.ReadValueChunk(new char[3], 0, 3); }),
            ("all of the text in a chunk", r => { r.Read(); r.ReadValueChunk(new char[100], 0, 100); }),
            ("Value, then a chunk of the text", r => { r.Read(); _ = r.Value; r.ReadValueChunk(new char[3], 0, 3); }),
            ("Value, then a chunk of the second text", r => { r.Read(); r.Read(); r.Read(); _ = r.Value; r.ReadValueChunk(new char[3], 0, 3); }),
            ("a base64 piece of the second text", r => { r.Read(); r.Read(); r.Read(); r.ReadContentAsBase64(new byte[3], 0, 3); }),
            ("a chunk of the double", r => { r.Read(); r.Read(); r.Read(); r.Read(); r.ReadValueChunk(new char[2], 0, 2); }),
            ("a base64 piece of the Bytes", r => { r.Read(); r.Read(); r.Read(); r.Read(); r.Read(); r.ReadContentAsBase64(new byte[2], 0, 2); }),
            ("a chunk of the comment", r => { r.Read(); r.Read(); r.ReadValueChunk(new char[1], 0, 1); }),
            ("Value, then a chunk of the comment", r => { r.Read(); r.Read(); _ = r.Value; r.ReadValueChunk(new char[1], 0, 1); }),
            ("the text as a string", r => { r.Read(); r.ReadContentAsString(); }),
            ("a base64 piece of attribute x", r => { r.MoveToAttribute("x"); r.ReadContentAsBase64(new byte[3], 0, 3); r.MoveToElement(); }),
            ("a chunk of attribute y", r => { r.MoveToAttribute("y"); r.ReadValueChunk(new char[3], 0, 3); r.MoveToElement(); }),
            ("a base64 piece of attribute y", r => { r.MoveToAttribute("y"); r.ReadContentAsBase64(new byte[3], 0, 3); r.MoveToElement(); }),
            ("a chunk of attribute y's value node", r => { r.MoveToAttribute("y"); r.ReadAttributeValue(); r.ReadValueChunk(new char[3], 0, 3); r.MoveToElement(); }),
        ];
        foreach ((string name, Action<XmlDictionaryReader> read) in reads)
        {
            string Canonical(XmlDictionaryReader r)
            {
                using (r)
                {
                    var c14n = new MemoryStream();
                    r.Read();
                    r.StartCanonicalization(c14n, false, null);
                    r.Read();
                    read(r);
                    while (r.Read())
                    {
                    }
                    r.EndCanonicalization();
                    return $"{name}: {Encoding.UTF8.GetString(c14n.ToArray())}";
                }
            }
            Assert.Equal(
                Canonical(XmlDictionaryReader.CreateBinaryReader(doc, XmlDictionaryReaderQuotas.Max)),
                Canonical(BinaryXml.BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max)));
        }
    }
}
