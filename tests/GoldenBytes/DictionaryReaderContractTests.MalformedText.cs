using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    /// <summary>Text of a Chars record, and the characters before its first malformed sequence (null: well-formed).</summary>
    private static readonly (string Name, byte[] Utf8, string? ValidPrefix)[] s_charsTexts =
    [
        ("0xFF inside", [.. "abcdef"u8, 0xFF, .. "ghij"u8], "abcdef"),
        ("0xFF first", [0xFF, .. "abc"u8], ""),
        ("truncated at the end", [.. "abcd"u8, 0xE6, 0x97], "abcd"),
        ("encoded surrogate", [.. "ab"u8, 0xED, 0xA0, 0x80, .. "cd"u8], "ab"),
        ("overlong", [.. "a"u8, 0xC0, 0xAF], "a"),
        ("0xFF after non-ASCII", [.. "é日"u8, 0xFF, .. "x"u8], "é日"),
        ("0xFF after a pair", [.. "a\U0001F600"u8, 0xFF], "a\U0001F600"),
        ("0xFF after 300 bytes", [.. Encoding.UTF8.GetBytes(new string('é', 150)), 0xFF, .. "z"u8], new string('é', 150)),
        // (Well-formed text with a surrogate pair differs in one-character chunks, pinned elsewhere: .NET's reader stops at it.)
        ("well-formed", "é日xyz"u8.ToArray(), null),
        ("well-formed, 6,000 bytes", Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("aé日x", 600))), null),
    ];

    /// <summary>Reads of a text node (the reader on it), each logging what it returns.</summary>
    private static readonly (string Name, bool Decodes, Func<XmlDictionaryReader, StringBuilder, string> Read)[] s_textNodeReads =
    [
        ("Value", true, (r, _) => r.Value),
        ("chunks of 1", true, (r, got) => Chunks(r, got, 1)),
        ("chunks of 3", true, (r, got) => Chunks(r, got, 3)),
        ("chunks of 4096", true, (r, got) => Chunks(r, got, 4096)),
        ("a chunk of 3, then Value", true, (r, got) => { Chunks(r, got, 3, 1); return got + "/" + r.Value; }),
        ("ReadContentAsString", true, (r, _) => r.ReadContentAsString()),
        ("ReadContentAsBase64", true, (r, _) => Convert.ToHexString(r.ReadContentAsBase64())),
        ("Read", false, (r, _) => r.Read() + " " + r.NodeType),
        ("MoveToContent, Read", false, (r, _) => r.MoveToContent() + " " + r.Read()),
    ];

    private static string Chunks(XmlDictionaryReader r, StringBuilder got, int size, int most = int.MaxValue)
    {
        var chunk = new char[size];
        int n;
        for (int i = 0; i < most && (n = r.ReadValueChunk(chunk, 0, size)) > 0; i++) got.Append(chunk, 0, n);
        return got.ToString();
    }

    public static TheoryData<string> CharsTexts() => new(s_charsTexts.Select(t => t.Name));

    [Theory]
    [MemberData(nameof(CharsTexts))]
    public void Malformed_UTF8_text_fails_where_it_is_decoded_and_where_it_is_passed(string name)
    {
        // The drop-in reader leaves the UTF-8 check of content text to its first decoding (one pass, where checking at
        // Read and then decoding took two), or, for text passed over, to the next Read. Decoded, malformed text fails as
        // in .NET's reader, on the text node (ours: a BinaryXmlException naming the payload's offset); value chunks
        // return the characters before the malformed sequence first (.NET's returns those or fewer). Passed over, it
        // fails at the next Read, where .NET's reader reads on: a malformed document is never read to its end.
        (_, byte[] text, string? validPrefix) = s_charsTexts.Single(t => t.Name == name);
        foreach (bool closing in new[] { true, false })
        {
            // <r><a>text</a><b>ok</b></r>, the text a Chars8Text or Chars16Text record, closing a or before its end tag.
            bool wide = text.Length > 255;
            byte[] length = wide ? BitConverter.GetBytes((ushort)text.Length) : [(byte)text.Length];
            byte type = (byte)((wide ? 0x9A : 0x98) | (closing ? 1 : 0));
            byte[] doc = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', type, .. length, .. text, .. (closing ? [] : new byte[] { 0x01 }),
                0x40, 0x01, (byte)'b', 0x99, 0x02, (byte)'o', (byte)'k', 0x01];
            int payloadOffset = 7 + length.Length;
            foreach ((string readName, bool decodes, Func<XmlDictionaryReader, StringBuilder, string> read) in s_textNodeReads)
            {
                string what = $"{name}, {(closing ? "closing" : "before the end tag")}, {readName}";
                if (validPrefix is null)
                {
                    // Well-formed: as in-box, to the end of the document.
                    AlikeInBox(factory => RunOnText(Create(factory, doc), read));
                    continue;
                }
                using XmlDictionaryReader inBox = Create("in-box", doc), ours = Create("BinaryXml", doc);
                var inBoxGot = new StringBuilder();
                var oursGot = new StringBuilder();
                inBox.Read(); inBox.Read(); inBox.Read();
                ours.Read(); ours.Read(); ours.Read();
                Exception? inBoxError = Record.Exception(() => read(inBox, inBoxGot));
                Exception? error = Record.Exception(() => read(ours, oursGot));
                if (decodes)
                {
                    // (.NET's reader stops at a surrogate pair it cannot fit in a one-character chunk, before the fault.)
                    Assert.True(inBoxError is not null || (readName == "chunks of 1" && validPrefix.Any(char.IsSurrogate)), $"{what}: in-box reads the text");
                    BinaryXmlException failure = Assert.IsType<BinaryXmlException>(error);
                    Assert.True(failure.Offset == payloadOffset && failure.Message.Contains("invalid UTF-8"), $"{what}: {failure.Message}");
                    // Characters before the failure: those before the malformed sequence, in-box's a prefix of them.
                    Assert.True(oursGot.ToString() == (readName.Contains("chunk") ? validPrefix[..Math.Min(validPrefix.Length, readName.Contains("then") ? 3 : int.MaxValue)] : ""), $"{what}: ours returned '{oursGot}'");
                    Assert.StartsWith(inBoxGot.ToString(), oursGot.ToString());
                    // Still on the text node, as in-box; the node fails again when read, and so does passing it.
                    Assert.Equal((ReadState.Interactive, XmlNodeType.Text), (ours.ReadState, ours.NodeType));
                    Assert.Equal((inBox.ReadState, inBox.NodeType), (ours.ReadState, ours.NodeType));
                    Assert.Throws<BinaryXmlException>(() => ours.Value);
                }
                else
                {
                    // Passing over the text (never decoded) fails at the Read that leaves it.
                    Assert.Null(inBoxError);
                    BinaryXmlException failure = Assert.IsType<BinaryXmlException>(error);
                    Assert.True(failure.Offset == payloadOffset && failure.Message.Contains("invalid UTF-8"), $"{what}: {failure.Message}");
                }
                Assert.Equal(payloadOffset, Assert.Throws<BinaryXmlException>(() => { while (ours.Read()) { } }).Offset);
                Assert.Equal(ReadState.Error, ours.ReadState);
            }
        }
    }

    /// <summary>Reads to the text node, reads it, then the rest of the document: the log of all of it.</summary>
    private static string RunOnText(XmlDictionaryReader r, Func<XmlDictionaryReader, StringBuilder, string> read)
    {
        using (r)
        {
            r.Read(); r.Read(); r.Read();
            var got = new StringBuilder();
            string result;
            try
            {
                result = read(r, got);
            }
            catch (XmlException e)
            {
                result = "fails: " + e.GetType().Name.Replace("BinaryXmlException", "XmlException");
            }
            var log = new StringBuilder($"{result} [{got}]; {r.NodeType} {r.Name}");
            while (r.Read()) log.Append($"; {r.NodeType} {r.Name} {r.Value}");
            return log.ToString();
        }
    }
}
