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
