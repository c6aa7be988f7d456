using System.Xml;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Random documents written by <see cref="BinaryXmlWriter"/> and read back by <see cref="BinaryXmlReader"/> give the
/// same document: names and namespaces, attributes, every typed value (read with its own type), lists, arrays and
/// comments. The only documented losses are .NET's: −0 is written as 0, and text "0"/"1" comes back as numbers
/// (whose text is still "0"/"1").
/// </summary>
public sealed class RoundTripProperties
{
    [Fact]
    public void Documents_round_trip_through_our_writer_and_reader()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            RecordingWriterSession? session = context.CreateWriterSession();
            (byte[] bytes, Exception? error) = WriterScript.RunNative(doc.Calls(withFlushes: false), context, session);
            Assert.Null(error);
            var reader = new BinaryXmlReader(bytes, context.Dictionary, session?.ToReaderSession(), new BinaryXmlReaderOptions { MaxDepth = 64 });
            try
            {
                Assert.True(reader.Read());
                VerifyElement(ref reader, doc.Root, context);
                Assert.False(reader.Read());
            }
            finally
            {
                reader.Dispose();
            }
        }), 1000);
    }

    /// <summary>
    /// Found by this property (seed 20261123 at ten times the tests): the 1–2 bytes a base64 call holds back are not
    /// written by an empty string; they join the next base64 call's record, in .NET's writer and in ours.
    /// </summary>
    [Fact]
    public void Empty_text_between_base64_calls_does_not_end_the_base64_stream()
    {
        List<Call> script = WriterScript.Parse("StartElement(null, \"a\", null); Base64(hex:0102030405); String(\"\"); Base64(hex:06070809); EndElement()");
        var context = new ScriptContext();
        (byte[] inBox, Exception? e1) = WriterScript.RunInBox(script, context);
        (byte[] ours, Exception? e2) = WriterScript.RunNative(script, context);
        Assert.Null(e1);
        Assert.Null(e2);
        // ShortElement "a"; Bytes8Text of 01 02 03; Bytes8TextWithEndElement of 04 05 (held back) and 06 07 08 09.
        Assert.Equal("4001619E030102039F06040506070809", Convert.ToHexString(inBox));
        Assert.Equal(Convert.ToHexString(inBox), Convert.ToHexString(ours));
    }

    private static string Text(object name) => name is DictRef d ? d.Value : (string)name;

    private static void VerifyElement(ref BinaryXmlReader r, Elem e, ScriptContext context)
    {
        Assert.Equal(BinaryXmlTokenType.StartElement, r.TokenType);
        Assert.Equal(Text(e.Local), r.LocalName.ToString());
        if (e.Ns is not null) Assert.Equal(Text(e.Ns), r.NamespaceUri.ToString());
        Assert.True(r.Read());
        int attribute = 0;
        while (r.TokenType is BinaryXmlTokenType.Attribute or BinaryXmlTokenType.NamespaceDeclaration)
        {
            if (r.TokenType == BinaryXmlTokenType.Attribute)
            {
                Attr a = e.Attributes[attribute++];
                Assert.Equal(Text(a.Local), r.LocalName.ToString());
                if (a.Ns is not null) Assert.Equal(Text(a.Ns), r.NamespaceUri.ToString());
                if (a.Value is ListValue list)
                {
                    Assert.Equal(RecordType.StartListText, r.ValueType);
                    VerifyList(ref r, list);
                }
                else
                {
                    VerifyValue(ref r, a.Value ?? "");
                }
            }
            Assert.True(r.Read());
        }
        Assert.Equal(e.Attributes.Count, attribute);

        foreach (Node child in MergeAdjacentBase64(e.Children))
        {
            switch (child)
            {
                case Elem c:
                    VerifyElement(ref r, c, context);
                    Assert.True(r.Read());
                    break;
                case TextValue { Value: "" }:
                    break; // empty text writes no record
                case TextValue t:
                    Assert.Equal(BinaryXmlTokenType.Text, r.TokenType);
                    VerifyValue(ref r, t.Value);
                    Assert.True(r.Read());
                    break;
                case Base64Value b:
                    var received = new List<byte>();
                    while (received.Count < b.Data.Length)
                    {
                        Assert.Equal(BinaryXmlTokenType.Text, r.TokenType);
                        received.AddRange(r.GetBytesFromBase64());
                        Assert.True(r.Read());
                    }
                    Assert.Equal(b.Data, received.ToArray());
                    break;
                case ListValue l:
                    Assert.Equal(BinaryXmlTokenType.StartList, r.TokenType);
                    VerifyList(ref r, l);
                    Assert.True(r.Read());
                    break;
                case ArrayValue a:
                    Assert.Equal(BinaryXmlTokenType.StartElement, r.TokenType);
                    Assert.True(r.IsArray);
                    Assert.Equal(a.Local, r.LocalName.ToString());
                    do Assert.True(r.Read()); while (r.TokenType == BinaryXmlTokenType.NamespaceDeclaration);
                    Assert.Equal(BinaryXmlTokenType.ArrayData, r.TokenType);
                    Assert.Equal(a.Values.Length, r.ArrayLength);
                    VerifyArray(ref r, a.Values);
                    Assert.True(r.Read());
                    break;
                case CommentValue c:
                    Assert.Equal(BinaryXmlTokenType.Comment, r.TokenType);
                    Assert.Equal(c.Text, r.GetString());
                    Assert.True(r.Read());
                    break;
            }
        }
        Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
        Assert.Equal(Text(e.Local), r.LocalName.ToString());
    }

    /// <summary>
    /// Base64 written by consecutive calls is one stream: the 1–2 held-back bytes join the next call's record. Empty
    /// text between two calls writes nothing and does not end the stream (as in .NET's writer: pinned by
    /// <see cref="Empty_text_between_base64_calls_does_not_end_the_base64_stream"/>).
    /// </summary>
    private static IEnumerable<Node> MergeAdjacentBase64(List<Node> children)
    {
        Base64Value? pending = null;
        foreach (Node n in children)
        {
            if (n is Base64Value b)
            {
                pending = pending is null ? b : new Base64Value([.. pending.Data, .. b.Data], []);
                continue;
            }
            if (pending is not null && n is TextValue { Value: "" }) continue;
            if (pending is not null) yield return pending;
            pending = null;
            yield return n;
        }
        if (pending is not null) yield return pending;
    }

    private static void VerifyList(ref BinaryXmlReader r, ListValue list)
    {
        foreach (object item in list.Items)
        {
            Assert.True(r.Read());
            Assert.Equal(BinaryXmlTokenType.Text, r.TokenType);
            VerifyValue(ref r, item);
        }
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.EndList, r.TokenType);
    }

    private static void VerifyValue(ref BinaryXmlReader r, object expected)
    {
        switch (expected)
        {
            case string s: Assert.Equal(s, r.GetString()); break;
            case DictRef d: Assert.Equal(d.Value, r.GetString()); break;
            case bool b: Assert.Equal(b, r.GetBoolean()); break;
            case int i: Assert.Equal(i, r.GetInt32()); break;
            case long l: Assert.Equal(l, r.GetInt64()); break;
            case ulong u: Assert.Equal(u, r.GetUInt64()); break;
            case float f: Assert.Equal(BitConverter.SingleToUInt32Bits(f == 0 ? 0f : f), BitConverter.SingleToUInt32Bits(r.GetSingle())); break;
            case double d: Assert.Equal(BitConverter.DoubleToUInt64Bits(d == 0 ? 0d : d), BitConverter.DoubleToUInt64Bits(r.GetDouble())); break;
            case decimal m: Assert.Equal(decimal.GetBits(m), decimal.GetBits(r.GetDecimal())); break;
            case DateTime dt: AssertSameDateTime(dt, r.GetDateTime()); break;
            case TimeSpan ts: Assert.Equal(ts, r.GetTimeSpan()); break;
            case Guid g: Assert.Equal(g, r.GetGuid()); break;
            case UniqueId u: Assert.Equal(u.ToString(), r.GetUniqueId().ToString()); break;
            case Base64Value b: Assert.Equal(b.Data, r.GetBytesFromBase64()); break;
            default: Assert.Fail("Unexpected value type " + expected.GetType()); break;
        }
    }

    private static void AssertSameDateTime(DateTime expected, DateTime actual)
    {
        Assert.Equal(expected.Kind, actual.Kind);
        if (expected.Kind == DateTimeKind.Local) Assert.Equal(expected.ToUniversalTime(), actual.ToUniversalTime());
        else Assert.Equal(expected.Ticks, actual.Ticks);
    }

    private static void VerifyArray(ref BinaryXmlReader r, Array expected)
    {
        switch (expected)
        {
            case bool[] x: { var a = new bool[x.Length]; r.CopyArray(a); Assert.Equal(x, a); break; }
            case short[] x: { var a = new short[x.Length]; r.CopyArray(a); Assert.Equal(x, a); break; }
            case int[] x: { var a = new int[x.Length]; r.CopyArray(a); Assert.Equal(x, a); break; }
            case long[] x: { var a = new long[x.Length]; r.CopyArray(a); Assert.Equal(x, a); break; }
            case float[] x: { var a = new float[x.Length]; r.CopyArray(a); Assert.Equal(x.Select(BitConverter.SingleToUInt32Bits), a.Select(BitConverter.SingleToUInt32Bits)); break; }
            case double[] x: { var a = new double[x.Length]; r.CopyArray(a); Assert.Equal(x.Select(BitConverter.DoubleToUInt64Bits), a.Select(BitConverter.DoubleToUInt64Bits)); break; }
            case decimal[] x: { var a = new decimal[x.Length]; r.CopyArray(a); Assert.Equal(x.Select(decimal.GetBits), a.Select(decimal.GetBits)); break; }
            case DateTime[] x: { var a = new DateTime[x.Length]; r.CopyArray(a); for (int i = 0; i < x.Length; i++) AssertSameDateTime(x[i], a[i]); break; }
            case TimeSpan[] x: { var a = new TimeSpan[x.Length]; r.CopyArray(a); Assert.Equal(x, a); break; }
            case Guid[] x: { var a = new Guid[x.Length]; r.CopyArray(a); Assert.Equal(x, a); break; }
        }
    }
}
