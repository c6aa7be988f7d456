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

    [Fact]
    public void A_reused_reader_reads_each_document_with_the_session_strings_it_holds_then_as_in_box()
    {
        // A session's names are looked up as they are read (an array index) and their atoms kept by the string the
        // session gives. Between documents the session is cleared and refilled with other strings under the same ids,
        // and with the same strings as new objects: a reused reader reads each document with what the session holds
        // then, as .NET's reader does, and finds the same atoms for equal strings.
        var names = new XmlDictionary();
        XmlDictionaryString[] elements = [.. Enumerable.Range(0, 40).Select(i => names.Add("e" + i))];
        XmlDictionaryString ns = names.Add("urn:s");
        var writerSession = new RecordingWriterSession();
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, writerSession))
        {
            w.WriteStartElement(elements[0], ns);
            for (int i = 0; i < 3; i++)
                foreach (XmlDictionaryString e in elements) { w.WriteStartElement(e, ns); w.WriteEndElement(); }
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        string Read(string factory)
        {
            var session = new XmlBinaryReaderSession();
            XmlDictionaryReader r = Create(factory, data, null, null, session);
            var log = new List<string>();
            foreach (string suffix in new[] { "", "", "-2", "-2", "" })
            {
                session.Clear();
                foreach ((int key, string value) in writerSession.Keys) session.Add(key, value + suffix);
                ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, session, null);
                var document = new List<string>();
                while (r.Read()) document.Add($"{r.NodeType} {r.LocalName} {r.NamespaceURI}");
                log.Add(string.Join(", ", document.Distinct()));
            }
            r.Dispose();
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Read);
        Assert.Contains("Element e39-2 urn:s-2", expected);
    }

    [Fact]
    public void Thousands_of_dictionary_and_session_names_are_read_and_atomized_as_in_box()
    {
        // A static dictionary and a session of 5,000 strings each, past the 4,096 slots the reader keeps atoms in (one
        // each below that, shared above): every element's name is the in-box one, and the name table's atom, in three
        // readings of the document (atoms kept from one to the next), in order and out of it.
        var names = new XmlDictionary();
        XmlDictionaryString[] statics = [.. Enumerable.Range(0, 5000).Select(i => names.Add("s" + i))];
        XmlDictionaryString[] sessionNames = [.. Enumerable.Range(0, 5000).Select(i => new XmlDictionary().Add("n" + i))];
        int[] order = [.. Enumerable.Range(0, 5000), .. Enumerable.Range(0, 5000).Select(i => i * 4099 % 5000)];
        var writerSession = new RecordingWriterSession();
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, names, writerSession))
        {
            w.WriteStartElement(statics[0], XmlDictionaryString.Empty);
            foreach (int i in order)
            {
                w.WriteStartElement(statics[i], XmlDictionaryString.Empty);
                w.WriteStartElement(sessionNames[i], XmlDictionaryString.Empty);
                w.WriteEndElement();
                w.WriteEndElement();
            }
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        var session = new XmlBinaryReaderSession();
        foreach ((int key, string value) in writerSession.Keys) session.Add(key, value);
        string Read(string factory)
        {
            XmlDictionaryReader r = Create(factory, data, names, null, session);
            var log = new System.Text.StringBuilder();
            for (int reading = 0; reading < 3; reading++)
            {
                ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, names, XmlDictionaryReaderQuotas.Max, session, null);
                while (r.Read())
                {
                    if (r.NodeType != XmlNodeType.Element) continue;
                    Assert.Same(r.NameTable.Get(r.LocalName), r.LocalName);
                    log.Append(r.LocalName).Append(r.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? d) ? "=" + d.Value : "-").Append(' ');
                }
                log.AppendLine();
            }
            r.Dispose();
            return log.ToString();
        }
        string expected = AlikeInBox(Read);
        Assert.Contains("s4999=s4999 n4999=n4999 s4098=s4098 n4098=n4098", expected);
    }

    [Fact]
    public void Dictionary_names_are_atoms_of_the_name_table_in_use_after_a_new_table_is_started()
    {
        // Atoms of static and session names are kept from document to document; when the table outgrows the quota and
        // a new one is started, they must be the new table's atoms, not the old one's.
        var quotas = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = 99 + 40 };
        var names = new XmlDictionary();
        XmlDictionaryString fromStatic = names.Add("fromStatic"), fromSession = names.Add("fromSession");
        var writerSession = new RecordingWriterSession();
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, names, writerSession))
        {
            w.WriteStartElement(fromStatic, XmlDictionaryString.Empty);
            w.WriteStartElement(new XmlDictionary().Add("fromSession"), XmlDictionaryString.Empty);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] dictionaryNames = ms.ToArray();
        var session = new XmlBinaryReaderSession();
        foreach ((int key, string value) in writerSession.Keys) session.Add(key, value);
        byte[] longName = Doc($"StartElement(null, \"{new string('n', 35)}\", null); EndElement()");
        var reader = BinaryXmlDictionaryReader.Create(dictionaryNames, 0, dictionaryNames.Length, names, quotas, session);
        void ReadAll(byte[] data)
        {
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, names, quotas, session, null);
            while (reader.Read())
            {
                if (reader.NodeType == XmlNodeType.Element) Assert.Same(reader.NameTable.Get(reader.LocalName), reader.LocalName);
            }
        }
        ReadAll(dictionaryNames);
        XmlNameTable first = reader.NameTable;
        ReadAll(longName);
        ReadAll(longName);
        ReadAll(dictionaryNames);
        Assert.NotSame(first, reader.NameTable);
        Assert.Equal("fromStatic", reader.NameTable.Get("fromStatic"));
        Assert.Equal("fromSession", reader.NameTable.Get("fromSession"));
        reader.Dispose();
    }
}
