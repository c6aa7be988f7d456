using System.Text;
using System.Xml;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// <see cref="BinaryXmlReader.ReadElementContentAsInt64"/> and its siblings give what reading the element token by
/// token gives (<c>Read</c>, the value's <c>Get…</c>, <c>Read</c>; text joined for strings; comments passed over), fail where that fails
/// with the same exception, and leave the reader where it leaves it: two readers walk each generated document, one
/// calling ReadElementContentAs… on every start tag (each type in turn), the other reading the element token by token,
/// and every token after is compared.
/// </summary>
public sealed class ElementContentProperties
{
    private const int Types = 11;

    [Fact]
    public void Element_reads_in_one_call_match_the_token_by_token_reads()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            RecordingWriterSession? session = context.CreateWriterSession();
            (byte[] data, Exception? error) = WriterScript.RunInBox(doc.Calls(withFlushes: false), context, session);
            if (error is not null) return;
            Walk(data, context.Dictionary, session?.ToReaderSession(), doc.Root.GetHashCode());
        }), 300);
    }

    /// <summary>
    /// Every fixed-size typed record closing an element, at the edges of each type's range (a UInt64 above
    /// long.MaxValue, a Decimal past a float's range, NaN and infinities to decimal, a Bool payload other than 0 or 1),
    /// read in one call as each type: the value or the exception token by token gives, and the same place after; and
    /// each of them cut short anywhere after the start tag.
    /// </summary>
    [Fact]
    public void Every_typed_record_closing_an_element_reads_in_one_call_as_token_by_token()
    {
        var records = new (RecordType Type, byte[] Payload)[]
        {
            (RecordType.ZeroText, []), (RecordType.OneText, []), (RecordType.FalseText, []), (RecordType.TrueText, []),
            (RecordType.Int8Text, [0x80]), (RecordType.Int8Text, [1]),
            (RecordType.Int16Text, Payload(d => BinaryXmlPrimitives.WriteInt16(d, short.MinValue))),
            (RecordType.Int32Text, Payload(d => BinaryXmlPrimitives.WriteInt32(d, int.MaxValue))),
            (RecordType.Int64Text, Payload(d => BinaryXmlPrimitives.WriteInt64(d, int.MaxValue + 1L))),
            (RecordType.Int64Text, Payload(d => BinaryXmlPrimitives.WriteInt64(d, long.MinValue))),
            (RecordType.UInt64Text, Payload(d => BinaryXmlPrimitives.WriteUInt64(d, 7))),
            (RecordType.UInt64Text, Payload(d => BinaryXmlPrimitives.WriteUInt64(d, ulong.MaxValue))),
            (RecordType.FloatText, Payload(d => BinaryXmlPrimitives.WriteSingle(d, 1.5f))),
            (RecordType.FloatText, Payload(d => BinaryXmlPrimitives.WriteSingle(d, float.NaN))),
            (RecordType.FloatText, Payload(d => BinaryXmlPrimitives.WriteSingle(d, float.NegativeInfinity))),
            (RecordType.DoubleText, Payload(d => BinaryXmlPrimitives.WriteDouble(d, -2.25))),
            (RecordType.DoubleText, Payload(d => BinaryXmlPrimitives.WriteDouble(d, 1e300))),
            (RecordType.DoubleText, Payload(d => BinaryXmlPrimitives.WriteDouble(d, double.NaN))),
            (RecordType.DecimalText, Payload(d => BinaryXmlPrimitives.WriteDecimal(d, 12.5m))),
            (RecordType.DecimalText, Payload(d => BinaryXmlPrimitives.WriteDecimal(d, decimal.MaxValue))),
            (RecordType.DateTimeText, Payload(d => BinaryXmlPrimitives.WriteDateTime(d, new DateTime(2026, 11, 27, 12, 0, 0, DateTimeKind.Utc)))),
            (RecordType.TimeSpanText, Payload(d => BinaryXmlPrimitives.WriteTimeSpan(d, TimeSpan.FromMinutes(-90)))),
            (RecordType.UuidText, Payload(d => BinaryXmlPrimitives.WriteGuid(d, Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e")))),
            (RecordType.UniqueIdText, Payload(d => BinaryXmlPrimitives.WriteGuid(d, Guid.Parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")))),
            (RecordType.BoolText, [1]), (RecordType.BoolText, [0]), (RecordType.BoolText, [2]),
        };
        foreach ((RecordType type, byte[] payload) in records)
        {
            // <a>value</a>, the value's record closing the element.
            byte[] data = [(byte)RecordType.ShortElement, 1, (byte)'a', (byte)((byte)type | 1), .. payload];
            // The walk reads the element as type (seed + 0) % 11: every seed, every type.
            for (int seed = 0; seed < Types; seed++) Walk(data, XmlDictionary.Empty, null, seed);
            // Cut short after the record's type and inside its payload. Each read fails as token by token does
            // (BinaryXmlException, none other; Walk compares the exception types). A start tag that ends the input
            // fails its own Read (ReaderValidationTests).
            for (int end = 4; end < data.Length; end++)
            {
                for (int seed = 0; seed < Types; seed++) Walk(data[..end], XmlDictionary.Empty, null, seed);
            }
        }

        static byte[] Payload(Func<byte[], int> write)
        {
            byte[] buffer = new byte[16];
            return buffer[..write(buffer)];
        }
    }

    private static void Walk(byte[] data, IXmlDictionary dictionary, XmlBinaryReaderSession? session, int seed)
    {
        var oneCall = new BinaryXmlReader(data, dictionary, session);
        var tokens = new BinaryXmlReader(data, dictionary, session);
        int elements = 0;
        try
        {
            while (true)
            {
                bool more = oneCall.Read();
                Assert.Equal(more, tokens.Read());
                AssertSameToken(ref oneCall, ref tokens);
                if (!more) return;
                if (oneCall.TokenType != BinaryXmlTokenType.StartElement || oneCall.IsArray) continue;
                int type = (seed & 0x7FFFFFFF) % Types + elements++;
                (object? expected, Type? expectedError) = Capture(ref tokens, type % Types, oneCall: false);
                (object? actual, Type? actualError) = Capture(ref oneCall, type % Types, oneCall: true);
                Assert.True(expectedError == actualError && Equals(expected, actual), $"element at {tokens.TokenStartIndex}, type {type % Types}: token by token {expectedError?.Name ?? expected}, in one call {actualError?.Name ?? actual}");
                AssertSameToken(ref oneCall, ref tokens);
                // A read that failed on malformed input leaves nothing more to compare.
                if (expectedError == typeof(BinaryXmlException)) return;
            }
        }
        finally
        {
            oneCall.Dispose();
            tokens.Dispose();
        }
    }

    private static (object?, Type?) Capture(ref BinaryXmlReader r, int type, bool oneCall)
    {
        try
        {
            return (oneCall ? ReadInOneCall(ref r, type) : ReadTokenByToken(ref r, type), null);
        }
        catch (Exception e) when (e is InvalidOperationException or FormatException or OverflowException or XmlException)
        {
            return (null, e.GetType());
        }
    }

    private static object ReadInOneCall(ref BinaryXmlReader r, int type) => type switch
    {
        0 => r.ReadElementContentAsString(),
        1 => r.ReadElementContentAsBoolean(),
        2 => r.ReadElementContentAsInt32(),
        3 => r.ReadElementContentAsInt64(),
        4 => r.ReadElementContentAsUInt64(),
        5 => r.ReadElementContentAsSingle(),
        6 => r.ReadElementContentAsDouble(),
        7 => r.ReadElementContentAsDecimal(),
        8 => r.ReadElementContentAsDateTime(),
        9 => r.ReadElementContentAsTimeSpan(),
        _ => r.ReadElementContentAsGuid(),
    };

    private static object Get(ref BinaryXmlReader r, int type) => type switch
    {
        0 => r.GetString(),
        1 => r.GetBoolean(),
        2 => r.GetInt32(),
        3 => r.GetInt64(),
        4 => r.GetUInt64(),
        5 => r.GetSingle(),
        6 => r.GetDouble(),
        7 => r.GetDecimal(),
        8 => r.GetDateTime(),
        9 => r.GetTimeSpan(),
        _ => r.GetGuid(),
    };

    /// <summary>The reference: the element's attributes read and passed, then its content token by token.</summary>
    private static object ReadTokenByToken(ref BinaryXmlReader r, int type)
    {
        r.Read();
        while (r.TokenType is BinaryXmlTokenType.Attribute or BinaryXmlTokenType.NamespaceDeclaration)
        {
            // An attribute whose value is a list: its items and the list's end are tokens of their own.
            if (r.TokenType == BinaryXmlTokenType.Attribute && r.ValueType == RecordType.StartListText)
            {
                while (r.TokenType != BinaryXmlTokenType.EndList) r.Read();
            }
            r.Read();
        }
        // Comments in the content are passed over.
        while (r.TokenType == BinaryXmlTokenType.Comment) r.Read();
        if (r.TokenType == BinaryXmlTokenType.EndElement) return type == 0 ? string.Empty : throw new FormatException("empty");
        if (r.TokenType != BinaryXmlTokenType.Text) throw new InvalidOperationException("not a value");
        object value = Get(ref r, type);
        do r.Read();
        while (r.TokenType == BinaryXmlTokenType.Comment);
        if (type != 0)
        {
            return r.TokenType == BinaryXmlTokenType.EndElement ? value : throw new InvalidOperationException("two values");
        }
        var text = new StringBuilder((string)value);
        while (r.TokenType != BinaryXmlTokenType.EndElement)
        {
            if (r.TokenType != BinaryXmlTokenType.Text) throw new InvalidOperationException("not a value");
            text.Append(r.GetString());
            do r.Read();
            while (r.TokenType == BinaryXmlTokenType.Comment);
        }
        return text.ToString();
    }

    private static void AssertSameToken(ref BinaryXmlReader a, ref BinaryXmlReader b)
    {
        Assert.Equal(b.TokenType, a.TokenType);
        Assert.Equal(b.TokenStartIndex, a.TokenStartIndex);
        Assert.Equal(b.CurrentDepth, a.CurrentDepth);
        Assert.Equal(b.RecordType, a.RecordType);
        Assert.Equal(b.BytesConsumed, a.BytesConsumed);
    }
}
