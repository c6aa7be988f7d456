using System.Globalization;
using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    private static readonly (string Name, Action<XmlDictionaryWriter> Write)[] s_quotaDocuments =
    [
        ("text of 10", w => w.WriteElementString("a", "0123456789")),
        ("text of 300", w => w.WriteElementString("a", new string('7', 300))),
        ("two texts of 6", w => { w.WriteStartElement("a"); w.WriteString("abcdef"); w.WriteString("ghijkl"); w.WriteEndElement(); }),
        ("CJK text of 10", w => w.WriteElementString("a", "日本語日本語日本語日")),
        ("dictionary text of 10", w => { w.WriteStartElement("a"); w.WriteString(new XmlDictionary().Add("0123456789")); w.WriteEndElement(); }),
        ("an attribute of 10", w => { w.WriteStartElement("a"); w.WriteAttributeString("x", "0123456789"); w.WriteEndElement(); }),
        ("Bytes of 10", w => { w.WriteStartElement("a"); w.WriteBase64(new byte[10], 0, 10); w.WriteEndElement(); }),
        ("an Int32 array of 10", w => w.WriteArray(null, "a", null, new int[10], 0, 10)),
        ("5 deep", w => { for (int i = 0; i < 5; i++) w.WriteStartElement("d"); for (int i = 0; i < 5; i++) w.WriteEndElement(); }),
        ("5 names", w => { for (int i = 0; i < 5; i++) w.WriteElementString("name" + i, "x"); }),
    ];

    private static readonly (string Name, Func<XmlDictionaryReader, string> Read)[] s_quotaReads =
    [
        ("scan", r => { int n = 0; while (r.Read()) n++; return n.ToString(); }),
        ("values", r =>
        {
            var values = new List<string>();
            while (r.Read())
            {
                values.Add(r.Value);
                if (!r.MoveToFirstAttribute()) continue;
                do values.Add(r.Value);
                while (r.MoveToNextAttribute());
                r.MoveToElement();
            }
            return string.Join(",", values);
        }),
        ("element content as string", r => { r.ReadStartElement("r"); return r.ReadElementContentAsString(); }),
        ("ReadString", r => { r.ReadStartElement("r"); r.ReadStartElement(); return r.ReadString(); }),
        ("ReadElementString", r => { r.ReadStartElement("r"); return r.ReadElementString(); }),
        ("ReadElementString(name)", r => { r.ReadStartElement("r"); r.MoveToContent(); return r.ReadElementString(r.Name); }),
        ("ReadElementString(local, ns)", r => { r.ReadStartElement("r"); r.MoveToContent(); return r.ReadElementString(r.LocalName, r.NamespaceURI); }),
        ("content as string", r => { r.ReadStartElement("r"); r.ReadStartElement(); return r.ReadContentAsString(); }),
        ("an attribute's content", r => { r.ReadStartElement("r"); r.MoveToContent(); return r.MoveToFirstAttribute() ? r.ReadContentAsString() : "-"; }),
        ("element content as base64", r => { r.ReadStartElement("r"); return Convert.ToHexString(r.ReadElementContentAsBase64()); }),
        ("an Int32 array", r => { r.ReadStartElement("r"); return string.Join(",", r.ReadInt32Array("a", "")); }),
        ("content as object", r => { r.ReadStartElement("r"); r.ReadStartElement(); return $"{r.ReadContentAsObject()}"; }),
        ("element content as object", r => { r.ReadStartElement("r"); return $"{r.ReadElementContentAsObject()}"; }),
        ("element content as int", r => { r.ReadStartElement("r"); return r.ReadElementContentAsInt().ToString(); }),
        ("value chunks", r => { r.ReadStartElement("r"); r.ReadStartElement(); var c = new char[4]; int n, total = 0; while ((n = r.ReadValueChunk(c, 0, 4)) > 0) total += n; return total.ToString(); }),
    ];

    [Fact]
    public void Quotas_apply_where_in_box_applies_them()
    {
        // MaxStringContentLength, MaxArrayLength, MaxDepth and MaxNameTableCharCount at a value just under what each
        // document needs, with each read: the same success or failure, and the same node after it. .NET's reader holds
        // the string quota to string reads (ReadContentAsString, ReadElementContentAsString, ReadString, an attribute's
        // content) and fails once the text is read (past the end tag after a Chars8Text or DictionaryText record read in
        // one step, on the end tag otherwise, on the text whose addition passes it); typed and object reads of text
        // closing its element convert its value, unlimited. (Base64 text over MaxArrayLength, and a start tag over
        // MaxBytesPerRead, fail elsewhere: pinned below.)
        var quotas = new (string Name, XmlDictionaryReaderQuotas Quotas)[]
        {
            ("string 8", new() { MaxStringContentLength = 8 }),
            ("string 10", new() { MaxStringContentLength = 10 }),
            ("string 290", new() { MaxStringContentLength = 290 }),
            ("array 8", new() { MaxArrayLength = 8 }),
            ("depth 4", new() { MaxDepth = 4 }),
            ("name table 100", new() { MaxNameTableCharCount = 100 }),
            ("name table 120", new() { MaxNameTableCharCount = 120 }),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string quotaName, XmlDictionaryReaderQuotas quota) in quotas)
            {
                foreach ((string name, Action<XmlDictionaryWriter> write) in s_quotaDocuments)
                {
                    byte[] data = RootAround(write);
                    foreach ((string readName, Func<XmlDictionaryReader, string> read) in s_quotaReads)
                    {
                        if (quotaName == "array 8" && readName == "element content as base64" && name.Contains("text")) continue;
                        using XmlDictionaryReader r = Create(factory, data, quotas: quota);
                        string outcome;
                        try
                        {
                            outcome = $"'{read(r)}'";
                        }
                        catch (XmlException)
                        {
                            outcome = "fails";
                        }
                        log.Add($"{quotaName}, {name}, {readName}: {outcome} on {r.NodeType} {NameOrFailure(r)}");
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("string 8, text of 10, element content as int: '123456789' on Element after", expected);
        Assert.Contains("string 8, text of 10, element content as string: fails on Element after", expected);
        Assert.Contains("string 8, text of 10, content as string: fails on EndElement a", expected);
        Assert.Contains("string 290, text of 300, element content as string: fails on EndElement a", expected);
    }

    [Fact]
    public void Quotas_met_part_way_fail_where_they_are_met_where_in_box_reads_on_first()
    {
        // Differences, pinned: base64 text over MaxArrayLength fails where the bytes pass the quota (at most one byte is
        // decoded past it), where .NET's reader decodes all of it first (its buffers growing with the content) and
        // fails on the end tag; a start tag whose attributes pass MaxBytesPerRead fails with the reader still on the
        // node before it (the reader failed), where .NET's reader has moved to the element.
        byte[] base64 = RootAround(w => { w.WriteStartElement("a"); w.WriteString("abcdef"); w.WriteString("ghijkl"); w.WriteEndElement(); });
        byte[] attributes = RootAround(w =>
        {
            w.WriteStartElement("a");
            for (int i = 0; i < 6; i++) w.WriteAttributeString("at" + i, "vvvvvvvvvv");
            w.WriteEndElement();
        });
        static string Outcome(XmlDictionaryReader r, Action<XmlDictionaryReader> read)
        {
            Assert.ThrowsAny<XmlException>(() => read(r));
            return $"{r.NodeType} {NameOrFailure(r)}";
        }
        void Base64(XmlDictionaryReader r) { r.ReadStartElement("r"); r.ReadElementContentAsBase64(); }
        void Scan(XmlDictionaryReader r) { while (r.Read()) { } }
        var arrayQuota = new XmlDictionaryReaderQuotas { MaxArrayLength = 8 };
        var bytesQuota = new XmlDictionaryReaderQuotas { MaxBytesPerRead = 40 };
        Assert.Equal("EndElement a", Outcome(Create("in-box", base64, quotas: arrayQuota), Base64));
        Assert.Equal("Text ", Outcome(Create("BinaryXml", base64, quotas: arrayQuota), Base64));
        Assert.Equal("Element a", Outcome(Create("in-box", attributes, quotas: bytesQuota), Scan));
        Assert.Equal("Element r", Outcome(Create("BinaryXml", attributes, quotas: bytesQuota), Scan));
    }

    /// <summary><c>&lt;r&gt;</c> around what <paramref name="write"/> writes and an element after it.</summary>
    private static byte[] RootAround(Action<XmlDictionaryWriter> write)
    {
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            write(w);
            w.WriteElementString("after", "x");
            w.WriteEndElement();
        }
        return ms.ToArray();
    }

    /// <summary>The current node's name, or that asking for it fails (a name-table quota met by the name itself).</summary>
    private static string NameOrFailure(XmlReader r)
    {
        try
        {
            return r.Name;
        }
        catch (XmlException)
        {
            return "(fails)";
        }
    }

    [Fact]
    public void A_kept_value_and_an_attribute_read_as_an_object_are_not_held_to_the_string_quota_as_in_box()
    {
        // .NET's reader takes a value it keeps (Value asked for) as the content of an attribute, its value node, text
        // closing its element or a typed value, without MaxStringContentLength (the node's value then empty but on the
        // attribute itself), and an attribute read as an object is its value, without the quota too. Ours held both
        // to the quota (found by random walks under small quotas).
        byte[] doc = InBoxDocument(w =>
        {
            w.WriteStartElement("r");
            w.WriteAttributeString("x", "0123456789");
            w.WriteElementString("a", "abcdefghij");
            w.WriteStartElement("b");
            w.WriteString("abcdefghij");
            w.WriteComment("c");
            w.WriteEndElement();
            w.WriteStartElement("t");
            w.WriteValue(TimeSpan.FromMinutes(90));
            w.WriteEndElement();
            w.WriteEndElement();
        });
        var quotas = new XmlDictionaryReaderQuotas { MaxStringContentLength = 6 };
        (string Name, Action<XmlDictionaryReader> Go)[] places =
        [
            ("an attribute", r => { r.Read(); r.MoveToFirstAttribute(); }),
            ("an attribute's value node", r => { r.Read(); r.MoveToFirstAttribute(); r.ReadAttributeValue(); }),
            ("text closing its element", r => { r.Read(); r.Read(); r.Read(); }),
            ("text before a comment", r => { r.ReadToFollowing("b"); r.Read(); }),
            ("a TimeSpan record", r => { r.ReadToFollowing("t"); r.Read(); }),
        ];
        (string Name, Func<XmlDictionaryReader, object> Read)[] reads =
        [
            ("ReadContentAsString", r => r.ReadContentAsString()),
            ("ReadContentAsTimeSpan", r => r.ReadContentAsTimeSpan()),
            ("ReadContentAsObject", r => r.ReadContentAsObject()),
        ];
        string log = AlikeInBox(factory =>
        {
            var outcomes = new StringBuilder();
            foreach ((string place, Action<XmlDictionaryReader> go) in places)
            foreach (bool valueAsked in new[] { false, true })
            foreach ((string readName, Func<XmlDictionaryReader, object> read) in reads)
            {
                using XmlDictionaryReader r = Create(factory, doc, quotas: quotas);
                go(r);
                if (valueAsked) _ = r.Value;
                string outcome;
                try
                {
                    outcome = Convert.ToString(read(r), CultureInfo.InvariantCulture)!;
                }
                catch (XmlException)
                {
                    outcome = "fails";
                }
                outcomes.AppendLine($"{place}, Value {(valueAsked ? "asked" : "not asked")}, {readName}: {outcome}; on {r.NodeType} {r.Name} '{r.Value}'");
            }
            return outcomes.ToString();
        });
        Assert.Contains("an attribute, Value not asked, ReadContentAsObject: 0123456789; on Attribute x '0123456789'", log);
        Assert.Contains("text closing its element, Value asked, ReadContentAsString: abcdefghij; on Text  ''", log);
        Assert.Contains("a TimeSpan record, Value asked, ReadContentAsTimeSpan: 01:30:00; on Text  ''", log);
        Assert.Contains("an attribute, Value not asked, ReadContentAsString: fails", log);
    }
}
