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
        PropertyConfig.Verify(Prop.ForAll(Generators.MixedSizeDocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            RecordingWriterSession? session = context.CreateWriterSession();
            (byte[] bytes, Exception? error) = WriterScript.RunInBox(doc.Calls(withFlushes: true), context, session);
            if (error is not null) return;
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, context.Dictionary, XmlDictionaryReaderQuotas.Max, session?.ToReaderSession());
            using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, context.Dictionary, XmlDictionaryReaderQuotas.Max, session?.ToReaderSession());
            Assert.Equal(NodeStream.FromXmlReader(inBox, exactNodeTypes: true), NodeStream.FromXmlReader(ours, exactNodeTypes: true));
        }), 2000);
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
