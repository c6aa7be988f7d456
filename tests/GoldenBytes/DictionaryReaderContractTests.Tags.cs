using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    [Fact]
    public void Start_and_end_tags_that_are_not_the_ones_expected_fail_as_in_box()
    {
        // ReadStartElement, ReadEndElement and ReadElementString where the tag is not the one expected: .NET's reader
        // names the tag it expected and what it found (an element, text, nothing yet), and ending an element where none
        // is open is an InvalidOperationException; ReadElementString reads the text and then the end tag, which passes
        // over a comment to what follows it. The exception's type and message and where the reader is, alike.
        // <r><p:a xmlns:p="urn:1">t<!--c--><b>u</b></p:a></r>
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("p", "a", "urn:1");
            w.WriteString("t");
            w.WriteComment("c");
            w.WriteElementString("b", "u");
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        var operations = new (string Name, Func<XmlDictionaryReader, string> Run)[]
        {
            ("a start tag of another name", r => { r.ReadStartElement("x"); return ""; }),
            ("a start tag of another namespace", r => { r.ReadStartElement("r", "urn:x"); return ""; }),
            ("a start tag of a null name", r => { r.ReadStartElement(null!); return ""; }),
            ("a start tag of a null namespace", r => { r.ReadStartElement("r", null!); return ""; }),
            ("a start tag on text", r => { r.ReadStartElement("r"); r.ReadStartElement(); r.ReadStartElement(); return ""; }),
            ("an end tag on an element", r => { r.ReadStartElement("r"); r.ReadEndElement(); return ""; }),
            ("an end tag on text", r => { r.ReadStartElement("r"); r.ReadStartElement(); r.ReadEndElement(); return ""; }),
            ("an end tag after a comment", r => { r.ReadStartElement("r"); r.ReadStartElement(); r.Read(); r.ReadEndElement(); return ""; }),
            ("an end tag on the root", r => { r.ReadEndElement(); return ""; }),
            ("an end tag after the root", r => { r.Read(); r.Skip(); r.ReadEndElement(); return ""; }),
            ("two end tags", r => { r.ReadStartElement("r"); r.Skip(); r.ReadEndElement(); r.ReadEndElement(); return ""; }),
            ("an element string of another name", r => { r.ReadStartElement("r"); return r.ReadElementString("zz"); }),
            ("an element string of another namespace", r => { r.ReadStartElement("r"); return r.ReadElementString("a", "urn:2"); }),
            ("an element string, mixed content", r => { r.ReadStartElement("r"); return r.ReadElementString(); }),
            ("an element string by name", r => { r.ReadStartElement("r"); r.ReadStartElement(); r.Skip(); r.Read(); return r.ReadElementString("b"); }),
            ("an element string by name and namespace", r => { r.ReadStartElement("r"); r.ReadStartElement(); r.Skip(); r.Read(); return r.ReadElementString("b", ""); }),
            ("element content as string, mixed content", r => { r.ReadStartElement("r"); return r.ReadElementContentAsString(); }),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, Func<XmlDictionaryReader, string> operation) in operations)
            {
                using XmlDictionaryReader r = Create(factory, data);
                string outcome;
                try
                {
                    outcome = $"'{operation(r)}'";
                }
                catch (Exception e) when (e is XmlException or InvalidOperationException)
                {
                    outcome = $"{e.GetType().Name}: {e.Message}";
                }
                log.Add($"{name}: {outcome} on {r.NodeType} {r.Name}");
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("an end tag on text: XmlException: End element 'a' from namespace 'urn:1' expected. Found text 't'. on Text", expected);
        Assert.Contains("an end tag on the root: InvalidOperationException: No corresponding start element is open.", expected);
        Assert.Contains("a start tag of another name: XmlException: Start element 'x' expected. Found element 'r' from namespace ''.", expected);
    }

    [Fact]
    public void Attribute_indexes_out_of_range_fail_as_in_box()
    {
        // GetAttribute(int), MoveToAttribute(int) and the indexer with an index out of range, on an element, on one of
        // its attributes, on an attribute's value node, on text and on an end tag: .NET's reader names the parameter
        // index, and says the node has no attributes, or that the offset exceeds the buffer (its words).
        byte[] data = RootAround(w => { w.WriteStartElement("a"); w.WriteAttributeString("x", "1"); w.WriteAttributeString("y", "2"); w.WriteString("t"); w.WriteEndElement(); });
        var positions = new (string Name, Action<XmlDictionaryReader> Move)[]
        {
            ("element", r => r.ReadStartElement("r")),
            ("attribute", r => { r.ReadStartElement("r"); r.MoveToAttribute(1); }),
            ("value node", r => { r.ReadStartElement("r"); r.MoveToAttribute(0); r.ReadAttributeValue(); }),
            ("text", r => { r.ReadStartElement("r"); r.Read(); }),
            ("end tag", r => { r.ReadStartElement("r"); r.Read(); r.Read(); }),
        };
        var reads = new (string Name, Func<XmlDictionaryReader, int, string?> Read)[]
        {
            ("GetAttribute", (r, i) => r.GetAttribute(i)),
            ("MoveToAttribute", (r, i) => { r.MoveToAttribute(i); return r.Name; }),
            ("indexer", (r, i) => r[i]),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string position, Action<XmlDictionaryReader> move) in positions)
            foreach ((string name, Func<XmlDictionaryReader, int, string?> read) in reads)
            foreach (int index in new[] { -1, 0, 1, 2 })
            {
                using XmlDictionaryReader r = Create(factory, data);
                move(r);
                string outcome;
                try
                {
                    outcome = $"'{read(r, index)}'";
                }
                catch (ArgumentOutOfRangeException e)
                {
                    outcome = $"{e.ParamName}: {e.Message}";
                }
                log.Add($"{position}, {name}({index}): {outcome} on {r.NodeType} {r.Name}");
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("text, GetAttribute(0): index: Only Element nodes have attributes. (Parameter 'index')", expected);
        Assert.Contains("element, MoveToAttribute(2): index: The specified offset exceeds the buffer size (2 bytes). (Parameter 'index')", expected);
    }
}
