using Xunit;

namespace BinaryXml.Tests;

/// <summary>Misuse of the writer throws the exception type the in-box writer throws for the same calls.</summary>
public sealed class WriterMisuseTests
{
    [Theory]
    [InlineData("attribute after content", "StartElement(null, \"a\", null); String(\"x\"); StartAttribute(null, \"y\", null)", typeof(InvalidOperationException))]
    [InlineData("end element at depth 0", "EndElement()", typeof(InvalidOperationException))]
    [InlineData("two typed values in an attribute", "StartElement(null, \"a\", null); StartAttribute(null, \"x\", null); Value(1); Value(2)", typeof(InvalidOperationException))]
    [InlineData("typed value outside the root", "Value(1)", typeof(InvalidOperationException))]
    [InlineData("text outside the root", "String(\"x\")", typeof(InvalidOperationException))]
    [InlineData("base64 trail outside the root", "Base64(hex:01); StartElement(null, \"a\", null)", typeof(InvalidOperationException))]
    [InlineData("second root in a document", "StartDocument(); StartElement(null, \"a\", null); EndElement(); StartElement(null, \"b\", null)", typeof(InvalidOperationException))]
    [InlineData("second root element string in a document", "StartDocument(); ElementString(null, \"a\", null, \"x\"); ElementString(null, \"b\", null, \"y\")", typeof(InvalidOperationException))]
    [InlineData("element string after close", "ElementString(null, \"a\", null, \"x\"); Close(); ElementString(null, \"b\", null, \"y\")", typeof(InvalidOperationException))]
    [InlineData("element string in an attribute", "StartElement(null, \"a\", null); StartAttribute(null, \"x\", null); ElementString(null, \"b\", null, \"y\")", typeof(InvalidOperationException))]
    [InlineData("array of two at the top of a document", "StartDocument(); Array(null, \"a\", null, int[1, 2])", typeof(InvalidOperationException))]
    [InlineData("element after an array of one as the root", "StartDocument(); Array(null, \"a\", null, int[1]); StartElement(null, \"b\", null)", typeof(InvalidOperationException))]
    [InlineData("end document without root", "StartDocument(); EndDocument()", typeof(InvalidOperationException))]
    [InlineData("start document twice", "StartDocument(); StartDocument()", typeof(InvalidOperationException))]
    [InlineData("write after close", "StartElement(null, \"a\", null); Close(); StartElement(null, \"b\", null)", typeof(InvalidOperationException))]
    [InlineData("end attribute without attribute", "StartElement(null, \"a\", null); EndAttribute()", typeof(InvalidOperationException))]
    [InlineData("xmlns outside a start tag", "StartElement(null, \"a\", null); String(\"x\"); Xmlns(\"p\", \"urn:p\")", typeof(InvalidOperationException))]
    [InlineData("comment in an attribute", "StartElement(null, \"a\", null); StartAttribute(null, \"x\", null); Comment(\"c\")", typeof(InvalidOperationException))]
    [InlineData("CDATA in an attribute", "StartElement(null, \"a\", null); StartAttribute(null, \"x\", null); CData(\"c\")", typeof(InvalidOperationException))]
    [InlineData("undefined element prefix", "StartElement(\"p\", \"a\", null)", typeof(ArgumentException))]
    [InlineData("undefined attribute prefix", "StartElement(null, \"a\", null); StartAttribute(\"p\", \"x\", null)", typeof(ArgumentException))]
    [InlineData("prefix rebound on one element", "StartElement(\"p\", \"a\", \"urn:1\"); Xmlns(\"p\", \"urn:2\")", typeof(ArgumentException))]
    [InlineData("prefix bound to the empty namespace", "StartElement(\"p\", \"a\", \"\")", typeof(ArgumentException))]
    [InlineData("reserved xml prefix", "StartElement(\"xmlfoo\", \"a\", \"urn:x\")", typeof(ArgumentException))]
    [InlineData("xml namespace on another prefix", "StartElement(\"p\", \"a\", \"http://www.w3.org/XML/1998/namespace\")", typeof(ArgumentException))]
    [InlineData("empty local name", "StartElement(null, \"\", null)", typeof(ArgumentException))]
    [InlineData("comment with --", "Comment(\"a--b\")", typeof(ArgumentException))]
    [InlineData("comment ending in -", "Comment(\"a-\")", typeof(ArgumentException))]
    [InlineData("whitespace that is not", "StartElement(null, \"a\", null); Whitespace(\"x\")", typeof(ArgumentException))]
    [InlineData("bad xml:space", "StartElement(null, \"a\", null); AttributeString(\"xml\", \"space\", null, \"keep\"); EndElement()", typeof(ArgumentException))]
    [InlineData("lone surrogate in text", "StartElement(null, \"a\", null); String(\"\\uD800x\")", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate in a long text", "StartElement(null, \"a\", null); String(\"x\"*100); String(\"\\uDC00\"); String(\"y\"*100)", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate in a name", "StartElement(null, \"a\\uD800\", null)", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate inside a text of 101 characters", "StartElement(null, \"a\", null); String(\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\uD800yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\")", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate inside a text of 11 characters", "StartElement(null, \"a\", null); String(\"abcdefgh\\uDC00ij\")", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate ending a text of 31 characters", "StartElement(null, \"a\", null); String(\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\uD800\")", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate ending a text of 32 characters", "StartElement(null, \"a\", null); String(\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\uD800\")", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate inside a name of 6 characters", "StartElement(null, \"abc\\uD800de\", null)", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate inside a name of 101 characters", "StartElement(null, \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\uD800bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\", null)", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate ending a namespace of 60 characters", "StartElement(\"p\", \"a\", \"uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu\\uDC00\"); EndElement()", typeof(System.Text.EncoderFallbackException))]
    [InlineData("lone surrogate inside a declared namespace of 43 characters", "StartElement(null, \"a\", null); Xmlns(\"p\", \"uuuuuuuuuuuuuuuuuuuuu\\uD800vvvvvvvvvvvvvvvvvvvvv\"); EndElement()", typeof(System.Text.EncoderFallbackException))]
    [InlineData("surrogate char entity, the halves swapped", "StartElement(null, \"a\", null); SurrogateCharEntity(\"\\uD83D\", \"\\uDE00\")", typeof(ArgumentException))]
    [InlineData("surrogate char entity, the high half not one", "StartElement(null, \"a\", null); SurrogateCharEntity(\"\\uDE00\", \"a\")", typeof(ArgumentException))]
    [InlineData("surrogate char entity, neither half one", "StartElement(null, \"a\", null); SurrogateCharEntity(\"a\", \"b\")", typeof(ArgumentException))]
    [InlineData("surrogate char entity", "StartElement(null, \"a\", null); CharEntity(\"\\uD800\")", typeof(ArgumentException))]
    [InlineData("QName with namespace not in scope", "StartElement(null, \"a\", null); QName(\"x\", \"urn:none\")", typeof(ArgumentException))]
    public void Misuse_throws_what_the_in_box_writer_throws(string what, string calls, Type expected)
    {
        _ = what;
        List<Call> script = WriterScript.Parse(calls);
        (_, Exception? inBox) = WriterScript.RunInBox(script, new ScriptContext());
        (_, Exception? ours) = WriterScript.RunNative(script, new ScriptContext());
        Assert.NotNull(inBox);
        Assert.IsType(expected, inBox, exactMatch: false);
        Assert.NotNull(ours);
        Assert.Equal(inBox.GetType(), ours.GetType());
        // The same message, and what the exception names: the argument, or the character that could not be encoded.
        Assert.Equal(inBox.Message, ours.Message);
        Assert.Equal((inBox as ArgumentException)?.ParamName, (ours as ArgumentException)?.ParamName);
        var (theirChar, ourChar) = (inBox as System.Text.EncoderFallbackException, ours as System.Text.EncoderFallbackException);
        Assert.Equal((theirChar?.Index, theirChar?.CharUnknown), (ourChar?.Index, ourChar?.CharUnknown));
    }

    [Fact]
    public void Buffer_ranges_fail_as_in_box()
    {
        // A null buffer, a negative offset or count, an offset past the buffer and a count past what is left, given to
        // the writes that take a caller's buffer: the exception's type, message and parameter name as .NET's writer
        // gives them (its text and binary writes refuse an offset past the end as a count over a negative space).
        var writes = new (string Name, Action<System.Xml.XmlDictionaryWriter, bool, int, int> Write)[]
        {
            ("WriteBase64", (w, none, o, c) => w.WriteBase64(none ? null! : new byte[3], o, c)),
            ("WriteBinHex", (w, none, o, c) => w.WriteBinHex(none ? null! : new byte[3], o, c)),
            ("WriteChars", (w, none, o, c) => w.WriteChars(none ? null! : new char[3], o, c)),
            ("WriteRaw", (w, none, o, c) => w.WriteRaw(none ? null! : new char[3], o, c)),
            ("WriteArray", (w, none, o, c) => w.WriteArray(null, "a", null, none ? null! : new int[3], o, c)),
        };
        var ranges = new (string Name, bool Null, int Offset, int Count)[]
        {
            ("null", true, 0, 1), ("offset -1", false, -1, 1), ("count -1", false, 0, -1), ("offset past the end", false, 4, 0),
            ("count past the end", false, 2, 2),
        };
        foreach ((string name, var write) in writes)
        foreach ((string range, bool none, int offset, int count) in ranges)
        {
            string Outcome(bool ours)
            {
                using System.Xml.XmlDictionaryWriter w = ours ? BinaryXmlDictionaryWriter.Create(new MemoryStream()) : System.Xml.XmlDictionaryWriter.CreateBinaryWriter(new MemoryStream());
                w.WriteStartElement("e");
                ArgumentException e = Assert.ThrowsAny<ArgumentException>(() => write(w, none, offset, count));
                return $"{e.GetType().Name} {e.ParamName}: {e.Message}";
            }
            Assert.Equal($"{name}, {range}: {Outcome(ours: false)}", $"{name}, {range}: {Outcome(ours: true)}");
        }
    }

    [Theory]
    [InlineData("a long name", 0)]
    [InlineData("a typed value", 1)]
    [InlineData("an array", 2)]
    public void An_output_giving_less_memory_than_asked_fails_without_writing_past_it(string what, int write)
    {
        // IBufferWriter promises at least the size asked for, and the writer makes its spans on that promise: an output
        // that breaks it gets an InvalidOperationException naming it, and the bytes after the memory it gave stay as
        // they were.
        var output = new ShortMemoryBufferWriter(given: 4);
        var writer = new BinaryXmlWriter(output);
        InvalidOperationException e = Assert.Throws<InvalidOperationException>(() =>
        {
            switch (write)
            {
                case 0: writer.WriteStartElement("a-name-longer-than-the-memory"); break;
                case 1: writer.WriteStartElement("a"); writer.WriteValue(Guid.NewGuid()); break;
                default: writer.WriteArray(null, "a", null, new long[8]); break;
            }
            writer.Flush();
        });
        Assert.Contains(nameof(ShortMemoryBufferWriter), e.Message);
        Assert.True(output.GuardIntact, $"{what}: a byte after the memory given was written");
    }

    /// <summary>An output whose memory is <c>given</c> bytes of a larger array, whatever the size asked for.</summary>
    private sealed class ShortMemoryBufferWriter(int given) : System.Buffers.IBufferWriter<byte>
    {
        private const byte Guard = 0xA5;
        private readonly byte[] _array = Enumerable.Repeat(Guard, 4096).ToArray();

        public bool GuardIntact => _array.AsSpan(given).IndexOfAnyExcept(Guard) < 0;

        public void Advance(int count) => Assert.InRange(count, 0, given);

        public Memory<byte> GetMemory(int sizeHint = 0) => _array.AsMemory(0, given);

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }
}
