using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    private const string Xsi = "http://www.w3.org/2001/XMLSchema-instance";
    private const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";

    [Fact]
    public void Attributes_looked_up_by_name_and_namespace_first_answer_as_in_box()
    {
        // GetAttribute(localName, namespaceUri) and MoveToAttribute(localName, namespaceUri) asked first on an element,
        // before its attributes are read any other way: ours answers from the start tag's records and builds the
        // attribute nodes only when it must. Every kind of attribute record (prefix none, a letter, inline; names inline,
        // of the static dictionary, of the session; declarations; a tag of many attributes) and of value (text, typed,
        // a dictionary string, a QName, a list), each name asked in its namespace and in others: the answer, the same
        // answer asked again, then every attribute node and the node after the element, as in-box.
        var dictionary = new XmlDictionary();
        XmlDictionaryString dLocal = dictionary.Add("dl"), dNs = dictionary.Add("urn:dn"), dValue = dictionary.Add("dv"), dQName = dictionary.Add("qn");
        var other = new XmlDictionary();
        XmlDictionaryString sLocal = other.Add("sl"), sNs = other.Add("urn:sn"), sValue = other.Add("sv");
        var writerSession = new RecordingWriterSession();
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, dictionary, writerSession))
        {
            w.WriteStartElement("r", "urn:r");
            w.WriteXmlnsAttribute("i", Xsi);
            w.WriteXmlnsAttribute("p", "urn:p");
            Element(w, e => e.WriteAttributeString("a", "x"));
            Element(w, e => e.WriteAttributeString("i", "nil", Xsi, "true"));
            Element(w, e => Typed(e, "i", "nil", Xsi, true));
            Element(w, e => { e.WriteAttributeString("pre", "a-long-attribute-name", "urn:pre", "v"); Typed(e, null, "b", null, 1); });
            Element(w, e =>
            {
                e.WriteStartAttribute("d", dLocal, dNs);
                e.WriteString(dValue);
                e.WriteEndAttribute();
                e.WriteStartAttribute("s", sLocal, sNs);
                e.WriteString(sValue);
                e.WriteEndAttribute();
                e.WriteAttributeString("p", "a", "urn:p", "in p");
            });
            Element(w, e =>
            {
                e.WriteXmlnsAttribute("d", dNs.Value);
                e.WriteStartAttribute("q");
                e.WriteQualifiedName(dQName, dNs);
                e.WriteEndAttribute();
            });
            Element(w, e => Typed(e, null, "l", null, new object[] { 1, 3.5, true }));
            Element(w, e =>
            {
                Typed(e, null, "t", null, new DateTime(2026, 11, 30, 1, 2, 3, DateTimeKind.Utc));
                Typed(e, null, "g", null, Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"));
                Typed(e, null, "u", null, new UniqueId(Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e")));
                Typed(e, null, "m", null, 12.5m);
                e.WriteStartAttribute("by");
                e.WriteBase64([1, 2, 3], 0, 3);
                e.WriteEndAttribute();
                e.WriteAttributeString("em", "");
                e.WriteAttributeString("\u00f1ame", "\u00e9t\u00e9");
            });
            Element(w, e => { e.WriteAttributeString("xml", "lang", null, "fr"); e.WriteAttributeString("k", "v"); });
            Element(w, e => e.WriteXmlnsAttribute(null, "urn:other"), ns: "urn:other");
            Element(w, e => { e.WriteAttributeString("p", "a", "urn:p", "1"); e.WriteAttributeString("a", "2"); }, prefix: "p", ns: "urn:p");
            Element(w, e =>
            {
                for (int i = 0; i < 20; i++) e.WriteAttributeString(i % 2 == 0 ? "p" : null, "a" + i, i % 2 == 0 ? "urn:p" : null, "v" + i);
            });
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        XmlBinaryReaderSession ReaderSession()
        {
            var session = new XmlBinaryReaderSession();
            foreach ((int key, string value) in writerSession.Keys) session.Add(key, value);
            return session;
        }

        // The names asked on each element: each attribute's own, in the empty and in another namespace, another case,
        // and names the element may not have (xsi's, declarations').
        var queries = new List<(int Element, string LocalName, string? Namespace)>();
        var qualifiedQueries = new List<(int Element, string Name)>();
        using (XmlDictionaryReader r = Create("in-box", data, dictionary, null, ReaderSession()))
        {
            int element = 0;
            while (r.Read())
            {
                if (r.NodeType != XmlNodeType.Element) continue;
                var names = new List<(string, string?)> { ("nil", Xsi), ("type", Xsi), ("xmlns", XmlnsNamespace), ("", XmlnsNamespace), ("p", XmlnsNamespace), ("d", XmlnsNamespace), ("a", null), ("a", "urn:none"), ("", "") };
                while (r.MoveToNextAttribute())
                {
                    names.Add((r.LocalName, r.NamespaceURI));
                    names.Add((r.LocalName, ""));
                    names.Add((r.LocalName, r.NamespaceURI + "x"));
                    names.Add((r.LocalName.ToUpperInvariant(), r.NamespaceURI));
                }
                foreach ((string local, string? ns) in names.Distinct()) queries.Add((element, local, ns));
                foreach (string name in new[] { "xmlns", "xmlns:p", "xmlns:i", "i:nil", "p:a", "a" }.Concat(names.Select(n => n.Item1)).Distinct())
                    qualifiedQueries.Add((element, name));
                element++;
            }
        }

        string Run(string factory)
        {
            var log = new StringBuilder();
            foreach ((int element, string local, string? ns) in queries)
            {
                foreach (string how in new[] { "get", "move", "built" })
                {
                    XmlDictionaryReader r = ReaderOn(element);
                    log.Append($"{element} {local} {ns ?? "(null)"}: ");
                    // Built: the attribute nodes built first (by reading one by its index), then the same questions.
                    if (how == "built" && r.AttributeCount > 0) _ = r.GetAttribute(0);
                    if (how != "move") log.Append($"{r.GetAttribute(local, ns) ?? "null"}, again {r.GetAttribute(local, ns) ?? "null"};");
                    if (how != "get") log.Append(r.MoveToAttribute(local, ns) ? $"{r.Name}={r.Value} {r.NodeType} {r.NamespaceURI};" : $"none {r.NodeType} {r.Name};");
                    LogRest(r);
                }
            }
            foreach ((int element, string name) in qualifiedQueries)
            {
                XmlDictionaryReader r = ReaderOn(element);
                log.Append($"{element} {name}: {r.GetAttribute(name) ?? "null"};");
                log.Append(r.MoveToAttribute(name) ? $" {r.Name}={r.Value} {r.NodeType};" : $" none {r.NodeType} {r.Name};");
                LogRest(r);
            }
            return log.ToString();

            XmlDictionaryReader ReaderOn(int element)
            {
                XmlDictionaryReader r = Create(factory, data, dictionary, null, ReaderSession());
                for (int seen = -1; seen < element;)
                {
                    Assert.True(r.Read());
                    if (r.NodeType == XmlNodeType.Element) seen++;
                }
                return r;
            }

            void LogRest(XmlDictionaryReader r)
            {
                r.MoveToElement();
                for (int i = 0; i < r.AttributeCount; i++) log.Append($" {r.GetAttribute(i)}");
                while (r.MoveToNextAttribute()) log.Append($" {r.Name}@{r.NamespaceURI}={r.Value}");
                r.Read();
                log.AppendLine($"; then {r.NodeType} {r.Name}");
                r.Dispose();
            }
        }
        string expected = AlikeInBox(Run);
        // The lookups found what they asked for: a text, a typed value, a dictionary string, a QName, a list, a
        // declaration, the attribute of an xml:lang scope, and the same local name in two namespaces.
        foreach (string found in new[] { "1 a : x,", "2 nil " + Xsi + ": true, again true;", "3 nil " + Xsi + ": true, again true;", "4 b : 1,",
            "5 dl urn:dn: dv,", "5 sl urn:sn: sv,", "6 q : d:qn,", "7 l : 1 3.5 true,", "8 by : AQID,", "8 \u00f1ame : \u00e9t\u00e9,", "9 k : v,",
            "10  " + XmlnsNamespace + ": urn:other,", "0 xmlns " + XmlnsNamespace + ": null,", "11 a urn:p: 1,", "11 a : 2,", "12 a19 : v19,", "12 a18 urn:p: v18,", "0 p " + XmlnsNamespace + ": urn:p," })
            Assert.Contains(found, expected);
        // By qualified name, a declaration is named as its node is: "xmlns" and "xmlns:p".
        Assert.Contains("0 xmlns: urn:r; xmlns=urn:r Attribute;", expected);
        Assert.Contains("0 xmlns:p: urn:p; xmlns:p=urn:p Attribute;", expected);

        // A list of dictionary strings, of the static dictionary and of the session (which .NET's writer leaves out of
        // a list: the records written here): its items resolved as in-box.
        byte[] list = [0x40, 0x01, (byte)'e', 0x04, 0x01, (byte)'l', 0xA4, 0x82, 0xAA, (byte)(2 * dValue.Key), 0xAA, 0x01, 0xA6, 0x01];
        string ReadList(string factory)
        {
            var session = new XmlBinaryReaderSession();
            session.Add(0, "first of the session");
            using XmlDictionaryReader r = Create(factory, list, dictionary, null, session);
            r.Read();
            string value = r.GetAttribute("l", null) ?? "null";
            r.MoveToAttribute("l", "");
            return $"{value}; {r.Value}";
        }
        Assert.Equal("1 dv first of the session; 1 dv first of the session", AlikeInBox(ReadList));

        static void Element(XmlDictionaryWriter w, Action<XmlDictionaryWriter> attributes, string? prefix = null, string ns = "urn:r")
        {
            w.WriteStartElement(prefix, "e", ns);
            attributes(w);
            w.WriteString("t");
            w.WriteEndElement();
        }

        static void Typed(XmlDictionaryWriter w, string? prefix, string localName, string? ns, object value)
        {
            w.WriteStartAttribute(prefix, localName, ns);
            w.WriteValue(value);
            w.WriteEndAttribute();
        }
    }
}
