using System.Buffers;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// <see cref="BinaryXmlReader.ReadElementContentAsInt64"/> and its siblings where token-by-token reading has no
/// counterpart (the differential property in RoundTrip covers the rest): the tokens they refuse to start from, empty
/// elements, and malformed input, which fails as <see cref="BinaryXmlReader.Read"/> fails.
/// </summary>
public sealed class ElementContentTests
{
    private static byte[] Write(Action<BinaryXmlWriter> calls)
    {
        var output = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(output);
        calls(w);
        w.Flush();
        return output.WrittenSpan.ToArray();
    }

    [Fact]
    public void Only_a_start_tag_other_than_an_array_is_read_from()
    {
        byte[] data = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteArray(null, "a", null, (ReadOnlySpan<int>)[1, 2]);
            w.WriteElementValue("v", 5);
            w.WriteEndElement();
        });
        var r = new BinaryXmlReader(data);
        try
        {
            Assert.Equal("not on a token", Refused(ref r));
            r.Read();
            r.Read();
            Assert.True(r.IsArray);
            Assert.Equal("on an array", Refused(ref r));
            r.Read();
            Assert.Equal(BinaryXmlTokenType.ArrayData, r.TokenType);
            Assert.Equal("on array data", Refused(ref r));
            // An array has no EndElement token: its element ends with its data.
            r.Read();
            Assert.Equal(BinaryXmlTokenType.StartElement, r.TokenType);
            Assert.Equal(5, r.ReadElementContentAsInt32());
            Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
            Assert.Equal("on an end tag", Refused(ref r));
            Assert.True(r.Read());
            Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
            Assert.Equal(0, r.CurrentDepth);
            Assert.False(r.Read());
        }
        finally
        {
            r.Dispose();
        }

        static string Refused(ref BinaryXmlReader r)
        {
            BinaryXmlTokenType before = r.TokenType;
            int at = r.BytesConsumed;
            try
            {
                r.ReadElementContentAsInt64();
                return "read";
            }
            catch (InvalidOperationException)
            {
                Assert.Equal(before, r.TokenType);
                Assert.Equal(at, r.BytesConsumed);
                return before switch
                {
                    BinaryXmlTokenType.None => "not on a token",
                    BinaryXmlTokenType.StartElement => "on an array",
                    BinaryXmlTokenType.ArrayData => "on array data",
                    _ => "on an end tag",
                };
            }
        }
    }

    [Fact]
    public void An_empty_element_is_the_empty_string_and_no_number()
    {
        byte[] data = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartElement("e");
            w.WriteAttributeString("x", "1");
            w.WriteEndElement();
            w.WriteStartElement("e");
            w.WriteEndElement();
            w.WriteEndElement();
        });
        var r = new BinaryXmlReader(data);
        try
        {
            r.Read();
            r.Read();
            Assert.Equal(string.Empty, r.ReadElementContentAsString());
            Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
            r.Read();
            Assert.Throws<FormatException>(() => ReadInt(data, 2));
        }
        finally
        {
            r.Dispose();
        }

        static long ReadInt(byte[] data, int element)
        {
            var r = new BinaryXmlReader(data);
            try
            {
                int seen = 0;
                while (r.Read())
                {
                    if (r.TokenType == BinaryXmlTokenType.StartElement && seen++ == element) return r.ReadElementContentAsInt64();
                }
                return -1;
            }
            finally
            {
                r.Dispose();
            }
        }
    }

    [Fact]
    public void Text_in_several_records_is_joined()
    {
        byte[] data = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteString("ab");
            w.WriteValue(12);
            w.WriteString(new string('c', 300));
            w.WriteEndElement();
        });
        var r = new BinaryXmlReader(data);
        try
        {
            r.Read();
            Assert.Equal("ab12" + new string('c', 300), r.ReadElementContentAsString());
            Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
            Assert.False(r.Read());
        }
        finally
        {
            r.Dispose();
        }
    }

    /// <summary>
    /// Plain number text closing its element is read in one step, but only within MaxStringContentLength: a number of
    /// 8,193 digits fails as reading it token by token fails (its Text token is over the quota), at the same offset.
    /// </summary>
    [Fact]
    public void Plain_text_over_the_string_quota_fails_as_token_by_token()
    {
        byte[] data = Write(w => w.WriteElementString("n", new string('0', 8192) + "7"));
        string expected = Outcome(data, -1);
        Assert.StartsWith("BinaryXmlException", expected);
        for (int kind = 0; kind < 3; kind++) Assert.Equal(expected, Outcome(data, kind));
        // Within the quota (8,192 characters), the same number is read.
        Assert.Equal("7", Outcome(Write(w => w.WriteElementString("n", new string('0', 8191) + "7")), 0));

        // The element read token by token (-1), or in one call as long, double or decimal.
        static string Outcome(byte[] data, int kind)
        {
            var r = new BinaryXmlReader(data);
            try
            {
                r.Read();
                object value = kind switch
                {
                    -1 => r.Read(),
                    0 => r.ReadElementContentAsInt64(),
                    1 => r.ReadElementContentAsDouble(),
                    _ => r.ReadElementContentAsDecimal(),
                };
                return Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture)!;
            }
            catch (BinaryXmlException e)
            {
                return "BinaryXmlException " + e.Message;
            }
            finally
            {
                r.Dispose();
            }
        }
    }

    [Fact]
    public void Comments_in_the_content_are_passed_over()
    {
        byte[] data = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartElement("n");
            w.WriteComment("before");
            w.WriteValue(7);
            w.WriteComment("after");
            w.WriteEndElement();
            w.WriteStartElement("s");
            w.WriteString("a");
            w.WriteComment("between");
            w.WriteString("b");
            w.WriteEndElement();
            w.WriteStartElement("e");
            w.WriteComment("only");
            w.WriteEndElement();
            w.WriteEndElement();
        });
        var r = new BinaryXmlReader(data);
        try
        {
            r.Read();
            r.Read();
            Assert.Equal(7, r.ReadElementContentAsInt32());
            r.Read();
            Assert.Equal("ab", r.ReadElementContentAsString());
            r.Read();
            Assert.Equal(string.Empty, r.ReadElementContentAsString());
            Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
            Assert.True(r.Read());
            Assert.Equal(0, r.CurrentDepth);
            Assert.False(r.Read());
        }
        finally
        {
            r.Dispose();
        }
    }

    public static TheoryData<string, int> Malformed() => new()
    {
        // <r><a>Int32TextWithEndElement with 2 of its 4 bytes: truncated where the typed record starts.
        { "40 01 72 40 01 61 8D 01 02", 6 },
        // Chars8TextWithEndElement whose length runs past the input.
        { "40 01 72 40 01 61 99 05 61 62", 6 },
        // Invalid UTF-8 in a Chars8Text closing the element: found as it is decoded.
        { "40 01 72 40 01 61 99 02 C3 28 01", 8 },
    };

    [Theory]
    [MemberData(nameof(Malformed))]
    public void Malformed_content_fails_where_Read_fails(string hex, int offset)
    {
        byte[] data = Hex.Parse(hex);
        Assert.Equal(offset, Assert.Throws<BinaryXmlException>(() => Read(data, ReadString)).Offset);
        Assert.Equal(offset, Assert.Throws<BinaryXmlException>(() => Read(data, ReadInt64)).Offset);
        // Read, GetString and Read: the same failure at the same offset.
        Assert.Equal(offset, Assert.Throws<BinaryXmlException>(() => Read(data, ReadTokens)).Offset);

        static object ReadString(ref BinaryXmlReader r) => r.Read() && r.Read() ? r.ReadElementContentAsString() : "";
        static object ReadInt64(ref BinaryXmlReader r) => r.Read() && r.Read() ? r.ReadElementContentAsInt64() : 0L;
        static object ReadTokens(ref BinaryXmlReader r)
        {
            int n = 0;
            while (r.Read())
            {
                if (r.TokenType == BinaryXmlTokenType.Text) n += r.GetString().Length;
            }
            return n;
        }
    }

    private delegate object ReaderCall(ref BinaryXmlReader reader);

    private static object Read(byte[] data, ReaderCall call)
    {
        var r = new BinaryXmlReader(data);
        try
        {
            return call(ref r);
        }
        finally
        {
            r.Dispose();
        }
    }
}
