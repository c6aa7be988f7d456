using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    [Fact]
    public void A_reader_created_after_another_closed_reads_with_its_own_names_and_the_closed_one_reads_again_beside_it()
    {
        // A closed reader leaves its working arrays (open elements, atoms, recent names) to the next reader created on the
        // thread. That reader must find nothing of the first's documents or name table in them, and the first, given
        // input again while the second is inside a document, must take other arrays: the two read alternately, node by
        // node, each the nodes .NET's reader reads, every name an atom of its own reader's name table.
        var names = new XmlDictionary();
        XmlDictionaryString order = names.Add("Order"), ns = names.Add("urn:shop");
        byte[] first = Doc("StartElement(\"p\", \"Order\", \"urn:shop\"); StartElement(null, \"Line\", null); AttributeString(null, \"id\", null, \"1\"); String(\"x\"); EndElement(); StartElement(\"q\", \"Line\", \"urn:other\"); EndElement(); EndElement()");
        byte[] second = Doc("StartElement(null, \"Root\", null); StartElement(\"p\", \"Order\", \"urn:shop\"); StartElement(null, \"Item\", null); AttributeString(\"q\", \"id\", \"urn:other\", \"2\"); EndElement(); EndElement(); StartElement(null, \"Line\", null); EndElement(); EndElement()");
        static List<string> Expected(byte[] doc) => NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max), exactNodeTypes: true);
        static void CheckAtoms(XmlDictionaryReader r, string what)
        {
            if (r.NodeType is XmlNodeType.Element or XmlNodeType.EndElement)
            {
                Assert.Same(r.NameTable.Get(r.LocalName), r.LocalName);
                Assert.Same(r.NameTable.Get(r.NamespaceURI), r.NamespaceURI);
                Assert.True(r.NameTable.Get(r.LocalName) is not null, what);
            }
        }
        var reader = BinaryXmlDictionaryReader.Create(first, 0, first.Length, null, XmlDictionaryReaderQuotas.Max);
        Assert.True(Expected(first).SequenceEqual(NodeStream.FromXmlReader(reader, exactNodeTypes: true)));
        reader.Close();
        var next = BinaryXmlDictionaryReader.Create(second, 0, second.Length, null, XmlDictionaryReaderQuotas.Max);
        reader.SetInput(first, 0, first.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
        Assert.NotSame(reader.NameTable, next.NameTable);
        // Alternately, node by node: each reader's names, as in-box reads them.
        var inBoxFirst = XmlDictionaryReader.CreateBinaryReader(first, 0, first.Length, null, XmlDictionaryReaderQuotas.Max);
        var inBoxSecond = XmlDictionaryReader.CreateBinaryReader(second, 0, second.Length, null, XmlDictionaryReaderQuotas.Max);
        static bool Step(XmlDictionaryReader ours, XmlDictionaryReader inBox, string what)
        {
            bool more = ours.Read();
            Assert.Equal(inBox.Read(), more);
            if (!more) return false;
            Assert.Equal((inBox.NodeType, inBox.Prefix, inBox.LocalName, inBox.NamespaceURI, inBox.Depth), (ours.NodeType, ours.Prefix, ours.LocalName, ours.NamespaceURI, ours.Depth));
            CheckAtoms(ours, what);
            return true;
        }
        bool moreFirst = true, moreSecond = true;
        while (moreFirst || moreSecond)
        {
            if (moreSecond && (moreSecond = Step(next, inBoxSecond, "second")))
            {
                Assert.Equal(next.NodeType == XmlNodeType.Element && next.LocalName == "Order", next.IsStartElement(order, ns) && next.NodeType == XmlNodeType.Element);
            }
            if (moreFirst) moreFirst = Step(reader, inBoxFirst, "first");
        }
        next.Close();
        reader.Close();
        // A closed reader answers as before: no node, nothing to read.
        Assert.False(reader.Read());
        Assert.Equal(ReadState.Closed, reader.ReadState);
        Assert.Equal("", reader.LocalName);
    }
}
