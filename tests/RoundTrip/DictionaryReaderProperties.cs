using System.Runtime.Serialization;
using System.Xml;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// The drop-in <see cref="BinaryXmlDictionaryReader"/> against <c>XmlDictionaryReader.CreateBinaryReader</c>: the
/// same node stream (node type, depth, names, namespace, value, value type, attributes) for random documents, and
/// DataContractSerializer reads the same graphs through both.
/// </summary>
public sealed class DictionaryReaderProperties
{
    [Fact]
    public void Random_documents_give_the_same_node_stream()
    {
        ForBothReaders(2000, (_, inBox, ours) =>
            Assert.Equal(NodeStream.FromXmlReader(inBox, exactNodeTypes: true), NodeStream.FromXmlReader(ours, exactNodeTypes: true)));
    }

    /// <summary>
    /// Read from a stream with a small MaxBytesPerRead (16 to 79 bytes, by the document's length), where .NET's reader
    /// cuts long text into several nodes (and holds no start tag to the quota), the node streams are equal too.
    /// </summary>
    [Fact]
    public void Random_documents_read_from_a_stream_with_a_small_window_give_the_same_node_stream()
    {
        ForDocuments(1000, (bytes, dictionary, session) =>
        {
            XmlDictionaryReaderQuotas quotas = StreamWindow.Quotas(bytes.Length);
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(new PacedStream(bytes, 5, seekable: false), dictionary, quotas, session());
            using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(new PacedStream(bytes, 5, seekable: false), dictionary, quotas, session());
            Assert.Equal(NodeStream.FromXmlReader(inBox, exactNodeTypes: true), NodeStream.FromXmlReader(ours, exactNodeTypes: true));
        });
    }

    /// <summary>
    /// Checks each random document the in-box writer accepts (with a session or not, as generated) with the in-box
    /// reader and ours over it.
    /// </summary>
    private static void ForBothReaders(int documents, Action<byte[], XmlDictionaryReader, XmlDictionaryReader> check)
    {
        ForDocuments(documents, (bytes, dictionary, session) =>
        {
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session());
            using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session());
            check(bytes, inBox, ours);
        });
    }

    /// <summary>
    /// Each random document the in-box writer accepts, with the static dictionary it was written with and a factory of
    /// reader sessions holding its session strings (null sessions when it was written without one).
    /// </summary>
    private static void ForDocuments(int documents, Action<byte[], IXmlDictionary, Func<XmlBinaryReaderSession?>> check)
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.MixedSizeDocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            RecordingWriterSession? session = context.CreateWriterSession();
            (byte[] bytes, Exception? error) = WriterScript.RunInBox(doc.Calls(withFlushes: true), context, session);
            if (error is not null) return;
            check(bytes, context.Dictionary, () => session?.ToReaderSession());
        }), documents);
    }

    [Fact]
    public void A_reused_reader_reads_each_document_as_a_new_in_box_reader_does()
    {
        // One reader for every document (SetInput), each document's predecessor left read in part: nothing a reader
        // keeps from one document (native state, namespace atoms, open elements, kept prefix answers, the buffer a
        // stream is read into) may show in the next one. The documents come as arrays and as streams that hand out a
        // few bytes a read, in turn.
        BinaryXmlDictionaryReader? reused = null;
        int checkedDocuments = 0;
        ForDocuments(1000, (bytes, dictionary, session) =>
        {
            List<string> expected;
            using (XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session()))
            {
                expected = NodeStream.FromXmlReader(inBox, exactNodeTypes: true);
            }
            bool asStream = checkedDocuments % 2 == 1;
            if (reused is null) reused = BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session());
            else if (asStream) reused.SetInput(new PacedStream(bytes, bytes.Length % 13 + 1, seekable: bytes.Length % 2 == 0), dictionary, XmlDictionaryReaderQuotas.Max, session(), null);
            else reused.SetInput(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session(), null);
            Assert.Equal(expected, NodeStream.FromXmlReader(reused, exactNodeTypes: true));
            // Left in part for the next document.
            reused.SetInput(bytes, 0, bytes.Length, dictionary, XmlDictionaryReaderQuotas.Max, session(), null);
            for (int i = 0; i < bytes.Length % 7 && reused.Read(); i++) _ = reused.NamespaceURI;
            checkedDocuments++;
        });
        Assert.True(checkedDocuments > 100, $"only {checkedDocuments} documents were accepted by the in-box writer");
    }

    [Fact]
    public void Skip_moves_both_readers_alike()
    {
        // Skip on elements (some reached through one of their attributes), Read elsewhere: the same nodes are visited.
        ForBothReaders(2000, (bytes, inBox, ours) =>
        {
            int period = bytes.Length % 3 + 1;
            List<string> expected = SkipTrace(inBox, period), actual = SkipTrace(ours, period);
            int at = 0;
            while (at < Math.Min(expected.Count, actual.Count) && expected[at] == actual[at]) at++;
            Assert.True(at == expected.Count && at == actual.Count,
                $"{Convert.ToHexString(bytes)}: first difference at step {at}: in-box '{(at < expected.Count ? expected[at] : "(end)")}', ours '{(at < actual.Count ? actual[at] : "(end)")}', after '{(at > 0 ? expected[at - 1] : "")}'");
        });
    }

    [Fact]
    public void Name_tests_answer_as_the_in_box_reader()
    {
        // IsStartElement, IsLocalName, IsNamespaceUri and IndexOfLocalName with dictionary strings, on every node (and
        // on an attribute of every other element): the names of the node itself, the reader's own dictionary strings,
        // an empty and an unrelated name. Both readers move in lockstep; IsStartElement may move them (MoveToContent).
        ForBothReaders(1000, (bytes, inBox, ours) =>
        {
            var names = new XmlDictionary();
            XmlDictionaryString empty = names.Add(""), other = names.Add("no-such-name");
            int step = 0, elements = 0;
            while (inBox.Read() & ours.Read())
            {
                bool attributeValue = false;
                if (inBox.NodeType == XmlNodeType.Element && elements++ % 2 == 1)
                {
                    if (inBox.MoveToFirstAttribute() != ours.MoveToFirstAttribute()) Assert.Fail($"{Head(bytes)}: step {step}: MoveToFirstAttribute differs");
                    if (elements % 4 == 0 && inBox.NodeType == XmlNodeType.Attribute)
                    {
                        attributeValue = inBox.ReadAttributeValue();
                        if (attributeValue != ours.ReadAttributeValue()) Assert.Fail($"{Head(bytes)}: step {step}: ReadAttributeValue differs");
                    }
                }
                XmlDictionaryString local = names.Add(inBox.LocalName), ns = names.Add(inBox.NamespaceURI);
                inBox.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? localDictionary);
                inBox.TryGetNamespaceUriAsDictionaryString(out XmlDictionaryString? nsDictionary);
                XmlDictionaryString[] localNames = [other, localDictionary ?? other, empty, local];
                XmlDictionaryString[] namespaces = [ns, nsDictionary ?? ns, empty, other];
                string Answers(XmlDictionaryReader r)
                {
                    var answer = new System.Text.StringBuilder();
                    foreach (XmlDictionaryString n in localNames) answer.Append(r.IsLocalName(n) ? 'L' : 'l');
                    foreach (XmlDictionaryString n in namespaces) answer.Append(r.IsNamespaceUri(n) ? 'N' : 'n');
                    foreach (XmlDictionaryString n in namespaces) answer.Append(r.IndexOfLocalName(localNames, n)).Append(',');
                    answer.Append(r.IndexOfLocalName(localNames[..3], ns));
                    // Last: it may move to the content (from an attribute to its element, past text to an element). Not on
                    // an attribute's value, where .NET's answer depends on what was read before (its cached value; pinned
                    // for simple cases by DictionaryReaderContractTests).
                    if (attributeValue) return answer.ToString();
                    answer.Append(r.IsStartElement(local, ns) ? 'S' : 's').Append(r.IsStartElement(localDictionary ?? other, nsDictionary ?? ns) ? 'S' : 's');
                    answer.Append($" {r.NodeType} {r.Depth} {r.Prefix}:{r.LocalName} {r.NamespaceURI}");
                    return answer.ToString();
                }
                string before = $"{inBox.NodeType} {inBox.Depth} {inBox.Prefix}:{inBox.LocalName} {inBox.NamespaceURI}";
                string oursBefore = $"{ours.NodeType} {ours.Depth} {ours.Prefix}:{ours.LocalName} {ours.NamespaceURI}";
                Assert.True(before == oursBefore, $"{Head(bytes)}: step {step}: in-box on '{before}', ours on '{oursBefore}'");
                string expected = Answers(inBox), actual = Answers(ours);
                Assert.True(expected == actual, $"{Head(bytes)}: step {step} on {before}: in-box '{expected}', ours '{actual}'");
                step++;
            }
            Assert.Equal(inBox.EOF, ours.EOF);
        });
    }

    /// <summary>The start of a failing document in hex (the whole one can be megabytes; FsCheck's seed replays it).</summary>
    private static string Head(byte[] bytes) => Convert.ToHexString(bytes.AsSpan(0, Math.Min(bytes.Length, 200))) + (bytes.Length > 200 ? "…" : "");

    private static List<string> SkipTrace(XmlReader r, int period)
    {
        var trace = new List<string>();
        int elements = 0;
        r.Read();
        while (!r.EOF)
        {
            trace.Add($"{r.NodeType} {r.Depth} {r.Prefix}:{r.LocalName} {r.NamespaceURI} [{(r.NodeType == XmlNodeType.Element ? "" : r.Value)}] {r.XmlLang} {r.XmlSpace}");
            if (r.NodeType == XmlNodeType.Element && elements++ % period == 0)
            {
                if (elements % 2 == 0 && r.MoveToFirstAttribute()) trace.Add($"on attribute {r.Name}");
                r.Skip();
            }
            else
            {
                r.Read();
            }
        }
        trace.Add($"{r.ReadState}");
        return trace;
    }

    [DataContract(Namespace = "urn:graph")]
    [KnownType(typeof(SpecialNode))]
    public class GraphNode
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string? Name { get; set; }
        [DataMember] public GraphNode? Next { get; set; }
        [DataMember] public List<GraphNode?> Children { get; set; } = [];
        [DataMember] public List<string?> Tags { get; set; } = [];
    }

    [DataContract(Namespace = "urn:graph:special")]
    public sealed class SpecialNode : GraphNode
    {
        [DataMember] public double Weight { get; set; }
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(true, false)]
    [InlineData(true, true)]
    public void DataContractSerializer_reads_references_nulls_and_derived_types_through_our_reader(bool preserveReferences, bool session)
    {
        // The attributes a serializer reads on each object: z:Id and z:Ref of shared references, i:nil of null members
        // and items, i:type of a derived type (a QName, of the session's strings when there is one); read through our
        // reader, the graph written again by the in-box writer gives the bytes the original gave.
        var shared = new SpecialNode { Id = 1, Name = "shared", Weight = 0.5, Tags = ["a", null, "b"] };
        var root = new GraphNode { Id = 0, Name = null, Next = shared };
        for (int i = 0; i < 6; i++) root.Children.Add(i % 3 == 0 ? null : i % 3 == 1 ? shared : new GraphNode { Id = 10 + i, Name = "n" + i, Next = i % 2 == 0 ? shared : null });
        root.Tags = [null, "t", null];
        var serializer = new DataContractSerializer(typeof(GraphNode), new DataContractSerializerSettings { PreserveObjectReferences = preserveReferences });
        var writerSession = new RecordingWriterSession();
        var dictionary = new XmlDictionary();
        byte[] Write(object g)
        {
            writerSession.Reset();
            var stream = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, session ? dictionary : null, session ? writerSession : null, false)) serializer.WriteObject(w, g);
            return stream.ToArray();
        }
        byte[] bytes = Write(root);
        // The session strings the writer used, as a reader's session learns them from the message's header.
        XmlBinaryReaderSession readerSession = writerSession.ToReaderSession();
        Assert.Equal(session, writerSession.Strings.Count > 0);
        var attributes = new HashSet<string>();
        using (XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, session ? dictionary : null, XmlDictionaryReaderQuotas.Max, readerSession))
        {
            while (inBox.Read())
            {
                while (inBox.MoveToNextAttribute()) attributes.Add(inBox.LocalName);
            }
        }
        Assert.Superset(preserveReferences ? ["nil", "type", "Id", "Ref"] : new HashSet<string> { "nil", "type" }, attributes);
        Assert.Equal(preserveReferences, attributes.Contains("Ref"));
        using XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, session ? dictionary : null, XmlDictionaryReaderQuotas.Max, session ? readerSession : null);
        var back = (GraphNode)serializer.ReadObject(reader)!;
        Assert.Null(back.Name);
        Assert.IsType<SpecialNode>(back.Next);
        Assert.Equal(preserveReferences, ReferenceEquals(back.Next, back.Children[1]));
        Assert.True(bytes.AsSpan().SequenceEqual(Write(back)), "the graph read back differs");
    }

    public static TheoryData<string> Payloads() => DictionaryWriterProperties.Payloads();

    [Theory]
    [MemberData(nameof(Payloads))]
    public void DataContractSerializer_reads_equal_graphs_through_our_reader(string payload)
    {
        object graph = DictionaryWriterProperties.PayloadFor(payload);
        var serializer = new DataContractSerializer(graph.GetType());
        byte[] Write(object g, Func<Stream, XmlDictionaryWriter> create)
        {
            var stream = new MemoryStream();
            using (XmlDictionaryWriter w = create(stream)) serializer.WriteObject(w, g);
            return stream.ToArray();
        }
        byte[] inBoxBytes = Write(graph, s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false));
        byte[] ourBytes = Write(graph, s => BinaryXmlDictionaryWriter.Create(s, null, null, false));
        foreach (byte[] bytes in new[] { inBoxBytes, ourBytes })
        {
            using XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, null, XmlDictionaryReaderQuotas.Max);
            object back = serializer.ReadObject(reader)!;
            Assert.True(inBoxBytes.AsSpan().SequenceEqual(Write(back, s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false))), "the graph read back differs");
        }
    }
}
