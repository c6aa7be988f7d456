using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    [Fact]
    public void Every_node_reports_its_dictionary_strings_as_in_box()
    {
        // TryGetLocalNameAsDictionaryString, TryGetNamespaceUriAsDictionaryString and TryGetValueAsDictionaryString on
        // every node, attribute and attribute value node, before the first node and at the end: .NET's reader reports a
        // name held as a dictionary string, XmlDictionaryString.Empty for an empty one (a text node's name, the empty
        // namespace), and nothing for a namespace declaration (not even a dictionary value). .NET's writer writes an
        // Array record's names inline; one written with dictionary names is read as any element.
        var dictionary = new XmlDictionary();
        XmlDictionaryString local = dictionary.Add("local"), ns = dictionary.Add("urn:q"), value = dictionary.Add("val"), empty = dictionary.Add("");
        var documents = new (string Name, Action<XmlDictionaryWriter> Write)[]
        {
            ("inline names", w => { w.WriteStartElement("a"); w.WriteAttributeString("x", "1"); w.WriteString("t"); w.WriteEndElement(); }),
            ("dictionary names and values", w =>
            {
                w.WriteStartElement("p", local, ns);
                w.WriteStartAttribute(local, null);
                w.WriteString(value);
                w.WriteEndAttribute();
                w.WriteStartAttribute("p", local, ns);
                w.WriteString("v");
                w.WriteEndAttribute();
                w.WriteString(value);
                w.WriteEndElement();
            }),
            ("a dictionary name without namespace", w => { w.WriteStartElement(local, empty); w.WriteString(value); w.WriteEndElement(); }),
            ("an inline default namespace", w => { w.WriteStartElement("a", "urn:x"); w.WriteAttributeString("y", "2"); w.WriteElementString("b", "urn:x", "z"); w.WriteEndElement(); }),
            ("a dictionary default namespace", w => { w.WriteStartElement(local, ns); w.WriteElementString(local, ns, "z"); w.WriteEndElement(); }),
            ("an inline prefix, and the empty namespace again", w =>
            {
                w.WriteStartElement("p", "el", "urn:x");
                w.WriteAttributeString("p", "at", "urn:x", "v");
                w.WriteStartElement("in", "");
                w.WriteEndElement();
                w.WriteEndElement();
            }),
            ("a dictionary attribute with an inline prefix", w =>
            {
                w.WriteStartElement("a");
                w.WriteXmlnsAttribute("p", "urn:x");
                w.WriteStartAttribute("p", local, null);
                w.WriteString(value);
                w.WriteEndAttribute();
                w.WriteEndElement();
            }),
            ("xml:lang", w => { w.WriteStartElement("a"); w.WriteAttributeString("xml", "lang", null, "en"); w.WriteEndElement(); }),
            ("namespace declarations", w => { w.WriteStartElement("a"); w.WriteXmlnsAttribute("q", ns); w.WriteXmlnsAttribute("r", "urn:r"); w.WriteEndElement(); }),
            ("a comment", w => { w.WriteStartElement("a"); w.WriteComment("c"); w.WriteEndElement(); }),
            ("an Array, inline name", w => { w.WriteArray(null, "a", null, [1, 2], 0, 2); w.WriteElementString("b", "x"); }),
            ("an Array, dictionary name", w => w.WriteArray(null, local, empty, [1, 2], 0, 2)),
            ("an Array, dictionary name and namespace", w => w.WriteArray(null, local, ns, [1, 2], 0, 2)),
        };
        static string Answer(bool found, XmlDictionaryString? s) => found ? $"[{s!.Value}]" : "-";
        static string Names(XmlDictionaryReader r)
            => $"{r.NodeType} {r.Name}: {Answer(r.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? l), l)} "
                + $"{Answer(r.TryGetNamespaceUriAsDictionaryString(out XmlDictionaryString? n), n)} {Answer(r.TryGetValueAsDictionaryString(out XmlDictionaryString? v), v)}";
        var inputs = documents.Select(d => (d.Name, Data: Document(d.Write))).ToList();
        // <r>, an Array record of the element "local" in the namespace "urn:q" (dictionary ids 0 and 2: a
        // ShortDictionaryElement and a ShortDictionaryXmlnsAttribute) with two Int32 items, </r>.
        inputs.Add(("an Array with dictionary names", [0x40, 1, (byte)'r', 0x03, 0x42, 0x00, 0x0A, 0x02, 0x01, 0x8D, 0x02, 1, 0, 0, 0, 2, 0, 0, 0, 0x01]));
        byte[] Document(Action<XmlDictionaryWriter> write)
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, dictionary, null, false))
            {
                w.WriteStartElement("r");
                write(w);
                w.WriteEndElement();
            }
            return ms.ToArray();
        }
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, byte[] data) in inputs)
            {
                using XmlDictionaryReader r = Create(factory, data, dictionary);
                log.Add($"{name}: {Names(r)}");
                while (r.Read())
                {
                    log.Add(Names(r));
                    if (!r.MoveToFirstAttribute()) continue;
                    do
                    {
                        log.Add(Names(r));
                        if (r.ReadAttributeValue()) log.Add(Names(r));
                    }
                    while (r.MoveToNextAttribute());
                    r.MoveToElement();
                }
                log.Add(Names(r));
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("Element r: - [] -", expected);
        Assert.Contains("Text : [] [] [val]", expected);
        Assert.Contains("Attribute xmlns:q: - - -", expected);
        Assert.Contains("Element local: - [] -", expected);
        Assert.Contains("EndElement local: [local] [urn:q] -", expected);
    }
}
