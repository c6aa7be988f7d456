using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    [Fact]
    public void A_document_copied_with_WriteNode_from_the_reader_is_written_as_from_in_box()
    {
        // XmlDictionaryWriter.WriteNode copies through the reader's dictionary strings (TryGet…AsDictionaryString), its
        // value types (typed values, Bytes, a list attribute's items through ReadContentAsObject) and its arrays
        // (IsStartArray, ReadArray): the bytes written from our reader, by .NET's writer and by ours, are those written
        // from .NET's reader.
        var dictionary = new XmlDictionary();
        XmlDictionaryString alpha = dictionary.Add("alpha"), ns = dictionary.Add("urn:alpha"), value = dictionary.Add("value"), empty = dictionary.Add("");
        var documents = new (string Name, Action<XmlDictionaryWriter> Write)[]
        {
            ("mixed content", w => { w.WriteStartElement("a"); w.WriteAttributeString("x", "1"); w.WriteString("t"); w.WriteComment("c"); w.WriteElementString("b", "u"); w.WriteEndElement(); }),
            ("typed values", w =>
            {
                w.WriteStartElement("a");
                w.WriteStartAttribute("n");
                w.WriteValue(5);
                w.WriteEndAttribute();
                w.WriteValue(1.5);
                w.WriteEndElement();
                object[] values = [new DateTime(2020, 1, 1), Guid.Empty, TimeSpan.FromSeconds(3), 1.5m, true, long.MaxValue, new UniqueId(Guid.Empty), 1.5f, ulong.MaxValue];
                foreach (object v in values)
                {
                    w.WriteStartElement("v");
                    w.WriteValue(v);
                    w.WriteEndElement();
                }
            }),
            ("dictionary names and values", w =>
            {
                w.WriteStartElement("p", alpha, ns);
                w.WriteStartAttribute(alpha, empty);
                w.WriteString(value);
                w.WriteEndAttribute();
                w.WriteString(value);
                w.WriteStartElement(alpha, ns);
                w.WriteString(value);
                w.WriteEndElement();
                w.WriteEndElement();
            }),
            ("arrays", w =>
            {
                w.WriteArray(null, "i", null, [1, 2, 3], 0, 3);
                w.WriteArray("p", alpha, ns, [1.5, 2.5], 0, 2);
                w.WriteArray(null, "b", null, [true, false], 0, 2);
                w.WriteArray(null, "g", null, [Guid.Empty], 0, 1);
                w.WriteArray(null, "s", null, new short[] { 1, 2 }, 0, 2);
                w.WriteArray(null, "d", null, [1.5m], 0, 1);
                w.WriteArray(null, "t", null, [DateTime.UnixEpoch], 0, 1);
                w.WriteArray(null, "ts", null, [TimeSpan.Zero], 0, 1);
                w.WriteArray(null, "l", null, [1L], 0, 1);
                w.WriteArray(null, "f", null, [1f], 0, 1);
            }),
            ("Bytes", w =>
            {
                w.WriteStartElement("a");
                w.WriteBase64(new byte[300], 0, 300);
                w.WriteEndElement();
                w.WriteStartElement("b");
                w.WriteStartAttribute("x");
                w.WriteBase64([1, 2, 3], 0, 3);
                w.WriteEndAttribute();
                w.WriteEndElement();
            }),
            ("lists", WriteLists),
            ("namespaces and xml:lang", w =>
            {
                w.WriteStartElement("p", "a", "urn:1");
                w.WriteXmlnsAttribute("q", "urn:2");
                w.WriteStartElement("q", "b", "urn:2");
                w.WriteAttributeString("p", "z", "urn:1", "v");
                w.WriteAttributeString("xml", "lang", null, "en");
                w.WriteString("t");
                w.WriteEndElement();
                w.WriteEndElement();
            }),
            ("a qualified name", w => { w.WriteStartElement("a"); w.WriteXmlnsAttribute("p", ns); w.WriteQualifiedName(alpha, ns); w.WriteEndElement(); }),
            ("long and white-space text", w => { w.WriteElementString("a", new string('x', 5000) + "é日"); w.WriteElementString("b", "  "); }),
            ("empty elements", w => { w.WriteStartElement("a"); w.WriteEndElement(); w.WriteElementString("b", ""); }),
        };
        foreach ((string name, Action<XmlDictionaryWriter> write) in documents)
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, dictionary, null, false))
            {
                w.WriteStartElement("r");
                write(w);
                w.WriteEndElement();
            }
            byte[] data = ms.ToArray();
            foreach (bool ourWriter in new[] { false, true })
            {
                string Copy(string factory)
                {
                    var copy = new MemoryStream();
                    using XmlDictionaryReader r = Create(factory, data, dictionary);
                    using (XmlDictionaryWriter w = ourWriter ? BinaryXmlDictionaryWriter.Create(copy, dictionary, null, false) : XmlDictionaryWriter.CreateBinaryWriter(copy, dictionary, null, false))
                    {
                        r.MoveToContent();
                        w.WriteNode(r, true);
                    }
                    return Hex.Format(copy.ToArray());
                }
                Assert.True(Copy("in-box") == Copy("BinaryXml"), $"{name}, copied by {(ourWriter ? "our" : ".NET's")} writer: {Copy("in-box")} / {Copy("BinaryXml")}");
            }
        }
    }

    [Fact]
    public void A_list_attribute_read_as_an_object_is_its_items_as_in_box()
    {
        // .NET's reader gives a list attribute's value (ValueType object[]) as its items, each as the object its record
        // gives (an integer that fits as int, a Float as float, …), on the attribute and on its value node; a list in
        // content is text (ValueType string).
        byte[] data = RootAround(w =>
        {
            WriteLists(w);
            w.WriteStartElement("b");
            w.WriteAttributeString("l", "text");
            w.WriteEndElement();
        });
        static string Describe(object o) => o is object[] items ? $"object[] {string.Join(", ", items.Select(Describe))}" : $"{o.GetType().Name} {Convert.ToString(o, System.Globalization.CultureInfo.InvariantCulture)}";
        string Run(string factory)
        {
            var log = new List<string>();
            using (XmlDictionaryReader r = Create(factory, data))
            {
                r.ReadStartElement("r");
                r.MoveToAttribute("l");
                log.Add($"attribute {r.ValueType.Name}: {Describe(r.ReadContentAsObject())}");
                r.ReadAttributeValue();
                log.Add($"value node {r.ValueType.Name}: {Describe(r.ReadContentAsObject())}");
                r.MoveToElement();
                r.Read();
                log.Add($"content {r.ValueType.Name}: {Describe(r.ReadContentAsObject())} then {r.NodeType}");
                r.Read();
                r.MoveToAttribute("l");
                log.Add($"the next element's attribute {r.ValueType.Name}: {Describe(r.ReadContentAsObject())}");
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("attribute Object[]: object[] Int32 1, Single 2.5, Boolean True, Guid 00000000-0000-0000-0000-000000000000, Int32 3,", expected);
    }

    /// <summary>An element with a list attribute of ten item types, and a list as its content.</summary>
    private static void WriteLists(XmlDictionaryWriter w)
    {
        w.WriteStartElement("a");
        w.WriteStartAttribute("l");
        w.WriteValue(new object[] { 1, 2.5, true, Guid.Empty, 3L, 1.5m, DateTime.UnixEpoch, TimeSpan.Zero, new UniqueId(Guid.Empty), ulong.MaxValue });
        w.WriteEndAttribute();
        w.WriteValue(new object[] { 2.5, 3 });
        w.WriteEndElement();
    }
}
