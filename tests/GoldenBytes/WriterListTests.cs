using System.Buffers;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// A list (<see cref="BinaryXmlWriter.WriteStartList"/> … <see cref="BinaryXmlWriter.WriteEndList"/>) holds text
/// records only: every call that would put anything else inside it, or end the element or attribute around it, is
/// refused and writes nothing; closing the writer or the document ends the list first. .NET has no such calls (its
/// lists are written whole by <c>WriteValue(object[])</c>); where one of its items fails, the drop-in writer ends the
/// list, where .NET's writes on inside it (pinned below).
/// </summary>
public sealed class WriterListTests
{
    private static readonly XmlDictionary s_dictionary = new();
    private static readonly XmlDictionaryString s_item = s_dictionary.Add("item");

    public static TheoryData<string> RefusedInContent() => new(
    [
        "WriteStartElement", "WriteStartElement with a namespace", "WriteStartElement with dictionary names", "WriteElementString",
        "WriteElementValue", "WriteElementValue with dictionary names", "WriteEndElement", "WriteFullEndElement", "WriteComment",
        "WriteArray", "WriteBase64", "WriteStartList",
    ]);

    private static void Call(BinaryXmlWriter w, string call)
    {
        switch (call)
        {
            case "WriteStartElement": w.WriteStartElement("a"); break;
            case "WriteStartElement with a namespace": w.WriteStartElement("p", "a", "urn:p"); break;
            case "WriteStartElement with dictionary names": w.WriteStartElement(s_item, null); break;
            case "WriteElementString": w.WriteElementString("a", "b"); break;
            case "WriteElementValue": w.WriteElementValue("a", 1); break;
            case "WriteElementValue with dictionary names": w.WriteElementValue(s_item, null, 1); break;
            case "WriteEndElement": w.WriteEndElement(); break;
            case "WriteFullEndElement": w.WriteFullEndElement(); break;
            case "WriteComment": w.WriteComment("c"); break;
            case "WriteArray": w.WriteArray(null, "a", null, (ReadOnlySpan<int>)[1, 2]); break;
            case "WriteBase64": w.WriteBase64((ReadOnlySpan<byte>)[1, 2, 3, 4]); break;
            case "WriteStartList": w.WriteStartList(); break;
            case "WriteEndAttribute": w.WriteEndAttribute(); break;
            case "WriteStartAttribute": w.WriteStartAttribute("y"); break;
            default: throw new ArgumentException(call);
        }
    }

    [Theory]
    [MemberData(nameof(RefusedInContent))]
    public void A_call_that_cannot_go_in_a_content_list_is_refused_and_writes_nothing(string call)
    {
        byte[] expected = Write(w => { w.WriteStartElement("r"); w.WriteStartList(); w.WriteValue(1); w.WriteString("x"); w.WriteEndList(); w.WriteEndElement(); });
        byte[] actual = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartList();
            w.WriteValue(1);
            var e = Assert.Throws<InvalidOperationException>(() => Call(w, call));
            Assert.Contains(call == "WriteStartList" ? "cannot be nested" : "list is open", e.Message, StringComparison.Ordinal);
            w.WriteString("x");
            w.WriteEndList();
            w.WriteEndElement();
        });
        Assert.Equal(Hex.Format(expected), Hex.Format(actual));
        Assert.Equal(NodeStream.FromInBox(expected, s_dictionary), NodeStream.FromNative(actual, s_dictionary));
    }

    [Theory]
    [InlineData("WriteEndAttribute")]
    [InlineData("WriteStartAttribute")]
    [InlineData("WriteBase64")]
    [InlineData("WriteEndElement")]
    public void A_call_that_cannot_go_in_an_attribute_list_is_refused_and_writes_nothing(string call)
    {
        byte[] expected = Write(w => { w.WriteStartElement("r"); w.WriteStartAttribute("x"); w.WriteStartList(); w.WriteValue(1); w.WriteValue(2L << 40); w.WriteEndList(); w.WriteEndAttribute(); w.WriteEndElement(); });
        byte[] actual = Write(w =>
        {
            w.WriteStartElement("r");
            w.WriteStartAttribute("x");
            w.WriteStartList();
            w.WriteValue(1);
            Assert.Throws<InvalidOperationException>(() => Call(w, call));
            w.WriteValue(2L << 40);
            w.WriteEndList();
            w.WriteEndAttribute();
            w.WriteEndElement();
        });
        Assert.Equal(Hex.Format(expected), Hex.Format(actual));
        Assert.Equal(NodeStream.FromInBox(expected, s_dictionary), NodeStream.FromNative(actual, s_dictionary));
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(false, true)]
    [InlineData(true, false)]
    [InlineData(true, true)]
    public void Closing_the_document_or_the_writer_ends_an_open_list(bool inAttribute, bool close)
    {
        void Start(BinaryXmlWriter w)
        {
            w.WriteStartDocument();
            w.WriteStartElement("r");
            w.WriteStartElement("e");
            if (inAttribute) w.WriteStartAttribute("x");
            w.WriteStartList();
            w.WriteValue(1.5);
            w.WriteString("y");
        }
        byte[] expected = Write(w =>
        {
            Start(w);
            w.WriteEndList();
            if (inAttribute) w.WriteEndAttribute();
            w.WriteEndElement();
            w.WriteEndElement();
        });
        var output = new ArrayBufferWriter<byte>();
        var writer = new BinaryXmlWriter(output, s_dictionary);
        Start(writer);
        if (close) writer.Close();
        else
        {
            writer.WriteEndDocument();
            writer.Flush();
        }
        Assert.Equal(Hex.Format(expected), Hex.Format(output.WrittenSpan));
        Assert.Equal(NodeStream.FromInBox(expected, s_dictionary), NodeStream.FromNative(output.WrittenSpan.ToArray(), s_dictionary));
    }

    [Fact]
    public void A_list_value_whose_item_fails_is_ended_where_dotnet_writes_on_inside_it()
    {
        (byte[] inBox, Type? inBoxError) = Run(s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false));
        (byte[] ours, Type? ourError) = Run(s => BinaryXmlDictionaryWriter.Create(s, null, null, false));
        Assert.Equal(typeof(ArgumentException), inBoxError);
        Assert.Equal(inBoxError, ourError);
        // In-box: <r> StartListText OneText, then <a/> and </r> inside the list, never ended.
        Assert.Equal("40 01 72 A4 82 40 01 61 01 01", Hex.Format(inBox));
        Assert.Throws<XmlException>(() => NodeStream.FromInBox(inBox));
        // Ours: the list ends after the item before the failing one, and the document reads.
        Assert.Equal("40 01 72 A4 82 A6 40 01 61 01 01", Hex.Format(ours));
        Assert.Equal(NodeStream.FromInBox(ours), NodeStream.FromNative(ours));

        static (byte[], Type?) Run(Func<Stream, XmlDictionaryWriter> create)
        {
            var stream = new MemoryStream();
            XmlDictionaryWriter w = create(stream);
            w.WriteStartElement("r");
            Type? error = null;
            try
            {
                w.WriteValue(new object[] { 1, new byte[] { 1 } });
            }
            catch (Exception e)
            {
                error = e.GetType();
            }
            w.WriteStartElement("a");
            w.WriteEndElement();
            w.WriteEndElement();
            w.Flush();
            return (stream.ToArray(), error);
        }
    }

    private static byte[] Write(Action<BinaryXmlWriter> calls)
    {
        var output = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(output, s_dictionary);
        calls(w);
        w.Flush();
        return output.WrittenSpan.ToArray();
    }
}
