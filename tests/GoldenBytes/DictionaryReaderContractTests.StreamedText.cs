using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Over a stream .NET's reader reads through a window of MaxBytesPerRead bytes: text records longer than the quota less
/// five come as several text nodes, and start tags are not held to the quota. Over an array neither happens.
/// </summary>
public sealed partial class DictionaryReaderContractTests
{
    /// <summary>Texts around the points where .NET's reader cuts them, as the writer records them (Chars, UnicodeChars, Bytes).</summary>
    /// <remarks>
    /// Text with surrogate pairs is compared by its values, not in chunks: this reader keeps a pair whole in a chunk
    /// where .NET's reader splits it (pinned in <c>Utf16_value_chunks_keep_surrogate_pairs_whole_where_the_in_box_reader_splits_them</c>).
    /// </remarks>
    private static IEnumerable<(string Name, bool Pairs, Action<XmlDictionaryWriter> Write)> LongTexts(int maxBytesPerRead)
    {
        int around = Math.Max(maxBytesPerRead - 5, 1);
        foreach (int length in new[] { around - 1, around, around + 1, 2 * around + 3, 5 * around + 7 })
        {
            yield return ($"ASCII {length}", false, w => w.WriteString(new string('a', length)));
            // Two-, three- and four-byte UTF-8 at every place relative to a cut (the text stays UTF-8: mostly ASCII).
            yield return ($"mixed UTF-8 {length}", false, w => w.WriteString(string.Concat(Enumerable.Range(0, length).Select(i => (i % 5) switch { 2 => "é", 4 => "€", _ => "b" }))));
            yield return ($"UTF-8 with pairs {length}", true, w => w.WriteString(string.Concat(Enumerable.Range(0, length).Select(i => (i % 7) switch { 2 => "é", 4 => "€", 5 => "😀", _ => "b" }))));
            // Written as UTF-16 (UnicodeChars records), with surrogate pairs at every place relative to a cut.
            yield return ($"CJK {length}", false, w => w.WriteString(string.Concat(Enumerable.Repeat("日本語", length / 6 + 1))));
            yield return ($"CJK with pairs {length}", true, w => w.WriteString(string.Concat(Enumerable.Range(0, length / 2 + 1).Select(i => i % 3 == 1 ? "😀" : "日"))));
            yield return ($"base64 {length}", false, w => w.WriteBase64(Enumerable.Range(0, length).Select(i => (byte)i).ToArray(), 0, length));
            yield return ($"text closing its element {length}", false, w => w.WriteElementString("e", new string('c', length)));
        }
    }

    /// <summary>What a test reads of a text node: its value whole, or in chunks of five characters (the first text node of each element).</summary>
    private static List<string> TextPieces(XmlDictionaryReader r, bool chunked)
    {
        var log = new List<string>();
        var chunk = new char[5];
        int lastDepth = -1;
        while (r.Read())
        {
            if (r.NodeType != XmlNodeType.Text)
            {
                log.Add($"{r.NodeType} {r.Depth} {r.LocalName}");
                lastDepth = -1;
                continue;
            }
            if (lastDepth == r.Depth || !chunked)
            {
                log.Add($"Text {r.Depth} {r.Value}");
                continue;
            }
            lastDepth = r.Depth;
            var value = new StringBuilder();
            for (int n; (n = r.ReadValueChunk(chunk, 0, chunk.Length)) > 0;) value.Append('[').Append(chunk, 0, n).Append(']');
            log.Add($"Text {r.Depth} in chunks {value}");
        }
        return log;
    }

    [Theory]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(18)]
    [InlineData(40)]
    [InlineData(4096)]
    public void Long_text_over_a_stream_is_read_in_the_pieces_NET_reads_it_in(int maxBytesPerRead)
    {
        var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = maxBytesPerRead, MaxStringContentLength = int.MaxValue, MaxArrayLength = int.MaxValue };
        bool anySplit = false;
        foreach ((string name, bool pairs, Action<XmlDictionaryWriter> write) in LongTexts(maxBytesPerRead))
        {
            byte[] doc = InBoxDocument(w =>
            {
                w.WriteStartElement("r");
                w.WriteStartElement("a");
                w.WriteStartElement("b");
                write(w);
                w.WriteEndElement();
                w.WriteString("after");
                w.WriteEndElement();
                w.WriteEndElement();
            });
            string context = $"{name}, MaxBytesPerRead {maxBytesPerRead}";
            // Node by node: the nodes and their values (chunked reads included) as .NET's reader reads the stream.
            List<string> inBox = TextPieces(XmlDictionaryReader.CreateBinaryReader(new PacedStream(doc, 7, seekable: false), quotas), !pairs);
            Assert.Equal(inBox, TextPieces(BinaryXmlDictionaryReader.Create(new PacedStream(doc, 7, seekable: false), null, quotas), !pairs));
            Assert.Equal(NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas), exactNodeTypes: true),
                NodeStream.FromXmlReader(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas), exactNodeTypes: true));
            // Over an array nothing is split, by either reader.
            List<string> inBoxArray = TextPieces(XmlDictionaryReader.CreateBinaryReader(doc, quotas), !pairs);
            Assert.Equal(inBoxArray, TextPieces(BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas), !pairs));
            anySplit |= inBox.Count > inBoxArray.Count;
            // The element's content read in one call is the same either way.
            static string Content(XmlDictionaryReader r)
            {
                r.ReadToDescendant("b");
                return r.ReadInnerXml();
            }
            string whole = Content(XmlDictionaryReader.CreateBinaryReader(doc, quotas));
            Assert.Equal(whole, Content(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas)));
            Assert.True(whole == Content(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas)), context);
        }
        // The texts reach past the cut: .NET's reader split some of them.
        Assert.True(anySplit);
    }

    [Fact]
    public void Base64_content_over_a_stream_is_read_whole_across_the_pieces()
    {
        // 10,000 bytes in one Bytes16Text record, read with ReadContentAsBase64 in blocks of 1,000 and as one array:
        // the pieces (4,089 bytes each at the default quota) hand on the bytes between them as .NET's reader does.
        byte[] data = Enumerable.Range(0, 10_000).Select(i => (byte)(i * 7)).ToArray();
        byte[] doc = InBoxDocument(w =>
        {
            w.WriteStartElement("r");
            w.WriteBase64(data, 0, data.Length);
            w.WriteEndElement();
        });
        string Blocks(XmlDictionaryReader r)
        {
            r.ReadStartElement("r");
            var read = new List<int>();
            var all = new MemoryStream();
            var block = new byte[1000];
            for (int n; (n = r.ReadContentAsBase64(block, 0, block.Length)) > 0;)
            {
                read.Add(n);
                all.Write(block, 0, n);
            }
            Assert.Equal(data, all.ToArray());
            return string.Join(",", read) + " then " + r.NodeType;
        }
        var quotas = new XmlDictionaryReaderQuotas { MaxArrayLength = int.MaxValue };
        Assert.Equal(Blocks(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas)),
            Blocks(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas)));
        byte[] Whole(XmlDictionaryReader r)
        {
            r.ReadToFollowing("r");
            return r.ReadElementContentAsBase64();
        }
        Assert.Equal(data, Whole(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas)));
        Assert.Equal(data, Whole(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas)));
    }

    [Fact]
    public void Start_tags_past_MaxBytesPerRead_are_read_over_a_stream_as_NET_reads_them()
    {
        // .NET's reader holds a start tag's attributes to MaxBytesPerRead over an array only.
        byte[] doc = InBoxDocument(w =>
        {
            w.WriteStartElement("r");
            for (int i = 0; i < 100; i++) w.WriteAttributeString("at" + i, "vvvvvvvvvv");
            w.WriteString("x");
            w.WriteEndElement();
        });
        var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = 40 };
        List<string> inBox = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas), exactNodeTypes: true);
        Assert.Contains(inBox, line => line.Contains("at99", StringComparison.Ordinal));
        Assert.Equal(inBox, NodeStream.FromXmlReader(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas), exactNodeTypes: true));
        Assert.ThrowsAny<XmlException>(() => NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(doc, quotas)));
        Assert.Throws<BinaryXmlException>(() => NodeStream.FromXmlReader(BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas)));
    }

    [Theory]
    [InlineData("é", 12)]
    [InlineData("😀", 14)]
    [InlineData("a", 11)]
    public void Text_a_quota_too_small_to_cut_is_read_whole_where_NET_reads_empty_text_without_end(string unit, int maxBytesPerRead)
    {
        // Difference, pinned: where the piece .NET's reader would take holds no whole character (quotas of about ten bytes
        // or less), it reports empty text again and again and never moves on; this reader reads the text whole.
        string text = string.Concat(Enumerable.Repeat(unit, 30));
        byte[] doc = InBoxDocument(w => w.WriteElementString("r", text));
        var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = maxBytesPerRead };
        XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas);
        inBox.Read();
        for (int i = 0; i < 50; i++)
        {
            Assert.True(inBox.Read());
            Assert.Equal((XmlNodeType.Text, ""), (inBox.NodeType, inBox.Value));
        }
        XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas);
        ours.Read();
        Assert.True(ours.Read());
        Assert.Equal((XmlNodeType.Text, text), (ours.NodeType, ours.Value));
        Assert.True(ours.Read());
        Assert.Equal(XmlNodeType.EndElement, ours.NodeType);
    }

    [Fact]
    public void An_arrays_length_is_not_told_over_a_stream_as_NET_does_not_tell_it()
    {
        // .NET's reader answers TryGetArrayLength over an array only; its typed array reads gather the items either way.
        byte[] doc = InBoxDocument(w =>
        {
            w.WriteStartElement("r");
            w.WriteArray(null, "a", null, new[] { 1, 2, 3 }, 0, 3);
            w.WriteEndElement();
        });
        string Read(XmlDictionaryReader r)
        {
            r.ReadStartElement("r");
            bool told = r.TryGetArrayLength(out int count);
            return $"{r.IsStartArray(out Type? type)} {type} {told} {count} [{string.Join(",", r.ReadInt32Array("a", ""))}] {r.NodeType}";
        }
        var quotas = new XmlDictionaryReaderQuotas();
        string overStream = Read(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas));
        Assert.Equal("True System.Int32 False 0 [1,2,3] EndElement", overStream);
        Assert.Equal(overStream, Read(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas)));
        string overArray = Read(XmlDictionaryReader.CreateBinaryReader(doc, quotas));
        Assert.Equal("True System.Int32 True 3 [1,2,3] EndElement", overArray);
        Assert.Equal(overArray, Read(BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas)));
    }

    [Fact]
    public void A_short_text_cut_over_a_stream_past_the_string_quota_fails_on_the_text()
    {
        // Difference, pinned: ReadElementContentAsString takes a Chars8Text record closing its element (up to 255 bytes)
        // in one step, before .NET's reader would cut it; with MaxBytesPerRead below 261 such a record is cut into
        // pieces here, read one by one: a value past MaxStringContentLength fails with the reader on the text, where
        // .NET's is past the end tag. Within the quota both read the same string and end in the same place.
        string Run(XmlDictionaryReader r)
        {
            try
            {
                r.ReadStartElement("r");
                string value = r.ReadElementContentAsString();
                return $"{value.Length} then {r.NodeType} {r.LocalName}";
            }
            catch (XmlException)
            {
                return $"failed on {r.NodeType} {r.LocalName}";
            }
        }
        foreach ((int length, string inBox, string ours) in new[] { (30, "30 then Element f", "30 then Element f"), (40, "failed on Element f", "failed on Text ") })
        {
            byte[] doc = InBoxDocument(w =>
            {
                w.WriteStartElement("r");
                w.WriteElementString("e", new string('a', length));
                w.WriteElementString("f", "x");
                w.WriteEndElement();
            });
            var quotas = new XmlDictionaryReaderQuotas { MaxBytesPerRead = 20, MaxStringContentLength = 30 };
            Assert.Equal(inBox, Run(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas)));
            Assert.Equal(ours, Run(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas)));
            Assert.Equal(inBox, Run(BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas)));
        }
    }

    [Fact]
    public void Bytes_content_over_a_stream_past_the_array_quota_fails_where_the_quota_is_passed()
    {
        // Difference, pinned (as for base64 text, README): over a stream .NET's reader does not know the content's length
        // in advance, reads it all into buffers growing with it and then fails past the end tag; this reader fails on
        // the text whose bytes pass MaxArrayLength. Over an array both fail on the text (.NET's from the length known
        // in advance). Within the quota both read the same bytes either way.
        string Run(XmlDictionaryReader r)
        {
            r.ReadStartElement("r");
            try
            {
                return $"{r.ReadElementContentAsBase64().Length} then {r.NodeType} {r.LocalName}";
            }
            catch (XmlException)
            {
                return $"failed on {r.NodeType} {r.LocalName}";
            }
        }
        foreach ((int length, string inBoxStream, string oursStream, string array) in new[]
        {
            (16_384, "16384 then Element n", "16384 then Element n", "16384 then Element n"),
            (16_385, "failed on EndElement a", "failed on Text ", "failed on Text "),
        })
        {
            byte[] doc = InBoxDocument(w =>
            {
                w.WriteStartElement("r");
                w.WriteStartElement("a");
                w.WriteBase64(new byte[length], 0, length);
                w.WriteEndElement();
                w.WriteElementString("n", "z");
                w.WriteEndElement();
            });
            var quotas = new XmlDictionaryReaderQuotas();
            Assert.Equal(inBoxStream, Run(XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), quotas)));
            Assert.Equal(oursStream, Run(BinaryXmlDictionaryReader.Create(new MemoryStream(doc), quotas)));
            Assert.Equal(array, Run(XmlDictionaryReader.CreateBinaryReader(doc, quotas)));
            Assert.Equal(array, Run(BinaryXmlDictionaryReader.Create(doc, quotas)));
        }
    }
}
