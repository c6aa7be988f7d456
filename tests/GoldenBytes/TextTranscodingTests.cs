using System.Buffers;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// How the writer turns strings into UTF-8 (or UTF-16) records. Names and texts of up to 16 characters are narrowed
/// inline, four or eight characters at a time, with overlapping first and last words (BinaryXmlWriter.TranscodeUtf8):
/// every length from 0 to 24, all ASCII or with one character outside ASCII (at the edge, a two-byte, a three-byte
/// one, a surrogate pair) at every position, written as an element name, a prefix, an attribute name and value, and
/// text, give the in-box writer's bytes, and the in-box reader reads every string back unchanged. Longer text is
/// covered by <see cref="Long_text_of_every_record_form_is_written_as_in_box"/>.
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
            AssertSameAsInBox(text);
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

    public static TheoryData<int> LongLengths() => new([86, 87, 127, 128, 170, 171, 255, 256, 341, 342, 4096, 16383, 16384, 16385, 21845, 21846]);

    /// <summary>
    /// Text longer than 85 characters is transcoded before its header is written (up to 16,384 characters) or counted
    /// first (beyond): all ASCII, one character outside ASCII at either end, and three-byte characters in the numbers
    /// around the point where UTF-16 is the shorter form (bytes / 2 &gt; characters), with and without one two-byte
    /// character, give the in-box writer's bytes, header sizes from one to three length bytes included.
    /// </summary>
    [Theory]
    [MemberData(nameof(LongLengths))]
    public void Long_text_of_every_record_form_is_written_as_in_box(int length)
    {
        string ascii = new('t', length);
        var texts = new List<string> { ascii, "é" + ascii[1..], ascii[..^2] + "😀" };
        for (int threeByte = length / 2 - 2; threeByte <= length / 2 + 2; threeByte++)
        {
            string mixed = new string('€', threeByte) + ascii[threeByte..];
            texts.Add(mixed);
            texts.Add("é" + mixed[1..]);
        }
        texts.Add(new string('€', length));
        foreach (string text in texts)
        {
            var expected = new MemoryStream();
            using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected, null, null, false))
            {
                inBox.WriteStartElement("e");
                inBox.WriteString(text);
                inBox.WriteEndElement();
            }
            var native = new ArrayBufferWriter<byte>();
            using (var w = new BinaryXmlWriter(native))
            {
                w.WriteStartElement("e");
                w.WriteString(text);
                w.WriteEndElement();
            }
            Assert.True(expected.ToArray().AsSpan().SequenceEqual(native.WrittenSpan), $"length {length}, text starting \"{Escape(text[..Math.Min(8, text.Length)])}\"");
            using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(native.WrittenSpan.ToArray(), XmlDictionaryReaderQuotas.Max);
            Assert.Equal(text, r.ReadElementContentAsString());
        }
    }

    private static void AssertSameAsInBox(string text)
    {
        // Names must not be empty: an empty string is written as text only.
        string name = text.Length == 0 ? "e" : text;
        var expected = new MemoryStream();
        using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected, null, null, false))
        {
            Write(inBox, name, text);
        }

        var native = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(native))
        {
            w.WriteStartElement(name);
            w.WriteStartElement("q" + name, name, "urn:" + text);
            w.WriteAttributeString(name, text);
            w.WriteString(text);
            w.WriteEndElement();
            w.WriteElementString(name, text);
            w.WriteEndElement();
        }
        var dropIn = new MemoryStream();
        using (XmlDictionaryWriter ours = BinaryXmlDictionaryWriter.Create(dropIn, null, null, false))
        {
            Write(ours, name, text);
        }

        byte[] bytes = expected.ToArray();
        Assert.True(bytes.AsSpan().SequenceEqual(native.WrittenSpan), $"native writer, \"{Escape(text)}\"");
        Assert.True(bytes.AsSpan().SequenceEqual(dropIn.ToArray()), $"drop-in writer, \"{Escape(text)}\"");

        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(bytes, XmlDictionaryReaderQuotas.Max);
        r.MoveToContent();
        Assert.Equal(name, r.LocalName);
        r.Read();
        Assert.Equal(name, r.LocalName);
        Assert.Equal("q" + name, r.Prefix);
        Assert.Equal(text, r.GetAttribute(name));
        Assert.Equal(text, r.ReadElementContentAsString());
        Assert.Equal(text, r.ReadElementContentAsString());
    }

    private static void Write(XmlDictionaryWriter w, string name, string text)
    {
        w.WriteStartElement(name);
        w.WriteStartElement("q" + name, name, "urn:" + text);
        w.WriteAttributeString(name, text);
        w.WriteString(text);
        w.WriteEndElement();
        w.WriteElementString(name, text);
        w.WriteEndElement();
    }

    private static string Escape(string s) => string.Concat(s.Select(c => c < 0x80 ? c.ToString() : $"\\u{(int)c:X4}"));
}
