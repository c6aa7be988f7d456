using System.Buffers;
using System.Xml;
using BinaryXml.Tool;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// XML rendered with the values' record types marked (<see cref="ValueTypeMarks"/>) and written back by
/// <c>binxml encode</c>'s encoder: for any document the marked XML comes back the same and so does the plain XML (no
/// value or name is lost or changed), and for a document without what the marks cannot tell apart (lists whose items
/// hold spaces, arrays next to each other), written once, the bytes come back the same.
/// </summary>
public sealed class TypeMarkProperties
{
    private static readonly BinaryXmlReaderOptions s_options = new() { MaxDepth = 64 };

    [Fact]
    public void Marked_xml_written_back_renders_the_same()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, doc =>
        {
            (byte[] bytes, ScriptContext context, XmlBinaryReaderSession? session) = Write(doc);
            string marked = BinaryXmlText.ToXml(bytes, context.Dictionary, session, s_options, markValueTypes: true);
            (byte[] again, XmlBinaryReaderSession? againSession) = Encode(marked, context);
            Assert.Equal(marked, BinaryXmlText.ToXml(again, context.Dictionary, againSession, s_options, markValueTypes: true));
            Assert.Equal(BinaryXmlText.ToXml(bytes, context.Dictionary, session, s_options), BinaryXmlText.ToXml(again, context.Dictionary, againSession, s_options));
        }), 500);
    }

    [Fact]
    public void Documents_the_marks_tell_apart_are_written_back_byte_for_byte()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, generated =>
        {
            var doc = new Doc(TellApart(generated.Root), generated.UseSession, 0);
            (byte[] bytes, ScriptContext context, XmlBinaryReaderSession? session) = Write(doc);
            string marked = BinaryXmlText.ToXml(bytes, context.Dictionary, session, s_options, markValueTypes: true);
            (byte[] again, _) = Encode(marked, context);
            Assert.Equal(Convert.ToHexString(bytes), Convert.ToHexString(again));
            // Indented (decode --types --indent) and written back dropping the indentation (encode --ignore-whitespace).
            if (BinxmlApp.Indent(marked) is string indented)
            {
                (byte[] fromIndented, _) = Encode(indented, context, ignoreWhitespace: true);
                Assert.Equal(Convert.ToHexString(bytes), Convert.ToHexString(fromIndented));
            }
        }), 500);
    }

    private static (byte[] Bytes, ScriptContext Context, XmlBinaryReaderSession? Session) Write(Doc doc)
    {
        var context = new ScriptContext(useSession: doc.UseSession);
        RecordingWriterSession? session = context.CreateWriterSession();
        (byte[] bytes, Exception? error) = WriterScript.RunNative(doc.Calls(withFlushes: false), context, session);
        Assert.Null(error);
        return (bytes, context, session?.ToReaderSession());
    }

    /// <summary>Writes marked XML as <c>binxml encode</c> does, with the document's dictionary and a session of its own.</summary>
    private static (byte[] Bytes, XmlBinaryReaderSession? Session) Encode(string xml, ScriptContext context, bool ignoreWhitespace = false)
    {
        RecordingWriterSession? session = context.CreateWriterSession();
        var output = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(output, context.Dictionary, session)) new XmlEncoder(context.Dictionary, ignoreWhitespace).Write(w, new StringReader(xml));
        return (output.WrittenSpan.ToArray(), session?.ToReaderSession());
    }

    /// <summary>
    /// The document with what the marks cannot tell apart taken out: lists whose items could not be told apart again
    /// (an empty item, or one holding a space); arrays are not next to each other (adjacent items of one name read as
    /// one array); NaNs are .NET's NaN (a NaN's other bits have no text); base64 written in calls of whole groups of
    /// three bytes but the last: the bytes a call leaves for the next (its records show where the calls' whole groups
    /// end, not how many bytes each call carried over) move .NET's 512-byte buffer, and with it where a later end tag is
    /// folded into the text before it.
    /// </summary>
    private static Elem TellApart(Elem e)
    {
        var children = new List<Node>();
        foreach (Node n in e.Children)
        {
            switch (n)
            {
                case Elem child: children.Add(TellApart(child)); break;
                case ArrayValue a when children.LastOrDefault() is not ArrayValue: children.Add(a with { Values = CanonicalArray(a.Values) }); break;
                case CommentValue: children.Add(n); break;
                case Base64Value b when children.LastOrDefault() is Base64Value before:
                    children[^1] = WholeGroups(new Base64Value([.. before.Data, .. b.Data], [.. before.Splits, before.Data.Length, .. b.Splits.Select(x => before.Data.Length + x)]));
                    break;
                case Base64Value b: children.Add(WholeGroups(b)); break;
                case TextValue: children.Add(Canonical(n)); break;
                case ListValue l when Markable(l): children.Add(CanonicalList(l)); break;
            }
        }
        List<Attr> attributes = e.Attributes.Select(a => a.Value switch
        {
            ListValue l => a with { Value = Markable(l) ? CanonicalList(l) : "list" },
            Base64Value b => a with { Value = WholeGroups(b) },
            _ => a with { Value = CanonicalValue(a.Value) },
        }).ToList();
        return e with { Attributes = attributes, Children = children };
    }

    /// <summary>Base64 calls cut at whole groups of three bytes (each cut moved back to one).</summary>
    private static Base64Value WholeGroups(Base64Value b) => b with { Splits = b.Splits.Select(x => x / 3 * 3).Where(x => x > 0 && x < b.Data.Length).Distinct().Order().ToArray() };

    /// <summary>Whether a list's items can be told apart in its text (none empty or holding a space: <see cref="ValueTypeMarks.ListPrefix"/>).</summary>
    private static bool Markable(ListValue l) => l.Items.Length > 0 && l.Items.All(i => (i as string ?? (i as DictRef)?.Value) is not string s || (s.Length > 0 && !s.Contains(' ')));

    private static ListValue CanonicalList(ListValue l) => l with { Items = l.Items.Select(i => CanonicalValue(i)!).ToArray() };

    private static Node Canonical(Node n) => n is TextValue t ? new TextValue(CanonicalValue(t.Value)!) : n;

    private static object? CanonicalValue(object? value) => value switch
    {
        float f when float.IsNaN(f) => float.NaN,
        double d when double.IsNaN(d) => double.NaN,
        _ => value,
    };

    private static Array CanonicalArray(Array values) => values switch
    {
        float[] f => f.Select(x => float.IsNaN(x) ? float.NaN : x).ToArray(),
        double[] d => d.Select(x => double.IsNaN(x) ? double.NaN : x).ToArray(),
        _ => values,
    };
}
