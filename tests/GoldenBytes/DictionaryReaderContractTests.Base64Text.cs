using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    /// <summary>Contents of <c>a</c> in <c>&lt;r&gt;&lt;a&gt;…&lt;/a&gt;&lt;b&gt;ok&lt;/b&gt;&lt;/r&gt;</c>: base64 text and text that is not, ASCII and not.</summary>
    private static readonly (string Name, Action<XmlDictionaryWriter> Write)[] s_base64TextContents =
    [
        ("ASCII not base64", w => w.WriteString("AQ!D")),
        ("ASCII not base64, more text", w => { w.WriteString("AQ!D"); w.WriteString("AQID"); }),
        ("base64, then not", w => { w.WriteString("AQID"); w.WriteString("A!ID"); }),
        ("non-ASCII", w => w.WriteString("é日x")),
        ("non-ASCII, more text", w => { w.WriteString("é日x"); w.WriteString("AQID"); }),
        ("base64 then é", w => w.WriteString("AQIDé")),
        // Whole blocks of UTF-8 bytes, a block taken straight before the characters: the rest goes on from there.
        ("base64 then é in a block, more text", w => { w.WriteString("AQIDAQé"); w.WriteString("AQID"); }),
        ("base64, é, base64, more text", w => { w.WriteString("AQIDéAQID"); w.WriteString("AQID"); }),
        ("CJK", w => w.WriteString("日本語日本語日本語日本語")),
        ("base64 then CJK, more text", w => { w.WriteString("AQID日本語日本語日本語日本語"); w.WriteString("AQID"); }),
        ("dictionary text with é, more text", w => { w.WriteString(new XmlDictionary().Add("AQIDé")); w.WriteString("AQID"); }),
        ("spaces and é", w => w.WriteString("AQ ID é")),
        // Characters that a best-fit mapping to one byte would turn into base64 (U+016E to 'U', fullwidth letters).
        ("uŮi2", w => w.WriteChars("uŮi2".ToCharArray(), 0, 4)),
        ("fullwidth AQID, more text", w => { w.WriteString("\uFF21\uFF31\uFF29\uFF24"); w.WriteString("AQID"); }),
        ("Ā then base64", w => w.WriteString("ĀQIDAQID")),
        ("a surrogate pair, more text", w => { w.WriteString("AQ\U0001F600ID"); w.WriteString("AQID"); }),
        ("600 characters, then not base64", w => { w.WriteString(new string('A', 600) + "!AAA"); w.WriteString("AQID"); }),
    ];

    private static readonly (string Name, Func<XmlDictionaryReader, string> Read)[] s_base64TextReads =
    [
        ("whole", r => Convert.ToHexString(r.ReadContentAsBase64())),
        ("pieces of 3", r => Pieces(r, 3)),
        ("pieces of 1000", r => Pieces(r, 1000)),
        ("a piece of 3, MoveToContent", r => $"{r.ReadContentAsBase64(new byte[3], 0, 3)} {r.MoveToContent()}"),
        ("two pieces of 3, Value", r =>
        {
            int n = r.ReadContentAsBase64(new byte[3], 0, 3);
            string second = Outcome(() => r.ReadContentAsBase64(new byte[3], 0, 3));
            return $"{n} {second} '{r.Value}'";
        }),
    ];

    /// <summary><c>&lt;r&gt;&lt;a&gt;…&lt;/a&gt;&lt;/r&gt;</c> around what <paramref name="content"/> writes, with <c>&lt;b&gt;ok&lt;/b&gt;</c> after <c>a</c> when <paramref name="withB"/>.</summary>
    private static byte[] ContentOfA(Action<XmlDictionaryWriter> content, bool withB) => InBoxDocument(w =>
    {
        w.WriteStartElement("r");
        w.WriteStartElement("a");
        content(w);
        w.WriteEndElement();
        if (withB) w.WriteElementString("b", "ok");
        w.WriteEndElement();
    });

    private static string Pieces(XmlDictionaryReader r, int size)
    {
        var log = new StringBuilder();
        byte[] piece = new byte[size];
        int n;
        while ((n = r.ReadContentAsBase64(piece, 0, size)) > 0) log.Append(Convert.ToHexString(piece, 0, n)).Append('|');
        return log.ToString();
    }

    private static string Outcome(Func<int> read)
    {
        try
        {
            return read().ToString();
        }
        catch (XmlException)
        {
            return "fails";
        }
    }

    [Fact]
    public void Base64_content_of_non_ASCII_text_is_read_by_characters_as_in_box()
    {
        // .NET's reader reads base64 content as characters: a read fills its blocks with the content's characters
        // (across text nodes) and then decodes them, so a character that is not base64 fails the read where the
        // characters before it have been taken. Ours took UTF-8 text from the input byte by byte: a non-ASCII
        // character took two to four places in a block, and what was left of the node (its Value) began inside it
        // (U+FFFD). The bytes and the failures, and where the reader is after them, are compared.
        foreach ((string content, Action<XmlDictionaryWriter> write) in s_base64TextContents)
        {
            byte[] doc = ContentOfA(write, withB: true);
            foreach ((string readName, Func<XmlDictionaryReader, string> read) in s_base64TextReads)
            {
                string Run(string factory)
                {
                    using XmlDictionaryReader r = Create(factory, doc);
                    r.Read(); r.Read(); r.Read();
                    var log = new StringBuilder($"{content}, {readName}: ");
                    try
                    {
                        log.Append(read(r));
                    }
                    catch (XmlException)
                    {
                        log.Append("fails");
                    }
                    log.Append($"; on {r.NodeType} {r.Name} '{r.Value}'");
                    while (r.Read()) log.Append($"; {r.NodeType} {r.Name}");
                    return log.ToString();
                }
                AlikeInBox(Run);
            }
        }
    }

    [Theory]
    [InlineData("98 00 9E 03 09 0A 0B", "an empty Chars record, then Bytes")]
    [InlineData("98 00 98 00 9E 03 09 0A 0B", "two empty Chars records, then Bytes")]
    [InlineData("98 00 02 01 63 9E 03 09 0A 0B", "an empty Chars record, a comment, then Bytes")]
    [InlineData("98 01 20 9E 03 09 0A 0B", "a space, then Bytes")]
    [InlineData("B6 00 9E 03 09 0A 0B", "an empty UnicodeChars record, then Bytes")]
    [InlineData("A8 9E 03 09 0A 0B", "EmptyText, then Bytes")]
    [InlineData("98 04 41 41 41 41 9E 03 09 0A 0B", "one base64 block, then Bytes")]
    [InlineData("98 00 9E 03 09 0A 0B 9E 02 01 02", "an empty Chars record, then two Bytes records")]
    public void A_read_in_pieces_that_begins_on_text_with_nothing_left_takes_the_Bytes_after_it_as_in_box(string content, string what)
    {
        // .NET's reader takes UTF-8 text of whole base64 blocks as bytes directly, for a piece of three bytes or more:
        // text with nothing left (an empty Chars record) gives none, and the read goes on to the next node deciding
        // again, so that a Bytes record after it is taken as its bytes (what is left of it counted in bytes), not as
        // its base64 characters. Text of other kinds, a space, or a comment on the way make the read one of
        // characters (the whole record counted). Found by fuzzing (adapter seed 994). Pieces of 5 and of 2 bytes.
        byte[] doc = Hex.Parse($"40 01 61 {content} 01");
        foreach (int size in new[] { 5, 2 })
        {
            AlikeInBox(factory => ContentInPieces(factory, doc, $"{what}, pieces of {size}: ", size, askValue: false));
        }
    }

    /// <summary>
    /// The content of <paramref name="doc"/>'s root element read with <c>ReadContentAsBase64</c> in pieces of
    /// <paramref name="size"/> bytes: each piece, the node it leaves the reader on, the length left (and, with
    /// <paramref name="askValue"/>, Value); then where the reader ends, or "fails".
    /// </summary>
    private static string ContentInPieces(string factory, byte[] doc, string label, int size, bool askValue)
    {
        using XmlDictionaryReader r = Create(factory, doc);
        r.Read(); r.Read();
        var log = new StringBuilder(label);
        byte[] piece = new byte[size];
        try
        {
            int n;
            while ((n = r.ReadContentAsBase64(piece, 0, size)) > 0)
            {
                log.Append($"{Convert.ToHexString(piece, 0, n)} on {r.NodeType}, left {r.TryGetBase64ContentLength(out int left)} {left}");
                log.Append(askValue ? $" '{r.Value}'; " : "; ");
            }
        }
        catch (XmlException)
        {
            log.Append("fails");
        }
        log.Append($"then {r.NodeType} {r.Name}");
        return log.ToString();
    }

    [Theory]
    [InlineData("9E 00 02 03 06 07 08 9E 01 09", "an empty Bytes record, a comment, then Bytes")]
    [InlineData("9E 00 02 01 63 02 01 64 9E 02 09 08 9E 01 09", "an empty Bytes record, two comments, then two Bytes records")]
    [InlineData("9E 00 02 01 63 98 04 41 41 41 41", "an empty Bytes record, a comment, then base64 text")]
    [InlineData("9E 02 01 02 02 01 63 9E 03 09 0A 0B", "Bytes, a comment, then Bytes")]
    [InlineData("9E 00 9E 03 09 0A 0B", "an empty Bytes record, then Bytes")]
    [InlineData("9E 00 9E 00 9E 03 09 0A 0B", "two empty Bytes records, then Bytes")]
    [InlineData("9E 01 07 9E 03 09 0A 0B", "Bytes, then Bytes")]
    [InlineData("9E 05 01 02 03 04 05", "one Bytes record of five bytes")]
    public void A_read_in_pieces_of_Bytes_goes_on_in_characters_past_a_comment_or_once_Value_was_asked_as_in_box(string content, string what)
    {
        // .NET's reader takes a call's bytes straight from Bytes records (each used up in turn) until it meets a node
        // that gives none: a comment makes the rest of the call one of characters, so that a Bytes record after it is
        // taken through its base64 text. So does Value asked for before the call. The length left
        // (TryGetBase64ContentLength) counts only the bytes taken straight from the record. Found by fuzzing (adapter
        // seed 1078: an empty Bytes record, a comment, then Bytes). Pieces of 5 and of 2 bytes, Value asked after
        // each piece or not.
        byte[] doc = Hex.Parse($"40 01 61 {content} 01");
        foreach (int size in new[] { 5, 2 })
        foreach (bool askValue in new[] { false, true })
        {
            AlikeInBox(factory => ContentInPieces(factory, doc, $"{what}, pieces of {size}, Value asked {askValue}: ", size, askValue));
        }
    }

    [Theory]
    [InlineData("98 00", "an empty Chars record")]
    [InlineData("98 00 98 00", "two empty Chars records")]
    [InlineData("98 04 20 20 20 20", "four spaces")]
    [InlineData("98 01 0A", "a line feed")]
    [InlineData("A8", "EmptyText")]
    public void Base64_read_in_pieces_on_text_after_the_root_element_ends_with_the_document_as_in_box(string after, string what)
    {
        // White space after the root element, read as base64 (content, and the node's value): no bytes, and the
        // content read runs to the end of the input, where there is no next node to move to.
        byte[] doc = Hex.Parse($"40 01 61 01 {after}");
        foreach (int size in new[] { 1, 2, 3, 5, 7, 100 })
        foreach (bool value in new[] { false, true })
        {
            AlikeInBox(factory =>
            {
                using XmlDictionaryReader r = Create(factory, doc);
                r.Read(); r.Read(); r.Read();
                var log = new StringBuilder($"{what}, pieces of {size}, {(value ? "value" : "content")}: on {r.NodeType}: ");
                byte[] piece = new byte[size];
                int n;
                while ((n = value ? r.ReadValueAsBase64(piece, 0, size) : r.ReadContentAsBase64(piece, 0, size)) > 0) log.Append(n).Append(',');
                return log.Append($" then {r.NodeType} {r.ReadState}").ToString();
            });
        }
    }

    [Theory]
    [InlineData("40 01 61 04 01 78 98 08 41 51 3D 3D 41 51 49 44 01", "an attribute")]
    [InlineData("40 01 61 04 01 78 98 09 41 51 3D 3D 20 41 51 49 44 01", "an attribute with a space")]
    [InlineData("40 01 61 99 08 41 51 3D 3D 41 51 49 44", "text closing its element")]
    [InlineData("40 01 61 98 09 41 51 3D 3D 20 41 51 49 44 01", "text with a space")]
    [InlineData("40 01 61 98 04 41 51 3D 3D 98 04 41 51 49 44 01", "two text records")]
    public void Base64_with_a_padded_block_before_the_last_decodes_block_by_block_as_in_box(string hex, string what)
    {
        // .NET's reader decodes base64 block by block (its Base64Encoding): "AQ==AQID" is 01 then 01 02 03, where the
        // platform's decoders take padding only at the end. Found by a sweep against the in-box reader: read whole or
        // in pieces, from an attribute or from content, ours failed. Whole, and in pieces of 1, 7 and 100 bytes.
        byte[] doc = Hex.Parse(hex);
        foreach (int size in new[] { 0, 1, 7, 100 })
        foreach (bool value in new[] { false, true })
        {
            AlikeInBox(factory =>
            {
                using XmlDictionaryReader r = Create(factory, doc);
                r.Read();
                if (!r.MoveToFirstAttribute()) r.Read();
                var log = new StringBuilder($"{what}, {(size == 0 ? "whole" : $"pieces of {size}")}, {(value ? "value" : "content")}: ");
                try
                {
                    if (size == 0)
                    {
                        log.Append(Convert.ToHexString(r.ReadContentAsBase64())).Append("; ");
                    }
                    else
                    {
                        byte[] piece = new byte[size];
                        int n;
                        while ((n = value ? r.ReadValueAsBase64(piece, 0, size) : r.ReadContentAsBase64(piece, 0, size)) > 0)
                            log.Append(Convert.ToHexString(piece, 0, n)).Append("; ");
                    }
                }
                catch (XmlException)
                {
                    log.Append("fails; ");
                }
                return log.Append($"then {r.NodeType} {r.Name}").ToString();
            });
        }
    }

    [Theory]
    [InlineData("40 01 61 98 06 41 51 21 44 41 51 98 02 49 44 01", "'AQ!DAQ' then 'ID'")]
    [InlineData("40 01 61 98 06 41 51 21 44 41 51 01", "'AQ!DAQ'")]
    [InlineData("40 01 61 98 03 41 3D 3D 98 02 C3 A9 9F 01 09", "'A==', 'é', then Bytes closing")]
    [InlineData("40 01 61 98 03 41 21 44 9E 00 98 02 C3 A9 9E 05 01 02 03 04 05 01", "'A!D', empty Bytes, 'é', then Bytes")]
    [InlineData("40 01 61 86 98 03 41 21 44 98 02 C3 A9 9E 03 09 0A 0B 01", "true, 'A!D', 'é', then Bytes")]
    [InlineData("40 01 61 98 04 C3 A9 41 51 98 04 41 51 49 44 01", "'éAQ' then 'AQID'")]
    [InlineData("40 01 61 04 01 78 98 06 41 51 21 44 41 51 98 04 41 51 49 44 01", "an attribute 'AQ!DAQ', then 'AQID'")]
    [InlineData("40 01 61 04 01 78 98 04 C3 A9 41 51 98 02 49 44 01", "an attribute 'éAQ', then 'ID'")]
    [InlineData("40 01 61 09 01 66 02 6E 73 BC 05 0A 9E 01 09 01", "a qualified name from the dictionary, then Bytes")]
    [InlineData("40 01 61 09 01 66 02 6E 73 BC 05 01 9E 01 09 01", "a qualified name from the session, then Bytes")]
    [InlineData("BC 05 01", "a qualified name from the session, the document's first record")]
    [InlineData("40 01 61 AA 0A 9E 01 09 01", "a dictionary string, then Bytes")]
    [InlineData("40 01 61 B6 04 E9 00 41 00 9E 01 09 01", "UTF-16 'éA', then Bytes")]
    public void Binary_reads_go_on_after_one_that_failed_as_in_box(string hex, string what)
    {
        // .NET's reader keeps what a read that fails leaves (the characters of a block begun, an element's read under
        // way, a node's characters used up as its UTF-8 record's rest, which the next read takes straight) and the
        // next read goes on from there. Ours forgot the block begun, failed again at the element's content, or read a
        // Bytes record after text used up through its characters. Found by a sweep against the in-box reader that
        // reads on after a failure: 3,841 of 20,000 documents before, none after; the text of other records, whose
        // rest is not a UTF-8 record's, by fuzzing (adapter seeds 1092 and 1093: a qualified name's text taken for
        // its record's rest). Each read kind in pieces of 1 (not BinHex), 3, 6 and 100 bytes, four calls at most, the
        // length left after each, on a new reader and on one reused.
        byte[] doc = Hex.Parse(hex);
        var dictionary = new XmlDictionary();
        foreach (string s in new[] { "a", "b", "c", "d", "e", "AQID" }) dictionary.Add(s);
        string[] kinds = ["content", "value", "element", "element BinHex", "BinHex"];
        // A reader reused (SetInput) after reading a long text node too, so that what it kept of that node is not
        // taken for the next document's (adapter seed 1092: a qualified name's text as the rest of the text before).
        byte[] before = Hex.Parse("40 01 62 98 20 " + string.Concat(Enumerable.Repeat("41 ", 32)) + "01");
        foreach (string kind in kinds)
        foreach (int size in new[] { 1, 3, 6, 100 })
        foreach (bool reused in new[] { false, true })
        {
            // (In-box's BinHex read of one byte fails with an ArgumentOutOfRangeException of its own.)
            if (size == 1 && kind.EndsWith("BinHex", StringComparison.Ordinal)) continue;
            AlikeInBox(factory =>
            {
                var session = new XmlBinaryReaderSession();
                session.Add(0, "AQIDAQIDAQID");
                using XmlDictionaryReader r = Create(factory, reused ? before : doc, dictionary, session: session);
                if (reused)
                {
                    r.Read();
                    r.Read();
                    _ = r.Value;
                    ((IXmlBinaryReaderInitializer)r).SetInput(doc, 0, doc.Length, dictionary, XmlDictionaryReaderQuotas.Max, session, null);
                }
                r.Read();
                if (r.NodeType == XmlNodeType.Element && !kind.StartsWith("element", StringComparison.Ordinal) && !r.MoveToFirstAttribute()) r.Read();
                var log = new StringBuilder($"{what}, {kind}, pieces of {size}{(reused ? ", reused" : "")}: ");
                byte[] piece = new byte[size];
                for (int call = 0; call < 4; call++)
                {
                    try
                    {
                        int n = kind switch
                        {
                            "value" => r.ReadValueAsBase64(piece, 0, size),
                            "element" => r.ReadElementContentAsBase64(piece, 0, size),
                            "element BinHex" => r.ReadElementContentAsBinHex(piece, 0, size),
                            "BinHex" => r.ReadContentAsBinHex(piece, 0, size),
                            _ => r.ReadContentAsBase64(piece, 0, size),
                        };
                        log.Append(Convert.ToHexString(piece, 0, n));
                    }
                    catch (XmlException)
                    {
                        log.Append("fails");
                    }
                    log.Append($" on {r.NodeType} {r.Name}, left {r.TryGetBase64ContentLength(out int left)} {left}; ");
                    if (r.ReadState != ReadState.Interactive) break;
                }
                return log.ToString();
            });
        }
    }

    [Fact]
    public void ReadValueAsBase64_after_value_chunks_reads_on_from_what_is_left_as_in_box()
    {
        // After part of a text node was read as characters, ReadValueAsBase64 decodes what is left of its value and
        // uses it up, as ReadContentAsBase64 does (found by random walks: ours decoded the right bytes from the pieces
        // but left Value as it was).
        foreach (string text in new[] { "AQIDAQID", "text", "AQIDAQIDAQ==" })
        {
            byte[] doc = InBoxDocument(w =>
            {
                w.WriteStartElement("r");
                w.WriteString(text);
                w.WriteComment("c");
                w.WriteEndElement();
            });
            foreach (int chunk in new[] { 0, 1, 4 })
            foreach (int size in new[] { 3, 4, 10 })
            {
                string log = AlikeInBox(factory =>
                {
                    using XmlDictionaryReader r = Create(factory, doc);
                    r.Read();
                    r.Read();
                    var steps = new StringBuilder($"{text}, a chunk of {chunk}, pieces of {size}: ");
                    if (chunk > 0)
                    {
                        char[] c = new char[chunk];
                        steps.Append(c, 0, r.ReadValueChunk(c, 0, chunk)).Append('/');
                    }
                    byte[] piece = new byte[size];
                    steps.Append(Outcome(() =>
                    {
                        int n, total = 0;
                        while ((n = r.ReadValueAsBase64(piece, 0, size)) > 0) total += n;
                        return total;
                    }));
                    return steps.Append($" on {r.NodeType} '{r.Value}'").ToString();
                });
                Assert.EndsWith("on Text ''", log);
            }
        }
    }
}
