using System.Buffers;
using System.Xml;
using BinaryXml.Soap;

namespace BinaryXml.Benchmarks;

/// <summary>
/// Type arguments that give the in-box and the drop-in reader or writer each its own copy of a scenario's shared
/// code. A generic method instantiated over a struct is compiled for that struct alone, with a profile of its own.
/// Code that both run is compiled with the profile of the benchmark run first (InBox): its calls are guessed and
/// inlined for the in-box type, and the drop-in rows then pay for the wrong guess on every call (W1 int, the drop-in
/// writer: 11.0 µs alone, 13.9–17.0 µs after the in-box writer has run the same code; working figures, 2026-11-27). An
/// application has one reader or writer type.
/// </summary>
internal static class CodeFor
{
    /// <summary>Code compiled for the in-box reader or writer.</summary>
    public struct InBox;

    /// <summary>Code compiled for the drop-in reader or writer.</summary>
    public struct Adapter;
}

/// <summary>Shared sinks, payloads and the correctness guards every scenario runs before timing.</summary>
internal static class Support
{
    /// <summary>
    /// The values of a parameter that a run takes: all of them, or those named in the environment variable
    /// <paramref name="variable"/> (comma-separated), each of which must be one of them.
    /// </summary>
    public static IEnumerable<T> Selected<T>(string variable, IReadOnlyList<T> all)
    {
        if (Environment.GetEnvironmentVariable(variable) is not { Length: > 0 } named) return all;
        return named.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Select(v =>
        {
            foreach (T value in all)
                if (string.Equals(Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture), v, StringComparison.Ordinal)) return value;
            throw new ArgumentException($"{variable}: no value {v}; the values are {string.Join(", ", all)}");
        }).ToArray();
    }

    /// <summary>
    /// The string lengths W2 and R3 run: 8, 64, 4,096 and 1,048,576 characters, or those named in the
    /// BINARYXML_STRING_LENGTHS environment variable (comma-separated, e.g. <c>8,64</c>).
    /// </summary>
    public static IEnumerable<int> StringLengths => Selected<int>("BINARYXML_STRING_LENGTHS", [8, 64, 4096, 1 << 20]);

    /// <summary>Throws unless the adapter's and native bytes equal the in-box bytes: a difference is a failure, not a speed-up.</summary>
    public static void GuardBytes(string scenario, byte[] inBox, byte[] adapter, byte[] native)
    {
        if (!inBox.AsSpan().SequenceEqual(adapter)) throw new InvalidOperationException($"{scenario}: adapter bytes differ from in-box");
        if (!inBox.AsSpan().SequenceEqual(native)) throw new InvalidOperationException($"{scenario}: native bytes differ from in-box");
        Console.WriteLine($"// {scenario}: {inBox.Length} bytes, identical from all writers");
    }

    /// <summary>Throws unless the drop-in reader sees the in-box reader's node stream.</summary>
    public static void GuardNodes(string scenario, byte[] data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null)
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
        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max, session);
        using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max, session);
        if (!Nodes(inBox).SequenceEqual(Nodes(ours))) throw new InvalidOperationException($"{scenario}: node streams differ");
        Console.WriteLine($"// {scenario}: {data.Length} bytes, node streams identical");
    }

    /// <summary>
    /// The bytes a writer gives for a message, written by <paramref name="write"/> with its session: without one, the
    /// first message; with one, the second (its strings found in the session, or added again after a
    /// <paramref name="reset"/> between the two).
    /// </summary>
    public static byte[] SecondMessage(bool session, bool reset, Func<XmlBinaryWriterSession?, byte[]> write)
    {
        if (!session) return write(null);
        var s = new XmlBinaryWriterSession();
        write(s);
        if (reset) s.Reset();
        return write(s);
    }

    public static byte[] WriteInBox(Action<XmlDictionaryWriter> write, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, session, false)) write(w);
        return stream.ToArray();
    }

    public static byte[] WriteAdapter(Action<XmlDictionaryWriter> write, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = BinaryXmlDictionaryWriter.Create(stream, dictionary, session, false)) write(w);
        return stream.ToArray();
    }

    public static byte[] WriteNative(Action<BinaryXmlWriter> write, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(buffer, dictionary, session)) write(w);
        return buffer.WrittenSpan.ToArray();
    }

    public static XmlDictionaryString N(string s) => NbfsDictionary.Instance.TryLookup(s, out XmlDictionaryString? d) ? d : throw new ArgumentException(s);
}

/// <summary>A writer scenario's reusable sinks, placed within a page (<see cref="Sinks"/>): one MemoryStream for InBox and Adapter, one buffer for Native.</summary>
public abstract class WriterScenario
{
    private protected readonly MemoryStream Stream = Sinks.Stream(1 << 16);
    private protected readonly ArrayBufferWriter<byte> Buffer = Sinks.BufferWriter(1 << 16);
    private protected XmlDictionaryWriter InBoxWriter = null!;
    private protected XmlDictionaryWriter AdapterWriter = null!;
    private protected BinaryXmlWriter NativeWriter = null!;
    private protected IXmlDictionary? Dictionary;
    private protected XmlBinaryWriterSession? Session;

    /// <summary>The three writers, on the scenario's dictionary and session (a session kept from message to message, as on net.tcp).</summary>
    private protected void CreateWriters(IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        Dictionary = dictionary;
        Session = session;
        InBoxWriter = XmlDictionaryWriter.CreateBinaryWriter(Stream, dictionary, session, false);
        AdapterWriter = BinaryXmlDictionaryWriter.Create(Stream, dictionary, session, false);
        NativeWriter = new BinaryXmlWriter(Buffer, dictionary, session);
    }

    private protected XmlDictionaryWriter ResetInBox()
    {
        Stream.Position = 0;
        ((IXmlBinaryWriterInitializer)InBoxWriter).SetOutput(Stream, Dictionary, Session, false);
        return InBoxWriter;
    }

    private protected XmlDictionaryWriter ResetAdapter()
    {
        Stream.Position = 0;
        ((IXmlBinaryWriterInitializer)AdapterWriter).SetOutput(Stream, Dictionary, Session, false);
        return AdapterWriter;
    }

    private protected BinaryXmlWriter ResetNative()
    {
        Buffer.ResetWrittenCount();
        NativeWriter.Reset(Buffer, Dictionary, Session);
        return NativeWriter;
    }
}
