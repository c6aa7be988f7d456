using System.Buffers;
using System.Xml;
using BinaryXml.Soap;

namespace BinaryXml.Benchmarks;

/// <summary>Shared sinks, payloads and the correctness guards every scenario runs before timing.</summary>
internal static class Support
{
    /// <summary>Throws unless the adapter's and native bytes equal the in-box bytes: a difference is a failure, not a speed-up.</summary>
    public static void GuardBytes(string scenario, byte[] inBox, byte[] adapter, byte[] native)
    {
        if (!inBox.AsSpan().SequenceEqual(adapter)) throw new InvalidOperationException($"{scenario}: adapter bytes differ from in-box");
        if (!inBox.AsSpan().SequenceEqual(native)) throw new InvalidOperationException($"{scenario}: native bytes differ from in-box");
        Console.WriteLine($"// {scenario}: {inBox.Length} bytes, identical from all writers");
    }

    /// <summary>Throws unless the drop-in reader sees the in-box reader's node stream.</summary>
    public static void GuardNodes(string scenario, byte[] data, IXmlDictionary? dictionary = null)
    {
        static List<string> Nodes(XmlDictionaryReader r)
        {
            var nodes = new List<string>();
            while (r.Read())
            {
                Type type = r.ValueType;
                nodes.Add($"{r.NodeType} {r.Depth} {r.Prefix}:{r.LocalName} {r.NamespaceURI} {type.Name} {r.Value} {r.AttributeCount}");
            }
            return nodes;
        }
        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max);
        if (!Nodes(inBox).SequenceEqual(Nodes(ours))) throw new InvalidOperationException($"{scenario}: node streams differ");
        Console.WriteLine($"// {scenario}: {data.Length} bytes, node streams identical");
    }

    public static byte[] WriteInBox(Action<XmlDictionaryWriter> write, IXmlDictionary? dictionary = null)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, null, false)) write(w);
        return stream.ToArray();
    }

    public static byte[] WriteAdapter(Action<XmlDictionaryWriter> write, IXmlDictionary? dictionary = null)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = BinaryXmlDictionaryWriter.Create(stream, dictionary, null, false)) write(w);
        return stream.ToArray();
    }

    public static byte[] WriteNative(Action<BinaryXmlWriter> write, IXmlDictionary? dictionary = null)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(buffer, dictionary)) write(w);
        return buffer.WrittenSpan.ToArray();
    }

    public static XmlDictionaryString N(string s) => NbfsDictionary.Instance.TryLookup(s, out XmlDictionaryString? d) ? d : throw new ArgumentException(s);
}

/// <summary>A writer scenario's reusable sinks: one MemoryStream for InBox and Adapter, one buffer for Native.</summary>
public abstract class WriterScenario
{
    private protected readonly MemoryStream Stream = new(1 << 16);
    private protected readonly ArrayBufferWriter<byte> Buffer = new(1 << 16);
    private protected XmlDictionaryWriter InBoxWriter = null!;
    private protected XmlDictionaryWriter AdapterWriter = null!;
    private protected BinaryXmlWriter NativeWriter = null!;
    private protected IXmlDictionary? Dictionary;

    private protected void CreateWriters(IXmlDictionary? dictionary = null)
    {
        Dictionary = dictionary;
        InBoxWriter = XmlDictionaryWriter.CreateBinaryWriter(Stream, dictionary, null, false);
        AdapterWriter = BinaryXmlDictionaryWriter.Create(Stream, dictionary, null, false);
        NativeWriter = new BinaryXmlWriter(Buffer, dictionary);
    }

    private protected XmlDictionaryWriter ResetInBox()
    {
        Stream.Position = 0;
        ((IXmlBinaryWriterInitializer)InBoxWriter).SetOutput(Stream, Dictionary, null, false);
        return InBoxWriter;
    }

    private protected XmlDictionaryWriter ResetAdapter()
    {
        Stream.Position = 0;
        ((IXmlBinaryWriterInitializer)AdapterWriter).SetOutput(Stream, Dictionary, null, false);
        return AdapterWriter;
    }

    private protected BinaryXmlWriter ResetNative()
    {
        Buffer.ResetWrittenCount();
        NativeWriter.Reset(Buffer, Dictionary);
        return NativeWriter;
    }
}
