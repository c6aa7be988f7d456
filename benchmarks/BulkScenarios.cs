using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using System.Xml;
using BenchmarkDotNet.Attributes;
using BinaryXml.Soap;

namespace BinaryXml.Benchmarks;

/// <summary>
/// W5's shape: <see cref="Size"/> random bytes written by each writer as base64 element content
/// (<see cref="WriteInBox"/>, <see cref="WriteAdapter"/> and <see cref="Write(BinaryXmlWriter)"/> say in which calls:
/// the first two each compiled for its writer, see <see cref="CodeFor"/>); Limit = copying the bytes. MB/s = size / mean.
/// </summary>
public abstract class Base64WriterScenario : WriterScenario
{
    private byte[] _copy = [];
    private protected byte[] Bytes = [];

    /// <summary>The payload's length in bytes (each scenario's parameter).</summary>
    public abstract int Size { get; set; }

    /// <summary>The scenario's name in its guard's line.</summary>
    private protected abstract string Label { get; }

    private protected abstract void WriteInBox(XmlDictionaryWriter w);

    private protected abstract void WriteAdapter(XmlDictionaryWriter w);

    private protected abstract void Write(BinaryXmlWriter w);

    [GlobalSetup]
    public void Setup()
    {
        Bytes = new byte[Size];
        new Random(5).NextBytes(Bytes);
        _copy = new byte[Size];
        CreateWriters();
        Support.GuardBytes($"{Label} {Size}", Support.WriteInBox(WriteInBox), Support.WriteAdapter(WriteAdapter), Support.WriteNative(Write));
    }

    [Benchmark(Baseline = true)]
    public void InBox() { XmlDictionaryWriter w = ResetInBox(); WriteInBox(w); w.Flush(); }

    [Benchmark]
    public void Adapter() { XmlDictionaryWriter w = ResetAdapter(); WriteAdapter(w); w.Flush(); }

    [Benchmark]
    public void Native() { BinaryXmlWriter w = ResetNative(); Write(w); w.Flush(); }

    [Benchmark]
    public void Limit() => Bytes.AsSpan().CopyTo(_copy);
}

/// <summary>W5: <c>WriteBase64</c> of one byte array as element content; Limit = copying the bytes. MB/s = size / mean.</summary>
[MemoryDiagnoser]
public class W5_Base64 : Base64WriterScenario
{
    [Params(64, 4096, 65536, 1 << 20)]
    public override int Size { get; set; }

    private protected override string Label => "W5";

    private protected override void WriteInBox(XmlDictionaryWriter w) => Write<CodeFor.InBox>(w);

    private protected override void WriteAdapter(XmlDictionaryWriter w) => Write<CodeFor.Adapter>(w);

    private void Write<TCode>(XmlDictionaryWriter w) where TCode : struct { w.WriteStartElement("b"); w.WriteBase64(Bytes, 0, Bytes.Length); w.WriteEndElement(); }

    private protected override void Write(BinaryXmlWriter w) { w.WriteStartElement("b"); w.WriteBase64(Bytes); w.WriteEndElement(); }
}

/// <summary>
/// W5, streamed: a body of <c>Size</c> bytes written as CoreWCF's streamed formatter writes a <see cref="Stream"/>
/// parameter (<c>StreamFormatterHelper.WriteValue</c>): <c>WriteBase64</c> of blocks of 256 bytes, then 4,096, then
/// 65,536 (a block sixteen times larger after each full one), so that the writer holds back and carries 1–2 bytes
/// between calls. Limit = copying the bytes.
/// </summary>
[MemoryDiagnoser]
public class W5_Base64Streamed : Base64WriterScenario
{
    [Params(4096, 65536, 1 << 20)]
    public override int Size { get; set; }

    private protected override string Label => "W5 streamed";

    private protected override void WriteInBox(XmlDictionaryWriter w) => Write<CodeFor.InBox>(w);

    private protected override void WriteAdapter(XmlDictionaryWriter w) => Write<CodeFor.Adapter>(w);

    private void Write<TCode>(XmlDictionaryWriter w) where TCode : struct
    {
        w.WriteStartElement("b");
        for (int at = 0, block = 256; at < Bytes.Length; block = NextBlock(block))
        {
            int n = Math.Min(block, Bytes.Length - at);
            w.WriteBase64(Bytes, at, n);
            at += n;
        }
        w.WriteEndElement();
    }

    private protected override void Write(BinaryXmlWriter w)
    {
        w.WriteStartElement("b");
        for (int at = 0, block = 256; at < Bytes.Length; block = NextBlock(block))
        {
            int n = Math.Min(block, Bytes.Length - at);
            w.WriteBase64(Bytes.AsSpan(at, n));
            at += n;
        }
        w.WriteEndElement();
    }

    private static int NextBlock(int block) => block < 65536 ? block * 16 : block;
}

/// <summary>
/// R3, streamed: base64 content of <c>Size</c> bytes read as CoreWCF's <c>MessageBodyStream.Read</c> reads a streamed
/// body: <c>MoveToContent</c>, then <c>ReadContentAsBase64</c> into the caller's buffer of 4,096 bytes, until it
/// returns 0. "bytes": Bytes records, as .NET's writer writes <c>WriteBase64</c>; "text": the same bytes as one base64
/// string (text records), which the reader decodes. Limit = the bytes copied, or decoded from the base64 text by
/// <see cref="System.Buffers.Text.Base64"/>, into a reused array.
/// </summary>
[MemoryDiagnoser]
public class R3_Base64Streamed : ReaderScenario
{
    private readonly byte[] _buffer = new byte[4096];
    private byte[] _bytes = [];
    private byte[] _base64 = [];
    private byte[] _target = [];

    [Params(4096, 65536, 1 << 20)]
    public int Size { get; set; }

    [Params("bytes", "text")]
    public string Content { get; set; } = "bytes";

    [GlobalSetup]
    public void Setup()
    {
        _bytes = new byte[Size];
        _target = new byte[Size];
        new Random(5).NextBytes(_bytes);
        string text = Convert.ToBase64String(_bytes);
        _base64 = Encoding.ASCII.GetBytes(text);
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartElement("b");
            if (Content == "bytes") w.WriteBase64(_bytes, 0, Size);
            else w.WriteString(text);
            w.WriteEndElement();
            w.WriteEndElement();
        });
        Support.GuardNodes($"R3 base64 streamed {Size} {Content}", Data);
        foreach ((string name, Func<XmlDictionaryReader> reader) in new (string, Func<XmlDictionaryReader>)[] { ("InBox", InBoxReader), ("Adapter", AdapterReader) })
        {
            XmlDictionaryReader r = reader();
            r.ReadStartElement("r");
            r.ReadStartElement("b");
            var read = new List<byte>();
            int n;
            while (r.MoveToContent() == XmlNodeType.Text && (n = r.ReadContentAsBase64(_buffer, 0, _buffer.Length)) > 0) read.AddRange(_buffer.AsSpan(0, n));
            if (!read.ToArray().AsSpan().SequenceEqual(_bytes)) throw new InvalidOperationException($"R3 base64 streamed {Size} {Content}: {name} does not read the bytes written");
        }
        if (Limit() != Size) throw new InvalidOperationException($"R3 base64 streamed {Size} {Content}: the limit does not decode the bytes");
    }

    private long Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("r");
        r.ReadStartElement("b");
        long total = 0;
        int n;
        while (r.MoveToContent() == XmlNodeType.Text && (n = r.ReadContentAsBase64(_buffer, 0, _buffer.Length)) > 0) total += n;
        r.ReadEndElement();
        return total;
    }

    [Benchmark(Baseline = true)]
    public long InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public long Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public long Limit()
    {
        if (Content == "bytes")
        {
            _bytes.AsSpan().CopyTo(_target);
            return Size;
        }
        System.Buffers.Text.Base64.DecodeFromUtf8(_base64, _target, out _, out int written);
        return written;
    }
}

/// <summary>
/// R3: string content read with <c>ReadElementContentAsString</c> (allocating) and <c>ReadValueChunk</c> into a
/// reused char[]; Limit = <c>Encoding.UTF8.GetString</c> of the payload bytes. MB/s = UTF-8 bytes / mean. "ascii" and
/// "mixed" are written as UTF-8, "cjk" (Japanese and Chinese, as W2's) as UTF-16.
/// </summary>
[MemoryDiagnoser]
public class R3_Strings : ReaderScenario
{
    private readonly char[] _chunk = new char[4096];
    private byte[] _utf8 = [];

    [ParamsSource(nameof(Lengths))]
    public int Length { get; set; }

    public static IEnumerable<int> Lengths => Support.StringLengths;

    [Params("ascii", "mixed", "cjk")]
    public string Text { get; set; } = "ascii";

    [GlobalSetup]
    public void Setup()
    {
        string unit = Text == "cjk" ? "日本語のテキストを書く。中文文本。" : "aé日x";
        string s = Text == "ascii" ? new string('x', Length) : string.Concat(Enumerable.Repeat(unit, Length / unit.Length + 1))[..Length];
        _utf8 = Encoding.UTF8.GetBytes(s);
        Data = Support.WriteInBox(w => { w.WriteStartElement("r"); w.WriteElementString("s", s); w.WriteEndElement(); });
        Support.GuardNodes($"R3 {Length} {Text}", Data);
        if (InBox() != Adapter() || Adapter() != Native() || InBoxChunks() != AdapterChunks()) throw new InvalidOperationException("R3: the readers disagree");
    }

    private static int Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("r");
        return r.ReadElementContentAsString("s", "").Length;
    }

    private int ReadChunks<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("r");
        r.ReadStartElement("s");
        int total = 0, n;
        while (r.NodeType == XmlNodeType.Text)
        {
            while ((n = r.ReadValueChunk(_chunk, 0, _chunk.Length)) > 0) total += n;
            r.Read();
        }
        return total;
    }

    [Benchmark(Baseline = true)]
    public int InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int Native()
    {
        var r = new BinaryXmlReader(Data, null, null, BinaryXmlReaderOptions.Trusted);
        int total = 0;
        while (r.Read())
        {
            if (r.TokenType == BinaryXmlTokenType.Text) total += r.GetString().Length;
        }
        r.Dispose();
        return total;
    }

    [Benchmark]
    public int InBoxChunks() => ReadChunks<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int AdapterChunks() => ReadChunks<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int Limit() => Encoding.UTF8.GetString(_utf8).Length;
}

/// <summary>
/// R3 (binary): base64 content read back, the mirror of W5: `ReadElementContentAsBase64()` returning the bytes in a
/// new array; Native copies the Bytes records' payloads into a reused array (no allocation, as R4); Limit is the
/// payload copied into a new array.
/// </summary>
[MemoryDiagnoser]
public class R3_Base64 : ReaderScenario
{
    private byte[] _bytes = [];
    private byte[] _target = [];

    [Params(64, 4096, 65536, 1 << 20)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _bytes = new byte[Size];
        _target = new byte[Size];
        new Random(5).NextBytes(_bytes);
        Data = Support.WriteInBox(w => { w.WriteStartElement("r"); w.WriteStartElement("b"); w.WriteBase64(_bytes, 0, Size); w.WriteEndElement(); w.WriteEndElement(); });
        if (Size <= 4096) Support.GuardNodes($"R3 base64 {Size}", Data);
        foreach ((string name, Func<byte[]> read) in new (string, Func<byte[]>)[] { ("InBox", InBox), ("Adapter", Adapter), ("Native", Native) })
        {
            if (!read().AsSpan().SequenceEqual(_bytes)) throw new InvalidOperationException($"R3 base64 {Size}: {name} does not read the bytes written");
        }
    }

    private static byte[] Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("r");
        return r.ReadElementContentAsBase64();
    }

    [Benchmark(Baseline = true)]
    public byte[] InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public byte[] Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    /// <summary>The Bytes records' payloads copied into a reused array (.NET's writer holds back the last 1–2 bytes
    /// of a base64 run that is not a multiple of 3 for a record of their own).</summary>
    [Benchmark]
    public byte[] Native()
    {
        var r = new BinaryXmlReader(Data, null, null, BinaryXmlReaderOptions.Trusted);
        int at = 0;
        while (r.Read())
        {
            if (r.TokenType != BinaryXmlTokenType.Text) continue;
            r.ValueSpan.CopyTo(_target.AsSpan(at));
            at += r.ValueSpan.Length;
        }
        r.Dispose();
        return _target;
    }

    [Benchmark]
    public byte[] Limit() => Data.AsSpan(Data.Length - Size - 2, Size).ToArray(); // about where the payload is: only its size matters
}

/// <summary>
/// R6: per-message reader lifecycle and input adaptation, on the SOAP message of R5 (every node read): a new
/// reader per message versus a reused one, and CoreWCF's path (<c>PipeReader.Create(sequence).AsStream()</c> into
/// the stream reader, in-box or drop-in) versus our reader over the <see cref="ReadOnlySequence{T}"/> directly (new, or
/// reused through <c>SetInput</c>).
/// </summary>
[MemoryDiagnoser]
public class R6_Lifecycle : ReaderScenario
{
    private ReadOnlySequence<byte> _sequence;

    [GlobalSetup]
    public void Setup()
    {
        Dictionary = NbfsDictionary.Instance;
        Data = Support.WriteInBox(Soap.Write<CodeFor.InBox>, NbfsDictionary.Instance);
        // A pipe's buffered message arrives in segments: split it in three.
        _sequence = Segments.Create(Data, 3);
        Support.GuardNodes("R6", Data, NbfsDictionary.Instance);
        int expected = NewInBox();
        if (ReusedInBox() != expected || NewAdapter() != expected || ReusedAdapter() != expected || PipeStreamInBox() != expected || PipeStreamAdapter() != expected
            || SequenceAdapter() != expected
            || ReusedSequenceAdapter() != expected)
            throw new InvalidOperationException("R6: the readers disagree");
    }

    private static int Scan<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        int n = 0;
        while (r.Read()) n++;
        return n;
    }

    [Benchmark(Baseline = true)]
    public int NewInBox()
    {
        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(Data, 0, Data.Length, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        return Scan<CodeFor.InBox>(r);
    }

    [Benchmark]
    public int ReusedInBox() => Scan<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int NewAdapter()
    {
        using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(Data, 0, Data.Length, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        return Scan<CodeFor.Adapter>(r);
    }

    [Benchmark]
    public int ReusedAdapter() => Scan<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int PipeStreamInBox()
    {
        using Stream stream = PipeReader.Create(_sequence).AsStream();
        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(stream, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        return Scan<CodeFor.InBox>(r);
    }

    /// <summary>The drop-in reader in the in-box reader's place on CoreWCF's path: over the same stream.</summary>
    [Benchmark]
    public int PipeStreamAdapter()
    {
        using Stream stream = PipeReader.Create(_sequence).AsStream();
        using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(stream, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        return Scan<CodeFor.Adapter>(r);
    }

    [Benchmark]
    public int SequenceAdapter()
    {
        using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(_sequence, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        return Scan<CodeFor.Adapter>(r);
    }

    private BinaryXmlDictionaryReader? _sequenceReader;

    [Benchmark]
    public int ReusedSequenceAdapter()
    {
        _sequenceReader ??= BinaryXmlDictionaryReader.Create(_sequence, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        _sequenceReader.SetInput(_sequence, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max, null, null);
        return Scan<CodeFor.Adapter>(_sequenceReader);
    }
}

/// <summary>Linked buffer segments, as a pipe hands a message over.</summary>
internal sealed class Segments : ReadOnlySequenceSegment<byte>
{
    private Segments(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    public static ReadOnlySequence<byte> Create(byte[] data, int parts)
    {
        int size = (data.Length + parts - 1) / parts;
        var first = new Segments(data.AsMemory(0, Math.Min(size, data.Length)), 0);
        Segments last = first;
        for (int offset = size; offset < data.Length; offset += size)
        {
            var next = new Segments(data.AsMemory(offset, Math.Min(size, data.Length - offset)), offset);
            last.Next = next;
            last = next;
        }
        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}

/// <summary>
/// Cost against document size (benchmarks.md §4, issue 5 point 7): the native writer and reader over documents of
/// 1 KB, 1 MB and 100 MB (within one item) of SOAP-like records. MB/s = size / mean (sizes printed in the setup).
/// </summary>
[MemoryDiagnoser]
public class Scaling
{
    private readonly ArrayBufferWriter<byte> _buffer = Sinks.BufferWriter(1 << 20);
    private BinaryXmlWriter _writer = null!;
    private byte[] _data = [];
    private int _items;

    [Params(1_000, 1_000_000, 100_000_000)]
    public int Bytes { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // As many items as make the document Bytes long, within one item: an item's size depends on its values (an
        // id takes 1 to 4 bytes), so the count is corrected from the written size until it no longer moves.
        _writer = new BinaryXmlWriter(_buffer);
        _items = 1;
        int one = Write();
        _items = 1001;
        for (int pass = 0; pass < 5; pass++)
        {
            double perItem = (double)(Write() - one) / Math.Max(1, _items - 1);
            int next = Math.Max(1, (int)Math.Round((Bytes - one) / perItem) + 1);
            if (next == _items) break;
            _items = next;
        }
        Write();
        _data = _buffer.WrittenSpan.ToArray();
        Console.WriteLine($"// Scaling {Bytes}: {_data.Length} bytes, {_items} items");
    }

    [Benchmark]
    public int Write()
    {
        _buffer.ResetWrittenCount();
        _writer.Reset(_buffer);
        BinaryXmlWriter w = _writer;
        w.WriteStartElement("p", "items", "urn:scaling");
        for (int i = 0; i < _items; i++)
        {
            w.WriteStartElement("p", "item", "urn:scaling");
            w.WriteStartElement("name"); w.WriteString("Item name number "); w.WriteEndElement();
            w.WriteStartElement("id"); w.WriteValue(i); w.WriteEndElement();
            w.WriteStartElement("price"); w.WriteValue(i * 1.25); w.WriteEndElement();
            w.WriteStartElement("when"); w.WriteValue(new DateTime(2026, 1, 1).AddTicks(i)); w.WriteEndElement();
            w.WriteEndElement();
        }
        w.WriteEndElement();
        w.Flush();
        return _buffer.WrittenCount;
    }

    [Benchmark]
    public int Read()
    {
        var r = new BinaryXmlReader(_data, null, null, BinaryXmlReaderOptions.Trusted);
        int n = 0;
        while (r.Read()) n++;
        r.Dispose();
        return n;
    }
}
