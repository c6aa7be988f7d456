using System.Buffers;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// The end-element fold depends on where every earlier write put .NET's 512-byte buffer (each write reserves its
/// worst case first, and a text of 86 to 170 characters reserves its header and its payload separately, so that
/// whether it still folds depends on the buffer position). These sweeps move a run of elements through every buffer
/// position, with names, prefixes and dictionary ids of each record family and lengths around the short-name limit,
/// and compare the drop-in writer's bytes with the in-box writer's: one reservation modelled wrong moves later fold
/// decisions.
/// </summary>
public sealed class BufferModelSweepTests
{
    private static readonly XmlDictionary s_dictionary = new();
    private static readonly XmlDictionaryString[] s_dictionaryNames = [s_dictionary.Add("urn:sweep"), s_dictionary.Add("item"), s_dictionary.Add("attr")];
    private static readonly XmlDictionaryString s_otherNamespace = s_dictionary.Add("urn:other");

    private static readonly string s_midText = new('t', 100 + 7);

    public static TheoryData<int> NameLengths() => new([1, 8, 9, 40, 41, 42, 43, 120, 129]);

    [Theory]
    [MemberData(nameof(NameLengths))]
    public void Inline_names_at_every_buffer_position_fold_as_in_box(int nameLength)
    {
        string name = new('n', nameLength - 1);
        name = "é" + name;   // one non-ASCII character: the worst-case reservation is 3 bytes per char
        for (int padding = 0; padding < 600; padding++)
        {
            int pad = padding;
            AssertSame($"name {nameLength}, padding {pad}", w =>
            {
                w.WriteStartElement("p", "root", "urn:p");
                w.WriteElementString("pad", new string('x', pad % 80) + new string('y', pad / 80));
                for (int i = 0; i < 12; i++)
                {
                    w.WriteStartElement(name);
                    w.WriteAttributeString(name, "v");
                    w.WriteValue(i * 1000);
                    w.WriteEndElement();
                    w.WriteStartElement("p", name, "urn:p");
                    w.WriteAttributeString("p", name, "urn:p", "w");
                    w.WriteString(i % 3 == 0 ? "text" : s_midText);
                    w.WriteEndElement();
                    w.WriteStartElement("long", name, "urn:long");
                    w.WriteValue(i % 2 == 0);
                    w.WriteEndElement();
                }
                w.WriteEndElement();
            });
        }
    }

    [Fact]
    public void Dictionary_names_at_every_buffer_position_fold_as_in_box()
    {
        for (int padding = 0; padding < 600; padding++)
        {
            int pad = padding;
            AssertSame($"padding {pad}", w =>
            {
                w.WriteStartElement("s", s_dictionaryNames[1], s_dictionaryNames[0]);
                w.WriteElementString("pad", new string('x', pad % 80) + new string('y', pad / 80));
                for (int i = 0; i < 40; i++)
                {
                    w.WriteStartElement(s_dictionaryNames[1], s_dictionaryNames[0]);
                    w.WriteStartAttribute(s_dictionaryNames[2], null);
                    w.WriteValue(i);
                    w.WriteEndAttribute();
                    w.WriteValue(i * 70_000);
                    w.WriteEndElement();
                    w.WriteStartElement("s", s_dictionaryNames[1], s_dictionaryNames[0]);
                    w.WriteStartAttribute("s", s_dictionaryNames[2], s_dictionaryNames[0]);
                    w.WriteValue(i);
                    w.WriteEndAttribute();
                    w.WriteValue(1.5 * i);
                    w.WriteString(s_midText);
                    w.WriteEndElement();
                }
                w.WriteEndElement();
            });
        }
    }

    [Fact]
    public void Declarations_and_prefixes_of_several_letters_at_every_buffer_position_fold_as_in_box()
    {
        // The xmlns records, and the element and attribute records whose prefix is not a single letter, are written
        // with their prefix in the record's buffer request; the model must still move as .NET's writes do. Each start
        // tag from a flushed buffer and a padding, then text whose end element folds or not by where the tag left it.
        // A prefix of two letters: the room reserved for it (7 bytes) leaves less than the 5 an id reserves next.
        foreach (int textLength in new[] { 86, 120, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170 })
        {
            for (int padding = 0; padding < 530; padding++)
            {
                int pad = padding;
                string text = new('t', textLength);
                AssertSame($"padding {pad}, text {textLength}", w =>
                {
                    // pq bound on the root: case 0's element record and case 4's attribute record are followed by no
                    // declaration, so that what their own model does shows in the text after them.
                    w.WriteStartElement("root");
                    w.WriteXmlnsAttribute("pq", s_dictionaryNames[0]);
                    for (int i = 0; i < 8; i++)
                    {
                        w.Flush();
                        PadSmall(w, pad);
                        switch (i)
                        {
                            case 0: w.WriteStartElement("pq", s_dictionaryNames[1], s_dictionaryNames[0]); break;
                            case 1: w.WriteStartElement("", s_dictionaryNames[1], s_otherNamespace); break;
                            case 2: w.WriteStartElement("pq", "n", "urn:pq"); break;
                            case 3: w.WriteStartElement("", "n", "urn:default"); break;
                            case 4:
                                w.WriteStartElement("t");
                                w.WriteStartAttribute("pq", s_dictionaryNames[2], s_dictionaryNames[0]);
                                w.WriteValue(i);
                                w.WriteEndAttribute();
                                break;
                            case 5:
                                w.WriteStartElement("t");
                                w.WriteAttributeString("pq", "a", "urn:pq", "v");
                                break;
                            case 6:
                                w.WriteStartElement("t");
                                w.WriteXmlnsAttribute("pq", s_otherNamespace);
                                break;
                            default: w.WriteStartElement("pq", s_dictionaryNames[1], s_otherNamespace); break;
                        }
                        w.WriteString(text);
                        w.WriteEndElement();
                    }
                    w.WriteEndElement();
                });
            }
        }
    }

    [Fact]
    public void Long_names_at_every_buffer_position_fold_as_in_box()
    {
        // A name of 42 characters or more is written as .NET writes it: a MultiByteInt31 length, for which .NET
        // reserves 5 bytes, then its UTF-8 in chunks of 170 characters, each reserving 3 bytes a character; the writer
        // transcodes it first and writes its length in front. Each name from a flushed buffer and a padding, then text
        // whose end element folds or not by where the name left the buffer: element names, an xmlns record's
        // namespace and an attribute name, with lengths of one and two bytes.
        // Whether the text's payload reservation flushes turns on one to two bytes of where the name's length reserved
        // its 5 bytes: every text length from 86 to 170 characters.
        string ascii42 = new('m', 42), accented129 = "é" + new string('n', 128), contractNamespace = "http://schemas.datacontract.org/2004/07/System";
        for (int textLength = 86; textLength <= 170; textLength++)
        {
            for (int padding = 0; padding < 530; padding++)
            {
                int pad = padding;
                string text = new('t', textLength);
                AssertSame($"padding {pad}, text {textLength}", w =>
                {
                    w.WriteStartElement("root");
                    for (int i = 0; i < 4; i++)
                    {
                        w.Flush();
                        PadSmall(w, pad);
                        switch (i)
                        {
                            case 0: w.WriteStartElement(ascii42); break;
                            case 1: w.WriteStartElement(accented129); break;
                            case 2:
                                w.WriteStartElement("t");
                                w.WriteXmlnsAttribute("b", contractNamespace);
                                break;
                            default:
                                w.WriteStartElement("t");
                                w.WriteAttributeString(accented129, "v");
                                break;
                        }
                        w.WriteString(text);
                        w.WriteEndElement();
                    }
                    w.WriteEndElement();
                });
            }
        }
    }

    [Fact]
    public void Small_arrays_at_every_buffer_position_fold_as_in_box()
    {
        // An array's header (the element, its end, the item type and the count) is written in fewer buffer requests
        // than .NET makes when the start tag declares nothing; the model must still move as .NET's buffer does. Counts
        // whose MultiByteInt31 takes one and two bytes, names around the short-name limit, a prefix, a declaration (the
        // general path), each followed by text whose end folds or not by where the buffer is.
        string shortName = "é" + new string('n', 40), longName = new('m', 42);
        int[] ints = [1, 2, 3];
        bool[] bools = Enumerable.Range(0, 128).Select(i => i % 3 == 0).ToArray();
        double[] doubles = [0.25, 1.25];
        Guid[] guids = [new Guid("00112233-4455-6677-8899-aabbccddeeff")];
        // Text of 86 to 170 characters reserves its payload (3 bytes a character) apart from its header: with the
        // lengths below, the fold of its end element turns on each byte of the array's record before it.
        foreach (int textLength in new[] { 86, 120, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170 })
        {
            for (int padding = 0; padding < 530; padding++)
            {
                int pad = padding;
                string text = new('t', textLength);
                AssertSame($"padding {pad}, text {textLength}", w =>
                {
                    void Text()
                    {
                        w.WriteStartElement("t");
                        w.WriteString(text);
                        w.WriteEndElement();
                    }
                    w.WriteStartElement("p", "root", "urn:p");
                    // Each array from a flushed buffer and the padding (a flush later in a run would leave every
                    // padding at the same position), then text whose end element folds or not by where the array left
                    // the buffer.
                    for (int i = 0; i < 10; i++)
                    {
                        w.Flush();
                        PadSmall(w, pad);
                        switch (i % 5)
                        {
                            case 0: w.WriteArray(null, "a", null, ints, 0, 1 + i % 3); break;
                            case 1: w.WriteArray(null, shortName, null, bools, 0, 127 + i % 2); break;
                            case 2: w.WriteArray("p", longName, "urn:p", doubles, 0, doubles.Length); break;
                            case 3: w.WriteArray(null, "b", "urn:declared", guids, 0, 1); break;
                            default: w.WriteArray(s_dictionaryNames[1].Value, s_dictionaryNames[2], s_dictionaryNames[0], ints, 0, 1); break;
                        }
                        Text();
                    }
                    w.WriteEndElement();
                });
            }
        }
    }

    [Fact]
    public void Long_text_leaves_the_buffer_where_in_box_leaves_it()
    {
        // .NET transcodes long text in chunks of 170 characters, each reserving 510 bytes; the writer counts the bytes
        // of the last two chunks only (every chunk before them is followed by a flush) and models the earlier ones at
        // a byte a character. Two-byte characters in those earlier chunks make the model's count fall short of the
        // bytes written: where the buffer stands after the text must still be where .NET's stands, which the fold of
        // a text's end element after a padding shows. Lengths of three chunks and more, transcoded before they are
        // counted (up to 16 K characters) and counted first. ASCII text, whose chunks before the last two the model
        // skips, at lengths of exactly three chunks, three and a character (the last chunk fits behind the one before
        // it), four and a character, and more. CJK text, written as UTF-16 in chunks of 256 characters (512 bytes) and
        // modelled before it is written (over a stream, 2 KB and more go to the stream past the buffer): one chunk, one
        // and a character, two, four (2 KB) and more, and a surrogate pair across the first chunk's end (the chunk one
        // character shorter, every later one moved).
        var texts = new List<string>();
        foreach (int length in new[] { 341, 511, 700, 16_385 })
        {
            texts.Add(string.Concat(Enumerable.Range(0, length).Select(i => i % 3 == 0 ? 'x' : 'é')));
        }
        foreach (int length in new[] { 510, 511, 681, 16_385 })
        {
            texts.Add(new string('a', length));
        }
        foreach (int length in new[] { 256, 257, 512, 1023, 1024, 1025, 16_385 })
        {
            texts.Add(new string('の', length));
        }
        texts.Add(new string('の', 255) + "😀" + new string('の', 1022));
        foreach (string text in texts)
        {
            int length = text.Length;
            for (int padding = 0; padding < 530; padding++)
            {
                int pad = padding;
                AssertSame($"{(text[0] switch { 'a' => "ASCII", 'の' => "CJK", _ => "mixed" })} text of {length} characters, padding {pad}", w =>
                {
                    w.WriteStartElement("r");
                    w.WriteElementString("long", text);
                    PadSmall(w, pad);
                    w.WriteStartElement("t");
                    w.WriteString(s_midText);
                    w.WriteEndElement();
                    w.WriteEndElement();
                });
            }
        }
    }

    private const int MaxItems = 300;
    private static readonly bool[] s_bools = [.. Enumerable.Range(0, MaxItems).Select(i => i % 3 == 0)];
    private static readonly short[] s_shorts = [.. Enumerable.Range(0, MaxItems).Select(i => (short)(i * 211))];
    private static readonly int[] s_ints = [.. Enumerable.Range(0, MaxItems).Select(i => i * 70_001)];
    private static readonly long[] s_longs = [.. Enumerable.Range(0, MaxItems).Select(i => i * 1_000_000_007L)];
    private static readonly float[] s_floats = [.. Enumerable.Range(0, MaxItems).Select(i => i * 0.75f)];
    private static readonly double[] s_doubles = [.. Enumerable.Range(0, MaxItems).Select(i => i * 1.25)];
    private static readonly decimal[] s_decimals = [.. Enumerable.Range(0, MaxItems).Select(i => i * 1.5m)];
    // Local items one in five: written by ToBinary, which in UTC (as here) is their bytes in memory; LocalTimeZoneTests
    // shows their conversion in a zone away from UTC, small arrays among its cases.
    private static readonly DateTime[] s_dates = [.. Enumerable.Range(0, MaxItems).Select(i => new DateTime(2026, 1, 1, 0, 0, 0, (DateTimeKind)(i % 5 == 3 ? 2 : i % 2)).AddMinutes(i))];
    private static readonly TimeSpan[] s_timeSpans = [.. Enumerable.Range(0, MaxItems).Select(i => TimeSpan.FromSeconds(i * 7))];
    private static readonly Guid[] s_guids = [.. Enumerable.Range(0, MaxItems).Select(i => new Guid(i, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))];

    /// <summary>
    /// Every array item type, each with items of the type's size, written by in-box and by the native writer: the
    /// type's name, its item size, and the two writes of the first <c>count</c> items under a name.
    /// </summary>
    private static readonly (string Type, int Size, Action<XmlDictionaryWriter, string, int> InBox, Action<BinaryXmlWriter, string, int> Native)[] s_arrayTypes =
    [
        ("bool", 1, (w, n, c) => w.WriteArray(null, n, null, s_bools, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_bools.AsSpan(0, c))),
        ("short", 2, (w, n, c) => w.WriteArray(null, n, null, s_shorts, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_shorts.AsSpan(0, c))),
        ("int", 4, (w, n, c) => w.WriteArray(null, n, null, s_ints, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_ints.AsSpan(0, c))),
        ("long", 8, (w, n, c) => w.WriteArray(null, n, null, s_longs, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_longs.AsSpan(0, c))),
        ("float", 4, (w, n, c) => w.WriteArray(null, n, null, s_floats, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_floats.AsSpan(0, c))),
        ("double", 8, (w, n, c) => w.WriteArray(null, n, null, s_doubles, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_doubles.AsSpan(0, c))),
        ("decimal", 16, (w, n, c) => w.WriteArray(null, n, null, s_decimals, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_decimals.AsSpan(0, c))),
        ("DateTime", 8, (w, n, c) => w.WriteArray(null, n, null, s_dates, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_dates.AsSpan(0, c))),
        ("TimeSpan", 8, (w, n, c) => w.WriteArray(null, n, null, s_timeSpans, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_timeSpans.AsSpan(0, c))),
        ("Guid", 16, (w, n, c) => w.WriteArray(null, n, null, s_guids, 0, c), (w, n, c) => w.WriteArray(null, n, null, s_guids.AsSpan(0, c))),
    ];

    [Fact]
    public void Small_arrays_of_every_item_type_are_written_as_in_box_wherever_they_start()
    {
        // An array of up to 256 bytes of items under a short name in the default namespace, with nothing pending, is
        // written in one buffer request where .NET's buffer and the output memory both have room for all of it, and a
        // document's first record takes its memory first. Every item type, with counts of one, of 256 bytes and one
        // item more (the general path); as the root (the first record of a document), after a flush (the memory given
        // back), and after padding that puts it on every byte of .NET's buffer's end; with a name of three bytes a
        // character at the short-name limit; the native writer over an ArrayBufferWriter it is reset on (as a writer
        // reused per message is), over an output giving exactly what is asked, and over a stream.
        var reused = new ReusedWriter();
        foreach (var (type, size, inBoxWrite, nativeWrite) in s_arrayTypes)
        {
            foreach (int count in new[] { 1, 256 / size, 256 / size + 1 })
            {
                foreach (string name in new[] { "a", "日" + new string('n', 40) })
                {
                    foreach (int pad in Placements())
                    {
                        AssertSameWherever($"{type} x {count}, name of {name.Length}, padding {pad}", pad, reused,
                            w => inBoxWrite(w, name, count), w => nativeWrite(w, name, count));
                    }
                }
            }
        }
    }

    [Fact]
    public void Short_element_strings_are_written_as_in_box_wherever_they_start()
    {
        // WriteElementString with a short name and text of 1 to 85 characters (other than "0" and "1") writes both
        // records in one buffer request where .NET's buffer and the output memory both have room for their worst case,
        // and a document's first record takes its memory first. Texts: "0" and "1" (records of their own), one
        // character ASCII and not, 85 characters ASCII, of two bytes a character, CJK (written as UTF-16) and CJK after
        // an ASCII start (UTF-16 too), and 86 characters (the general path); names of one character and at the
        // short-name limit of three bytes a character; placed as with the small arrays above.
        string[] texts =
        [
            "0", "1", "x", "é", "日", new('x', 85), new('é', 85), new('日', 85), new('x', 86), "x" + new string('日', 84),
        ];
        var reused = new ReusedWriter();
        foreach (string text in texts)
        {
            foreach (string name in new[] { "a", "日" + new string('n', 40) })
            {
                foreach (int pad in Placements())
                {
                    AssertSameWherever($"text of {text.Length} ({text[0]}…{text[^1]}), name of {name.Length}, padding {pad}", pad, reused,
                        w => w.WriteElementString(name, text), w => w.WriteElementString(name, text));
                }
            }
        }
    }

    /// <summary>A native writer kept across documents over an <see cref="ArrayBufferWriter{T}"/>, as a writer reused per message is.</summary>
    private sealed class ReusedWriter
    {
        public readonly ArrayBufferWriter<byte> Output = new();
        public readonly BinaryXmlWriter Writer;

        public ReusedWriter() => Writer = new BinaryXmlWriter(Output);
    }

    /// <summary>
    /// The places <see cref="AssertSameWherever"/> puts the calls under test: -2 the document's root, -1 the first
    /// thing in the root after a flush, from 0 on after padding of that many bytes (every byte of .NET's buffer's end).
    /// </summary>
    private static IEnumerable<int> Placements()
    {
        for (int padding = -2; padding < 530; padding += padding < 0 ? 1 : 1 + padding / 100) yield return padding;
    }

    /// <summary>
    /// The calls under test (<paramref name="inBoxWrite"/>, <paramref name="nativeWrite"/>) written at the place
    /// <paramref name="pad"/> gives (<see cref="Placements"/>) by in-box and by the native writer: reset over a reused
    /// ArrayBufferWriter, over an output giving exactly what is asked, and over a stream. The same bytes every time.
    /// </summary>
    private static void AssertSameWherever(string what, int pad, ReusedWriter reused, Action<XmlDictionaryWriter> inBoxWrite, Action<BinaryXmlWriter> nativeWrite)
    {
        var expected = new MemoryStream();
        using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected, s_dictionary, null, false))
        {
            Calls(pad, () => inBoxWrite(inBox), inBox.WriteStartElement, inBox.WriteString, inBox.WriteEndElement, inBox.Flush, p => PadSmall(inBox, p));
        }

        reused.Output.ResetWrittenCount();
        reused.Writer.Reset(reused.Output, s_dictionary);
        Native(reused.Writer);
        Assert.True(expected.ToArray().AsSpan().SequenceEqual(reused.Output.WrittenSpan), what + ", reused over an ArrayBufferWriter");

        var exact = new ExactBufferWriter();
        Native(new BinaryXmlWriter(exact, s_dictionary));
        Assert.True(expected.ToArray().AsSpan().SequenceEqual(exact.Written), what + ", over an output giving exactly what is asked");

        var stream = new MemoryStream();
        using (var overStream = new BinaryXmlWriter(stream, s_dictionary)) Native(overStream);
        Assert.True(expected.ToArray().AsSpan().SequenceEqual(stream.ToArray()), what + ", over a stream");

        void Native(BinaryXmlWriter w)
        {
            Calls(pad, () => nativeWrite(w), w.WriteStartElement, w.WriteString, w.WriteEndElement, w.Flush, p => PadSmall(p, w.WriteStartElement, w.WriteValue, w.WriteValue, w.WriteEndElement));
            w.Flush();
        }

        // From padding 0 on, the calls come twice after the padding, then text of 107 characters whose end element
        // folds or not by where they left .NET's buffer.
        static void Calls(int pad, Action write, Action<string> start, Action<string> text, Action end, Action flush, Action<int> padSmall)
        {
            if (pad == -2)
            {
                write();
                return;
            }
            start("r");
            if (pad == -1)
            {
                flush();
                write();
            }
            else
            {
                padSmall(pad);
                write();
                write();
                start("t");
                text(s_midText);
                end();
            }
            end();
        }
    }

    [Fact]
    public void Array_headers_fit_in_output_memory_given_exactly_as_asked()
    {
        // The native writer asks its output for room for a record and what it writes with it at once; output memory of
        // exactly the size asked for leaves no slack for a header written past its request. Runs of arrays with one
        // kind of start tag (a short name in the default namespace, and one the general path takes) put their
        // headers on every byte of a chunk's end (a larger request between them would move every chunk's end).
        int[] ints = [1, 2, 3];
        foreach (string? ns in new[] { null, "" })
        {
            for (int pad = 0; pad < 300; pad++)
            {
                // Three UTF-8 bytes a character fill the name's reservation, leaving nothing after it but what was asked.
                string name = ns is null ? "a" : "日本日本日";
                var expected = new MemoryStream();
                using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected, null, null, false))
                {
                    inBox.WriteStartElement("r");
                    inBox.WriteElementString("pad", new string('x', pad % 100) + new string('y', pad / 100));
                    for (int i = 0; i < 60; i++) inBox.WriteArray(null, name, ns, ints, 0, 1 + i % 3);
                    inBox.WriteEndElement();
                }
                var output = new ExactBufferWriter();
                var ours = new BinaryXmlWriter(output);
                ours.WriteStartElement("r");
                ours.WriteElementString("pad", new string('x', pad % 100) + new string('y', pad / 100));
                for (int i = 0; i < 60; i++) ours.WriteArray(null, name, ns, ints.AsSpan(0, 1 + i % 3));
                ours.WriteEndElement();
                ours.Flush();
                Assert.True(expected.ToArray().AsSpan().SequenceEqual(output.Written), $"namespace {ns ?? "null"}, padding {pad}");
            }
        }
    }

    /// <summary>An <see cref="System.Buffers.IBufferWriter{T}"/> whose memory is exactly the size asked for.</summary>
    private sealed class ExactBufferWriter : System.Buffers.IBufferWriter<byte>
    {
        private readonly List<byte> _written = [];
        private byte[] _block = [];

        public byte[] Written => [.. _written];

        public void Advance(int count) => _written.AddRange(_block.AsSpan(0, count).ToArray());

        public Memory<byte> GetMemory(int sizeHint = 0) => _block = new byte[Math.Max(sizeHint, 1)];

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }

    [Fact]
    public void Blocks_around_the_stream_pass_through_size_are_written_as_in_box()
    {
        // Over a stream, blocks from 2 KB on go to it directly; the bytes (and the fold of the end element into the
        // record before, or not) must not change whatever the block's size, what precedes it, or a flush between.
        foreach (int size in new[] { 511, 512, 513, 2045, 2046, 2047, 2048, 2049, 2050, 4096, 16383, 16384, 16385, 40000 })
        {
            byte[] bytes = Enumerable.Range(0, size).Select(i => (byte)(i * 7)).ToArray();
            double[] doubles = Enumerable.Range(0, size / 8 + 1).Select(i => i * 0.5).ToArray();
            // DateTime and TimeSpan items, which .NET writes one by one, go to the stream as one block too (DateTimes
            // without a local one; with one, converted in the writer's buffer).
            DateTime[] dates = doubles.Select((_, i) => new DateTime(2026, 1, 1, 0, 0, 0, i % 2 == 0 ? DateTimeKind.Utc : DateTimeKind.Unspecified).AddMinutes(i)).ToArray();
            DateTime[] withLocal = [.. dates];
            withLocal[withLocal.Length / 2] = new DateTime(2026, 5, 6, 7, 8, 9, DateTimeKind.Local);
            TimeSpan[] spans = doubles.Select((_, i) => TimeSpan.FromSeconds(i)).ToArray();
            foreach (int pad in new[] { 0, 100, 505 })
            {
                foreach (bool flush in new[] { false, true })
                {
                    AssertSame($"{size} bytes, pad {pad}, flush {flush}", w =>
                    {
                        w.WriteStartElement("r");
                        w.WriteElementString("pad", new string('x', pad));
                        if (flush) w.Flush();
                        w.WriteStartElement("b");
                        w.WriteBase64(bytes, 0, bytes.Length);
                        w.WriteEndElement();
                        w.WriteStartElement("c");
                        w.WriteBase64(bytes, 0, 1);
                        w.WriteBase64(bytes, 1, bytes.Length - 1);
                        w.WriteString("after");
                        w.WriteEndElement();
                        w.WriteArray(null, "d", null, doubles, 0, doubles.Length);
                        w.WriteElementString("t", "before");
                        w.WriteArray(null, "e", null, dates, 0, dates.Length);
                        w.WriteArray(null, "f", null, withLocal, 0, withLocal.Length);
                        w.WriteStartElement("u");
                        w.WriteString("text");
                        w.WriteArray(null, "g", null, spans, 0, spans.Length);
                        w.WriteEndElement();
                        w.WriteEndElement();
                    });
                }
            }
        }
    }

    [Fact]
    public void After_a_block_handed_to_the_stream_the_buffer_is_where_in_box_leaves_it()
    {
        // A block handed to the stream as it is leaves the writer's memory empty, its bytes committed: the model's
        // positions move back by every byte committed. After base64 (.NET's buffer empty after it) and TimeSpan items
        // (written one by one by .NET: its buffer ends partly filled), a padding and a text whose end element folds or
        // not by where the buffer stands.
        byte[] bytes = Enumerable.Range(0, 4096).Select(i => (byte)i).ToArray();
        TimeSpan[] spans = Enumerable.Range(0, 301).Select(i => TimeSpan.FromSeconds(i)).ToArray();
        foreach (bool items in new[] { false, true })
        {
            for (int padding = 0; padding < 530; padding++)
            {
                int pad = padding;
                AssertSame($"{(items ? "TimeSpan items" : "base64")}, padding {pad}", w =>
                {
                    w.WriteStartElement("r");
                    w.WriteElementString("pad", "x");
                    if (items)
                    {
                        w.WriteArray(null, "a", null, spans, 0, spans.Length);
                    }
                    else
                    {
                        w.WriteStartElement("b");
                        w.WriteBase64(bytes, 0, bytes.Length);
                        w.WriteEndElement();
                    }
                    PadSmall(w, pad);
                    w.WriteStartElement("t");
                    w.WriteString(s_midText);
                    w.WriteEndElement();
                    w.WriteEndElement();
                });
            }
        }
    }

    [Fact]
    public void DateTime_arrays_over_a_stream_are_written_as_in_box_wherever_their_first_local_item_is()
    {
        // Over a stream, DateTime items without a local one are handed on as one block; with one, they go through the
        // writer's buffer, the local ones converted. Arrays of 4,095 to 40,961 items (32 to 320 KB), with no local item,
        // one at the first, the last or an item around a multiple of 4,096 or of 16,384 (the pieces of a one-pass
        // version tried and dropped, benchmarks/HISTORY.md runs 392-393), or local items from there on.
        foreach (int count in new[] { 4095, 4096, 4097, 8192, 8193, 12289, 16383, 16384, 16385, 32768, 40961 })
        {
            DateTime[] plain = Enumerable.Range(0, count).Select(i => new DateTime(2026, 1, 1, 0, 0, 0, i % 3 == 0 ? DateTimeKind.Utc : DateTimeKind.Unspecified).AddSeconds(i)).ToArray();
            foreach (int local in new[] { -1, 0, 1, 4095, 4096, 4097, 8191, 8192, 16383, 16384, 16385, 32767, 32768, count - 1 }.Where(i => i < count).Distinct())
            {
                foreach (bool fromThereOn in local < 0 ? [false] : new[] { false, true })
                {
                    DateTime[] items = [.. plain];
                    for (int i = Math.Max(local, 0); local >= 0 && i < (fromThereOn ? count : local + 1); i++)
                        items[i] = new DateTime(2026, 5, 6, 7, 8, 9, DateTimeKind.Local).AddSeconds(i);
                    AssertSame($"{count} items, first local {local}, local from there on {fromThereOn}", w =>
                    {
                        w.WriteStartElement("r");
                        w.WriteArray(null, "d", null, items, 0, items.Length);
                        w.WriteElementString("t", "after");
                        w.WriteEndElement();
                    });
                }
            }
        }
    }

    /// <summary>
    /// Moves .NET's buffer about <paramref name="bytes"/> bytes on with records of 4, 5 and 6 bytes whose reservations
    /// are as small (a one-letter name, a bool, an Int8 and an Int16 value), so that every position, up to the buffer's
    /// last bytes, is reached without a flush on the way.
    /// </summary>
    private static void PadSmall(XmlDictionaryWriter w, int bytes) => PadSmall(bytes, w.WriteStartElement, w.WriteValue, w.WriteValue, w.WriteEndElement);

    /// <summary><see cref="PadSmall(XmlDictionaryWriter, int)"/> by the calls of any writer.</summary>
    private static void PadSmall(int bytes, Action<string> start, Action<int> intValue, Action<bool> boolValue, Action end)
    {
        // 4a + 5b + 6c bytes: b and c (0 or 1) by the remainder, the rest in 4-byte records.
        int rest = bytes % 4;
        bool five = rest is 1 or 3, six = rest is 2 or 3;
        if (five) { start("q"); intValue(100); end(); }
        if (six) { start("q"); intValue(1000); end(); }
        for (int i = (five ? 5 : 0) + (six ? 6 : 0); i + 4 <= bytes; i += 4) { start("q"); boolValue(true); end(); }
    }

    private static void AssertSame(string what, Action<XmlDictionaryWriter> calls)
    {
        var expected = new MemoryStream();
        using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected, s_dictionary, null, false))
        {
            calls(inBox);
        }
        var output = new MemoryStream();
        using (XmlDictionaryWriter ours = BinaryXmlDictionaryWriter.Create(output, s_dictionary, null, false))
        {
            calls(ours);
        }
        Assert.True(expected.ToArray().AsSpan().SequenceEqual(output.ToArray()), what);
    }
}
