using System.Xml;
using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Structure validation as .NET's reader does it (dotnet-behaviour 6.2, 3.3): each malformed document throws
/// <see cref="BinaryXmlException"/> with an offset, and the in-box reader rejects the same bytes.
/// </summary>
public sealed class ReaderValidationTests
{
    private static void ReadAll(byte[] data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null, BinaryXmlReaderOptions? options = null)
    {
        var r = new BinaryXmlReader(data, dictionary, session, options);
        try
        {
            while (r.Read())
            {
                if (r.HasValue && r.TokenType != BinaryXmlTokenType.ArrayData) _ = r.GetString();
            }
        }
        finally
        {
            r.Dispose();
        }
    }

    private static void ReadAllInBox(byte[] data, IXmlDictionary? dictionary = null, XmlBinaryReaderSession? session = null)
    {
        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, dictionary, XmlDictionaryReaderQuotas.Max, session);
        while (r.Read())
        {
            _ = r.Value;
            for (int i = 0; i < r.AttributeCount; i++) _ = r.GetAttribute(i);
        }
    }

    [Theory]
    [InlineData("40 01 72 40 01 61 40 01 63", "c, a, r")]
    [InlineData("40 01 72 40 01 61 04 01 78 98 01 31", "a, r")]
    [InlineData("40 01 72 40 01 61 04 01 78 98 01 31 08 02 75 3A", "a, r")]
    public void A_start_tag_that_ends_the_input_fails_its_own_read_as_in_box(string hex, string unclosed)
    {
        // <r><a><c> (the last tag ends the input); <r><a x="1"> and <r><a x="1" xmlns="u:">: .NET's reader looks for
        // the next attribute and fails on the start tag, before reporting its element; so do both of ours, naming the
        // open elements innermost first, as it does.
        byte[] data = Hex.Parse(hex);
        var reported = new List<string>();
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() =>
        {
            var r = new BinaryXmlReader(data);
            try
            {
                while (r.Read()) if (r.TokenType == BinaryXmlTokenType.StartElement) reported.Add(r.LocalName.ToString());
            }
            finally
            {
                r.Dispose();
            }
        });
        Assert.Equal(data.Length, e.Offset);
        Assert.Contains($"Following elements are not closed: {unclosed} (", e.Message);
        var inBox = new List<string>();
        var ours = new List<string>();
        XmlException inBoxError = Assert.ThrowsAny<XmlException>(() => ReadNames(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), inBox));
        XmlException ourError = Assert.ThrowsAny<XmlException>(() => ReadNames(BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), ours));
        Assert.Equal(inBox, ours);
        Assert.Equal(inBox, reported);
        Assert.Contains($"Following elements are not closed: {unclosed}", inBoxError.Message);
        Assert.Contains($"Following elements are not closed: {unclosed}", ourError.Message);

        static void ReadNames(XmlDictionaryReader reader, List<string> names)
        {
            while (reader.Read()) if (reader.NodeType == XmlNodeType.Element) names.Add(reader.LocalName);
        }
    }

    [Fact]
    public void A_prefix_bound_in_the_document_before_is_not_bound_in_the_next()
    {
        // <r xmlns:p="urn:1"><p:a/></r>, then <r xmlns:q="urn:2"><p:a/></r>: the second reader takes the first's state
        // (the thread's cache), and p is looked up after as many declarations as in the first. Its answer kept from
        // the first document must not be used: p is unbound there.
        byte[] first = Hex.Parse("40 01 72 09 01 70 05 75 72 6E 3A 31 6D 01 61 01 01");
        byte[] second = Hex.Parse("40 01 72 09 01 71 05 75 72 6E 3A 32 6D 01 61 01 01");
        ReadAll(first);
        ReadAllInBox(first);
        Assert.Contains("'p' is not defined", Assert.Throws<BinaryXmlException>(() => ReadAll(second)).Message);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(second));
    }

    [Fact]
    public void A_prefix_is_not_bound_by_a_declaration_of_another_prefix_in_the_place_its_own_was()
    {
        // <r><j xmlns:c="c0"><c:k/></j><l xmlns:b="b2"><c:q/></l></r>: xmlns:b takes the place among the declarations
        // in scope that xmlns:c had (both are the first inside r); c, resolved in j, is unbound in l.
        byte[] data = Hex.Parse("40 01 72 40 01 6A 09 01 63 02 63 30 60 01 6B 01 01 40 01 6C 09 01 62 02 62 32 60 01 71 01 01 01");
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data));
        Assert.Contains("'c' is not defined", e.Message);
        Assert.Equal(26, e.Offset);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(data));
    }

    [Fact]
    public void Prefixes_resolve_to_the_declaration_in_scope_as_elements_open_and_close()
    {
        // The default namespace and letter prefixes declared again inside an element, used inside it and after it
        // closes, and declarations taking the places of closed ones: every element and attribute namespace as the
        // in-box reader reports it, from both of our readers.
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r", "urn:d0");
            w.WriteXmlnsAttribute("b", "urn:b0");
            w.WriteStartElement("a", "urn:d0"); w.WriteAttributeString("b", "x", "urn:b0", "1"); w.WriteEndElement();
            w.WriteStartElement("c", "urn:d0"); w.WriteXmlnsAttribute("b", "urn:b1");
            w.WriteStartElement("b", "e", "urn:b1"); w.WriteAttributeString("b", "y", "urn:b1", "2"); w.WriteEndElement();
            w.WriteEndElement();
            w.WriteStartElement("b", "f", "urn:b0"); w.WriteEndElement();
            w.WriteStartElement("g", "urn:d1"); w.WriteStartElement("h", "urn:d1"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteStartElement("i", "urn:d0"); w.WriteEndElement();
            w.WriteStartElement("j", "urn:d0"); w.WriteXmlnsAttribute("c", "urn:c0"); w.WriteStartElement("c", "k", "urn:c0"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteStartElement("l", "urn:d0"); w.WriteXmlnsAttribute("b", "urn:b2"); w.WriteStartElement("b", "m", "urn:b2"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteStartElement("b", "n", "urn:b0"); w.WriteEndElement();
            w.WriteStartElement("o", "urn:d0"); w.WriteXmlnsAttribute("c", "urn:c1"); w.WriteStartElement("c", "p", "urn:c1"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteStartElement("q", "urn:d0"); w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        static List<string> Names(XmlReader r)
        {
            var names = new List<string>();
            while (r.Read())
            {
                if (r.NodeType != XmlNodeType.Element) continue;
                names.Add($"{r.LocalName}={r.NamespaceURI}");
                while (r.MoveToNextAttribute()) if (r.NamespaceURI != "http://www.w3.org/2000/xmlns/") names.Add($"@{r.LocalName}={r.NamespaceURI}");
            }
            return names;
        }
        List<string> expected;
        using (XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(data, XmlDictionaryReaderQuotas.Max)) expected = Names(inBox);
        Assert.Contains("f=urn:b0", expected);
        Assert.Contains("h=urn:d1", expected);
        Assert.Contains("n=urn:b0", expected);
        using (XmlDictionaryReader adapter = BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max))
            Assert.Equal(expected, Names(adapter));
        var native = new List<string>();
        var reader = new BinaryXmlReader(data);
        while (reader.Read())
        {
            if (reader.TokenType == BinaryXmlTokenType.StartElement) native.Add($"{reader.LocalName.ToString()}={reader.NamespaceUri.ToString()}");
            else if (reader.TokenType == BinaryXmlTokenType.Attribute) native.Add($"@{reader.LocalName.ToString()}={reader.NamespaceUri.ToString()}");
        }
        reader.Dispose();
        Assert.Equal(expected, native);
    }

    [Theory]
    [InlineData(12, "p", "p\u0001", true)]
    [InlineData(11, "p", "p\u0001", false)]
    [InlineData(12, "", "\u0001", true)]
    [InlineData(12, "p\u0001", "p", true)]
    [InlineData(12, "\u0001", "", true)]
    [InlineData(11, "p\u0001", "p", false)]
    [InlineData(12, "p", "p\n", false)]
    [InlineData(12, "pa", "pA", false)]
    [InlineData(12, "p", "q", false)]
    public void Namespace_prefixes_of_a_long_start_tag_are_compared_as_the_in_box_reader_compares_them(int attributes, string first, string second, bool duplicate)
    {
        // From 12 attribute records on, .NET's reader compares declared prefixes with the current culture, which
        // ignores control characters (found by the differential fuzzer); the oracle's rule is kept.
        var doc = new List<byte> { 0x40, 0x01, (byte)'a' };
        for (int i = 0; i < attributes - 2; i++) doc.AddRange([0x04, 0x02, (byte)'f', (byte)('a' + i), 0x98, 0x01, (byte)'v']);
        void Declare(string prefix, string ns)
        {
            byte[] p = System.Text.Encoding.UTF8.GetBytes(prefix), n = System.Text.Encoding.UTF8.GetBytes(ns);
            if (p.Length == 0) doc.Add(0x08);
            else { doc.Add(0x09); doc.Add((byte)p.Length); doc.AddRange(p); }
            doc.Add((byte)n.Length);
            doc.AddRange(n);
        }
        Declare(first, "urn:1");
        Declare(second, "urn:2");
        doc.Add(0x01);
        byte[] data = [.. doc];
        Exception? inBox = Record.Exception(() => ReadAllInBox(data));
        Exception? ours = Record.Exception(() => ReadAll(data));
        Exception? adapter = Record.Exception(() => NodeStream.FromAdapter(data));
        if (duplicate)
        {
            Assert.IsAssignableFrom<XmlException>(inBox);
            Assert.IsType<BinaryXmlException>(ours);
            Assert.IsType<BinaryXmlException>(adapter);
        }
        else
        {
            Assert.Null(inBox);
            Assert.Null(ours);
            Assert.Null(adapter);
        }
    }

    [Fact]
    public void No_culture_sorts_two_different_prefixes_of_ASCII_letters_and_digits_as_equal()
    {
        // The readers check a long start tag whose declared prefixes are all ASCII letters and digits (or empty) by
        // their bytes, not by the current culture's sort keys: two different such prefixes must never be equal as a
        // culture compares them. Checked for every culture's sorting on all prefixes of up to two such characters and
        // the three-character ones of the letters that make contractions (Czech ch, Hungarian dzs, Spanish ll...).
        const string Alphanumerics = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        const string Contracting = "cdglnsyz";
        var prefixes = new List<string> { "" };
        foreach (char a in Alphanumerics)
        {
            prefixes.Add(a.ToString());
            foreach (char b in Alphanumerics) prefixes.Add(string.Concat(a, b));
        }
        foreach (char a in Contracting)
        {
            foreach (char b in Contracting)
            {
                foreach (char c in Contracting) prefixes.Add(string.Concat(a, b, c));
            }
        }
        var sortings = new HashSet<string>();
        foreach (System.Globalization.CultureInfo culture in System.Globalization.CultureInfo.GetCultures(System.Globalization.CultureTypes.AllCultures).Append(System.Globalization.CultureInfo.CurrentCulture))
        {
            System.Globalization.CompareInfo compare = culture.CompareInfo;
            if (!sortings.Add(compare.Name)) continue;
            var keys = new Dictionary<string, string>();
            foreach (string prefix in prefixes)
            {
                string key = Convert.ToHexString(compare.GetSortKey(prefix, System.Globalization.CompareOptions.None).KeyData);
                Assert.True(keys.TryAdd(key, prefix), $"'{compare.Name}' sorts '{prefix}' as '{keys.GetValueOrDefault(key)}'");
            }
        }
        Assert.True(sortings.Count > 100, $"{sortings.Count} sortings");
    }

    [Theory]
    [InlineData("reserved 0x00", "40 01 61 00 01")]
    [InlineData("reserved 0x78", "40 01 61 78 01")]
    [InlineData("reserved 0x7F", "7F")]
    [InlineData("reserved 0xA5", "40 01 61 A5 01")]
    [InlineData("reserved 0xA7", "40 01 61 A7 01")]
    [InlineData("reserved 0xBE", "40 01 61 BE 01")]
    [InlineData("reserved 0xFF", "40 01 61 FF 01")]
    [InlineData("attribute after content", "40 01 61 98 01 62 04 01 78 A8 01")]
    [InlineData("WithEndElement as attribute value", "40 01 61 04 01 78 99 01 62 01")]
    [InlineData("EndListText as attribute value", "40 01 61 04 01 78 A6 01")]
    [InlineData("element as attribute value", "40 01 61 04 01 78 40 01 62 01")]
    [InlineData("nested list", "40 01 61 A4 A4 A6 A6 01")]
    [InlineData("EndListText outside a list", "40 01 61 A6 01")]
    [InlineData("element inside a list", "40 01 61 A4 40 01 62 01 A6 01")]
    [InlineData("text outside the root", "98 01 61")]
    [InlineData("EndElement at depth 0", "01")]
    [InlineData("WithEndElement at depth 0", "81")]
    [InlineData("odd UnicodeChars length", "40 01 61 B6 03 61 00 62 01")]
    [InlineData("negative Chars32 length", "40 01 61 9C FF FF FF FF 01")]
    [InlineData("negative Bytes32 length", "40 01 61 A2 00 00 00 80 01")]
    [InlineData("Chars8 length past the end", "40 01 61 98 05 61 62")]
    [InlineData("name length past the end", "40 09 61 62 63")]
    [InlineData("MultiByteInt31 fifth byte above 7", "40 FF FF FF FF 08")]
    [InlineData("MultiByteInt31 of six bytes", "40 80 80 80 80 80 01")]
    [InlineData("Array of an Array", "03 03 40 01 61 01 8D 01 00 00 00 00")]
    [InlineData("Array element without EndElement", "03 40 01 61 8D 01 00 00 00 00")]
    [InlineData("Array element followed by WithEndElement text", "03 40 01 61 81 8D 01 00 00 00 00")]
    [InlineData("Array of a non-array type", "03 40 01 61 01 99 01 61")]
    [InlineData("Array of a plain type", "03 40 01 61 01 8C 01 00 00 00 00")]
    [InlineData("Array count zero", "03 40 01 61 01 8D 00")]
    [InlineData("Array count beyond the input", "03 40 01 61 01 8D 05 01 00 00 00")]
    [InlineData("Array count near int.MaxValue", "03 40 01 61 01 8D FF FF FF FF 07 01 00 00 00")]
    [InlineData("unclosed element", "40 01 61")]
    [InlineData("multiple root elements", "40 01 61 01 40 01 62 01")]
    [InlineData("element after a top-level array", "03 40 01 61 01 8D 01 00 00 00 00 40 01 62 01")]
    [InlineData("element prefix not declared", "5E 01 61 01")]
    [InlineData("attribute prefix not declared", "40 01 61 05 01 70 01 78 A8 01")]
    [InlineData("duplicate attribute", "40 01 61 04 01 78 A8 04 01 78 A8 01")]
    [InlineData("duplicate attribute through two prefixes", "40 01 61 09 01 70 01 75 09 01 71 01 75 35 01 78 A8 36 01 78 A8 01")]
    [InlineData("duplicate xmlns prefix", "40 01 61 09 01 70 01 78 09 01 70 01 79 01")]
    [InlineData("duplicate xmlns prefix of two letters", "40 01 61 09 02 70 71 01 78 09 01 70 01 79 09 02 70 71 01 7A 01")]
    [InlineData("duplicate default declaration", "40 01 61 08 01 78 09 01 70 01 79 08 01 7A 01")]
    [InlineData("duplicate xmlns prefix after a longer one", "40 01 61 09 01 70 01 78 09 02 70 71 01 79 09 01 70 01 7A 01")]
    [InlineData("prefix bound to the empty namespace", "40 01 61 09 01 70 00 01")]
    [InlineData("xml prefix rebound", "40 01 61 09 03 78 6D 6C 01 78 01")]
    [InlineData("static dictionary id without dictionary", "42 02 01")]
    [InlineData("session id without session", "42 03 01")]
    public void Malformed_documents_are_rejected_like_the_in_box_reader_does(string what, string hex)
    {
        byte[] data = Hex.Parse(hex);
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data));
        Assert.InRange(e.Offset, 0, data.Length);
        Assert.Contains("byte offset", e.Message);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(data));
        _ = what;
    }

    [Theory]
    [InlineData("one static dictionary name twice", "40 01 61 06 00 A8 06 00 A8 01")]
    [InlineData("a static dictionary name and the same name inline", "40 01 61 06 00 A8 04 0E 6D 75 73 74 55 6E 64 65 72 73 74 61 6E 64 A8 01")]
    [InlineData("an inline name and the same static dictionary name", "40 01 61 04 0E 6D 75 73 74 55 6E 64 65 72 73 74 61 6E 64 A8 06 00 A8 01")]
    [InlineData("one session name twice", "40 01 61 06 01 A8 06 01 A8 01")]
    public void Duplicate_attributes_are_found_whether_their_names_are_inline_or_dictionary_strings(string what, string hex)
    {
        // Static id 0 is "mustUnderstand"; session id 1 (index 0) is "x".
        byte[] data = Hex.Parse(hex);
        var session = new XmlBinaryReaderSession();
        session.Add(0, "x");
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data, NbfsDictionary.Instance, session));
        Assert.Contains("Duplicate attribute", e.Message);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(data, NbfsDictionary.Instance, session));
        _ = what;
    }

    /// <summary>The attribute records of the duplicate cases of a start tag, the duplicate last; hex, with X for the xml namespace's UTF-8.</summary>
    public static TheoryData<string, string[]> DuplicateRecords => new()
    {
        { "one inline name twice", ["04 01 78 A8", "04 01 78 A8"] },
        { "one namespace through two prefixes", ["09 01 70 01 75", "09 01 71 01 75", "35 01 78 A8", "36 01 78 A8"] },
        { "a static dictionary name and the same name inline", ["06 00 A8", "04 0E 6D 75 73 74 55 6E 64 65 72 73 74 61 6E 64 A8"] },
        { "an inline name and the same static dictionary name", ["04 0E 6D 75 73 74 55 6E 64 65 72 73 74 61 6E 64 A8", "06 00 A8"] },
        { "one session name twice", ["06 01 A8", "06 01 A8"] },
        { "the xml prefix and another bound to its namespace", ["09 01 70 24 X", "05 03 78 6D 6C 01 78 A8", "35 01 78 A8"] },
        { "a letter prefix declared twice", ["09 01 70 01 78", "09 01 70 01 79"] },
        { "a prefix of two letters declared twice", ["09 02 70 71 01 78", "09 01 70 01 79", "09 02 70 71 01 7A"] },
        { "the default namespace declared twice", ["08 01 78", "09 01 70 01 79", "08 01 7A"] },
    };

    [Theory]
    [MemberData(nameof(DuplicateRecords))]
    public void Duplicates_in_a_long_start_tag_are_found_wherever_its_other_attributes_are(string what, string[] records)
    {
        // From 12 attribute records on, the start tag's duplicates are looked for in a table of hashes (in .NET's
        // reader, by sorting): the same duplicates as in a short tag, the later record of the pair reported, whether
        // the other attributes come before, between or after the pair.
        string xml = Convert.ToHexString(System.Text.Encoding.UTF8.GetBytes("http://www.w3.org/XML/1998/namespace"));
        var session = new XmlBinaryReaderSession();
        session.Add(0, "x");
        foreach (int others in new[] { 0, 12, 300 })
        {
            foreach (string place in new[] { "before", "between", "after" })
            {
                var document = new List<byte> { 0x40, 0x01, (byte)'a' };
                int duplicateOffset = 0, other = 0;
                void AddOthers(int count)
                {
                    // Distinct local names: "f" and two letters.
                    for (int i = 0; i < count; i++, other++) document.AddRange([0x04, 0x03, (byte)'f', (byte)('a' + other / 26), (byte)('a' + other % 26), 0xA8]);
                }
                if (place == "before") AddOthers(others);
                for (int r = 0; r < records.Length; r++)
                {
                    if (place == "between") AddOthers(others / records.Length);
                    if (r == records.Length - 1) duplicateOffset = document.Count;
                    document.AddRange(Hex.Parse(records[r].Replace("X", xml)));
                }
                if (place == "after") AddOthers(others);
                document.Add(0x01);
                byte[] data = [.. document];
                BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data, NbfsDictionary.Instance, session, BinaryXmlReaderOptions.Trusted));
                Assert.True(e.Message.Contains("Duplicate attribute") || e.Message.Contains("declared twice"), e.Message);
                Assert.Equal(duplicateOffset, e.Offset);
                Assert.Equal(duplicateOffset, Assert.Throws<BinaryXmlException>(() => NodeStream.FromAdapter(data, NbfsDictionary.Instance, session)).Offset);
                // .NET's reader rejects each too, in one case (the xml namespace, in a long tag) with an
                // IndexOutOfRangeException from its sort rather than an XmlException.
                Assert.NotNull(Record.Exception(() => ReadAllInBox(data, NbfsDictionary.Instance, session)));
            }
        }
        _ = what;
    }

    [Theory]
    [InlineData(12)]
    [InlineData(2000)]
    public void A_long_start_tag_of_one_local_name_in_many_namespaces_reads_as_in_box(int attributes)
    {
        // Every attribute is "x", each in its own namespace, and with the same name as a static dictionary string in
        // one more: none is a duplicate, though their local names are all equal.
        var document = new List<byte> { 0x40, 0x01, (byte)'a' };
        for (int i = 0; i < attributes; i++)
        {
            byte[] prefix = System.Text.Encoding.ASCII.GetBytes("p" + i);
            document.Add(0x09);
            document.Add((byte)prefix.Length);
            document.AddRange(prefix);
            document.AddRange([(byte)(prefix.Length + 3), (byte)'u', (byte)'r', (byte)'n', .. prefix]);
            document.Add(0x05);
            document.Add((byte)prefix.Length);
            document.AddRange(prefix);
            document.AddRange([0x01, (byte)'x', 0xA8]);
        }
        document.AddRange([0x04, 0x01, (byte)'x', 0xA8, 0x06, 0x00, 0xA8, 0x01]);
        byte[] data = [.. document];
        ReadAllInBox(data, NbfsDictionary.Instance);
        Assert.Equal(NodeStream.FromInBox(data, NbfsDictionary.Instance), NodeStream.FromAdapter(data, NbfsDictionary.Instance));
        List<string> names = TokenNames(data, BinaryXmlTokenType.Attribute, NbfsDictionary.Instance);
        Assert.Equal(attributes + 2, names.Count);
        Assert.Equal($"p{attributes - 1}:x=urnp{attributes - 1}", names[attributes - 1]);
    }

    [Theory]
    [InlineData("pc", false)]
    [InlineData("p.c", false)]
    [InlineData("pc", true)]
    [InlineData("p.c", true)]
    public void A_long_start_tag_resolves_prefixes_declared_on_it_and_around_it_as_in_box(string declared, bool unbound)
    {
        // <r xmlns:pa="urn:oa" xmlns:pb="urn:ob"><e f0..f9="v" xmlns:pb="urn:ib" xmlns:{declared}="urn:c" pa:x pb:x
        // {declared}:x [pz:x]/></r>: prefixes found among the tag's own declarations (by bytes, or by the culture's sort
        // keys when one is not letters and digits), one redeclared there, one only outside, and one nowhere.
        var document = new List<byte>();
        void Name(string s)
        {
            byte[] bytes = System.Text.Encoding.UTF8.GetBytes(s);
            document.Add((byte)bytes.Length);
            document.AddRange(bytes);
        }
        void Declare(string prefix, string ns)
        {
            document.Add(0x09);
            Name(prefix);
            Name(ns);
        }
        void Attribute(string prefix, string local)
        {
            document.Add(0x05);
            Name(prefix);
            Name(local);
            document.AddRange([0x98, 0x01, (byte)'v']);
        }
        document.Add(0x40);
        Name("r");
        Declare("pa", "urn:oa");
        Declare("pb", "urn:ob");
        document.Add(0x40);
        Name("e");
        for (int i = 0; i < 10; i++)
        {
            document.Add(0x04);
            Name("f" + i);
            document.AddRange([0x98, 0x01, (byte)'v']);
        }
        Declare("pb", "urn:ib");
        Declare(declared, "urn:c");
        Attribute("pa", "x");
        Attribute("pb", "x");
        Attribute(declared, "x");
        if (unbound) Attribute("pz", "x");
        document.AddRange([0x01, 0x01]);
        byte[] data = [.. document];
        if (unbound)
        {
            Assert.ThrowsAny<XmlException>(() => ReadAllInBox(data));
            BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data));
            Assert.Contains("'pz' is not defined", e.Message);
            Assert.Throws<BinaryXmlException>(() => NodeStream.FromAdapter(data));
            return;
        }
        ReadAllInBox(data);
        Assert.Equal(NodeStream.FromInBox(data), NodeStream.FromAdapter(data));
        List<string> names = TokenNames(data, BinaryXmlTokenType.Attribute);
        Assert.Equal(["pa:x=urn:oa", "pb:x=urn:ib", declared + ":x=urn:c"], names.Where(n => n.Contains(":x=", StringComparison.Ordinal)).ToList());
    }

    [Fact]
    public void A_prefix_bound_to_an_empty_session_string_is_rejected_as_bound_to_the_empty_namespace()
    {
        // xmlns:p= session id 1 (index 0), which is "": as xmlns:p="" inline.
        byte[] data = Hex.Parse("40 01 61 0B 01 70 01 01");
        var session = new XmlBinaryReaderSession();
        session.Add(0, "");
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data, null, session));
        Assert.Contains("empty namespace", e.Message);
        Assert.Equal(3, e.Offset);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(data, null, session));
    }

    [Fact]
    public void Attributes_of_one_local_name_are_duplicates_only_in_one_namespace()
    {
        // xmlns:p="u" xmlns:q="u" p:x="" q:x="": one namespace through two prefixes, rejected by both readers as a
        // duplicate; with xmlns:q="v" the two are distinct, accepted by both, each attribute in its own namespace.
        byte[] duplicate = Hex.Parse("40 01 61 09 01 70 01 75 09 01 71 01 75 35 01 78 A8 36 01 78 A8 01");
        Assert.Contains("Duplicate attribute", Assert.Throws<BinaryXmlException>(() => ReadAll(duplicate)).Message);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(duplicate));
        byte[] distinct = Hex.Parse("40 01 61 09 01 70 01 75 09 01 71 01 76 35 01 78 A8 36 01 78 A8 01");
        ReadAllInBox(distinct);
        Assert.Equal(["p:x=u", "q:x=v"], TokenNames(distinct, BinaryXmlTokenType.Attribute));
        using var adapter = BinaryXmlDictionaryReader.Create(distinct, 0, distinct.Length, null, XmlDictionaryReaderQuotas.Max);
        adapter.Read();
        Assert.Equal("", adapter.GetAttribute("x", "v"));
        Assert.True(adapter.MoveToAttribute("x", "u"));
        Assert.Equal("p", adapter.Prefix);
    }

    [Fact]
    public void Declarations_of_distinct_prefixes_on_one_element_are_accepted_whatever_their_lengths()
    {
        // xmlns="u" xmlns:p="v" xmlns:pq="w" xmlns:q="x" xmlns:P="y" xmlns:qp="z": no prefix twice, whether it is
        // empty, a letter or longer (the start tag's check tells the first two kinds apart by a bit each).
        byte[] data = Hex.Parse("40 01 61 08 01 75 09 01 70 01 76 09 02 70 71 01 77 09 01 71 01 78 09 01 50 01 79 09 02 71 70 01 7A 01");
        ReadAllInBox(data);
        Assert.Equal([":=u", "p:=v", "pq:=w", "q:=x", "P:=y", "qp:=z"], TokenNames(data, BinaryXmlTokenType.NamespaceDeclaration));
    }

    /// <summary>"prefix:local=namespace" of every token of one type the native reader reads (a declaration has no local name).</summary>
    private static List<string> TokenNames(byte[] data, BinaryXmlTokenType type, IXmlDictionary? dictionary = null)
    {
        var r = new BinaryXmlReader(data, dictionary, null, BinaryXmlReaderOptions.Trusted);
        var names = new List<string>();
        while (r.Read())
        {
            if (r.TokenType == type) names.Add($"{r.Prefix.ToString()}:{r.LocalName.ToString()}={r.NamespaceUri.ToString()}");
        }
        r.Dispose();
        return names;
    }

    [Fact]
    public void QName_prefix_index_above_25_is_rejected()
    {
        byte[] data = Hex.Parse("40 01 61 BC 1A 02 01");
        Assert.Throws<BinaryXmlException>(() => ReadAll(data, NbfsDictionary.Instance));
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(data, NbfsDictionary.Instance));
    }

    [Fact]
    public void Unknown_static_and_session_ids_are_rejected()
    {
        // 0x3CE = 974: key 487, one past the MC-NBFS table.
        Assert.Contains("not defined in the static dictionary", Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("42 CE 07 01"), NbfsDictionary.Instance)).Message);
        var session = new XmlBinaryReaderSession();
        session.Add(0, "known");
        ReadAll(Hex.Parse("42 01 01"), null, session);
        Assert.Contains("not defined in the session", Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("42 03 01"), null, session)).Message);
        Assert.ThrowsAny<XmlException>(() => ReadAllInBox(Hex.Parse("42 03 01"), null, session));
    }

    [Fact]
    public void Every_static_dictionary_string_reads_as_in_box()
    {
        // MC-NBFS's strings are looked up in line, by key in an array. Each of them, as an element's name, an
        // attribute's name and a declared namespace, reads as in-box reads it: <r><k k="v" xmlns="k"/></r> and
        // <r><a:k a:k="v" xmlns:a="k"/></r>, through the native and the drop-in reader. Keys from 64 take two-byte
        // ids; the key past the table fails (above).
        int read = 0;
        for (int key = 0; key < NbfsDictionary.Count; key++)
        {
            int wire = key * 2;
            byte[] id = wire < 0x80 ? [(byte)wire] : [(byte)(wire | 0x80), (byte)(wire >> 7)];
            byte[] unprefixed = [0x40, 0x01, 0x72, 0x42, .. id, 0x06, .. id, 0x98, 0x01, 0x76, 0x0A, .. id, 0x01, 0x01];
            byte[] prefixed = [0x40, 0x01, 0x72, 0x44, .. id, 0x0C, .. id, 0x98, 0x01, 0x76, 0x0B, 0x01, 0x61, .. id, 0x01, 0x01];
            foreach (byte[] data in new[] { unprefixed, prefixed })
            {
                string inBox = NodesOrFails(() => NodeStream.FromInBox(data, NbfsDictionary.Instance), ours: false);
                string what = $"key {key} ({NbfsDictionary.Instance.GetByWireId(wire).Value}), {(data == prefixed ? "prefixed" : "unprefixed")}";
                Assert.True(inBox == NodesOrFails(() => NodeStream.FromNative(data, NbfsDictionary.Instance), ours: true), $"{what}: native reader");
                Assert.True(inBox == NodesOrFails(() => NodeStream.FromAdapter(data, NbfsDictionary.Instance), ours: true), $"{what}: drop-in reader");
                if (inBox != "fails") read++;
            }
        }
        // Most strings make a valid name and namespace (the empty string, "xmlns" and the like do not).
        Assert.InRange(read, 2 * NbfsDictionary.Count - 10, 2 * NbfsDictionary.Count);
    }

    /// <summary>The nodes a read returns, or "fails": ours must fail with a <see cref="BinaryXmlException"/> only.</summary>
    private static string NodesOrFails(Func<List<string>> read, bool ours)
    {
        try
        {
            return string.Join(" | ", read());
        }
        catch (XmlException e) when (!ours || e is BinaryXmlException)
        {
            return "fails";
        }
    }

    [Fact]
    public void Depth_beyond_MaxDepth_is_rejected_and_any_depth_reads_without_recursion()
    {
        byte[] nested(int depth) => [.. Enumerable.Repeat<byte[]>([0x40, 0x01, 0x61], depth).SelectMany(b => b), .. Enumerable.Repeat((byte)0x01, depth)];
        ReadAll(nested(32));
        Assert.Contains("maximum read depth (32)", Assert.Throws<BinaryXmlException>(() => ReadAll(nested(33))).Message);
        Assert.Throws<BinaryXmlException>(() => ReadAll(nested(1_000_000)));
        ReadAll(nested(200_000), options: new BinaryXmlReaderOptions { MaxDepth = int.MaxValue });
    }

    [Theory]
    [InlineData("40 05 63")]          // the name runs past the end of the input
    [InlineData("40 01 FF 01 01 01")] // the name is not UTF-8
    [InlineData("42 02 01 01 01")]    // a static dictionary name, no dictionary given
    public void Depth_beyond_MaxDepth_fails_before_the_elements_name_is_read_as_in_box(string element)
    {
        // .NET's reader enters the element's scope, and checks the depth, before it reads the name.
        byte[] data = [0x40, 0x01, 0x61, 0x40, 0x01, 0x62, .. Hex.Parse(element)];
        Assert.Contains("maximum read depth (2)", Assert.Throws<BinaryXmlException>(() => ReadAll(data, options: new BinaryXmlReaderOptions { MaxDepth = 2 })).Message);
        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(data, new XmlDictionaryReaderQuotas { MaxDepth = 2 });
        Assert.Contains("maximum read depth (2)", Assert.Throws<XmlException>(() => { while (inBox.Read()) { } }).Message);
    }

    [Theory]
    [InlineData("string", "40 01 61 9A 01 20 {x8192} 78 01", "MaxStringContentLength")]
    [InlineData("unicode string", "40 01 61 B8 02 40 {u8193} 01", "MaxStringContentLength")]
    [InlineData("comment", "02 81 40 {x8193}", "MaxStringContentLength")]
    [InlineData("bytes", "40 01 61 A0 01 40 {x16385} 01", "MaxArrayLength")]
    [InlineData("array", "03 40 01 61 01 B5 81 80 01 {x16385}", "MaxArrayLength")]
    [InlineData("attributes", "40 01 61 04 01 78 9A 00 10 {x4096} 01", "MaxBytesPerRead")]
    public void Quotas_are_enforced_with_their_names_and_lifted_by_Trusted(string what, string template, string quota)
    {
        string hex = template.Replace("{x8192}", string.Join(" ", Enumerable.Repeat("78", 8192)))
            .Replace("{x8193}", string.Join(" ", Enumerable.Repeat("78", 8193)))
            .Replace("{u8193}", string.Join(" ", Enumerable.Repeat("79 00", 8193)))
            .Replace("{x16385}", string.Join(" ", Enumerable.Repeat("01", 16385)))
            .Replace("{x4096}", string.Join(" ", Enumerable.Repeat("78", 4096)));
        byte[] data = Hex.Parse(hex);
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(data));
        Assert.Contains(quota, e.Message);
        ReadAll(data, options: BinaryXmlReaderOptions.Trusted);
        _ = what;
    }

    [Fact]
    public void Quotas_allow_exactly_their_limit()
    {
        ReadAll(Hex.Parse("40 01 61 9A 00 60 " + string.Join(" ", Enumerable.Repeat("E6 97 A5", 8192)) + " 01")); // 8,192 chars in 24,576 bytes
        ReadAll(Hex.Parse("03 40 01 61 01 B5 80 80 01 " + string.Join(" ", Enumerable.Repeat("01", 16384))));
        // Attribute records of 4,096 bytes (6 bytes of record and length, 4,090 of text) in one start tag; one more fails.
        ReadAll(Hex.Parse("40 01 61 04 01 78 9A FA 0F " + string.Join(" ", Enumerable.Repeat("78", 4090)) + " 01"));
        Assert.Contains("MaxBytesPerRead", Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("40 01 61 04 01 78 9A FB 0F " + string.Join(" ", Enumerable.Repeat("78", 4091)) + " 01"))).Message);
    }

    [Fact]
    public void A_small_MaxStringContentLength_applies_to_short_text()
    {
        // Short ASCII text takes a path without the full UTF-8 check (up to 32 bytes): the quota still counts its characters.
        var options = new BinaryXmlReaderOptions { MaxStringContentLength = 4 };
        // Followed by an element with a 16-byte name, so that the path's 16-byte window fits in the input.
        string next = " 40 10 " + string.Join(" ", Enumerable.Repeat("62", 16)) + " 01";
        foreach (string type in new[] { "98", "99" })
        {
            string end = (type == "99" ? "" : " 01") + next + " 01";
            ReadAll(Hex.Parse($"40 01 72 40 01 61 {type} 04 61 62 63 64" + end), options: options);
            BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse($"40 01 72 40 01 61 {type} 05 61 62 63 64 65" + end), options: options));
            Assert.Contains("MaxStringContentLength", e.Message);
        }
        // An attribute's short ASCII value is parsed in line with its record: the quota applies there too.
        ReadAll(Hex.Parse("40 01 72 40 01 61 04 01 6E 98 04 61 62 63 64 01" + next + " 01"), options: options);
        Assert.Contains("MaxStringContentLength", Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("40 01 72 40 01 61 04 01 6E 98 05 61 62 63 64 65 01" + next + " 01"), options: options)).Message);
    }

    [Fact]
    public void Lenient_where_the_in_box_reader_is_lenient()
    {
        // Typed records and lists outside the root element (found by fuzzing: the in-box reader accepts them).
        foreach (string hex in new[] { "82 A4 A6", "88 05 40 01 61 01", "A4 82 A6 40 01 61 01" })
        {
            ReadAll(Hex.Parse(hex));
            ReadAllInBox(Hex.Parse(hex));
            Assert.Equal(NodeStream.FromInBox(Hex.Parse(hex)), NodeStream.FromAdapter(Hex.Parse(hex)));
        }
        // Non-minimal MultiByteInt31 (80 00 = 0) and BoolText other than 0/1 are accepted by .NET's reader; so by ours.
        ReadAll(Hex.Parse("40 80 00 01"));
        ReadAllInBox(Hex.Parse("40 80 00 01"));
        var r = new BinaryXmlReader(Hex.Parse("40 01 61 B5 07"));
        r.Read(); r.Read();
        Assert.True(r.GetBoolean());
    }

    [Fact]
    public void Invalid_utf8_and_lone_surrogates_are_rejected()
    {
        Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("40 01 61 98 02 C3 28 01")));
        Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("40 02 C3 28 01")));
        Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("40 01 61 B6 02 00 D8 01")));
        Assert.Throws<BinaryXmlException>(() => ReadAll(Hex.Parse("40 01 61 B6 04 00 DC 00 D8 01")));
    }

    /// <summary>
    /// UnicodeChars text of 130 CJK characters with, at positions on both sides of each vector width, a lone high
    /// surrogate before a character, a lone low one, two high ones before a low one, a low one before a high one, or a
    /// high one ending the text: refused by the native and drop-in readers (at the record) and by the in-box reader (at
    /// its value); a surrogate pair there is read as it is by all three.
    /// </summary>
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(15)]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(31)]
    [InlineData(32)]
    [InlineData(33)]
    [InlineData(63)]
    [InlineData(64)]
    [InlineData(100)]
    [InlineData(127)]
    public void Lone_surrogates_in_utf16_text_are_rejected_wherever_they_are(int position)
    {
        static byte[] Doc(string text)
        {
            // The characters as they are (an encoder would replace a lone surrogate); the test host is little-endian.
            Assert.True(BitConverter.IsLittleEndian);
            byte[] utf16 = System.Runtime.InteropServices.MemoryMarshal.AsBytes(text.AsSpan()).ToArray();
            return [0x40, 0x01, (byte)'a', 0xB8, .. BitConverter.GetBytes((ushort)utf16.Length), .. utf16, 0x01];
        }
        string cjk = new('日', 130);
        string With(string inserted) => cjk[..position] + inserted + cjk[(position + inserted.Length)..];
        string[] lone = [With("\uD83D"), With("\uDE00"), With("\uD83D\uD83D\uDE00"), With("\uDE00\uD83D"), cjk[..^1] + "\uD83D"];
        foreach (string text in lone)
        {
            byte[] doc = Doc(text);
            Assert.Throws<BinaryXmlException>(() => ReadAll(doc));
            Assert.ThrowsAny<Exception>(() => ReadAllInBox(doc));
            Assert.ThrowsAny<XmlException>(() =>
            {
                using XmlDictionaryReader adapter = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max);
                while (adapter.Read()) { }
            });
        }
        string pair = With("\uD83D\uDE00");
        byte[] valid = Doc(pair);
        using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(valid, XmlDictionaryReaderQuotas.Max);
        Assert.Equal(pair, inBox.ReadElementContentAsString());
        using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(valid, 0, valid.Length, null, XmlDictionaryReaderQuotas.Max);
        Assert.Equal(pair, ours.ReadElementContentAsString());
        var r = new BinaryXmlReader(valid);
        try
        {
            r.Read();
            r.Read();
            Assert.Equal(pair, r.GetString());
        }
        finally
        {
            r.Dispose();
        }
    }

    [Theory]
    [InlineData("ascii")]
    [InlineData("mixed")]
    [InlineData("pairs")]
    [InlineData("late")]
    public void Text_of_every_length_decodes_as_the_in_box_reader_decodes_it(string kind)
    {
        // Non-ASCII text up to 4 MB is transcoded in one pass, through a buffer on the stack up to 256 bytes and a
        // pooled one above, the rest through Encoding.UTF8: lengths on both sides of each bound, in a Chars32Text
        // record, read by all three readers.
        const int Mb4 = 4 * 1024 * 1024;
        foreach (int bytes in new[] { 1, 2, 63, 64, 65, 255, 256, 257, 4096, 65536, 200_000, Mb4 - 1, Mb4, Mb4 + 1 })
        {
            string text = kind switch
            {
                "ascii" => new string('x', bytes),
                "mixed" => Utf8Prefix(string.Concat(Enumerable.Repeat("aé日x", bytes / 4 + 1)), bytes),
                "pairs" => Utf8Prefix(string.Concat(Enumerable.Repeat("\U0001F600", bytes / 4 + 1)), bytes),
                _ => new string('x', Math.Max(0, bytes - 2)) + (bytes >= 2 ? "é" : ""),
            };
            byte[] utf8 = System.Text.Encoding.UTF8.GetBytes(text);
            byte[] doc = [0x40, 0x01, (byte)'a', 0x9C, .. BitConverter.GetBytes(utf8.Length), .. utf8, 0x01];
            var quotas = XmlDictionaryReaderQuotas.Max;
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(doc, quotas);
            using XmlDictionaryReader adapter = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas);
            Assert.Equal(text, inBox.ReadElementContentAsString());
            Assert.Equal(text, adapter.ReadElementContentAsString());
            var r = new BinaryXmlReader(doc, null, null, BinaryXmlReaderOptions.Trusted);
            try
            {
                r.Read();
                r.Read();
                Assert.True(text == r.GetString(), $"{kind}, {utf8.Length} bytes");
            }
            finally
            {
                r.Dispose();
            }
        }

        // The longest prefix of whole characters (never half a surrogate pair) within the byte count.
        static string Utf8Prefix(string s, int bytes)
        {
            int chars = 0, used = 0;
            while (chars < s.Length)
            {
                int width = char.IsHighSurrogate(s[chars]) ? 2 : 1;
                int size = System.Text.Encoding.UTF8.GetByteCount(s.AsSpan(chars, width));
                if (used + size > bytes) break;
                used += size;
                chars += width;
            }
            return s[..chars];
        }
    }

    [Fact]
    public void Utf8_of_names_and_text_is_checked_at_every_length_and_position()
    {
        // Short names and values, of elements and of attributes, are tested for a high bit 16 bytes at a time (up to
        // 64, the vectors overlapping; an attribute's name and value of up to 16 bytes each in line with its record)
        // before the full validation: every length up to 72, with an invalid byte (0xFF), a valid two-byte character
        // or nothing at each position, followed by many bytes or by the end of the input.
        foreach (bool padded in new[] { false, true })
        {
            for (int length = 1; length <= 72; length++)
            {
                for (int at = -1; at < length; at++)
                {
                    foreach (bool valid in new[] { false, true })
                    {
                        if (at == length - 1 && valid) continue; // no room for a two-byte character
                        byte[] text = Enumerable.Repeat((byte)'a', length).ToArray();
                        if (at >= 0 && valid) { text[at] = 0xC3; text[at + 1] = 0xA9; }
                        else if (at >= 0) text[at] = 0xFF;
                        bool expectValid = at < 0 || valid;
                        string expected = System.Text.Encoding.UTF8.GetString(text);
                        // <name/> with the bytes as the name, then <a>bytes</a> with them as the text.
                        byte[] tail = padded ? [0x98, 30, .. Enumerable.Repeat((byte)'z', 30), 0x01] : [0x01];
                        byte[] asName = [0x40, 0x01, (byte)'r', 0x40, (byte)length, .. text, 0x01, .. tail];
                        byte[] asText = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', 0x99, (byte)length, .. text, .. tail];
                        // <a NAME="v"/> and <a n="TEXT"/>: attributes of up to 16 bytes of name and value are parsed in line.
                        byte[] asAttributeName = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', 0x04, (byte)length, .. text, 0x98, 0x01, (byte)'v', 0x01, .. tail];
                        byte[] asAttributeValue = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', 0x04, 0x01, (byte)'n', 0x98, (byte)length, .. text, 0x01, .. tail];
                        foreach ((byte[] doc, string kind) in new[] { (asName, "name"), (asText, "text"), (asAttributeName, "attribute name"), (asAttributeValue, "attribute value") })
                        {
                            string what = $"{kind} of {length} bytes, {(at < 0 ? "ASCII" : valid ? "é" : "0xFF")} at {at}, {(padded ? "padded" : "at the end")}";
                            if (!expectValid)
                            {
                                Assert.Throws<BinaryXmlException>(() => ReadAll(doc));
                                continue;
                            }
                            var r = new BinaryXmlReader(doc);
                            try
                            {
                                r.Read();
                                r.Read();
                                if (kind != "name") r.Read();
                                string actual = kind switch
                                {
                                    "name" or "attribute name" => r.LocalName.ToString(),
                                    _ => r.GetString(),
                                };
                                Assert.True(expected == actual, what);
                                if (kind == "attribute value") Assert.True(r.TokenType == BinaryXmlTokenType.Attribute && r.LocalName.ToString() == "n", what);
                                while (r.Read()) { }
                            }
                            finally
                            {
                                r.Dispose();
                            }
                        }
                    }
                }
            }
        }
    }

    [Theory]
    // ShortDictionaryXmlnsAttribute: xmlns=dictionary string, one-byte and two-byte ids, static and session.
    [InlineData("default namespace", "0A 02", "40 01 61 01")]
    [InlineData("default namespace, the empty string", "0A 0A", "40 01 61 01")]
    [InlineData("default namespace, a two-byte id", "0A 80 01", "40 01 61 01")]
    [InlineData("default namespace, the highest one-byte id", "0A 7E", "40 01 61 01")]
    [InlineData("default namespace of the session", "0A 01", "40 01 61 01")]
    [InlineData("default namespace, an id the session lacks", "0A 03", "40 01 61 01")]
    [InlineData("default namespace, an id the dictionary lacks", "0A C8 01", "40 01 61 01")]
    [InlineData("default namespace, the input ending in its id", "0A 80", "")]
    [InlineData("default namespace declared twice", "0A 02 0A 04", "40 01 61 01")]
    // DictionaryXmlnsAttribute: xmlns:PREFIX=dictionary string; one letter a–z in line, other prefixes not.
    [InlineData("letter prefix", "0B 01 70 02", "6D 01 61 01")]
    [InlineData("letter prefix, the empty string", "0B 01 70 0A", "6D 01 61 01")]
    [InlineData("letter prefix, a two-byte id", "0B 01 70 80 01", "6D 01 61 01")]
    [InlineData("letter prefix of the session", "0B 01 70 01", "6D 01 61 01")]
    [InlineData("letter prefix, an id the session lacks", "0B 01 70 03", "6D 01 61 01")]
    [InlineData("letter prefix, unbound where used", "0B 01 70 02", "6E 01 61 01")]
    [InlineData("the letters a and z", "0B 01 61 02 0B 01 7A 04", "5E 01 61 01 77 01 61 01")]
    [InlineData("two letters", "0B 01 70 02 0B 01 71 04", "6D 01 61 01 6E 01 61 01")]
    [InlineData("a letter declared twice", "0B 01 70 02 0B 01 70 04", "6D 01 61 01")]
    [InlineData("a letter declared twice, once inline", "0B 01 70 02 09 01 70 01 75", "6D 01 61 01")]
    [InlineData("a letter and the default namespace", "0A 02 0B 01 70 04", "6D 01 61 01 40 01 61 01")]
    [InlineData("upper-case prefix", "0B 01 50 02", "41 01 50 01 61 01")]
    [InlineData("prefix of two letters", "0B 02 70 71 02", "41 02 70 71 01 61 01")]
    [InlineData("empty prefix", "0B 00 02", "40 01 61 01")]
    [InlineData("prefix not UTF-8", "0B 01 FF 02", "40 01 61 01")]
    [InlineData("prefix 'x', then 'xml'", "0B 01 78 02 0B 03 78 6D 6C 04", "40 01 61 01")]
    [InlineData("the input ending in the prefix", "0B 01", "")]
    [InlineData("the input ending after the prefix", "0B 01 70", "")]
    public void Namespace_declarations_of_dictionary_strings_read_as_in_box(string what, string declarations, string content)
    {
        // <r DECLARATIONS>CONTENT</r>: declarations of a dictionary namespace for no prefix or a letter, with a
        // one-byte id, are parsed in line with the start tag; the rest take the general path. Each is read as in-box
        // reads it, the whole input and every truncation of it: the same nodes and namespaces, or a failure.
        var dictionary = new XmlDictionary();
        for (int i = 0; i < 70; i++) dictionary.Add(i == 5 ? "" : "urn:d" + i); // wire id 0x0A: the empty string
        var session = new XmlBinaryReaderSession();
        session.Add(0, "urn:s0");
        ReadsAsInBoxWholeAndCut(what, Hex.Parse($"40 01 72 {declarations} {content} 01".Replace("  ", " ")), dictionary, session);
    }

    [Theory]
    // ShortXmlnsAttribute: xmlns=inline namespace; up to 64 ASCII bytes with a one-byte length in line, others not.
    [InlineData("default namespace", "08 {ns:5}", "40 01 61 01")]
    [InlineData("default namespace, the empty string", "08 00", "40 01 61 01")]
    [InlineData("default namespace of 16 bytes", "08 {ns:16}", "40 01 61 01")]
    [InlineData("default namespace of 17 bytes", "08 {ns:17}", "40 01 61 01")]
    [InlineData("default namespace of 64 bytes", "08 {ns:64}", "40 01 61 01")]
    [InlineData("default namespace of 65 bytes", "08 {ns:65}", "40 01 61 01")]
    [InlineData("default namespace of 128 bytes, a two-byte length", "08 {ns:128}", "40 01 61 01")]
    [InlineData("default namespace outside ASCII", "08 06 75 72 6E 3A C3 A9", "40 01 61 01")]
    [InlineData("default namespace not UTF-8", "08 05 75 72 6E 3A FF", "40 01 61 01")]
    [InlineData("default namespace declared twice", "08 {ns:5} 08 {ns:6}", "40 01 61 01")]
    [InlineData("default namespace, the xmlns namespace", "08 {xmlns}", "40 01 61 01")]
    // XmlnsAttribute: xmlns:PREFIX=inline namespace; one letter a–z in line, other prefixes not.
    [InlineData("letter prefix", "09 01 62 {ns:44}", "5F 01 61 01")]
    [InlineData("letter prefix, the empty string", "09 01 62 00", "5F 01 61 01")]
    [InlineData("letter prefix of 64 bytes", "09 01 62 {ns:64}", "5F 01 61 01")]
    [InlineData("letter prefix of 65 bytes", "09 01 62 {ns:65}", "5F 01 61 01")]
    [InlineData("letter prefix outside ASCII", "09 01 62 06 75 72 6E 3A C3 A9", "5F 01 61 01")]
    [InlineData("letter prefix, unbound where used", "09 01 62 {ns:5}", "60 01 61 01")]
    [InlineData("the letters a and z", "09 01 61 {ns:5} 09 01 7A {ns:6}", "5E 01 61 01 77 01 61 01")]
    [InlineData("a letter declared twice", "09 01 62 {ns:5} 09 01 62 {ns:6}", "5F 01 61 01")]
    [InlineData("a letter declared twice, once by a dictionary string", "09 01 62 {ns:5} 0B 01 62 02", "5F 01 61 01")]
    [InlineData("a letter and the default namespace", "08 {ns:5} 09 01 62 {ns:6}", "5F 01 61 01 40 01 61 01")]
    [InlineData("a letter, the xmlns namespace", "09 01 62 {xmlns}", "5F 01 61 01")]
    [InlineData("a letter, the xml namespace", "09 01 62 {xml}", "5F 01 61 01")]
    [InlineData("the prefix 'x' and the xml namespace", "09 01 78 {xml}", "40 01 61 01")]
    [InlineData("the prefix 'xml' and the xml namespace", "09 03 78 6D 6C {xml}", "40 01 61 01")]
    [InlineData("the prefix 'xmlns'", "09 05 78 6D 6C 6E 73 {ns:5}", "40 01 61 01")]
    [InlineData("upper-case prefix", "09 01 42 {ns:5}", "41 01 42 01 61 01")]
    [InlineData("prefix of two letters", "09 02 70 71 {ns:5}", "41 02 70 71 01 61 01")]
    [InlineData("empty prefix", "09 00 {ns:5}", "40 01 61 01")]
    [InlineData("prefix not UTF-8", "09 01 FF {ns:5}", "40 01 61 01")]
    [InlineData("the input ending in the prefix", "09 01", "")]
    [InlineData("the input ending after the prefix", "09 01 62", "")]
    [InlineData("the input ending in the namespace", "09 01 62 05 75 72", "")]
    public void Namespace_declarations_of_inline_strings_read_as_in_box(string what, string declarations, string content)
    {
        // <r DECLARATIONS>CONTENT</r>: declarations of an inline namespace of at most 64 ASCII bytes for no prefix or
        // a letter are parsed in line with the start tag; the rest take the general path. Each is read as in-box
        // reads it, the whole input and every truncation of it: the same nodes and namespaces, or a failure.
        string hex = System.Text.RegularExpressions.Regex.Replace(declarations, @"\{ns:(\d+)\}", m => Inline("urn:" + new string('n', int.Parse(m.Groups[1].Value) - 4)))
            .Replace("{xmlns}", Inline("http://www.w3.org/2000/xmlns/"))
            .Replace("{xml}", Inline("http://www.w3.org/XML/1998/namespace"));
        ReadsAsInBoxWholeAndCut(what, Hex.Parse($"40 01 72 {hex} {content} 01".Replace("  ", " ")), null, new XmlBinaryReaderSession());

        static string Inline(string value)
        {
            byte[] utf8 = System.Text.Encoding.UTF8.GetBytes(value);
            byte[] length = utf8.Length < 0x80 ? [(byte)utf8.Length] : [(byte)(utf8.Length | 0x80), (byte)(utf8.Length >> 7)];
            return Convert.ToHexString([.. length, .. utf8]);
        }
    }

    [Theory]
    [InlineData("no prefix, OneText", "nbfs", "06 00 82")]
    [InlineData("no prefix, one character", "nbfs", "06 00 98 01 31")]
    [InlineData("no prefix, 16 characters", "nbfs", "06 00 98 10 61 62 63 64 65 66 67 68 69 6A 6B 6C 6D 6E 6F 70")]
    [InlineData("no prefix, 17 characters", "nbfs", "06 00 98 11 61 62 63 64 65 66 67 68 69 6A 6B 6C 6D 6E 6F 70 71")]
    [InlineData("no prefix, a character outside ASCII", "nbfs", "06 00 98 02 C3 A9")]
    [InlineData("no prefix, Int8Text", "nbfs", "06 00 88 05")]
    [InlineData("no prefix, a list", "nbfs", "06 00 A4 82 A6")]
    [InlineData("no prefix, OneTextWithEndElement", "nbfs", "06 00 83")]
    [InlineData("no prefix, EndListText alone", "nbfs", "06 00 A6")]
    [InlineData("no prefix, an element for a value", "nbfs", "06 00 40 01 61")]
    [InlineData("s:mustUnderstand, as SOAP writes it", "nbfs", "0B 01 73 04 1E 00 82")]
    [InlineData("the letter a", "nbfs", "0B 01 61 04 0C 00 82")]
    [InlineData("the letter z", "nbfs", "0B 01 7A 04 25 00 82")]
    [InlineData("a letter prefix unbound", "nbfs", "1E 00 82")]
    [InlineData("one name twice", "nbfs", "06 00 82 06 00 86")]
    [InlineData("a dictionary name and the same name inline", "nbfs", "06 00 82 04 0E 6D 75 73 74 55 6E 64 65 72 73 74 61 6E 64 86")]
    [InlineData("one name in two namespaces", "nbfs", "0B 01 73 04 0B 01 61 06 1E 00 82 0C 00 86")]
    [InlineData("one name in one namespace by two prefixes", "nbfs", "0B 01 73 04 0B 01 61 04 1E 00 82 0C 00 86")]
    [InlineData("a two-byte id", "nbfs", "06 80 01 82")]
    [InlineData("a three-byte id, its second byte a value record's type", "nbfs", "06 80 82 01 82")]
    [InlineData("a one-byte id through another dictionary", "small", "06 00 82 06 02 98 01 31")]
    [InlineData("the empty string for a name", "small", "06 04 82")]
    [InlineData("an id the dictionary lacks", "small", "06 06 82")]
    [InlineData("a letter prefix, another dictionary", "small", "09 01 73 01 75 1E 02 82")]
    [InlineData("an id of the session", "small", "06 01 82")]
    [InlineData("an id the session lacks", "small", "06 03 82")]
    [InlineData("a static id, no dictionary", "none", "06 00 82")]
    public void Attributes_named_by_dictionary_strings_read_as_in_box(string what, string dictionaryKind, string attributes)
    {
        // <r><a ATTRIBUTES>30 characters</a></r>: attributes named by a dictionary string with a one-byte id, without
        // prefix or with a letter, and a short value, are parsed in line with the start tag (with MC-NBFS's strings
        // looked up in line, another dictionary's and the session's through their lookups); the rest take the general
        // path. Each is read as in-box reads it, the whole input and every truncation of it (the text after the tag
        // gives the in-line parse the 16 bytes it asks for until the input is cut there).
        IXmlDictionary? dictionary = dictionaryKind switch
        {
            "nbfs" => NbfsDictionary.Instance,
            "small" => CreateDictionary("mustUnderstand", "n", ""),
            _ => null,
        };
        var session = new XmlBinaryReaderSession();
        session.Add(0, "s0");
        byte[] whole = Hex.Parse($"40 01 72 40 01 61 {attributes} 98 1E {string.Concat(Enumerable.Repeat("7A ", 30))}01 01");
        ReadsAsInBoxWholeAndCut(what, whole, dictionary, session);

        static XmlDictionary CreateDictionary(params string[] strings)
        {
            var created = new XmlDictionary();
            foreach (string value in strings) created.Add(value);
            return created;
        }
    }

    /// <summary>
    /// Reads <paramref name="whole"/> and every truncation of it through the native and the drop-in reader as in-box
    /// reads it: the same nodes, names and namespaces, or a failure of each.
    /// </summary>
    private static void ReadsAsInBoxWholeAndCut(string what, byte[] whole, IXmlDictionary? dictionary, XmlBinaryReaderSession session)
    {
        for (int length = whole.Length; length > 0; length--)
        {
            byte[] data = whole[..length];
            string inBox = NodesOrFails(() => NodeStream.FromInBox(data, dictionary, session), ours: false);
            Assert.True(inBox == NodesOrFails(() => NodeStream.FromNative(data, dictionary, session), ours: true), $"{what}, {length} of {whole.Length} bytes: native reader");
            Assert.True(inBox == NodesOrFails(() => NodeStream.FromAdapter(data, dictionary, session), ours: true), $"{what}, {length} of {whole.Length} bytes: drop-in reader");
            // A reader that asks for no name fails where in-box fails too: an unknown id fails at its record.
            Assert.True(inBox == "fails" == PassOverFails(data, dictionary, session), $"{what}, {length} of {whole.Length} bytes: native reader passing over the tokens");
        }

        static bool PassOverFails(byte[] data, IXmlDictionary? dictionary, XmlBinaryReaderSession session)
        {
            var r = new BinaryXmlReader(data, dictionary, session, BinaryXmlReaderOptions.Trusted);
            try
            {
                while (r.Read()) { }
                return false;
            }
            catch (BinaryXmlException)
            {
                return true;
            }
            finally
            {
                r.Dispose();
            }
        }
    }

    [Fact]
    public void Attribute_values_of_a_fixed_size_and_lists_read_as_in_box()
    {
        // <r><a n=VALUE/><r>: attributes with a value of a fixed size (i:nil="true") are parsed in line with their
        // start tag, as are short Chars8Text values; lists and the …WithEndElement records (not allowed as values)
        // take the general path. Each value record, followed by many bytes or by the end of the input, is read as
        // in-box reads it: the same string, or a failure.
        (int Type, int Size)[] fixedSizes =
        [
            (0x80, 0), (0x82, 0), (0x84, 0), (0x86, 0), (0x88, 1), (0x8A, 2), (0x8C, 4), (0x8E, 8), (0x90, 4), (0x92, 8),
            (0x94, 16), (0x96, 8), (0xA8, 0), (0xAC, 16), (0xAE, 8), (0xB0, 16), (0xB2, 8), (0xB4, 1),
        ];
        var values = new List<(string What, byte[] Record)>();
        foreach ((int type, int size) in fixedSizes)
        {
            values.Add(($"0x{type:X2}", [(byte)type, .. new byte[size]]));
            values.Add(($"0x{type:X2} with 0x7F bytes", [(byte)type, .. Enumerable.Repeat((byte)(type is 0x94 or 0x96 or 0xB4 ? 0 : 0x7F), size)]));
            values.Add(($"0x{type + 1:X2} (…WithEndElement)", [(byte)(type + 1), .. new byte[size]]));
        }
        values.Add(("a list of one OneText", [0xA4, 0x82, 0xA6]));
        values.Add(("an empty list", [0xA4, 0xA6]));
        values.Add(("EndListText alone", [0xA6]));
        int checkedValues = 0;
        foreach (bool padded in new[] { false, true })
        {
            byte[] tail = padded ? [0x98, 30, .. Enumerable.Repeat((byte)'z', 30), 0x01] : [0x01];
            foreach ((string what, byte[] record) in values)
            {
                byte[] doc = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', 0x04, 0x01, (byte)'n', .. record, 0x01, .. tail];
                string? inBox;
                try
                {
                    using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max);
                    r.Read();
                    r.Read();
                    inBox = r.GetAttribute("n");
                    while (r.Read()) { }
                }
                catch (XmlException)
                {
                    inBox = null;
                }
                string? native = null;
                try
                {
                    var r = new BinaryXmlReader(doc);
                    try
                    {
                        while (r.Read())
                        {
                            if (r.TokenType == BinaryXmlTokenType.Attribute) native = r.GetString();
                        }
                    }
                    finally
                    {
                        r.Dispose();
                    }
                }
                catch (BinaryXmlException)
                {
                    native = null;
                }
                Assert.True(inBox == native, $"{what}, {(padded ? "padded" : "at the end")}: in-box {inBox ?? "fails"}, ours {native ?? "fails"}");
                if (inBox is not null) checkedValues++;
            }
        }
        // The values the in-box reader accepts: every fixed-size record twice and the two lists, both ways.
        Assert.Equal(2 * (2 * fixedSizes.Length + 2), checkedValues);
    }

    public static TheoryData<string> Chars8Payloads() => new(s_chars8Payloads.Keys);

    /// <summary>Payloads of a Chars8TextWithEndElement record: ASCII on both sides of the 16-, 32- and 64-byte vector checks,
    /// the longest one-byte length, non-ASCII, and malformed UTF-8.</summary>
    private static readonly Dictionary<string, byte[]> s_chars8Payloads = new()
    {
        ["empty"] = [],
        ["ascii 1"] = "x"u8.ToArray(),
        ["ascii 16"] = new byte[16].Select(_ => (byte)'y').ToArray(),
        ["ascii 17"] = new byte[17].Select(_ => (byte)'y').ToArray(),
        ["ascii 32"] = new byte[32].Select(_ => (byte)'y').ToArray(),
        ["ascii 33"] = new byte[33].Select(_ => (byte)'y').ToArray(),
        ["ascii 64"] = new byte[64].Select(_ => (byte)'y').ToArray(),
        ["ascii 65"] = new byte[65].Select(_ => (byte)'y').ToArray(),
        ["non-ascii last of 64"] = [.. new byte[62].Select(_ => (byte)'y'), 0xC3, 0xA9],
        ["invalid 48th of 64"] = [.. new byte[47].Select(_ => (byte)'y'), 0xFF, .. new byte[16].Select(_ => (byte)'y')],
        ["ascii 255"] = new byte[255].Select(_ => (byte)'y').ToArray(),
        ["non-ascii"] = "a\u00e9\u65e5x"u8.ToArray(),
        ["non-ascii 200"] = System.Text.Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("a\u00e9\u65e5x", 25))),
        ["invalid lead byte"] = [0x61, 0xFF, 0x62],
        ["truncated sequence"] = [0x61, 0xE6, 0x97],
        ["encoded surrogate"] = [0x61, 0xED, 0xA0, 0x80],
        ["overlong"] = [0xC0, 0xAF],
        ["length past the end"] = [],
    };

    /// <summary>A character record as an element's content: its type, the size of its length field, what follows it.</summary>
    private static readonly (string Name, byte Type, int LengthSize, byte[] After)[] s_charsForms =
    [
        ("Chars8TextWithEndElement", 0x99, 1, []),
        ("Chars16TextWithEndElement", 0x9B, 2, []),
        ("Chars32TextWithEndElement", 0x9D, 4, []),
        ("Chars8Text, EndElement", 0x98, 1, [0x01]),
        ("Chars16Text, EndElement", 0x9A, 2, [0x01]),
        ("Chars32Text, EndElement", 0x9C, 4, [0x01]),
        ("Chars8Text, more text", 0x98, 1, [0x98, 0x01, (byte)'z', 0x01]),
        ("Chars8Text, child element", 0x98, 1, [0x40, 0x01, (byte)'c', 0x01, 0x01]),
    ];

    [Theory]
    [MemberData(nameof(Chars8Payloads))]
    public void ReadElementContentAsString_of_one_Chars_record_matches_the_in_box_reader_and_fails_where_Read_fails(string payload)
    {
        // The drop-in reader reads an element whose content is one UTF-8 character record (closing the element, or
        // followed by its end tag) in one step; the outcome, the nodes after it, and the offset of any failure are
        // those of reading the records one by one. The other forms (more text, a child element) are read as before.
        byte[] text = s_chars8Payloads[payload];
        foreach ((string form, byte type, int lengthSize, byte[] close) in s_charsForms)
        foreach (bool attribute in new[] { false, true })
        foreach (bool more in new[] { false, true })
        foreach (int quota in new[] { int.MaxValue, 20 })
        {
            byte[] length = payload == "length past the end"
                ? Enumerable.Repeat((byte)0xFF, lengthSize).ToArray()
                : BitConverter.GetBytes(text.Length)[..lengthSize];
            byte[] attributeBytes = attribute ? [0x04, 0x01, (byte)'k', 0x98, 0x01, (byte)'v'] : [];
            byte[] after = more ? [0x40, 0x05, .. "after"u8, 0x99, 0x01, (byte)'x'] : [];
            byte[] doc = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', .. attributeBytes, type, .. length, .. text, .. close, .. after, 0x01];
            var quotas = new XmlDictionaryReaderQuotas { MaxStringContentLength = quota };
            string what = $"{payload}, {form}, attribute {attribute}, more {more}, quota {quota}";
            string expected = ReadStringThenRest(XmlDictionaryReader.CreateBinaryReader(doc, 0, doc.Length, null, quotas));
            string actual = ReadStringThenRest(BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas));
            Assert.True(expected == actual, $"{what}: in-box {expected}, ours {actual}");
            if (actual != "XmlException") continue;
            // Malformed input or the quota: the failure names the offset where reading the element in steps fails (the
            // record's checks fail at Read, the quota when the text is read). (A child element in the content is the
            // caller's error, an XmlException as in .NET, compared above.)
            Exception? error = Record.Exception(() =>
            {
                using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas);
                r.ReadStartElement("r");
                r.ReadElementContentAsString();
            });
            Assert.IsAssignableFrom<XmlException>(error);
            if (error is not BinaryXmlException oneStep) continue;
            BinaryXmlException inSteps = Assert.IsType<BinaryXmlException>(Record.Exception(() =>
            {
                using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas);
                r.ReadStartElement("r");
                r.ReadStartElement("a");
                r.ReadContentAsString();
            }));
            Assert.True(inSteps.Offset == oneStep.Offset && inSteps.Reason == oneStep.Reason, $"{what}: {oneStep.Message} / {inSteps.Message}");
        }
    }

    [Theory]
    [MemberData(nameof(Chars8Payloads))]
    public void The_native_reader_checks_the_text_it_defers_when_the_value_is_taken_or_passed_and_fails_as_Read_fails(string payload)
    {
        // The native reader leaves the UTF-8 check of character text (other than short ASCII) to the first time its value
        // is taken, decoding and checking it in one pass, or else to the next Read. Either way the outcome is that of the
        // drop-in reader, which checks every text record at Read: the same text, or a failure with the same reason at the
        // same offset, and no value handed out unchecked. Text before the root element is checked at once.
        byte[] text = s_chars8Payloads[payload];
        foreach ((string form, byte type, int lengthSize, byte[] close) in s_charsForms.Append(("Chars8Text before the root", (byte)0x98, 1, [])))
        foreach (string access in new[] { "pass", "GetString", "CopyString", "ValueSpan", "TryGetInt64" })
        {
            byte[] length = payload == "length past the end"
                ? Enumerable.Repeat((byte)0xFF, lengthSize).ToArray()
                : BitConverter.GetBytes(text.Length)[..lengthSize];
            byte[] doc = form == "Chars8Text before the root"
                ? [type, .. length, .. text, 0x40, 0x01, (byte)'r', 0x01]
                : [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', type, .. length, .. text, .. close, 0x99, 0x01, (byte)'z', 0x01];
            string expected = DropInTexts(doc);
            if (access == "pass" && !expected.Contains(" @ ")) expected = "read";
            // TryGetInt64 takes the value without returning it: the texts are not compared.
            if (access == "TryGetInt64" && !expected.Contains(" @ ")) expected = string.Concat(expected.Split('|').SkipLast(1).Select(_ => "|"));
            string actual = NativeTexts(doc, access);
            Assert.True(expected == actual, $"{payload}, {form}, {access}: drop-in {expected}, native {actual}");
        }

        static string DropInTexts(byte[] doc)
        {
            try
            {
                using XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, XmlDictionaryReaderQuotas.Max);
                var texts = new System.Text.StringBuilder();
                while (r.Read())
                {
                    if (r.NodeType is XmlNodeType.Text or XmlNodeType.Whitespace) texts.Append(r.Value).Append('|');
                }
                return texts.ToString();
            }
            catch (BinaryXmlException e)
            {
                return $"{e.Reason} @ {e.Offset}";
            }
        }

        static string NativeTexts(byte[] doc, string access)
        {
            var r = new BinaryXmlReader(doc);
            // Set once a text's value has been taken: a failure after that (at the next Read) is a check that came too late.
            bool tookValue = false;
            try
            {
                var texts = new System.Text.StringBuilder();
                while (r.Read())
                {
                    tookValue = false;
                    if (r.TokenType != BinaryXmlTokenType.Text) continue;
                    switch (access)
                    {
                        case "GetString":
                            string value = r.GetString();
                            Assert.Equal(value, r.GetString());
                            texts.Append(value).Append('|');
                            break;
                        case "CopyString":
                            char[] chars = new char[doc.Length];
                            texts.Append(chars, 0, r.CopyString(chars)).Append('|');
                            break;
                        case "ValueSpan":
                            texts.Append(System.Text.Encoding.UTF8.GetString(r.ValueSpan)).Append('|');
                            break;
                        case "TryGetInt64":
                            Assert.False(r.TryGetInt64(out _));
                            texts.Append('|');
                            break;
                    }
                    tookValue = access != "pass";
                }
                return access == "pass" ? "read" : texts.ToString();
            }
            catch (BinaryXmlException e)
            {
                return $"{e.Reason} @ {e.Offset}" + (tookValue ? " (at the Read after the value was taken)" : "");
            }
            finally
            {
                r.Dispose();
            }
        }
    }

    /// <summary>An element's content around base64 bytes (<c>{0}</c> stands for 63 bytes, <c>{1}</c> for 1 byte, <c>{N}</c> for the 300 bytes of a 16-bit length).</summary>
    public static TheoryData<string> BytesContents => new()
    {
        "Bytes8TextWithEndElement",
        "Bytes8Text, EndElement",
        "Bytes8Text, Bytes8TextWithEndElement",
        "Bytes8Text, Bytes8Text, EndElement",
        "Bytes16TextWithEndElement",
        "Bytes16Text, Bytes32TextWithEndElement",
        "Bytes32Text, EndElement",
        "empty Bytes8TextWithEndElement",
        "Bytes8Text, Chars8TextWithEndElement",
        "Bytes8Text, Comment, Bytes8TextWithEndElement",
        "Bytes8Text, child element",
        "EndElement",
        "Bytes8TextWithEndElement, length past the end",
        "Bytes32Text, length cut off",
    };

    private static byte[] BytesContent(string content) => content switch
    {
        "Bytes8TextWithEndElement" => [0x9F, 63, .. Payload(63, 1)],
        "Bytes8Text, EndElement" => [0x9E, 63, .. Payload(63, 1), 0x01],
        "Bytes8Text, Bytes8TextWithEndElement" => [0x9E, 63, .. Payload(63, 1), 0x9F, 1, 0xEE],
        "Bytes8Text, Bytes8Text, EndElement" => [0x9E, 3, .. Payload(3, 1), 0x9E, 2, .. Payload(2, 9), 0x01],
        "Bytes16TextWithEndElement" => [0xA1, 0x2C, 0x01, .. Payload(300, 2)],
        "Bytes16Text, Bytes32TextWithEndElement" => [0xA0, 0x2C, 0x01, .. Payload(300, 2), 0xA3, 3, 0, 0, 0, .. Payload(3, 7)],
        "Bytes32Text, EndElement" => [0xA2, 6, 0, 0, 0, .. Payload(6, 5), 0x01],
        "empty Bytes8TextWithEndElement" => [0x9F, 0],
        "Bytes8Text, Chars8TextWithEndElement" => [0x9E, 3, .. Payload(3, 1), 0x99, 4, .. "AQID"u8],
        "Bytes8Text, Comment, Bytes8TextWithEndElement" => [0x9E, 3, .. Payload(3, 1), 0x02, 1, (byte)'c', 0x9F, 3, .. Payload(3, 4)],
        "Bytes8Text, child element" => [0x9E, 3, .. Payload(3, 1), 0x40, 0x01, (byte)'c', 0x01, 0x01],
        "EndElement" => [0x01],
        "Bytes8TextWithEndElement, length past the end" => [0x9F, 0xF0, .. Payload(10, 1)],
        "Bytes32Text, length cut off" => [0xA2, 6, 0],
        _ => throw new ArgumentException(content),
    };

    private static byte[] Payload(int length, int seed) => Enumerable.Range(seed, length).Select(i => (byte)(i * 37)).ToArray();

    [Theory]
    [MemberData(nameof(BytesContents))]
    public void ReadElementContentAsBase64_of_Bytes_records_matches_the_in_box_reader_and_fails_where_reading_in_steps_fails(string content)
    {
        // The drop-in reader reads an element whose content is Bytes records only (up to one closing the element, or
        // an end tag) in one step; the bytes, the nodes after it and any failure are those of the in-box reader, and a
        // failure's offset that of reading the element in steps. Other content is read node by node, as before.
        byte[] bytes = BytesContent(content);
        bool cutOff = content.Contains("cut off") || content.Contains("past the end");
        foreach (bool attribute in new[] { false, true })
        foreach (bool more in new[] { false, true })
        foreach (int quota in new[] { int.MaxValue, 5 })
        foreach (bool stream in new[] { false, true })
        {
            byte[] attributeBytes = attribute ? [0x04, 0x01, (byte)'k', 0x98, 0x01, (byte)'v'] : [];
            byte[] after = more && !cutOff ? [0x40, 0x05, .. "after"u8, 0x99, 0x01, (byte)'x'] : [];
            byte[] doc = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', .. attributeBytes, .. bytes, .. after, .. cutOff ? Array.Empty<byte>() : [0x01]];
            var quotas = new XmlDictionaryReaderQuotas { MaxArrayLength = quota };
            string what = $"{content}, attribute {attribute}, more {more}, quota {quota}, stream {stream}";
            XmlDictionaryReader Ours()
            {
                var r = BinaryXmlDictionaryReader.Create(doc, 0, doc.Length, null, quotas);
                if (stream) ((IXmlBinaryReaderInitializer)r).SetInput(new MemoryStream(doc), null, quotas, null, null);
                return r;
            }
            XmlDictionaryReader InBox() => stream
                ? XmlDictionaryReader.CreateBinaryReader(new MemoryStream(doc), null, quotas)
                : XmlDictionaryReader.CreateBinaryReader(doc, 0, doc.Length, null, quotas);
            string expected = ReadBytesThenRest(InBox());
            string actual = ReadBytesThenRest(Ours());
            Assert.True(expected == actual, $"{what}: in-box {expected}, ours {actual}");
            if (actual != "XmlException") continue;
            Exception? error = Record.Exception(() =>
            {
                using XmlDictionaryReader r = Ours();
                r.ReadStartElement("r");
                r.ReadElementContentAsBase64();
            });
            Assert.IsAssignableFrom<XmlException>(error);
            if (error is not BinaryXmlException oneStep) continue;
            BinaryXmlException inSteps = Assert.IsType<BinaryXmlException>(Record.Exception(() =>
            {
                using XmlDictionaryReader r = Ours();
                r.ReadStartElement("r");
                r.ReadStartElement("a");
                r.ReadContentAsBase64();
                r.ReadEndElement();
            }));
            Assert.True(inSteps.Offset == oneStep.Offset && inSteps.Reason == oneStep.Reason, $"{what}: {oneStep.Message} / {inSteps.Message}");
        }
    }

    private static string ReadBytesThenRest(XmlDictionaryReader reader)
    {
        using (reader)
        {
            try
            {
                reader.ReadStartElement("r");
                var log = new System.Text.StringBuilder(Convert.ToHexString(reader.ReadElementContentAsBase64()));
                do log.Append($"; {reader.NodeType} {reader.LocalName} {reader.Value} {reader.Depth}");
                while (reader.Read());
                return log.ToString();
            }
            catch (XmlException)
            {
                return "XmlException";
            }
        }
    }

    private static string ReadStringThenRest(XmlDictionaryReader reader)
    {
        using (reader)
        {
            try
            {
                reader.ReadStartElement("r");
                var log = new System.Text.StringBuilder(reader.ReadElementContentAsString());
                do log.Append($"; {reader.NodeType} {reader.LocalName} {reader.Value} {reader.Depth}");
                while (reader.Read());
                return log.ToString();
            }
            catch (XmlException)
            {
                return "XmlException";
            }
        }
    }
}
