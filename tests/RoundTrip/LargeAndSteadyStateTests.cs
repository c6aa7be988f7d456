using System.Buffers;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>Allocation measurements run alone: other tests' collections make the shared ArrayPool drop cached arrays.</summary>
[CollectionDefinition(nameof(AllocationCollection), DisableParallelization = true)]
public sealed class AllocationCollection;

/// <summary>
/// Records past the 8- and 16-bit length forms (Chars32, UnicodeChars32, Bytes32, names over 16 KB) are written as
/// the in-box writer writes them and read back; and writing and reading in steady state allocate nothing.
/// </summary>
[Collection(nameof(AllocationCollection))]
public sealed class LargeAndSteadyStateTests
{
    /// <summary>
    /// Bytes allocated on this thread by 100 runs of <paramref name="action"/>, the least of three windows: a GC in
    /// the middle of a window can make the shared ArrayPool trim the arrays the reader rents, which then allocates once.
    /// </summary>
    private static long LeastAllocated(Action action)
    {
        long least = long.MaxValue;
        for (int attempt = 0; attempt < 3 && least > 0; attempt++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 100; i++) action();
            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }
        return least;
    }

    [Theory]
    [InlineData("StartElement(null, \"r\", null); StartElement(null, \"a\", null); String(\"x\"*70000); EndElement(); StartElement(null, \"b\", null); String(\"y\"); EndElement(); EndElement()")]
    [InlineData("StartElement(null, \"a\", null); String(\"\\u65E5\\u672C\"*20000); EndElement()")]
    [InlineData("StartElement(null, \"a\", null); String(\"\\u00E9\"*40000); EndElement()")]
    [InlineData("StartElement(null, \"a\", null); String(\"x\\uD83D\\uDE00\"*30000); EndElement()")]
    [InlineData("StartElement(null, \"a\", null); Base64(hex:0102*40000); EndElement()")]
    [InlineData("StartElement(null, \"a\", null); String(\"x\"*300); String(\"z\"*171); String(\"\\u65E5\"*256); EndElement()")]
    [InlineData("StartElement(null, \"n\"*20000, null); AttributeString(null, \"a\"*300, null, \"v\"*70000); EndElement()")]
    [InlineData("StartElement(null, \"r\", null); Array(null, \"a\", null, int[" + "7, 8, 9, 10" + "]); String(\"q\"*511); EndElement()")]
    public void Large_records_match_the_in_box_writer_and_read_back(string calls)
    {
        List<Call> script = WriterScript.Parse(calls);
        var context = new ScriptContext();
        (byte[] inBox, Exception? e1) = WriterScript.RunInBox(script, context);
        (byte[] ours, Exception? e2) = WriterScript.RunNative(script, context);
        Assert.Null(e1);
        Assert.Null(e2);
        Assert.True(inBox.AsSpan().SequenceEqual(ours), "bytes differ");
        Assert.Equal(NodeStream.FromInBox(inBox), NodeStream.FromNative(inBox));
    }

    private static void WriteDocument(BinaryXmlWriter w)
    {
        w.WriteStartElement("s", "Envelope", "http://www.w3.org/2003/05/soap-envelope");
        w.WriteStartElement("Body", "http://www.w3.org/2003/05/soap-envelope");
        WriteItems(w);
        w.WriteEndElement();
        w.WriteEndElement();
        w.Flush();
    }

    /// <summary>Twenty items of three elements: a typed value with an attribute, a non-ASCII text, a double.</summary>
    private static void WriteItems(BinaryXmlWriter w)
    {
        for (int i = 0; i < 20; i++)
        {
            w.WriteStartElement("item");
            w.WriteAttributeString("id", "a1");
            w.WriteValue(i);
            w.WriteEndElement();
            w.WriteStartElement("name");
            w.WriteString("Some text value é");
            w.WriteEndElement();
            w.WriteStartElement("d");
            w.WriteValue(1.5);
            w.WriteEndElement();
        }
    }

    /// <summary>
    /// A native writer created and closed per message (what a service does per message) stays within the design's
    /// allocation budget: a tenth of what an in-box writer created per message allocates in benchmark W7. The writer's scopes
    /// and buffers come from the writer closed before it; only the writer object itself is new.
    /// </summary>
    [Fact]
    public void A_writer_created_per_message_allocates_at_most_a_tenth_of_the_in_box_one()
    {
        var output = new ArrayBufferWriter<byte>(64 * 1024);
        void Ours()
        {
            output.ResetWrittenCount();
            using var w = new BinaryXmlWriter(output, BinaryXml.Soap.NbfsDictionary.Instance);
            WriteDocument(w);
        }
        Ours();
        long ours = LeastAllocated(Ours) / 100;
        // The design's budget: a tenth of the 1,640 B an in-box writer allocates per W7 message (benchmarks).
        Assert.True(ours <= 164, $"a new writer allocated {ours} B per message (budget 164 B)");
    }

    /// <summary>
    /// The design's bound for the drop-in reader: never more allocation than the in-box reader. A reader created per
    /// message (as a message encoder without a pool does) over a SOAP message of the MC-NBFS dictionary, every node read
    /// and named, allocates no more than an in-box reader doing the same.
    /// </summary>
    [Fact]
    public void A_drop_in_reader_created_per_message_allocates_no_more_than_the_in_box_one()
    {
        BinaryXml.Soap.NbfsDictionary nbfs = BinaryXml.Soap.NbfsDictionary.Instance;
        XmlDictionaryString N(string value) => nbfs.TryLookup(value, out XmlDictionaryString? s) ? s : throw new InvalidOperationException(value);
        var output = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(output, nbfs))
        {
            XmlDictionaryString soap = N("http://www.w3.org/2003/05/soap-envelope"), wsa = N("http://www.w3.org/2005/08/addressing");
            w.WriteStartElement("s", N("Envelope"), soap);
            w.WriteXmlnsAttribute("a", wsa);
            w.WriteStartElement("s", N("Header"), soap);
            foreach (string header in new[] { "Action", "MessageID", "To" })
            {
                w.WriteStartElement("a", N(header), wsa);
                w.WriteStartAttribute("s", N("mustUnderstand"), soap);
                w.WriteValue(1);
                w.WriteEndAttribute();
                w.WriteString("urn:" + header);
                w.WriteEndElement();
            }
            w.WriteEndElement();
            w.WriteStartElement("s", N("Body"), soap);
            WriteItems(w);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = output.WrittenSpan.ToArray();
        int Read(XmlDictionaryReader r)
        {
            int names = 0;
            while (r.Read())
            {
                names += r.LocalName.Length + r.NamespaceURI.Length;
                while (r.MoveToNextAttribute()) names += r.LocalName.Length;
            }
            r.Close();
            return names;
        }
        int expected = Read(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, nbfs, XmlDictionaryReaderQuotas.Max));
        Assert.Equal(expected, Read(BinaryXmlDictionaryReader.Create(data, 0, data.Length, nbfs, XmlDictionaryReaderQuotas.Max)));
        long inBox = LeastAllocated(() => Read(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, nbfs, XmlDictionaryReaderQuotas.Max))) / 100;
        long ours = LeastAllocated(() => Read(BinaryXmlDictionaryReader.Create(data, 0, data.Length, nbfs, XmlDictionaryReaderQuotas.Max))) / 100;
        Assert.True(ours <= inBox, $"a new drop-in reader allocated {ours} B per message, an in-box one {inBox} B");
    }

    /// <summary>
    /// The same bound on the smallest messages, where the in-box reader allocates least (one name, no declaration): a
    /// drop-in reader created and closed per message leaves its workspace to the next, so it allocates little more than
    /// itself and its name table.
    /// </summary>
    [Theory]
    [InlineData("a")]
    [InlineData("Envelope")]
    public void A_drop_in_reader_created_per_message_of_one_element_allocates_no_more_than_the_in_box_one(string name)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(output, BinaryXml.Soap.NbfsDictionary.Instance))
        {
            w.WriteStartElement(name);
            w.WriteValue(1);
            w.WriteEndElement();
        }
        byte[] data = output.WrittenSpan.ToArray();
        static int Read(XmlDictionaryReader r)
        {
            int names = 0;
            while (r.Read()) names += r.LocalName.Length;
            r.Close();
            return names;
        }
        XmlDictionaryReader InBox() => XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, BinaryXml.Soap.NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        XmlDictionaryReader Ours() => BinaryXmlDictionaryReader.Create(data, 0, data.Length, BinaryXml.Soap.NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        Assert.Equal(Read(InBox()), Read(Ours()));
        long inBox = LeastAllocated(() => Read(InBox())) / 100;
        long ours = LeastAllocated(() => Read(Ours())) / 100;
        Assert.True(ours <= inBox, $"a new drop-in reader allocated {ours} B per message of <{name}>, an in-box one {inBox} B");
    }

    /// <summary>
    /// The typed reads of a reader created per message allocate their results only, as an in-box reader's do: the
    /// state the drop-in reader reads values with is kept on the thread when it is closed, not created per reader.
    /// </summary>
    [Fact]
    public void Typed_reads_of_a_drop_in_reader_created_per_message_allocate_only_their_results()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("a"); w.WriteValue(12345); w.WriteEndElement();
            w.WriteStartElement("u"); w.WriteValue(new UniqueId(new Guid("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))); w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        (long Bytes, string Values) TypedReads(Func<XmlDictionaryReader> create)
        {
            long least = long.MaxValue;
            string values = "";
            for (int message = 0; message < 20; message++)
            {
                XmlDictionaryReader r = create();
                r.ReadStartElement("r");
                r.ReadStartElement("a");
                long before = GC.GetAllocatedBytesForCurrentThread();
                object number = r.ReadContentAs(typeof(int), null);
                r.ReadEndElement();
                UniqueId id = r.ReadElementContentAsUniqueId();
                least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
                r.Close();
                values = $"{number} {id}";
            }
            return (least, values);
        }
        (long inBoxBytes, string inBoxValues) = TypedReads(() => XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max));
        (long oursBytes, string oursValues) = TypedReads(() => BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max));
        Assert.Equal("12345 urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", inBoxValues);
        Assert.Equal(inBoxValues, oursValues);
        Assert.Equal(inBoxBytes, oursBytes);
    }

    [Fact]
    public void Writer_reused_across_documents_allocates_nothing()
    {
        var output = new ArrayBufferWriter<byte>(64 * 1024);
        var w = new BinaryXmlWriter(output);
        WriteDocument(w);
        long allocated = LeastAllocated(() =>
        {
            output.ResetWrittenCount();
            w.Reset(output);
            WriteDocument(w);
        });
        var fresh = new ArrayBufferWriter<byte>();
        WriteDocument(new BinaryXmlWriter(fresh));
        Assert.True(fresh.WrittenSpan.SequenceEqual(output.WrittenSpan), "a reused writer wrote a different document");
        Assert.Equal(0, allocated);
    }

    [Fact]
    public void Reader_allocates_nothing_in_steady_state()
    {
        var output = new ArrayBufferWriter<byte>();
        WriteDocument(new BinaryXmlWriter(output));
        byte[] data = output.WrittenSpan.ToArray();
        static int Scan(byte[] data)
        {
            int sum = 0;
            var r = new BinaryXmlReader(data);
            while (r.Read())
            {
                if (r.TokenType == BinaryXmlTokenType.Text && r.TryGetInt32(out int v)) sum += v;
                if (r.TokenType == BinaryXmlTokenType.StartElement && r.LocalName.ValueEquals("item"u8)) sum++;
            }
            r.Dispose();
            return sum;
        }
        int expected = Scan(data);
        int mismatches = 0;
        long allocated = LeastAllocated(() =>
        {
            if (Scan(data) != expected) mismatches++;
        });
        Assert.Equal(0, mismatches);
        Assert.Equal(20 + 190, expected); // 20 "item" elements plus the values 0..19; the doubles 1.5 are not Int32s
        Assert.Equal(0, allocated);
    }

    [Fact]
    public void Drop_in_reader_reused_over_segmented_sequences_allocates_nothing()
    {
        // A pipe hands a message over in segments: a reused reader copies them into the buffer it keeps, and reading every
        // node (names atomized once, values not asked for) allocates nothing after the first messages.
        var output = new ArrayBufferWriter<byte>();
        WriteDocument(new BinaryXmlWriter(output));
        byte[] data = output.WrittenSpan.ToArray();
        ReadOnlySequence<byte> sequence = Segmented(data, 3);
        BinaryXmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(sequence, null, XmlDictionaryReaderQuotas.Max);
        int Scan()
        {
            reader.SetInput(sequence, null, XmlDictionaryReaderQuotas.Max, null, null);
            int nodes = 0;
            while (reader.Read()) nodes++;
            return nodes;
        }
        int expected = AssertScansAllocateNothing(Scan);
        Assert.True(expected > 40, $"{expected} nodes");
        // Closing returns the buffer; the reader can be given input again.
        reader.Close();
        Assert.Equal(expected, Scan());
        reader.Close();
    }

    [Fact]
    public void Drop_in_reader_reused_over_streams_with_text_to_cut_allocates_nothing()
    {
        // At the default quotas a stream's long text comes in pieces, as .NET's reader reads it there: the records to cut
        // are found and rewritten into the buffer the reader keeps (a second rented one, the first given back), and
        // reading every node allocates nothing after the first messages.
        byte[] data = InBoxBytes(w =>
        {
            w.WriteStartElement("r");
            w.WriteString(new string('a', 10_000));
            w.WriteStartElement("b");
            w.WriteBase64(new byte[9_000], 0, 9_000);
            w.WriteEndElement();
            w.WriteEndElement();
        });
        var quotas = new XmlDictionaryReaderQuotas();
        var stream = new MemoryStream(data);
        BinaryXmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(new MemoryStream(data), null, quotas);
        int Scan()
        {
            stream.Position = 0;
            reader.SetInput(stream, null, quotas, null, null);
            int nodes = 0;
            while (reader.Read()) nodes++;
            return nodes;
        }
        // 10,000 characters in three pieces, 9,000 bytes in three: the text was cut.
        Assert.Equal(10, AssertScansAllocateNothing(Scan));
    }

    /// <summary>
    /// Runs <paramref name="scan"/> once, then 100 times a window (<see cref="LeastAllocated"/>): every scan reads as
    /// many nodes as the first, and the least window allocates nothing. Returns the number of nodes.
    /// </summary>
    private static int AssertScansAllocateNothing(Func<int> scan)
    {
        int expected = scan();
        int mismatches = 0;
        long allocated = LeastAllocated(() =>
        {
            if (scan() != expected) mismatches++;
        });
        Assert.Equal(0, mismatches);
        Assert.Equal(0, allocated);
        return expected;
    }

    private static byte[] InBoxBytes(Action<XmlDictionaryWriter> write)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream)) write(w);
        return stream.ToArray();
    }

    private static ReadOnlySequence<byte> Segmented(byte[] data, int parts)
    {
        int size = (data.Length + parts - 1) / parts;
        Segment first = new(data.AsMemory(0, size), null), last = first;
        for (int start = size; start < data.Length; start += size) last = new Segment(data.AsMemory(start, Math.Min(size, data.Length - start)), last);
        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, Segment? previous)
        {
            Memory = memory;
            if (previous is null) return;
            RunningIndex = previous.RunningIndex + previous.Memory.Length;
            previous.Next = this;
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_typed_array_read_allocates_only_its_result(bool followedByAnotherElement)
    {
        // XmlDictionaryReader's own typed array reads (which the in-box reader uses) allocate a first block, then,
        // unless the array is followed by an end tag, a table of blocks, a second block and the result; ours allocates
        // the result (an Array record's items go into an array of their count, what might follow into a pooled buffer).
        int[] values = Enumerable.Range(0, 100).ToArray();
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteArray(null, "a", null, values, 0, values.Length);
            if (followedByAnotherElement) w.WriteElementString("b", "x");
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        var reader = BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max);
        int[] read = [];
        long allocated = LeastAllocated(() =>
        {
            reader.SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            reader.ReadStartElement("r");
            read = reader.ReadInt32Array("a", "");
        }) / 100;
        Assert.Equal(values, read);
        Assert.Equal(followedByAnotherElement ? "b" : "r", reader.LocalName);
        long result = 24 + 4 * values.Length; // the array's header and items (64-bit)
        Assert.True(allocated <= result, $"ReadInt32Array allocated {allocated} B for a {result}-byte result");
    }
}

