using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    /// <summary>
    /// Elements whose content is one value closing them (.NET's "atomic" values), and an Array record's items, which
    /// .NET's reader presents the same way: three of each, then an element after them.
    /// </summary>
    private static readonly (string Name, Action<XmlDictionaryWriter> Write)[] s_closingValues =
    [
        ("ints", w => Elements(w, 70000, 1, 1234)),
        ("booleans", w => Elements(w, true, false, true)),
        ("doubles", w => Elements(w, 0.1, 1e300, 4.0)),
        ("text", w => Elements(w, "0.1", "true", "70000")),
        ("base64 text", w => Elements(w, "AQID", "BA==", "BQYH")),
        ("an Int32 array", w => w.WriteArray(null, "a", null, [70000, 1, 1234], 0, 3)),
        ("a Boolean array", w => w.WriteArray(null, "a", null, [true, false, true], 0, 3)),
        ("a Double array", w => w.WriteArray(null, "a", null, [0.1, 1e300, 4], 0, 3)),
        ("a TimeSpan array", w => w.WriteArray(null, "a", null, [TimeSpan.FromMinutes(90), TimeSpan.Zero, TimeSpan.FromTicks(1)], 0, 3)),
    ];

    private static void Elements<T>(XmlDictionaryWriter w, params T[] values)
    {
        foreach (T value in values)
        {
            w.WriteStartElement("a");
            if (value is string s) w.WriteString(s);
            else w.WriteValue(value!);
            w.WriteEndElement();
        }
    }

    /// <summary>A read of each item's content (bounded: a reader that never returns 0 fails instead of hanging).</summary>
    private static readonly (string Name, Func<XmlDictionaryReader, string> Read)[] s_itemReads =
    [
        ("ReadElementContentAsBase64()", r => Convert.ToHexString(r.ReadElementContentAsBase64())),
        ("ReadContentAsBase64()", r => { r.ReadStartElement(); return Convert.ToHexString(r.ReadContentAsBase64()); }),
        ("ReadContentAsBase64 of one byte", r => { r.ReadStartElement(); var b = new byte[1]; int n = r.ReadContentAsBase64(b, 0, 1); return $"{n} '{r.Value}'"; }),
        ("ReadContentAsBase64 in twos", r => { r.ReadStartElement(); return Pieces(b => r.ReadContentAsBase64(b, 0, 2)); }),
        ("ReadElementContentAsBase64 in twos", r => Pieces(b => r.ReadElementContentAsBase64(b, 0, 2))),
        ("ReadContentAsBinHex in threes", r => { r.ReadStartElement(); return Pieces(b => r.ReadContentAsBinHex(b, 0, 3)); }),
        ("ReadValueAsBase64 in twos", r => { r.ReadStartElement(); return Pieces(b => r.ReadValueAsBase64(b, 0, 2)); }),
        ("a chunk of three characters", r => { r.ReadStartElement(); var c = new char[3]; int n = r.ReadValueChunk(c, 0, 3); return $"{new string(c, 0, n)} '{r.Value}'"; }),
        ("a chunk of two, then base64", r =>
        {
            r.ReadStartElement();
            var c = new char[2];
            int n = r.ReadValueChunk(c, 0, 2);
            var b = new byte[3];
            int m = r.ReadContentAsBase64(b, 0, 3);
            return $"{new string(c, 0, n)} {Convert.ToHexString(b, 0, m)}";
        }),
    ];

    private static string Pieces(Func<byte[], int> read)
    {
        var buffer = new byte[3];
        return string.Join(" ", Enumerable.Range(0, 20).Select(_ => read(buffer)).TakeWhile(n => n > 0).Select(n => Convert.ToHexString(buffer, 0, n)));
    }

    [Fact]
    public void MoveToContent_after_part_of_a_value_was_read_and_failed_whole_base64_reads_stay_as_in_box()
    {
        // .NET's MoveToContent passes over a text node whose value is white space or empty, which a chunk read to its
        // end leaves, but stops on a node that keeps bytes of a base64 block for the next read; and ReadContentAsBase64()
        // decodes the value of a text node closing its element in place (an Array's item too), so a value that is not
        // base64 fails with the reader still on it. Each read on each item, then MoveToContent, then the rest.
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, Action<XmlDictionaryWriter> write) in s_closingValues)
            {
                byte[] data = RootAround(write);
                foreach ((string readName, Func<XmlDictionaryReader, string> read) in s_itemReads)
                {
                    using XmlDictionaryReader r = Create(factory, data);
                    var nodes = new List<string>();
                    try
                    {
                        r.ReadStartElement("r");
                        for (int i = 0; i < 4 && r.NodeType == XmlNodeType.Element && r.LocalName == "a"; i++)
                        {
                            nodes.Add(read(r));
                            nodes.Add($"on {NodeAndValue(r)}");
                            nodes.Add($"content {r.MoveToContent()}");
                        }
                        for (int i = 0; i < 20 && r.Read(); i++) nodes.Add(NodeAndValue(r));
                    }
                    catch (Exception e) when (IsBadBinaryInput(factory, e))
                    {
                        nodes.Add($"fails on {NodeAndValue(r)}");
                    }
                    log.Add($"{name}, {readName}: {string.Join("; ", nodes)}");
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        // A chunk that takes the whole value leaves an empty text node, which MoveToContent passes over.
        Assert.Contains("doubles, a chunk of three characters: 0.1 ''; on Text  ''; content EndElement;", expected);
        // Bytes of a block kept for the next read hold MoveToContent on the node.
        Assert.Contains("booleans, ReadContentAsBase64 of one byte: 1 ''; on Text  ''; content Text;", expected);
        // A value that is not base64, read whole, fails on its text node (an Array's item alike).
        Assert.Contains("ints, ReadContentAsBase64(): fails on Text  '70000'", expected);
        Assert.Contains("an Int32 array, ReadElementContentAsBase64(): fails on Text  '70000'", expected);
    }

    [Fact]
    public void Reads_after_part_of_a_text_node_was_read_go_on_from_what_is_left_as_in_box()
    {
        // After a partial read of an element's content (characters, base64, the value as base64), each of the reads
        // that go on from the node (a chunk, Value, content as string or object, base64 whole, MoveToContent, Skip…)
        // and then the rest of the document, on content of one and of several text nodes, Bytes, an int and an Array.
        var documents = new (string Name, byte[] Data)[]
        {
            ("text closing", ContentDocument(w => w.WriteString("AQIDBA"))),
            ("two texts", ContentDocument(w => { w.WriteString("AQID"); w.WriteString("BAUG"); })),
            ("text, comment, text", ContentDocument(w => { w.WriteString("AQ"); w.WriteComment("c"); w.WriteString("ID"); })),
            ("white space, text", ContentDocument(w => { w.WriteString(" "); w.WriteString("AQID"); })),
            ("Bytes", ContentDocument(w => w.WriteBase64([1, 2, 3, 4, 5], 0, 5))),
            ("an int", ContentDocument(w => w.WriteValue(70000))),
            ("an Array", RootAround(w => w.WriteArray(null, "e", null, [70000, 1], 0, 2))),
            ("CJK text (UTF-16)", ContentDocument(w => w.WriteString("日本語 日本"))),
            // <r><e>日  </e></r> as a UnicodeChars record (.NET's writer writes such text as UTF-8): white space after
            // its first character.
            ("UTF-16, then white space", [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'e', 0xB6, 0x06, 0xE5, 0x65, 0x20, 0x00, 0x20, 0x00, 0x01, 0x01]),
        };
        var firstReads = new (string Name, Func<XmlDictionaryReader, string> Read)[]
        {
            ("nothing", _ => ""),
            ("a chunk of one", r => { var c = new char[1]; int n = r.ReadValueChunk(c, 0, 1); return new string(c, 0, n); }),
            ("base64 of one byte", r => { var b = new byte[1]; return Convert.ToHexString(b, 0, r.ReadContentAsBase64(b, 0, 1)); }),
            ("base64 of three bytes", r => { var b = new byte[3]; return Convert.ToHexString(b, 0, r.ReadContentAsBase64(b, 0, 3)); }),
            ("the value as base64, two bytes", r => { var b = new byte[2]; return Convert.ToHexString(b, 0, r.ReadValueAsBase64(b, 0, 2)); }),
            ("Value, a chunk of two", r => { string v = r.Value; var c = new char[2]; int n = r.ReadValueChunk(c, 0, 2); return $"{v}/{new string(c, 0, n)}"; }),
        };
        var thenReads = new (string Name, Func<XmlDictionaryReader, string> Read)[]
        {
            ("MoveToContent", r => r.MoveToContent().ToString()),
            ("ReadString", r => r.ReadString()),
            ("ReadContentAsString", r => r.ReadContentAsString()),
            ("ReadContentAsObject", r => r.ReadContentAsObject() is byte[] b ? "bytes " + Convert.ToHexString(b) : r.Value),
            ("Skip", r => { r.Skip(); return ""; }),
            ("IsStartElement", r => r.IsStartElement().ToString()),
            ("ReadContentAsBase64()", r => Convert.ToHexString(r.ReadContentAsBase64())),
            ("the rest in chunks", r => { var c = new char[2]; return string.Join(".", Enumerable.Range(0, 20).Select(_ => r.ReadValueChunk(c, 0, 2)).TakeWhile(n => n > 0).Select(n => new string(c, 0, n))); }),
            ("Value", r => r.Value),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, byte[] data) in documents)
            {
                foreach ((string firstName, Func<XmlDictionaryReader, string> first) in firstReads)
                {
                    foreach ((string thenName, Func<XmlDictionaryReader, string> then) in thenReads)
                    {
                        using XmlDictionaryReader r = Create(factory, data);
                        var nodes = new List<string>();
                        try
                        {
                            r.ReadStartElement("r");
                            r.ReadStartElement("e");
                            nodes.Add(first(r));
                            nodes.Add($"on {NodeAndValue(r)}");
                            nodes.Add(then(r));
                            nodes.Add($"on {NodeAndValue(r)}");
                            for (int i = 0; i < 20 && r.Read(); i++) nodes.Add(NodeAndValue(r));
                        }
                        catch (Exception e) when (IsBadBinaryInput(factory, e))
                        {
                            nodes.Add($"fails on {NodeAndValue(r)}");
                        }
                        log.Add($"{name}, {firstName}, {thenName}: {string.Join("; ", nodes)}");
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        // The rest of an Array's item read whole as base64 is decoded in place.
        Assert.Contains("an Array, a chunk of one, ReadContentAsBase64(): 7; on Text  '0000'; D34D34; on EndElement e '';", expected);
        // Characters after base64 pieces are what the pieces left.
        Assert.Contains("text closing, base64 of one byte, the rest in chunks: 01; on Text  'BA'; BA;", expected);
        Assert.Contains("white space, text, the value as base64, two bytes, the rest in chunks: ; on Text  ''; ; on Text  '';", expected);
        // UTF-16 text read in part: what is left is the value, and white space left is passed over.
        Assert.Contains("CJK text (UTF-16), a chunk of one, Value: 日; on Text  '本語 日本'; 本語 日本;", expected);
        Assert.Contains("UTF-16, then white space, a chunk of one, MoveToContent: 日; on Text  '  '; EndElement; on EndElement e '';", expected);
    }
}
