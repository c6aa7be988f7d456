using System.Buffers;
using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// How the writer turns strings into UTF-8 (or UTF-16) records. Names and texts of up to 16 characters are narrowed
/// inline, four or eight characters at a time, with overlapping first and last words (BinaryXmlWriter.TranscodeUtf8):
/// every length from 0 to 24, all ASCII or with one character outside ASCII (at the edge, a two-byte, a three-byte
/// one, a surrogate pair) at every position, written as an element name, a prefix, an attribute name and value, and
/// text, give the in-box writer's bytes, and the in-box reader reads every string back unchanged. Longer text, and
/// text of 17 to 85 characters that may be written as UTF-16, is covered by
/// <see cref="Text_of_every_record_form_is_written_as_in_box"/>.
/// </summary>
public sealed class TextTranscodingTests
{
    private static readonly string[] s_probes = ["\u007F", "\u0080", "é", "\u07FF", "\u0800", "€", "\uFFFD", "😀"];

    public static TheoryData<int> Lengths() => new(Enumerable.Range(0, 25));

    [Theory]
    [MemberData(nameof(Lengths))]
    public void Short_strings_of_every_length_and_character_position_are_written_as_in_box(int length)
    {
        foreach (string text in Strings(length))
        {
            AssertStringSameAsInBox(text);
        }
    }

    public static TheoryData<int> ShortTextLengths() => new(Enumerable.Range(1, 17));

    /// <summary>
    /// Text of up to 16 characters that is not all ASCII is counted before it is transcoded, and written as UTF-16
    /// without being transcoded when that is shorter (BinaryXmlWriter.TranscodeShortTextUtf8; eight to sixteen
    /// characters counted as two overlapping vectors): every number of three-byte characters (U+0800 and U+FFFF at the
    /// edges, CJK between) among ASCII ones, first, last, every other one and in the last half only (the lanes the two
    /// vectors share), with and without a two-byte character, and with a surrogate pair among them (transcoded, not
    /// counted), gives the in-box writer's bytes as text, attribute value and names, across the point where UTF-16 is
    /// the shorter form (bytes / 2 &gt; characters); a lone surrogate among three-byte characters fails as in-box, with
    /// its message. 17 characters are the first the longer text's path takes.
    /// </summary>
    [Theory]
    [MemberData(nameof(ShortTextLengths))]
    public void Short_text_around_the_point_where_UTF16_is_shorter_is_written_as_in_box(int length)
    {
        const string threeByte = "\u0800日本語\uFFFF中文";
        string ascii = string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + i % 26)));
        var context = new ScriptContext();
        for (int count = 1; count <= length; count++)
        {
            foreach (Func<int, bool> isThreeByte in (Func<int, bool>[])[i => i < count, i => i >= length - count,
                         i => i % 2 == 0 ? i / 2 < count : (length + 1) / 2 + i / 2 < count, i => i >= length / 2 && i - length / 2 < count])
            {
                char[] chars = ascii.ToCharArray();
                int placed = 0;
                for (int i = 0; i < length; i++)
                {
                    if (isThreeByte(i)) chars[i] = threeByte[placed++ % threeByte.Length];
                }
                string text = new(chars);
                AssertStringSameAsInBox(text);
                int firstAscii = Array.FindIndex(chars, c => c < 0x80);
                if (firstAscii >= 0) AssertStringSameAsInBox(string.Concat(text.AsSpan(0, firstAscii), "é", text.AsSpan(firstAscii + 1)));
                int firstThreeByte = Array.FindIndex(chars, c => c >= 0x800);
                if (firstThreeByte >= 0 && firstThreeByte + 1 < length && chars[firstThreeByte + 1] >= 0x800)
                {
                    AssertStringSameAsInBox(string.Concat(text.AsSpan(0, firstThreeByte), "😀", text.AsSpan(firstThreeByte + 2)));
                }
                if (firstThreeByte >= 0)
                {
                    foreach (char lone in (char[])['\uD800', '\uDC00'])
                    {
                        AssertFailsAsInBox(string.Concat(text.AsSpan(0, firstThreeByte), lone.ToString(), text.AsSpan(firstThreeByte + 1)), context);
                    }
                }
            }
        }
    }

    /// <summary>Text with a lone surrogate, as element content: each writer fails as in-box, with its message.</summary>
    private static void AssertFailsAsInBox(string text, ScriptContext context)
    {
        List<Call> calls = [new Call("StartElement", [null, "e", null]), new Call("String", [text]), new Call("EndElement", [])];
        Exception inBox = WriterScript.RunInBox(calls, context).Error!;
        Assert.IsType<EncoderFallbackException>(inBox);
        Exception?[] errors =
            [WriterScript.RunNative(calls, context).Error, WriterScript.RunNativeOverStream(calls, context).Error, WriterScript.RunAdapter(calls, context).Error];
        foreach (Exception? error in errors)
        {
            Assert.Equal(inBox.GetType(), error?.GetType());
            Assert.Equal(inBox.Message, error!.Message);
        }
    }

    /// <summary>The string of <paramref name="length"/> ASCII letters, and it with each probe at each position.</summary>
    private static IEnumerable<string> Strings(int length)
    {
        string ascii = string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + i % 26)));
        yield return ascii;
        foreach (string probe in s_probes)
        {
            for (int at = 0; at + probe.Length <= length; at++)
            {
                yield return string.Concat(ascii.AsSpan(0, at), probe, ascii.AsSpan(at + probe.Length));
            }
        }
    }

    public static TheoryData<int> RecordFormLengths() => new([17, 24, 31, 32, 33, 64, 85, 86, 87, 127, 128, 170, 171, 255, 256, 341,
        342, 4096, 16383, 16384, 16385, 21845, 21846, 40000, 65535, 65536, 1_398_099, 1_398_100]);

    /// <summary>
    /// Text of up to 85 characters is transcoded behind room for the longest it can take, and written as UTF-16 instead
    /// when that is shorter; text longer than 85 characters is transcoded before its header is written (up to 16,384
    /// characters, and over a stream up to 1,398,099, a worst case of 4 MB, unless its first 1,024 characters take more
    /// than two bytes each) or counted first (beyond, unless the memory the output has at hand holds it; text of 17 to
    /// 85 characters whole from a first non-ASCII character of three bytes; and longer text whose first 32 characters
    /// from its first non-ASCII one take more than two bytes each): all
    /// ASCII, one character outside ASCII at either end, three-byte characters in the numbers around the point where
    /// UTF-16 is the shorter form (bytes / 2 &gt; characters) before the ASCII ones (with and without one two-byte
    /// character first) and after them, a quarter of ASCII before three-byte characters (UTF-16, counted from the first
    /// three-byte character on), one three-byte character before ASCII, 40 three-byte characters among ASCII (counted,
    /// then transcoded; beyond 16,384 characters 2,048, which fill the probe of long text after its ASCII start), and
    /// surrogate pairs among three-byte characters (UTF-16 known from the first half counted), give the in-box writer's
    /// bytes (as text, and as an attribute's value with text followed by more text) through the native writer over a
    /// buffer and over a stream and the drop-in writer, length fields of one, two and four bytes included (40,000
    /// characters of 80,000 bytes: the header longer than the characters' count gave it, the text moved on); a lone
    /// surrogate at the end fails as in-box, and one in three-byte text counted first with in-box's message (up to 31
    /// characters, .NET's index counts from the first character outside ASCII). Text of more than 16,384 characters is
    /// also written into outputs that have memory of sizes around its bytes at hand
    /// (<see cref="AssertSameWithMemoryAtHand"/>), and a lone surrogate at the end, in the middle, after text outside
    /// ASCII and in three-byte text after ASCII fails there with in-box's message.
    /// </summary>
    [Theory]
    [MemberData(nameof(RecordFormLengths))]
    public void Text_of_every_record_form_is_written_as_in_box(int length)
    {
        string ascii = new('t', length);
        var texts = new List<string> { ascii, "é" + ascii[1..], ascii[..^2] + "😀" };
        for (int threeByte = length / 2 - 2; threeByte <= length / 2 + 2; threeByte++)
        {
            string mixed = new string('€', threeByte) + ascii[threeByte..];
            texts.Add(mixed);
            texts.Add("é" + mixed[1..]);
            texts.Add(ascii[threeByte..] + new string('€', threeByte));
        }
        texts.Add(new string('€', length));
        texts.Add(ascii[..(length / 4)] + new string('€', length - length / 4));
        // A three-byte character first, then ASCII (its first 32 characters do not take more than two bytes each), and
        // three-byte characters that take more from the first non-ASCII one on but not over the whole text.
        texts.Add("€" + ascii[1..]);
        if (length >= 60) texts.Add(ascii[..(length / 4)] + new string('€', 40) + ascii[(length / 4 + 40)..]);
        if (length > 16384) texts.Add(ascii[..(length / 4)] + new string('€', 2048) + ascii[(length / 4 + 2048)..]);
        // Surrogate pairs among three-byte characters (UTF-16, settled before its end): the pieces counted keep each
        // pair whole, wherever they end.
        string pairs = string.Concat(Enumerable.Repeat("€😀", length / 3));
        texts.Add(pairs + new string('€', length - pairs.Length));
        foreach (string text in texts)
        {
            List<Call> asText =
            [
                new Call("StartElement", [null, "e", null]),
                new Call("String", [text]),
                new Call("EndElement", []),
            ];
            string what = $"length {length}, text starting \"{Escape(text[..Math.Min(8, text.Length)])}\"";
            byte[] bytes = AssertSameAsInBox(asText, what);
            using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
            Assert.Equal(text, r.ReadElementContentAsString());
            // As an attribute's value, and followed by more text: the record after it and the end tag as in-box.
            List<Call> asAttributeAndText =
            [
                new Call("StartElement", [null, "e", null]),
                new Call("AttributeString", [null, "a", null, text]),
                new Call("String", [text]),
                new Call("String", ["x"]),
                new Call("EndElement", []),
            ];
            byte[] twice = AssertSameAsInBox(asAttributeAndText, $"{what}, as an attribute value and text followed by text");
            if (length > 16384)
            {
                AssertSameWithMemoryAtHand(asText, bytes, length, what);
                AssertSameWithMemoryAtHand(asAttributeAndText, twice, length, $"{what}, as an attribute value and text followed by text");
            }
        }
        List<Call> lone = [new Call("StartElement", [null, "e", null]), new Call("String", [ascii[..^1] + "\uD800"]), new Call("EndElement", [])];
        var context = new ScriptContext();
        Type? expected = WriterScript.RunInBox(lone, context).Error?.GetType();
        Assert.Equal(typeof(EncoderFallbackException), expected);
        Assert.Equal(expected, WriterScript.RunNative(lone, context).Error?.GetType());
        Assert.Equal(expected, WriterScript.RunNativeOverStream(lone, context).Error?.GetType());
        Assert.Equal(expected, WriterScript.RunAdapter(lone, context).Error?.GetType());
        // A lone surrogate in text counted before it is written, at its end and in the middle: in-box's message too.
        string[] countedLoneTexts =
        [
            new string('€', length - 1) + "\uD800",
            ascii[..(length / 4)] + new string('€', length / 2) + "\uDC00" + ascii[(length * 3 / 4 + 1)..],
        ];
        foreach (string text in countedLoneTexts)
        {
            AssertFailsAsInBox(text, context);
        }
        if (length <= 16384) return;
        string[] loneTexts = [ascii[..^1] + "\uD800", ascii[..(length / 2)] + "\uDC00" + ascii[(length / 2 + 1)..],
            ascii[..(length / 4)] + new string('é', length / 2) + ascii[(length * 3 / 4)..^(length / 8)] + "\uD800" + ascii[^(length / 8 - 1)..],
            countedLoneTexts[1]];
        foreach (string text in loneTexts)
        {
            lone = [new Call("StartElement", [null, "e", null]), new Call("String", [text]), new Call("EndElement", [])];
            Exception inBox = WriterScript.RunInBox(lone, context).Error!;
            Assert.IsType<EncoderFallbackException>(inBox);
            foreach (int capacity in (int[])[length + 16, length * 3 / 2, 3 * length + 64])
            {
                Exception? error = WriterScript.RunNative(lone, context, new RecordingBufferWriter(capacity));
                Assert.Equal(inBox.GetType(), error?.GetType());
                Assert.Equal(inBox.Message, error!.Message);
            }
        }
    }

    /// <summary>
    /// The native writer over outputs that have memory of sizes around the document's <paramref name="expected"/> bytes at
    /// hand from the start, of text of <paramref name="length"/> characters (room for the text as ASCII only; halfway to
    /// its bytes; four and two bytes short of them, where text whose bytes take a longer header than its characters'
    /// count does fits only in front of the longest header; enough; its worst case): the in-box writer's bytes, and no
    /// output asked for more than them (or the writer's smallest request, 256 bytes).
    /// </summary>
    private static void AssertSameWithMemoryAtHand(List<Call> calls, byte[] expected, int length, string what)
    {
        foreach (int capacity in (int[])[length + 16, (length + expected.Length) / 2, expected.Length - 4, expected.Length - 2, expected.Length + 16, 3 * length + 64])
        {
            var output = new RecordingBufferWriter(capacity);
            Assert.Null(WriterScript.RunNative(calls, new ScriptContext(), output));
            Assert.True(expected.AsSpan().SequenceEqual(output.WrittenSpan), $"native writer with {capacity} bytes at hand, {what}");
            Assert.True(output.LargestRequest <= Math.Max(256, expected.Length),
                $"native writer with {capacity} bytes at hand asked for {output.LargestRequest} bytes, {what}");
        }
    }

    /// <summary>
    /// An output of the given capacity that records the largest size it was asked for. Unlike
    /// <see cref="ArrayBufferWriter{T}"/>, which keeps what lies past the written bytes when it grows, it gives new
    /// memory filled with 0xCC: a writer that counts on bytes it had not committed fails here.
    /// </summary>
    private sealed class RecordingBufferWriter(int capacity) : IBufferWriter<byte>
    {
        private byte[] _buffer = new byte[capacity];
        private int _written;

        public int LargestRequest { get; private set; }

        public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _written);

        public void Advance(int count) => _written += count;

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            LargestRequest = Math.Max(LargestRequest, sizeHint);
            int needed = Math.Max(sizeHint, 1);
            if (_buffer.Length - _written < needed)
            {
                byte[] grown = new byte[Math.Max(2 * _buffer.Length, _written + needed)];
                grown.AsSpan(_written).Fill(0xCC);
                WrittenSpan.CopyTo(grown);
                _buffer = grown;
            }
            return _buffer.AsMemory(_written);
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }

    public static TheoryData<int> LongNameLengths() => new([42, 43, 127, 128, 129, 170, 171, 341, 342, 4096, 5462, 16383, 16384, 16385, 21846]);

    /// <summary>
    /// Names of 42 characters and more are transcoded before their length is written (up to 16,384 characters) or
    /// counted first (beyond): all ASCII, one character outside ASCII at either end, and three-byte characters around
    /// the byte counts where the length takes another byte (128 and 16,384 bytes), as element name, prefix, namespace
    /// (declared with its element, and by an xmlns call), attribute name and attribute namespace, give the in-box
    /// writer's bytes, lengths of one to three bytes included.
    /// </summary>
    [Theory]
    [MemberData(nameof(LongNameLengths))]
    public void Long_names_of_every_length_size_are_written_as_in_box(int length)
    {
        string ascii = new('n', length);
        var names = new List<string> { ascii, "é" + ascii[1..], ascii[..^2] + "😀" };
        foreach (int bytes in (int[])[128, 16384])
        {
            // n three-byte characters and length - n ASCII ones make length + 2n bytes: just under, at and over.
            for (int threeByte = (bytes - length) / 2 - 1; threeByte <= (bytes - length) / 2 + 1; threeByte++)
            {
                if (threeByte >= 1 && threeByte <= length) names.Add(new string('€', threeByte) + ascii[threeByte..]);
            }
        }
        foreach (string name in names)
        {
            byte[] bytes = AssertSameAsInBox(
            [
                new Call("StartElement", [null, name, null]),
                new Call("StartElement", ["q" + name, name, "urn:" + name]),
                new Call("Xmlns", [null, "urn:x:" + name]),
                new Call("AttributeString", [null, name, null, "v"]),
                new Call("AttributeString", ["a" + name, name, "urn:a:" + name, "w"]),
                new Call("String", ["t"]),
                new Call("EndElement", []),
                new Call("EndElement", []),
            ], $"length {length}, name starting \"{Escape(name[..Math.Min(8, name.Length)])}\" of {System.Text.Encoding.UTF8.GetByteCount(name)} bytes");
            using XmlDictionaryReader r = ReadToSecondElement(bytes, name);
            Assert.Equal("urn:" + name, r.NamespaceURI);
            Assert.Equal("w", r.GetAttribute(name, "urn:a:" + name));
        }
    }

    /// <summary>The string as element name, prefix, namespace, attribute name and value, and text, in each writer.</summary>
    private static void AssertStringSameAsInBox(string text)
    {
        // Names must not be empty: an empty string is written as text only.
        string name = text.Length == 0 ? "e" : text;
        byte[] bytes = AssertSameAsInBox(
        [
            new Call("StartElement", [null, name, null]),
            new Call("StartElement", ["q" + name, name, "urn:" + text]),
            new Call("AttributeString", [null, name, null, text]),
            new Call("String", [text]),
            new Call("EndElement", []),
            new Call("ElementString", [null, name, null, text]),
            new Call("EndElement", []),
        ], $"\"{Escape(text)}\"");

        using XmlDictionaryReader r = ReadToSecondElement(bytes, name);
        Assert.Equal(text, r.GetAttribute(name));
        Assert.Equal(text, r.ReadElementContentAsString());
        Assert.Equal(text, r.ReadElementContentAsString());
    }

    /// <summary>
    /// The in-box reader on the second element of a document the scripts above write, the names checked on the way:
    /// the root and the second element are named <paramref name="name"/>, the second with the prefix "q" + name.
    /// </summary>
    private static XmlDictionaryReader ReadToSecondElement(byte[] bytes, string name)
    {
        XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        r.MoveToContent();
        Assert.Equal(name, r.LocalName);
        r.Read();
        Assert.Equal(name, r.LocalName);
        Assert.Equal("q" + name, r.Prefix);
        return r;
    }

    /// <summary>Runs the calls on the in-box, the native and the drop-in writer; their bytes must be equal. Returns them.</summary>
    private static byte[] AssertSameAsInBox(List<Call> calls, string what)
    {
        var context = new ScriptContext();
        (byte[] expected, Exception? error) = WriterScript.RunInBox(calls, context);
        Assert.Null(error);
        (byte[] native, Exception? nativeError) = WriterScript.RunNative(calls, context);
        Assert.Null(nativeError);
        (byte[] dropIn, Exception? dropInError) = WriterScript.RunAdapter(calls, context);
        Assert.Null(dropInError);
        (byte[] overStream, Exception? overStreamError) = WriterScript.RunNativeOverStream(calls, context);
        Assert.Null(overStreamError);
        Assert.True(expected.AsSpan().SequenceEqual(native), $"native writer, {what}");
        Assert.True(expected.AsSpan().SequenceEqual(overStream), $"native writer over a stream, {what}");
        Assert.True(expected.AsSpan().SequenceEqual(dropIn), $"drop-in writer, {what}");
        return expected;
    }

    private static string Escape(string s) => string.Concat(s.Select(c => c < 0x80 ? c.ToString() : $"\\u{(int)c:X4}"));
    [Fact]
    public void Input_compared_with_a_string_is_equal_exactly_where_the_runtime_says_it_is()
    {
        // The readers compare names and namespaces in the input with strings (AsciiText.Equals: 4 to 16 characters as
        // two overlapping words or vectors). Every length from 0 to 40, against: the same text; one character changed
        // at each position; a byte at each position that is not ASCII (0x80, 0xC3, 0xFF) with the character of the
        // same code in the string (equal if widened, not equal as UTF-8); a character outside ASCII in the string;
        // text one character longer or shorter. The answer is the runtime's Ascii.Equals in every case, and the
        // expected one: equal only for the same ASCII text.
        int compared = 0;
        for (int length = 0; length <= 40; length++)
        {
            char[] text = [.. Enumerable.Range(0, length).Select(i => (char)('a' + i * 7 % 26))];
            byte[] utf8 = [.. text.Select(c => (byte)c)];
            void Check(byte[] bytes, char[] chars, bool expected)
            {
                bool ours = AsciiText.Equals(bytes, chars);
                Assert.True(Ascii.Equals(bytes, chars) == ours, $"length {length}: '{Convert.ToHexString(bytes)}' against '{new string(chars)}': ours {ours}");
                Assert.True(ours == expected, $"length {length}: '{Convert.ToHexString(bytes)}' against '{new string(chars)}': {ours}, {expected} expected");
                compared++;
            }
            Check(utf8, text, true);
            Check([.. utf8, (byte)'z'], text, false);
            Check(utf8, [.. text, 'z'], false);
            for (int at = 0; at < length; at++)
            {
                byte[] bytes = (byte[])utf8.Clone();
                bytes[at] = (byte)(bytes[at] == 'q' ? 'r' : 'q');
                Check(bytes, text, false);
                char[] chars = (char[])text.Clone();
                chars[at] = '\u00E9';
                Check(utf8, chars, false);
                foreach (byte high in new byte[] { 0x80, 0xC3, 0xFF })
                {
                    bytes = (byte[])utf8.Clone();
                    bytes[at] = high;
                    chars = (char[])text.Clone();
                    chars[at] = (char)high;
                    Check(bytes, chars, false);
                }
            }
        }
        Assert.Equal(41 * 3 + 5 * (40 * 41 / 2), compared);
    }
}
