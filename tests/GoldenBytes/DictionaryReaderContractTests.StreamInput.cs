using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    [Fact]
    public void Stream_inputs_read_like_the_array_input_however_the_stream_hands_out_its_bytes()
    {
        // A short document and one of about 9 KB (past the first 4 KB read of a stream of unknown length, so its buffer
        // grows twice), from streams that give them whole, a few bytes a read, not seekable, from a position past the
        // start, or seekable with a length short of what they hold: a new reader per stream and one reader given each
        // stream in turn (longer, shorter, after a close) read the nodes .NET's reader reads from the array.
        byte[] shortDoc = Doc("StartElement(\"p\", \"r\", \"urn:n\"); AttributeString(null, \"a\", null, \"v\"); Array(null, \"i\", null, int[1, 2, 3]); ElementString(null, \"s\", null, \"text\"); EndElement()");
        byte[] longDoc = Doc("StartElement(null, \"r\", null); String(\"x\"*9000); ElementString(null, \"s\", null, \"text\"); EndElement()");
        static List<string> Nodes(XmlDictionaryReader reader) => NodeStream.FromXmlReader(reader, exactNodeTypes: true);
        static List<string> InBoxNodes(byte[] doc) => Nodes(XmlDictionaryReader.CreateBinaryReader(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max));
        var streams = new (string Name, Func<byte[], Stream> Open)[]
        {
            ("memory", doc => new MemoryStream(doc)),
            ("memory from position 3", doc =>
            {
                var stream = new MemoryStream([0xFF, 0xFF, 0xFF, .. doc]);
                stream.Position = 3;
                return stream;
            }),
            ("7 bytes a read, not seekable", doc => new PacedStream(doc, 7, seekable: false)),
            ("1 byte a read, not seekable", doc => new PacedStream(doc, 1, seekable: false)),
            ("whole, not seekable", doc => new PacedStream(doc, int.MaxValue, seekable: false)),
            ("seekable, length 10 stated", doc => new PacedStream(doc, 1000, seekable: true, statedLength: 10)),
            ("seekable, no length left", doc => new PacedStream(doc, 1000, seekable: true, statedLength: 0)),
        };
        foreach (byte[] doc in new[] { shortDoc, longDoc })
        {
            List<string> expected = InBoxNodes(doc);
            foreach ((string name, Func<byte[], Stream> open) in streams)
            {
                using XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(open(doc), null, XmlDictionaryReaderQuotas.Max);
                Assert.True(expected.SequenceEqual(Nodes(reader)), $"new reader, {name}, {doc.Length} bytes");
                using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(open(doc), null, XmlDictionaryReaderQuotas.Max);
                Assert.True(expected.SequenceEqual(Nodes(inBox)), $"in-box reader, {name}, {doc.Length} bytes");
            }
        }
        var reused = BinaryXmlDictionaryReader.Create(new MemoryStream(shortDoc), null, XmlDictionaryReaderQuotas.Max);
        int step = 0;
        foreach ((string name, Func<byte[], Stream> open) in streams)
        {
            foreach (byte[] doc in new[] { longDoc, shortDoc, longDoc })
            {
                reused.SetInput(open(doc), null, XmlDictionaryReaderQuotas.Max, null, null);
                Assert.True(InBoxNodes(doc).SequenceEqual(Nodes(reused)), $"reused reader, {name}, {doc.Length} bytes");
                if (step++ % 4 == 3) reused.Close();
            }
        }
        reused.Close();
    }

    [Fact]
    public void A_stream_that_fails_while_read_leaves_the_reader_closed_and_ready_for_the_next_input()
    {
        // The stream's own exception reaches the caller; the reader, whose previous document may be partly overwritten,
        // is closed without calling the previous input's close callback, and reads the next input as a new reader.
        byte[] doc = Doc("StartElement(null, \"r\", null); String(\"x\"*6000); EndElement()");
        List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max), exactNodeTypes: true);
        Assert.Equal("The connection was reset.",
            Assert.Throws<IOException>(() => BinaryXmlDictionaryReader.Create(new PacedStream(doc, 100, seekable: false, failAfter: 5000), null, XmlDictionaryReaderQuotas.Max)).Message);
        foreach (int failAfter in new[] { 0, 10, 5000 })
        {
            int closes = 0;
            var reader = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max);
            reader.SetInput(new MemoryStream(doc), null, XmlDictionaryReaderQuotas.Max, null, _ => closes++);
            Assert.True(reader.Read());
            Assert.Throws<IOException>(() => reader.SetInput(new PacedStream(doc, 100, seekable: false, failAfter: failAfter), null, XmlDictionaryReaderQuotas.Max, null, _ => closes += 10));
            Assert.Equal(ReadState.Closed, reader.ReadState);
            Assert.False(reader.Read());
            Assert.Equal(0, closes);
            reader.SetInput(new PacedStream(doc, 100, seekable: false), null, XmlDictionaryReaderQuotas.Max, null, _ => closes += 100);
            Assert.True(expected.SequenceEqual(NodeStream.FromXmlReader(reader, exactNodeTypes: true)), $"after a failure at {failAfter}");
            reader.Close();
            Assert.Equal(100, closes);
        }
    }

    /// <summary>A stream that records its disposal (and fails every read, if asked to).</summary>
    private sealed class DisposalRecordingStream(byte[] data, bool failReads = false) : MemoryStream(data)
    {
        public int Disposals { get; private set; }

        public override int Read(byte[] buffer, int offset, int count) => failReads ? throw new IOException("The connection was reset.") : base.Read(buffer, offset, count);

        public override int Read(Span<byte> buffer) => failReads ? throw new IOException("The connection was reset.") : base.Read(buffer);

        protected override void Dispose(bool disposing)
        {
            if (disposing) Disposals++;
            base.Dispose(disposing);
        }
    }

    [Fact]
    public void Close_disposes_the_stream_the_input_came_from_as_NET_does()
    {
        // .NET's reader disposes the stream it was last given when it closes, before the close callback, once; a stream
        // given before another input (another stream, or an array) is not disposed.
        byte[] doc = Doc("ElementString(null, \"r\", null, \"x\")");
        string Run(bool ours)
        {
            var log = new List<string>();
            var first = new DisposalRecordingStream(doc);
            var second = new DisposalRecordingStream(doc);
            XmlDictionaryReader r = ours ? BinaryXmlDictionaryReader.Create(first, null, XmlDictionaryReaderQuotas.Max) : XmlDictionaryReader.CreateBinaryReader(first, XmlDictionaryReaderQuotas.Max);
            var init = (IXmlBinaryReaderInitializer)r;
            init.SetInput(second, null, XmlDictionaryReaderQuotas.Max, null, _ => log.Add($"callback: second disposed {second.Disposals}"));
            while (r.Read()) { }
            log.Add($"read: first {first.Disposals}, second {second.Disposals}");
            r.Close();
            r.Close();
            log.Add($"closed twice: first {first.Disposals}, second {second.Disposals}");
            var third = new DisposalRecordingStream(doc);
            init.SetInput(third, null, XmlDictionaryReaderQuotas.Max, null, null);
            init.SetInput(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            r.Dispose();
            log.Add($"after an array input: third {third.Disposals}");
            return string.Join("; ", log);
        }
        string inBox = Run(ours: false);
        Assert.Equal("read: first 0, second 0; callback: second disposed 1; closed twice: first 0, second 1; after an array input: third 0", inBox);
        Assert.Equal(inBox, Run(ours: true));
        // This reader reads the stream at SetInput: a stream that fails there is disposed with the reader closed (.NET's
        // reader fails at a Read, and disposes the stream when the caller closes it).
        var failing = new DisposalRecordingStream(doc, failReads: true);
        var reader = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max);
        Assert.Throws<IOException>(() => reader.SetInput(failing, null, XmlDictionaryReaderQuotas.Max, null, null));
        Assert.Equal((ReadState.Closed, 1), (reader.ReadState, failing.Disposals));
        reader.Close();
        Assert.Equal(1, failing.Disposals);
    }
}
