using System.Xml;
using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Contract tests for the drop-in reader: the same theory runs against <c>XmlDictionaryReader.CreateBinaryReader</c>
/// and <see cref="BinaryXmlDictionaryReader.Create(byte[], int, int, IXmlDictionary?, XmlDictionaryReaderQuotas, XmlBinaryReaderSession?)"/>
/// through a factory parameter.
/// </summary>
public sealed partial class DictionaryReaderContractTests
{
    public static TheoryData<string> Factories() => new(["in-box", "BinaryXml"]);

    private static XmlDictionaryReader Create(string factory, byte[] data, IXmlDictionary? dictionary = null, XmlDictionaryReaderQuotas? quotas = null, XmlBinaryReaderSession? session = null)
        => factory == "in-box"
            ? XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, dictionary, quotas ?? XmlDictionaryReaderQuotas.Max, session)
            : BinaryXmlDictionaryReader.Create(data, 0, data.Length, dictionary, quotas ?? XmlDictionaryReaderQuotas.Max, session);

    /// <summary>
    /// A differential test's log (<paramref name="run"/> for a factory) from both readers: equal, or the test fails
    /// showing where; the in-box log is returned for the test's own checks of what it holds.
    /// </summary>
    private static string AlikeInBox(Func<string, string> run)
    {
        string expected = run("in-box");
        Assert.Equal(expected, run("BinaryXml"));
        return expected;
    }

    /// <summary>The bytes .NET's writer writes for <paramref name="write"/> (the whole document).</summary>
    private static byte[] InBoxDocument(Action<XmlDictionaryWriter> write, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, session))
        {
            write(w);
        }
        return stream.ToArray();
    }

    private static byte[] Doc(string calls)
    {
        (byte[] bytes, Exception? error) = WriterScript.RunInBox(WriterScript.Parse(calls), new ScriptContext());
        Assert.Null(error);
        return bytes;
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Typed_content_reads_convert_alike(string factory)
    {
        byte[] data = Doc("StartElement(null, \"r\", null); ElementString(null, \"s\", null, \"hello\"); StartElement(null, \"i\", null); Value(300); EndElement(); StartElement(null, \"l\", null); Value(9000000000L); EndElement(); "
            + "StartElement(null, \"d\", null); Value(f64:3FD5555555555555); EndElement(); StartElement(null, \"f\", null); Value(f32:3F9E0652); EndElement(); StartElement(null, \"m\", null); Value(1.50M); EndElement(); "
            + "StartElement(null, \"b\", null); Value(true); EndElement(); StartElement(null, \"t\", null); Value(dt:637970384960000000:Utc); EndElement(); StartElement(null, \"ts\", null); Value(ts:36000000000); EndElement(); "
            + "StartElement(null, \"g\", null); Value(guid:00010203-0405-0607-0809-0a0b0c0d0e0f); EndElement(); StartElement(null, \"u\", null); Value(uid:\"urn:uuid:01234567-89ab-cdef-0123-456789abcdef\"); EndElement(); "
            + "StartElement(null, \"x\", null); Base64(hex:0102030405); EndElement(); StartElement(null, \"n\", null); Value(256); EndElement(); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        r.ReadStartElement("r");
        Assert.Equal("hello", r.ReadElementContentAsString());
        Assert.Equal(300, r.ReadElementContentAsInt());
        Assert.Equal(9000000000L, r.ReadElementContentAsLong());
        Assert.Equal(1 / 3.0, r.ReadElementContentAsDouble());
        Assert.Equal(1.23456788f, r.ReadElementContentAsFloat());
        Assert.Equal(1.50m, r.ReadElementContentAsDecimal());
        Assert.True(r.ReadElementContentAsBoolean());
        Assert.Equal(new DateTime(637970384960000000, DateTimeKind.Utc), r.ReadElementContentAsDateTime().ToUniversalTime());
        Assert.Equal(TimeSpan.FromHours(1), r.ReadElementContentAsTimeSpan());
        Assert.Equal(new Guid("00010203-0405-0607-0809-0a0b0c0d0e0f"), r.ReadElementContentAsGuid());
        Assert.Equal("urn:uuid:01234567-89ab-cdef-0123-456789abcdef", r.ReadElementContentAsUniqueId().ToString());
        Assert.Equal(new byte[] { 1, 2, 3, 4, 5 }, r.ReadElementContentAsBase64());
        Assert.Equal(256.0, r.ReadElementContentAsDouble());
        r.ReadEndElement();
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Every_name_is_the_name_tables_atom_whether_the_table_is_asked_for_first_or_last(string factory)
    {
        // Prefix letters, "xml", "xmlns", the xmlns namespace and inline names; names lazily decoded (an element's
        // local name) and the fixed names .NET's table starts with must be the table's own instances.
        byte[] data = Doc("StartElement(\"s\", \"Envelope\", \"urn:e\"); AttributeString(\"xml\", \"lang\", null, \"de\"); AttributeString(\"xmlns\", \"a\", null, \"urn:a\"); "
            + "StartElement(\"a\", \"b\", null); EndElement(); StartElement(null, \"a\", \"urn:d\"); EndElement(); EndElement()");
        foreach (bool tableFirst in new[] { true, false })
        {
            using XmlDictionaryReader r = Create(factory, data);
            XmlNameTable? table = tableFirst ? r.NameTable : null;
            var names = new List<string>();
            while (r.Read())
            {
                names.AddRange([r.Prefix, r.LocalName, r.NamespaceURI]);
                while (r.MoveToNextAttribute()) names.AddRange([r.Prefix, r.LocalName, r.NamespaceURI]);
            }
            table ??= r.NameTable;
            Assert.Contains("a", names);
            Assert.Contains("xmlns", names);
            foreach (string name in names.Where(n => n.Length > 0))
                Assert.Same(table.Get(name), name);
            Assert.Same(table.Add("s"), names[0]);
        }
    }

    [Fact]
    public void Element_content_read_by_name_matches_the_in_box_reader_in_every_case()
    {
        // ReadElementContentAs*(localName, namespaceURI): the right names, a wrong local name or namespace, a name
        // that is a prefix of the element's, an empty or null name, on an attribute, on text, and a non-ASCII name.
        byte[] data = Doc("StartElement(null, \"r\", null); StartElement(null, \"i\", null); AttributeString(null, \"at\", null, \"1\"); Value(42); EndElement(); "
            + "StartElement(\"p\", \"long\", \"urn:p\"); Value(9000000000L); EndElement(); StartElement(null, \"b\", null); Value(true); EndElement(); "
            + "StartElement(null, \"d\", null); Value(f64:3FD5555555555555); EndElement(); StartElement(null, \"s\", null); String(\"text\"); EndElement(); "
            + "StartElement(null, \"\u00e9t\u00e9\", null); Value(7); EndElement(); EndElement()");
        var reads = new (string Name, Func<XmlDictionaryReader, string, string, object?> Read)[]
        {
            ("int", (r, l, n) => r.ReadElementContentAsInt(l, n)), ("long", (r, l, n) => r.ReadElementContentAsLong(l, n)),
            ("bool", (r, l, n) => r.ReadElementContentAsBoolean(l, n)), ("double", (r, l, n) => r.ReadElementContentAsDouble(l, n)),
            ("float", (r, l, n) => r.ReadElementContentAsFloat(l, n)), ("decimal", (r, l, n) => r.ReadElementContentAsDecimal(l, n)),
            ("string", (r, l, n) => r.ReadElementContentAsString(l, n)), ("datetime", (r, l, n) => r.ReadElementContentAsDateTime(l, n)),
        };
        var names = new (string? Local, string? Ns)[] { ("i", ""), ("long", "urn:p"), ("b", ""), ("d", ""), ("s", ""), ("\u00e9t\u00e9", ""), ("x", ""), ("lon", "urn:p"), ("long", ""), ("i", "urn:p"), ("", ""), (null, ""), ("i", null) };
        string Outcome(string factory, int element, bool onAttribute, int read, int name)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.ReadStartElement("r");
            for (int k = 0; k < element; k++) r.Skip();
            if (onAttribute) r.MoveToFirstAttribute();
            try
            {
                object? value = reads[read].Read(r, names[name].Local!, names[name].Ns!);
                return $"{value} then {r.NodeType} {r.LocalName}";
            }
            catch (Exception e)
            {
                return e is XmlException ? "XmlException" : e.GetType().Name;
            }
        }
        int compared = 0;
        for (int element = 0; element < 6; element++)
        {
            for (int read = 0; read < reads.Length; read++)
            {
                for (int name = 0; name < names.Length; name++)
                {
                    foreach (bool onAttribute in element == 0 ? new[] { false, true } : [false])
                    {
                        Assert.True(Outcome("in-box", element, onAttribute, read, name) == Outcome("BinaryXml", element, onAttribute, read, name),
                            $"element {element}, {reads[read].Name}, name {names[name]}, on attribute {onAttribute}: in-box {Outcome("in-box", element, onAttribute, read, name)}, ours {Outcome("BinaryXml", element, onAttribute, read, name)}");
                        compared++;
                    }
                }
            }
        }
        Assert.Equal(7 * reads.Length * names.Length, compared);
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Attributes_navigate_alike(string factory)
    {
        byte[] data = Doc("StartElement(\"p\", \"a\", \"urn:p\"); AttributeString(null, \"x\", null, \"1\"); AttributeString(\"q\", \"y\", \"urn:q\", \"two\"); AttributeString(\"xml\", \"lang\", null, \"de\"); String(\"t\"); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        Assert.True(r.IsStartElement("a", "urn:p"));
        Assert.Equal(5, r.AttributeCount);
        Assert.Equal("1", r.GetAttribute("x"));
        Assert.Equal("two", r.GetAttribute("y", "urn:q"));
        Assert.Equal("two", r.GetAttribute("q:y"));
        Assert.Null(r.GetAttribute("nope"));
        Assert.True(r.MoveToAttribute("y", "urn:q"));
        Assert.Equal(("q", "y", "urn:q"), (r.Prefix, r.LocalName, r.NamespaceURI));
        Assert.True(r.ReadAttributeValue());
        Assert.Equal(XmlNodeType.Text, r.NodeType);
        Assert.Equal("two", r.Value);
        Assert.True(r.MoveToElement());
        Assert.True(r.MoveToFirstAttribute());
        int n = 1;
        while (r.MoveToNextAttribute()) n++;
        Assert.Equal(5, n);
        r.MoveToElement();
        Assert.Equal("urn:q", r.LookupNamespace("q"));
        r.Read();
        Assert.Equal("de", r.XmlLang);
        Assert.Equal("t", r.Value);
    }

    [Fact]
    public void After_malformed_input_the_reader_stays_failed_where_the_in_box_reader_reads_on()
    {
        // <r><a>x</a>, a reserved record type (0x00), then <b/></r>. A deliberate difference, pinned: .NET's reader
        // throws, stays Interactive and reads on past the bad byte (the next Read returns <b>); ours reports Error
        // and fails again at the same offset on every Read, so that nothing after malformed input is taken for data.
        byte[] data = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', 0x99, 0x01, (byte)'x', 0x00, 0x40, 0x01, (byte)'b', 0x01, 0x01];
        XmlDictionaryReader inBox = Create("in-box", data), ours = Create("BinaryXml", data);
        for (int i = 0; i < 4; i++)
        {
            Assert.True(inBox.Read());
            Assert.True(ours.Read());
            Assert.Equal(inBox.NodeType, ours.NodeType);
        }
        Assert.Equal(XmlNodeType.EndElement, ours.NodeType);
        Assert.ThrowsAny<XmlException>(() => inBox.Read());
        Assert.Equal(ReadState.Interactive, inBox.ReadState);
        Assert.True(inBox.Read());
        Assert.Equal("b", inBox.LocalName);

        var first = Assert.Throws<BinaryXmlException>(() => ours.Read());
        Assert.Equal(9, first.Offset);
        Assert.Equal(ReadState.Error, ours.ReadState);
        var again = Assert.Throws<BinaryXmlException>(() => ours.Read());
        Assert.Equal(9, again.Offset);
        Assert.Equal(ReadState.Error, ours.ReadState);
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Namespace_tests_repeated_with_the_same_dictionary_strings_follow_each_element(string factory)
    {
        // A serializer asks the same dictionary strings element after element; the answer is the element's each time
        // (the drop-in reader remembers its last match, which must not outlive a change of namespace).
        byte[] data = Doc("StartElement(null, \"r\", \"urn:x\"); StartElement(null, \"a\", \"urn:x\"); EndElement(); "
            + "StartElement(null, \"b\", \"urn:y\"); EndElement(); StartElement(\"p\", \"c\", \"urn:x\"); EndElement(); "
            + "StartElement(null, \"d\", \"\"); EndElement(); StartElement(null, \"e\", \"urn:xx\"); EndElement(); EndElement()");
        var dictionary = new XmlDictionary();
        XmlDictionaryString x = dictionary.Add("urn:x"), y = dictionary.Add("urn:y"), empty = dictionary.Add(""), local = dictionary.Add("a");
        using XmlDictionaryReader r = Create(factory, data);
        var answers = new List<string>();
        while (r.Read())
        {
            if (r.NodeType != XmlNodeType.Element) continue;
            for (int round = 0; round < 2; round++)
            {
                answers.Add($"{r.LocalName}:{r.IsNamespaceUri(x)}{r.IsNamespaceUri(y)}{r.IsNamespaceUri(empty)}{r.IsStartElement(local, x)}");
            }
        }
        Assert.Equal(
            ["r:TrueFalseFalseFalse", "r:TrueFalseFalseFalse", "a:TrueFalseFalseTrue", "a:TrueFalseFalseTrue",
             "b:FalseTrueFalseFalse", "b:FalseTrueFalseFalse", "c:TrueFalseFalseFalse", "c:TrueFalseFalseFalse",
             "d:FalseFalseTrueFalse", "d:FalseFalseTrueFalse", "e:FalseFalseFalseFalse", "e:FalseFalseFalseFalse"],
            answers);
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Dictionary_strings_are_reported_alike(string factory)
    {
        byte[] data = Hex.Parse("56 02 0B 01 73 04 56 0E 42 E0 06 AA E0 06 01 01 01"); // s:Envelope/s:Body/Value(dictionary text 0x360)
        using XmlDictionaryReader r = Create(factory, data, NbfsDictionary.Instance);
        r.Read();
        Assert.True(r.TryGetLocalNameAsDictionaryString(out XmlDictionaryString? local));
        Assert.Equal("Envelope", local!.Value);
        Assert.True(r.TryGetNamespaceUriAsDictionaryString(out XmlDictionaryString? ns));
        Assert.Equal("http://www.w3.org/2003/05/soap-envelope", ns!.Value);
        NbfsDictionary.Instance.TryLookup("Envelope", out XmlDictionaryString? envelope);
        Assert.True(r.IsLocalName(envelope!));
        Assert.True(r.IsNamespaceUri(ns));
        Assert.True(r.IsStartElement(envelope!, ns));
        r.Read();
        r.Read();
        r.Read();
        Assert.Equal(XmlNodeType.Text, r.NodeType);
        Assert.True(r.TryGetValueAsDictionaryString(out XmlDictionaryString? value));
        Assert.Equal(NbfsDictionary.Instance.GetByWireId(0x360).Value, value!.Value);
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Arrays_read_alike(string factory)
    {
        byte[] data = Doc("StartElement(null, \"r\", null); Array(null, \"i\", null, int[1, 2, 3, 4, 5]); Array(null, \"d\", null, double[f64:3FF8000000000000, f64:4004000000000000]); Array(null, \"g\", null, guid[guid:00010203-0405-0607-0809-0a0b0c0d0e0f]); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        r.ReadStartElement("r");
        Assert.True(r.IsStartArray(out Type? type));
        Assert.Equal(typeof(int), type);
        int[] buffer = new int[3];
        Assert.Equal(3, r.ReadArray("i", "", buffer, 0, 3));
        Assert.Equal([1, 2, 3], buffer);
        Assert.Equal(2, r.ReadArray("i", "", buffer, 0, 3));
        Assert.Equal([1.5, 2.5], r.ReadDoubleArray("d", ""));
        Assert.Equal([new Guid("00010203-0405-0607-0809-0a0b0c0d0e0f")], r.ReadGuidArray("g", ""));
        r.ReadEndElement();
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Value_chunks_reassemble_the_value(string factory)
    {
        string text = string.Concat(Enumerable.Repeat("ab\uD83D\uDE00", 200));
        byte[] data = Doc("StartElement(null, \"a\", null); String(\"" + text.Replace("\uD83D", "\\uD83D").Replace("\uDE00", "\\uDE00") + "\"); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        r.Read();
        r.Read();
        Assert.True(r.CanReadValueChunk);
        var chunks = new System.Text.StringBuilder();
        char[] buffer = new char[7];
        int n;
        while ((n = r.ReadValueChunk(buffer, 0, buffer.Length)) > 0) chunks.Append(buffer, 0, n);
        Assert.Equal(text, chunks.ToString());
    }

    [Fact]
    public void Value_chunks_are_cut_as_the_in_box_reader_cuts_them_and_leave_the_rest_as_the_value()
    {
        string text = string.Concat(Enumerable.Repeat("ab\uD83D\uDE00", 1200)) + "é日";
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("a");
            w.WriteString(text);
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        Assert.Equal(RecordType.Chars16Text, (RecordType)(data[3] & 0xFE)); // UTF-8 text, decoded as it is read
        (string Lengths, string Text, string Remaining, string After) Chunks(string factory, int size)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.Read();
            r.Read();
            char[] buffer = new char[size];
            var lengths = new List<int>();
            var read = new System.Text.StringBuilder();
            int n = r.ReadValueChunk(buffer, 0, size);
            // What is left after the first chunk. (.NET's reader cuts the chunks after this from that decoded rest,
            // splitting surrogate pairs; ours goes on from the input. So the rest is taken from a second reader.)
            string rest;
            using (XmlDictionaryReader second = Create(factory, data))
            {
                second.Read();
                second.Read();
                second.ReadValueChunk(new char[size], 0, size);
                rest = second.Value;
            }
            for (; n > 0; n = r.ReadValueChunk(buffer, 0, size))
            {
                lengths.Add(n);
                read.Append(buffer, 0, n);
            }
            return (string.Join(",", lengths), read.ToString(), rest, r.Value);
        }
        foreach (int size in new[] { 2, 3, 5, 7, 64, 4096, 10_000 })
        {
            var inBox = Chunks("in-box", size);
            Assert.Equal(inBox, Chunks("BinaryXml", size));
            Assert.Equal(text, inBox.Text);
            Assert.Equal("", inBox.After);
        }
        // One character at a time: .NET's reader stops at the first surrogate pair (its value is then lost); ours
        // gives the pair's two halves in two chunks.
        var one = Chunks("BinaryXml", 1);
        Assert.Equal(text, one.Text);
        Assert.Equal(text[1..], one.Remaining);
        Assert.Equal("ab", Chunks("in-box", 1).Text);
    }

    /// <summary>
    /// CJK text with surrogate pairs (a UnicodeChars record, copied from the input as it is read) in chunks of every size
    /// around a pair: the in-box reader's text. Ours never ends a chunk between the halves of a pair unless the chunk
    /// has room for one character only, as with UTF-8 text, where .NET's reader cuts UTF-16 text at the size asked and
    /// its Value then fails on the half pair left; what is left after a chunk is the value.
    /// </summary>
    [Fact]
    public void Utf16_value_chunks_keep_surrogate_pairs_whole_where_the_in_box_reader_splits_them()
    {
        string text = string.Concat(Enumerable.Repeat("日本\uD83D\uDE00", 1200)) + "é日";
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteElementString("a", text);
        }
        byte[] data = stream.ToArray();
        Assert.Equal(RecordType.UnicodeChars16Text, (RecordType)(data[3] & 0xFE));
        List<string> Chunks(string factory, int size, out string rest)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.Read();
            r.Read();
            char[] buffer = new char[size];
            var chunks = new List<string>();
            for (int n = r.ReadValueChunk(buffer, 0, size); n > 0; n = r.ReadValueChunk(buffer, 0, size)) chunks.Add(new string(buffer, 0, n));
            using XmlDictionaryReader second = Create(factory, data);
            second.Read();
            second.Read();
            second.ReadValueChunk(buffer, 0, size);
            rest = second.Value;
            return chunks;
        }
        foreach (int size in new[] { 1, 2, 3, 4, 5, 7, 64, 4096, 10_000 })
        {
            List<string> ours = Chunks("BinaryXml", size, out string rest);
            Assert.Equal(text, string.Concat(ours));
            int position = 0;
            foreach (string chunk in ours)
            {
                int expected = Math.Min(size, text.Length - position);
                if (expected > 1 && position + expected < text.Length && char.IsHighSurrogate(text[position + expected - 1])) expected--;
                Assert.Equal(expected, chunk.Length);
                position += chunk.Length;
            }
            Assert.Equal(text[ours[0].Length..], rest);
            List<string> inBox;
            if (size % 4 == 3)
            {
                // The first chunk ends on a high surrogate: .NET's Value fails on the low one left.
                Assert.Throws<XmlException>(() => inBox = Chunks("in-box", size, out _));
                continue;
            }
            inBox = Chunks("in-box", size, out string inBoxRest);
            Assert.Equal(text, string.Concat(inBox));
            Assert.All(inBox.SkipLast(1), chunk => Assert.Equal(size, chunk.Length));
            Assert.Equal(text[Math.Min(size, text.Length)..], inBoxRest);
        }
    }

    [Theory]
    [InlineData("aé日x")]
    [InlineData("日本語\uD83D\uDE00")]
    public void Reading_a_value_in_chunks_allocates_nothing(string unit)
    {
        string text = string.Concat(Enumerable.Repeat(unit, 1024));
        byte[] data = Doc("StartElement(null, \"r\", null); StartElement(null, \"s\", null); String(\"" + text + "\"); EndElement(); EndElement()");
        XmlDictionaryReader r = Create("BinaryXml", data);
        char[] buffer = new char[1000];
        int Read()
        {
            ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            r.ReadStartElement("r");
            r.ReadStartElement("s");
            int total = 0, n;
            while ((n = r.ReadValueChunk(buffer, 0, buffer.Length)) > 0) total += n;
            return total;
        }
        Assert.Equal(text.Length, Read());
        int again = 0;
        long allocated = LeastAllocated(() => again = Read());
        Assert.Equal(text.Length, again);
        Assert.Equal(0, allocated);
    }

    /// <summary>
    /// An attribute's value read in chunks, as XmlDictionaryWriter.WriteNode reads it (on the attribute and on its value
    /// node): each chunk, and what GetAttribute, Value and a second attribute give between the chunks, are .NET's. The
    /// values are UTF-8 (Chars) and UTF-16 (UnicodeChars) records without surrogate pairs, which the two readers cut
    /// differently (pinned above for text).
    /// </summary>
    [Theory]
    [InlineData("0123456789abcdefghijklmnopqrstuvwxyz")]
    [InlineData("aé日x")]
    [InlineData("日本語")]
    public void An_attribute_value_read_in_chunks_is_what_the_in_box_reader_reads(string unit)
    {
        string value = string.Concat(Enumerable.Repeat(unit, 300));
        byte[] data = Doc("StartElement(null, \"r\", null); StartAttribute(null, \"v\", null); String(\"" + value
            + "\"); EndAttribute(); StartAttribute(null, \"w\", null); String(\"" + value + "\"); EndAttribute(); EndElement()");
        Assert.Equal(unit == "日本語" ? RecordType.UnicodeChars16Text : RecordType.Chars16Text, (RecordType)(data[6] & 0xFE));
        string Read(string factory, int size, bool onValueNode)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.MoveToContent();
            r.MoveToAttribute("v");
            if (onValueNode) r.ReadAttributeValue();
            char[] buffer = new char[size];
            var trace = new List<string> { new(buffer, 0, r.ReadValueChunk(buffer, 0, size)), r.GetAttribute("v")!, r.GetAttribute("w")! };
            for (int i = 0, n; i < 3 && (n = r.ReadValueChunk(buffer, 0, size)) > 0; i++) trace.Add(new string(buffer, 0, n));
            trace.Add(r.Value);
            r.MoveToAttribute("w");
            trace.Add(new string(buffer, 0, r.ReadValueChunk(buffer, 0, size)));
            r.MoveToAttribute("v");
            trace.Add(r.Value);
            trace.Add(new string(buffer, 0, r.ReadValueChunk(buffer, 0, size)));
            r.MoveToElement();
            trace.Add(r.GetAttribute("w")!);
            return string.Join("|", trace);
        }
        foreach (int size in new[] { 1, 2, 3, 5, 64, 4096 })
        {
            foreach (bool onValueNode in new[] { false, true })
            {
                string inBox = Read("in-box", size, onValueNode);
                Assert.Equal(inBox, Read("BinaryXml", size, onValueNode));
                Assert.StartsWith(value[..Math.Min(size, value.Length)] + "|" + value[Math.Min(size, value.Length)..] + "|" + value + "|", inBox);
            }
        }
    }

    /// <summary>
    /// An attribute's value with surrogate pairs, UTF-8 and UTF-16, read one character at a time, as WriteNode reads
    /// nothing but would with a one-character buffer: ours gives each pair's two halves in two chunks and the whole
    /// value, as for text. .NET's reader, pinned here, gives the same of UTF-16 and stops at the first pair of UTF-8.
    /// </summary>
    [Theory]
    [InlineData("ab\uD83D\uDE00", 2)]
    [InlineData("日本\uD83D\uDE00", 13)]
    public void An_attribute_value_read_one_character_at_a_time_keeps_its_surrogate_pairs(string unit, int inBoxLength)
    {
        string value = string.Concat(Enumerable.Repeat(unit, 3)) + "é";
        byte[] data = Doc("StartElement(null, \"r\", null); StartAttribute(null, \"v\", null); String(\"" + value + "\"); EndAttribute(); EndElement()");
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.MoveToContent();
            r.MoveToFirstAttribute();
            char[] buffer = new char[1];
            var read = new System.Text.StringBuilder();
            for (int n; (n = r.ReadValueChunk(buffer, 0, 1)) > 0;) read.Append(buffer, 0, n);
            return read.ToString();
        }
        Assert.Equal(value, Read("BinaryXml"));
        Assert.Equal(value[..inBoxLength], Read("in-box"));
    }

    [Theory]
    [InlineData("aé日x")]
    [InlineData("日本語\uD83D\uDE00")]
    public void Reading_an_attribute_value_in_chunks_allocates_nothing(string unit)
    {
        string text = string.Concat(Enumerable.Repeat(unit, 1024));
        byte[] data = Doc("StartElement(null, \"r\", null); StartAttribute(null, \"v\", null); String(\"" + text + "\"); EndAttribute(); EndElement()");
        XmlDictionaryReader r = Create("BinaryXml", data);
        char[] buffer = new char[1000];
        (int Read, int Left) Read()
        {
            ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            r.MoveToContent();
            r.MoveToFirstAttribute();
            r.ReadAttributeValue();
            int total = 0, n;
            while ((n = r.ReadValueChunk(buffer, 0, buffer.Length)) > 0) total += n;
            return (total, r.Value.Length);
        }
        Assert.Equal((text.Length, 0), Read());
        (int, int) again = default;
        long allocated = LeastAllocated(() => again = Read());
        Assert.Equal((text.Length, 0), again);
        Assert.Equal(0, allocated);
    }

    [Fact]
    public void A_comment_passed_over_is_not_decoded_and_its_value_is_read_later_as_in_box()
    {
        // <r><!--long comment-->x</r>: passing over the comment allocates nothing (.NET's reader decodes a comment when
        // its value is asked for); asked for after other members, its value is the in-box one.
        string comment = string.Concat(Enumerable.Repeat("comment é日\uD83D\uDE00 ", 400));
        byte[] data = Doc("StartElement(null, \"r\", null); Comment(\"" + comment + "\"); String(\"x\"); EndElement()");
        (XmlNodeType, string, string, bool, string) Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.MoveToContent();
            r.Read();
            XmlNodeType type = r.NodeType;
            bool hasValue = r.HasValue;
            string name = r.Name;
            char[] first = new char[7];
            int n = r.ReadValueChunk(first, 0, first.Length);
            return (type, name, new string(first, 0, n) + "|" + r.Value, hasValue, r.ReadString());
        }
        Assert.Equal(Read("in-box"), Read("BinaryXml"));
        Assert.Equal(XmlNodeType.Comment, Read("BinaryXml").Item1);

        XmlDictionaryReader reader = Create("BinaryXml", data);
        int nodes = 0;
        void PassOver()
        {
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            nodes = 0;
            while (reader.Read()) nodes++;
        }
        PassOver();
        Assert.Equal(4, nodes);
        Assert.Equal(0, LeastAllocated(PassOver));
        Assert.Equal(4, nodes);
    }

    [Theory]
    [InlineData("float")]
    [InlineData("TimeSpan")]
    [InlineData("UniqueId")]
    public void Typed_elements_read_in_one_step_give_in_box_values_and_allocate_no_more(string kind)
    {
        // 100 elements of one typed record each, read with the typed ReadElementContentAs… after IsStartElement: the
        // values and the node after them are in-box's, and the read allocates no more than in-box's (a UniqueId is
        // built from the input, as .NET's reader builds it: the object alone).
        var id = new UniqueId(new Guid("01234567-89ab-cdef-0123-456789abcdef"));
        byte[] data = InBoxDocument(w =>
        {
            w.WriteStartElement("r");
            for (int i = 0; i < 100; i++)
            {
                w.WriteStartElement("a");
                if (kind == "float") w.WriteValue(i * 1.5f);
                else if (kind == "TimeSpan") w.WriteValue(TimeSpan.FromSeconds(i * 7));
                else w.WriteValue(i % 2 == 0 ? id : new UniqueId(new Guid(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)));
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        string Read(XmlDictionaryReader r)
        {
            ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            var values = new System.Text.StringBuilder();
            r.ReadStartElement("r");
            while (r.IsStartElement())
            {
                object value = kind switch
                {
                    "float" => r.ReadElementContentAsFloat(),
                    "TimeSpan" => r.ReadElementContentAsTimeSpan(),
                    _ => r.ReadElementContentAsUniqueId(),
                };
                values.Append(Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture)).Append(' ');
            }
            return values.Append(r.NodeType).ToString();
        }
        XmlDictionaryReader inBox = Create("in-box", data), ours = Create("BinaryXml", data);
        string expected = Read(inBox);
        Assert.Equal(expected, Read(ours));
        Assert.EndsWith("EndElement", expected);
        void ReadValues(XmlDictionaryReader r)
        {
            ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            r.ReadStartElement("r");
            while (r.IsStartElement())
            {
                if (kind == "float") r.ReadElementContentAsFloat();
                else if (kind == "TimeSpan") r.ReadElementContentAsTimeSpan();
                else r.ReadElementContentAsUniqueId();
            }
        }
        Assert.True(LeastAllocated(() => ReadValues(ours)) <= LeastAllocated(() => ReadValues(inBox)));
    }

    [Theory]
    [InlineData(3.4028235677973366E+38)]
    [InlineData(-3.4028235677973366E+38)]
    [InlineData(1e300)]
    [InlineData(double.MaxValue)]
    [InlineData(1.1)]
    public void A_double_record_is_read_as_float_as_in_box(double value)
    {
        // A Double record just past float's range: converted, it would be infinity; .NET's reader reads it from its text,
        // which rounds to float.MaxValue. Read in one step and node by node.
        byte[] data = InBoxDocument(w => { w.WriteStartElement("a"); w.WriteValue(value); w.WriteEndElement(); });
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            using XmlDictionaryReader s = Create(factory, data);
            s.ReadStartElement("a");
            return r.ReadElementContentAsFloat().ToString("R") + " " + s.ReadContentAsFloat().ToString("R");
        }
        string expected = AlikeInBox(Read);
        if (value == 3.4028235677973366E+38) Assert.Equal("3.4028235E+38 3.4028235E+38", expected);
    }

    /// <summary>
    /// Bytes allocated on this thread by <paramref name="action"/> in steady state: the least of five runs (the runtime
    /// allocates on the thread now and then while it compiles methods again at a higher tier, a few KB in one run).
    /// </summary>
    private static long LeastAllocated(Action action)
    {
        long least = long.MaxValue;
        for (int i = 0; i < 5; i++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            action();
            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }
        return least;
    }

    [Fact]
    public void A_value_read_in_part_is_not_the_value_of_the_node_after_it()
    {
        // <r><a>text</a><b a="value">x</b></r>: chunks of the text, then Value and chunks of the end tag after it; of an
        // attribute, then of the next node.
        byte[] data = Doc("StartElement(null, \"r\", null); StartElement(null, \"a\", null); String(\"hello world text\"); EndElement(); "
            + "StartElement(null, \"b\", null); StartAttribute(null, \"a\", null); String(\"attribute value\"); EndAttribute(); String(\"x\"); EndElement(); EndElement()");
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            var trace = new List<string>();
            char[] buffer = new char[4];
            while (r.Read())
            {
                if (r.NodeType == XmlNodeType.Element && r.MoveToFirstAttribute())
                {
                    trace.Add($"attribute chunk {r.ReadValueChunk(buffer, 0, 4)}");
                    r.MoveToElement();
                }
                if (r.NodeType == XmlNodeType.Text) trace.Add($"text chunk {r.ReadValueChunk(buffer, 0, 4)}");
                trace.Add($"{r.NodeType} {r.LocalName} [{r.Value}] chunk {r.ReadValueChunk(buffer, 0, 4)}");
            }
            return string.Join("\n", trace);
        }
        Assert.Equal(Read("in-box"), Read("BinaryXml"));
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Each_node_of_one_dictionary_string_is_read_in_chunks_from_its_start(string factory)
    {
        var dictionary = new XmlDictionary();
        dictionary.Add("zero");
        dictionary.Add("dictionary text");
        // <r><a>{id 2}</a><b>{id 2}</b></r>: DictionaryTextWithEndElement twice; the two values are one string object.
        byte[] data = Hex.Parse("40 01 72 40 01 61 AB 02 40 01 62 AB 02 01");
        using XmlDictionaryReader r = Create(factory, data, dictionary);
        char[] buffer = new char[4];
        var texts = new List<string>();
        while (r.Read())
        {
            if (r.NodeType != XmlNodeType.Text) continue;
            var sb = new System.Text.StringBuilder();
            int n;
            while ((n = r.ReadValueChunk(buffer, 0, buffer.Length)) > 0) sb.Append(buffer, 0, n);
            texts.Add(sb.ToString());
        }
        Assert.Equal(["dictionary text", "dictionary text"], texts);
    }

    [Theory]
    [InlineData("4001619E030405064001619E030405069F0207089F020708", false)] // a Bytes record closing its element, more after it (fuzzer)
    [InlineData("", false)]  // 70,001 bytes in Bytes records up to the end tag: read in pieces, left on the last
    [InlineData("", true)]   // the same over a stream: .NET's reader does not know the length, reads to the end tag
    public void Whole_base64_content_ends_where_the_in_box_reader_ends_it(string hex, bool stream)
    {
        byte[] data = Convert.FromHexString(hex);
        if (hex.Length == 0)
        {
            var output = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(output))
            {
                w.WriteStartElement("r"); w.WriteStartElement("b"); w.WriteBase64(new byte[70001], 0, 70001); w.WriteEndElement(); w.WriteEndElement();
            }
            data = output.ToArray();
        }
        string Read(string factory)
        {
            using XmlDictionaryReader r = (factory, stream) switch
            {
                ("in-box", true) => XmlDictionaryReader.CreateBinaryReader(new MemoryStream(data), XmlDictionaryReaderQuotas.Max),
                (_, true) => BinaryXmlDictionaryReader.Create(new MemoryStream(data), null, XmlDictionaryReaderQuotas.Max),
                _ => Create(factory, data),
            };
            var log = new List<string>();
            while (r.Read())
            {
                if (r.NodeType != XmlNodeType.Text) continue;
                log.Add($"{r.TryGetBase64ContentLength(out int length)}/{length}");
                log.Add($"{r.ReadContentAsBase64().Length} then {r.NodeType} {r.Depth} '{r.Value}'");
            }
            return string.Join(", ", log);
        }
        string inBox = Read("in-box");
        Assert.Contains(hex.Length > 0 ? "2 then EndElement" : stream ? "False/0, 70001 then EndElement" : "True/70001, 70001 then Text", inBox, StringComparison.Ordinal);
        Assert.Equal(inBox, Read("BinaryXml"));
    }

    [Theory]
    [InlineData("A8", 5)]          // empty text, then the Bytes record
    [InlineData("A8", 3)]
    [InlineData("98 04 41 51 49 44", 5)] // "AQID", then the Bytes record
    public void A_piece_read_begun_on_text_takes_a_following_Bytes_record_as_characters(string text, int piece)
    {
        // .NET's reader decides between a Bytes record's bytes and text characters once per call: a call that begins on
        // text reads whole blocks of characters, those of a Bytes record it reaches included (found by the fuzzer).
        byte[] data = Hex.Parse("40 01 62 " + text + " 9E 0B 29 87 BF 9D C4 BE A8 A8 01 A8 6E 01");
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.Read();
            r.Read();
            byte[] buffer = new byte[piece];
            var log = new List<string>();
            int n;
            while ((n = r.ReadContentAsBase64(buffer, 0, piece)) > 0)
            {
                log.Add($"{Convert.ToHexString(buffer, 0, n)} '{r.Value}' {r.TryGetBase64ContentLength(out int length)}/{length}");
            }
            log.Add($"then {r.NodeType}");
            return string.Join(", ", log);
        }
        string inBox = Read("in-box");
        Assert.Contains("True/11", inBox, StringComparison.Ordinal); // the record's whole payload, after a piece of its characters
        Assert.EndsWith("A86E '' True/11, then EndElement", inBox, StringComparison.Ordinal);
        Assert.Equal(inBox, Read("BinaryXml"));
    }

    [Theory]
    [InlineData("Base64(hex:0102030405)")]
    [InlineData("Base64(hex:01*3000); Base64(hex:02*3001)")]
    [InlineData("String(\"AQIDBA==\")")]
    [InlineData("Base64(hex:0102); String(\"AwQ=\")")]
    [InlineData("Comment(\"c\"); Base64(hex:0A0B)")]
    [InlineData("String(\"AQ\"); Comment(\"c\"); String(\"ID\")")]
    [InlineData("String(\" AQ\\nI D\\t\")")]
    [InlineData("Base64(hex:0102); String(\"AwQ=\"); Base64(hex:05)")]
    [InlineData("String(\"xxx=\")")]
    [InlineData("String(\"AQIDxx==\")")]
    [InlineData("")]
    public void Base64_content_reads_as_one_array_as_the_in_box_reader_reads_it(string content)
    {
        byte[] data = Doc("StartElement(null, \"r\", null); StartElement(null, \"b\", null); " + (content.Length > 0 ? content + "; " : "")
            + "EndElement(); StartElement(null, \"after\", null); EndElement(); EndElement()");
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.ReadStartElement("r");
            string bytes = Convert.ToHexString(r.ReadElementContentAsBase64());
            return $"{bytes} then {r.NodeType} {r.LocalName}";
        }
        Assert.Equal(Read("in-box"), Read("BinaryXml"));
    }

    /// <summary>The in-box writer's <c>&lt;r&gt;&lt;b&gt;…&lt;/b&gt;&lt;after/&gt;&lt;/r&gt;</c> around the content <paramref name="content"/> writes.</summary>
    private static byte[] ContentThenAfter(Action<XmlDictionaryWriter> content)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("b");
            content(w);
            w.WriteEndElement();
            w.WriteStartElement("after");
            w.WriteEndElement();
            w.WriteEndElement();
        }
        return stream.ToArray();
    }

    [Theory]
    [InlineData(100_000, 4096, false)]
    [InlineData(100_000, 4096, true)]
    [InlineData(70_001, 1000, false)]
    [InlineData(70_001, 7, true)]
    [InlineData(20, 0, false)]
    public void Base64_content_read_in_pieces_streams_past_the_array_quota_as_the_in_box_reader_does(int size, int piece, bool element)
    {
        // How WCF reads a streamed body: pieces into one buffer, default quotas (MaxArrayLength 16,384).
        byte[] payload = new byte[size];
        new Random(size).NextBytes(payload);
        byte[] data = ContentThenAfter(w => w.WriteBase64(payload, 0, size));
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data, quotas: new XmlDictionaryReaderQuotas());
            r.ReadStartElement("r");
            if (!element) r.ReadStartElement("b");
            var read = new MemoryStream();
            var lengths = new List<int>();
            byte[] buffer = new byte[Math.Max(piece, 1)];
            for (int calls = 0; calls < 3 || piece > 0; calls++)
            {
                int n = element ? r.ReadElementContentAsBase64(buffer, 0, piece) : r.ReadContentAsBase64(buffer, 0, piece);
                lengths.Add(n);
                read.Write(buffer, 0, n);
                if (n == 0 && piece > 0) break;
            }
            if (piece > 0) Assert.Equal(payload, read.ToArray());
            return $"{string.Join(",", lengths)} then {r.NodeType} {r.LocalName}";
        }
        Assert.Equal(Read("in-box"), Read("BinaryXml"));
    }

    public static TheoryData<string, int, bool> Base64TextShapes()
    {
        var data = new TheoryData<string, int, bool>();
        foreach (string shape in new[] { "one node", "split", "spaces", "lines", "padded" })
        {
            foreach (int piece in new[] { 1, 2, 3, 7, 1000, 4096 })
            {
                data.Add(shape, piece, false);
            }
            data.Add(shape, 999, true);
        }
        return data;
    }

    [Theory]
    [MemberData(nameof(Base64TextShapes))]
    public void Base64_text_read_in_pieces_streams_past_the_array_quota_as_the_in_box_reader_does(string shape, int piece, bool element)
    {
        // Base64 as text (Chars records: a text writer's output re-encoded, or WriteString of base64), 40,000 bytes
        // against the default MaxArrayLength of 16,384: in one node; split between nodes in the middle of a block (a
        // comment between them); with whitespace around and inside it; in lines of 76 characters, each line and each
        // line feed a text node; in two runs each with its padding (a padded block inside the text). The length of
        // every piece is compared: white space counts towards the characters a call reads, and a line feed read alone
        // does not (found by a sweep of small documents in the sixty-first session).
        byte[] payload = new byte[40_000];
        new Random(piece).NextBytes(payload);
        string b64 = Convert.ToBase64String(payload);
        byte[] data = ContentThenAfter(w =>
        {
            switch (shape)
            {
                case "one node":
                    w.WriteString(b64);
                    break;
                case "split":
                    w.WriteString(b64[..1001]);
                    w.WriteComment("c");
                    w.WriteString(b64[1001..30_003]);
                    w.WriteString(b64[30_003..]);
                    break;
                case "lines":
                    for (int i = 0; i < b64.Length; i += 76)
                    {
                        w.WriteString(b64.Substring(i, Math.Min(76, b64.Length - i)));
                        w.WriteString("\n");
                    }
                    break;
                case "padded":
                    w.WriteString(Convert.ToBase64String(payload, 0, 1000) + Convert.ToBase64String(payload, 1000, payload.Length - 1000));
                    break;
                default:
                    w.WriteString(" " + b64[..1000] + " \r\n\t" + b64[1000..2001] + " " + b64[2001..] + "\n");
                    break;
            }
        });
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data, quotas: new XmlDictionaryReaderQuotas());
            r.ReadStartElement("r");
            if (!element) r.ReadStartElement("b");
            var read = new MemoryStream();
            var lengths = new System.Text.StringBuilder();
            byte[] buffer = new byte[piece];
            int n;
            while ((n = element ? r.ReadElementContentAsBase64(buffer, 0, piece) : r.ReadContentAsBase64(buffer, 0, piece)) > 0)
            {
                Assert.InRange(n, 1, piece);
                read.Write(buffer, 0, n);
                lengths.Append(n).Append(',');
            }
            Assert.Equal(payload, read.ToArray());
            return $"{lengths}then {r.NodeType} {r.LocalName}";
        }
        Assert.Equal(Read("in-box"), Read("BinaryXml"));
    }

    [Theory]
    [InlineData("String(\"AQI*\")")]
    [InlineData("String(\"AQIDB\")")]
    [InlineData("String(\"AQ\"); Comment(\"c\")")]
    [InlineData("String(\"AQ\u00e9D\")")]
    [InlineData("String(\"AQ\"); Base64(hex:0102)")]
    public void Base64_text_that_is_not_base64_throws_as_the_in_box_reader_does(string content)
    {
        byte[] data = Doc("StartElement(null, \"b\", null); " + content + "; EndElement()");
        foreach (int piece in new[] { 1, 3, 100 })
        {
            string? Read(string factory)
            {
                using XmlDictionaryReader r = Create(factory, data);
                r.ReadStartElement("b");
                byte[] buffer = new byte[piece];
                try
                {
                    while (r.ReadContentAsBase64(buffer, 0, piece) > 0)
                    {
                    }
                    return null;
                }
                catch (XmlException e)
                {
                    return e.GetType().Name;
                }
            }
            Assert.Equal("XmlException", Read("in-box"));
            Assert.Equal("BinaryXmlException", Read("BinaryXml"));
        }
    }

    [Theory]
    [InlineData("String(\"AQIDxx==*AQI\")", 5)]
    [InlineData("String(\"AQIDxxx=\"); String(\"*\")", 5)]
    [InlineData("String(\"xxxxxxxxxxxzxxxxxxxxxxx=\\u0000xxxx\")", 5)]
    [InlineData("String(\"AQIDxx==*AQI\")", 1)]
    public void Bytes_before_bad_base64_text_are_returned_as_the_in_box_reader_returns_them(string content, int piece)
    {
        // Pieces of five bytes or one take a block a call: a padded block's bytes (its unused bits may be set: "xx==",
        // "xxx=") come first, and what follows fails on the next call.
        byte[] data = Doc("StartElement(null, \"b\", null); " + content + "; EndElement()");
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.ReadStartElement("b");
            byte[] buffer = new byte[piece];
            var read = new System.Text.StringBuilder();
            try
            {
                int n;
                while ((n = r.ReadContentAsBase64(buffer, 0, piece)) > 0) read.Append(Convert.ToHexString(buffer, 0, n)).Append(' ');
                return $"{read}then {r.NodeType}";
            }
            catch (XmlException)
            {
                return $"{read}then an error";
            }
        }
        string inBox = Read("in-box");
        Assert.EndsWith("then an error", inBox);
        Assert.Equal(inBox, Read("BinaryXml"));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(7)]
    [InlineData(4096)]
    public void Values_read_as_base64_in_pieces_are_each_node_s_own_as_the_in_box_reader_reads_them(int piece)
    {
        var dictionary = new XmlDictionary();
        dictionary.Add("zero");
        dictionary.Add("AQIDBA==");
        byte[] payload = Enumerable.Range(0, 5000).Select(i => (byte)(i * 7)).ToArray();
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("a");
            w.WriteAttributeString("v", Convert.ToBase64String(payload, 0, 40));
            w.WriteBase64(payload, 0, payload.Length);
            w.WriteEndElement();
            w.WriteElementString("b", " " + Convert.ToBase64String(payload, 0, 3001) + " ");
            // The same dictionary string as the value of two nodes.
            w.WriteStartElement("c");
            w.WriteString(dictionary.Add("AQIDBA=="));
            w.WriteEndElement();
            w.WriteStartElement("d");
            w.WriteString(dictionary.Add("AQIDBA=="));
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data, dictionary);
            var trace = new List<string>();
            byte[] buffer = new byte[piece];
            string Pieces()
            {
                var bytes = new MemoryStream();
                int n;
                while ((n = r.ReadValueAsBase64(buffer, 0, piece)) > 0) bytes.Write(buffer, 0, n);
                return Convert.ToHexString(bytes.ToArray());
            }
            while (r.Read())
            {
                if (r.NodeType == XmlNodeType.Element && r.MoveToFirstAttribute())
                {
                    trace.Add($"attribute {Pieces()}");
                    r.MoveToElement();
                }
                if (r.NodeType == XmlNodeType.Text) trace.Add($"text {Pieces()} still {r.NodeType}");
            }
            return string.Join("\n", trace);
        }
        string inBox = Read("in-box");
        Assert.Contains(Convert.ToHexString(payload, 0, 4998), inBox);
        Assert.Equal(inBox, Read("BinaryXml"));
    }

    [Theory]
    [InlineData("List([\"\", \"  \", \"  \"])", false)]
    [InlineData("List([\"\", \"  \", \"  \"])", true)]
    [InlineData("List([\"\"])", false)]
    [InlineData("List([\"\"])", true)]
    [InlineData("String(\"  \")", false)]
    [InlineData("List([\"x\"])", false)]
    [InlineData("List([])", false)]
    [InlineData("List([])", true)]
    public void MoveToContent_on_a_whitespace_list_stops_as_the_in_box_reader_stops(string content, bool valueRead)
    {
        // .NET's reader tests a list's text for whitespace only once its value is decoded: until Value is asked for,
        // a list of whitespace items is content; an empty list (no items) is empty text, and other whitespace text is
        // passed over either way (found by the fuzzer: a typed array read gathering past an empty list).
        byte[] data = Doc("StartElement(null, \"r\", null); StartElement(null, \"a\", null); " + content + "; EndElement(); EndElement()");
        string Read(string factory)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.Read();
            r.Read();
            r.Read();
            string value = valueRead ? $"[{r.Value}]" : "";
            return $"{r.NodeType}{value} then {r.MoveToContent()} {r.Depth}";
        }
        Assert.Equal(Read("in-box"), Read("BinaryXml"));
    }

    [Fact]
    public void SetInput_forgets_binary_content_read_in_part()
    {
        byte[] first = Doc("StartElement(null, \"b\", null); String(\"0102030405\"); EndElement()");
        byte[] second = Doc("StartElement(null, \"b\", null); String(\"0A0B\"); EndElement()");
        XmlDictionaryReader r = BinaryXmlDictionaryReader.Create(first, 0, first.Length, null, XmlDictionaryReaderQuotas.Max);
        r.ReadStartElement("b");
        byte[] buffer = new byte[2];
        Assert.Equal(2, r.ReadContentAsBinHex(buffer, 0, 2));
        ((IXmlBinaryReaderInitializer)r).SetInput(second, 0, second.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
        r.ReadStartElement("b");
        byte[] all = new byte[10];
        int n = r.ReadContentAsBinHex(all, 0, all.Length);
        Assert.Equal("0A0B", Convert.ToHexString(all, 0, n));
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Base64_content_read_in_one_piece_and_then_whole_is_read_once(string factory)
    {
        byte[] payload = Enumerable.Range(0, 3000).Select(i => (byte)i).ToArray();
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("b");
            w.WriteBase64(payload, 0, payload.Length);
            w.WriteEndElement();
        }
        using XmlDictionaryReader r = Create(factory, stream.ToArray());
        r.ReadStartElement("b");
        byte[] first = new byte[100];
        Assert.Equal(100, r.ReadContentAsBase64(first, 0, 100));
        byte[] rest = r.ReadContentAsBase64();
        Assert.Equal(payload, first.Concat(rest).ToArray());
    }

    [Fact]
    public void Base64_content_of_a_megabyte_allocates_no_more_than_the_in_box_reader()
    {
        byte[] payload = new byte[1 << 20];
        new Random(5).NextBytes(payload);
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("b");
            w.WriteBase64(payload, 0, payload.Length);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        long Allocated(string factory)
        {
            XmlDictionaryReader r = Create(factory, data);
            byte[] Read()
            {
                ((IXmlBinaryReaderInitializer)r).SetInput(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
                r.ReadStartElement("r");
                return r.ReadElementContentAsBase64();
            }
            Assert.Equal(payload, Read());
            byte[] again = [];
            long allocated = LeastAllocated(() => again = Read());
            Assert.Equal(payload, again);
            return allocated;
        }
        long inBox = Allocated("in-box"), ours = Allocated("BinaryXml");
        Assert.True(ours <= inBox, $"{ours} B against the in-box reader's {inBox} B");
    }

    [Fact]
    public void WriteNode_from_our_reader_writes_what_copying_from_the_in_box_reader_writes()
    {
        byte[] data = Doc("StartElement(\"p\", \"root\", \"urn:p\"); AttributeString(null, \"a\", null, \"v\"); String(\"x\"*600); Base64(hex:AB*1000); Value(5); Array(null, \"n\", null, int[" + string.Join(", ", Enumerable.Range(0, 300)) + "]); Comment(\"c\"); EndElement()");
        byte[] Copy(string factory)
        {
            var stream = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
            using (XmlDictionaryReader r = Create(factory, data))
            {
                w.WriteNode(r, defattr: true);
            }
            return stream.ToArray();
        }
        Assert.Equal(Hex.Format(Copy("in-box")), Hex.Format(Copy("BinaryXml")));
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Whitespace_is_always_a_text_node(string factory)
    {
        byte[] data = Hex.Parse("98 02 20 20 40 01 61 05 03 78 6D 6C 05 73 70 61 63 65 98 08 70 72 65 73 65 72 76 65 98 01 20 01 98 01 0A");
        using XmlDictionaryReader r = Create(factory, data);
        var types = new List<XmlNodeType>();
        while (r.Read()) types.Add(r.NodeType);
        Assert.Equal([XmlNodeType.Text, XmlNodeType.Element, XmlNodeType.Text, XmlNodeType.EndElement, XmlNodeType.Text], types);
    }

    private static Exception? Outcome(string factory, byte[] data, XmlDictionaryReaderQuotas quotas, Action<XmlDictionaryReader> read)
    {
        try
        {
            using XmlDictionaryReader r = Create(factory, data, null, quotas);
            read(r);
            return null;
        }
        catch (Exception e)
        {
            return e;
        }
    }

    [Fact]
    public void Quotas_are_enforced_where_the_in_box_reader_enforces_them()
    {
        static void ReadAll(XmlDictionaryReader r) { while (r.Read()) { } }
        byte[] deep = Doc(string.Concat(Enumerable.Repeat("StartElement(null, \"a\", null); ", 5)) + string.Concat(Enumerable.Repeat("EndElement(); ", 5)));
        var depth = new XmlDictionaryReaderQuotas { MaxDepth = 4 };
        Assert.IsAssignableFrom<XmlException>(Outcome("in-box", deep, depth, ReadAll));
        Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", deep, depth, ReadAll));

        byte[] text = Doc("ElementString(null, \"a\", null, \"x\"*200)");
        var strings = new XmlDictionaryReaderQuotas { MaxStringContentLength = 100 };
        Action<XmlDictionaryReader> readString = r => { r.Read(); r.ReadElementContentAsString(); };
        Assert.IsAssignableFrom<XmlException>(Outcome("in-box", text, strings, readString));
        Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", text, strings, readString));

        byte[] bytes = Doc("StartElement(null, \"a\", null); Base64(hex:01*300); EndElement()");
        var arrays = new XmlDictionaryReaderQuotas { MaxArrayLength = 100 };
        Action<XmlDictionaryReader> readBytes = r => { r.Read(); r.ReadElementContentAsBase64(); };
        Assert.IsAssignableFrom<XmlException>(Outcome("in-box", bytes, arrays, readBytes));
        Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", bytes, arrays, readBytes));

        byte[] attributes = Doc("StartElement(null, \"a\", null); AttributeString(null, \"x\", null, \"v\"*300); EndElement()");
        var perRead = new XmlDictionaryReaderQuotas { MaxBytesPerRead = 100 };
        Assert.IsAssignableFrom<XmlException>(Outcome("in-box", attributes, perRead, ReadAll));
        Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", attributes, perRead, ReadAll));

        // MaxArrayLength on typed array reads: the reference notes say .NET skips it, but the in-box reader on .NET 10
        // enforces it (the oracle wins); both throw.
        byte[] array = Doc("StartElement(null, \"r\", null); Array(null, \"i\", null, int[" + string.Join(", ", Enumerable.Range(0, 200)) + "]); EndElement()");
        Action<XmlDictionaryReader> readArray = r => { r.ReadStartElement("r"); r.ReadInt32Array("i", ""); };
        Assert.IsAssignableFrom<XmlException>(Outcome("in-box", array, arrays, readArray));
        Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", array, arrays, readArray));
        // MaxNameTableCharCount: names are added to the name table when they are first asked for (LocalName, Name,
        // ...), not when read, by both readers (the notes said .NET skips this quota; the oracle enforces it this way),
        // and the table starts with 99 characters counted (xml, xmlns, their namespaces, the letters a-z). A scan that
        // asks for no names adds none; asking for each fails on the same name in both, ours at that name's offset.
        byte[] names = Doc("StartElement(null, \"r\", null); " + string.Concat(Enumerable.Range(0, 50).Select(i => $"StartElement(null, \"name{i:D4}\", null); EndElement(); ")) + "EndElement()");
        foreach (int quota in new[] { 99, 100, 150, 200 })
        {
            var nameTable = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = quota };
            Assert.Null(Outcome("in-box", names, nameTable, ReadAll));
            Assert.Null(Outcome("BinaryXml", names, nameTable, ReadAll));
            var asked = new Dictionary<string, List<string>> { ["in-box"] = [], ["BinaryXml"] = [] };
            foreach (string factory in asked.Keys)
            {
                void ReadAllNames(XmlDictionaryReader r) { while (r.Read()) asked[factory].Add(r.LocalName); }
                Assert.IsAssignableFrom<XmlException>(Outcome(factory, names, nameTable, ReadAllNames));
            }
            Assert.Equal(asked["in-box"], asked["BinaryXml"]);
            // 99, then "r" (a letter, already in the table), then 8 per name, each asked for at its element and end tag.
            int fitting = (quota - 99) / 8;
            Assert.Equal(1 + 2 * fitting, asked["BinaryXml"].Count);
            var failure = Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", names, nameTable, r => { while (r.Read()) _ = r.LocalName; }));
            Assert.Equal(names.AsSpan().IndexOf(System.Text.Encoding.UTF8.GetBytes($"name{fitting:D4}")), failure.Offset);
        }
    }

    [Fact]
    public void Inline_namespaces_are_compared_in_the_input_and_added_to_the_name_table_only_when_asked_for()
    {
        // .NET's reader adds an element's or attribute's namespace to its name table when NamespaceURI is asked for,
        // never for a namespace declaration's value, and compares namespaces without adding them: a scan, the values
        // of the declarations and every comparison pass under a name table quota that the namespaces exceed, asking
        // for them fails, in both readers alike, ours at the declared namespace's offset.
        string nsA = "urn:" + new string('a', 60), nsI = "urn:" + new string('i', 60), nsE = "urn:\u00e9t\u00e9-" + new string('e', 50);
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms))
        {
            w.WriteStartElement("r", nsA);
            w.WriteXmlnsAttribute("i", nsI);
            w.WriteXmlnsAttribute("e", nsE);
            w.WriteAttributeString("i", "x", nsI, "v");
            w.WriteStartElement("e", "c", nsE);
            w.WriteAttributeString("e", "y", nsE, "w");
            w.WriteEndElement();
            w.WriteStartElement("c", nsA);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        var names = new XmlDictionary();
        string[] candidates = [nsA, nsI, nsE, nsA[..^1] + "b", nsA[..^1], nsA + "a", "", "urn:\u00e9t\u00e9-" + new string('e', 49) + "f", "urn:\u00e9t\u00e9"];
        XmlDictionaryString[] dictionaryCandidates = [.. candidates.Select(c => names.Add(c))];
        // Every comparison the reader offers, on every element and attribute: the answers, as one line each.
        string Compare(XmlDictionaryReader r)
        {
            var log = new System.Text.StringBuilder();
            while (r.Read())
            {
                if (r.NodeType != XmlNodeType.Element) continue;
                for (int c = 0; c < candidates.Length; c++)
                {
                    log.Append($"{r.Depth} {c}: {r.IsNamespaceUri(candidates[c])} {r.IsNamespaceUri(dictionaryCandidates[c])} {r.IsStartElement("c", candidates[c])} ");
                    log.Append($"{r.GetAttribute("x", candidates[c]) ?? "-"} {r.GetAttribute("y", candidates[c]) ?? "-"} ");
                    for (int i = 0; i < r.AttributeCount; i++)
                    {
                        r.MoveToAttribute(i);
                        log.Append($"{r.IsNamespaceUri(candidates[c])}{r.IsNamespaceUri(dictionaryCandidates[c])} {r.Value} ");
                    }
                    r.MoveToElement();
                    log.Append($"{r.MoveToAttribute("x", candidates[c])}{r.MoveToAttribute("y", candidates[c])}");
                    r.MoveToElement();
                    log.AppendLine();
                }
            }
            return log.ToString();
        }
        Assert.Equal(Compare(Create("in-box", data)), Compare(Create("BinaryXml", data)));
        // The namespaces are 64 characters: over the quota (the 99 fixed characters and 40) once one is asked for.
        var quotas = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = 99 + 40 };
        var modes = new Dictionary<string, Action<XmlDictionaryReader>>
        {
            ["scan"] = r => { while (r.Read()) { } },
            ["compare"] = r => Compare(r),
            ["declared values"] = r => { while (r.Read()) { while (r.MoveToNextAttribute()) _ = r.Value; } },
            ["local names"] = r => { while (r.Read()) { _ = r.LocalName; while (r.MoveToNextAttribute()) _ = r.LocalName; } },
            ["element namespaces"] = r => { while (r.Read()) _ = r.NamespaceURI; },
            ["attribute namespaces"] = r => { while (r.Read()) { while (r.MoveToNextAttribute()) _ = r.NamespaceURI; } },
        };
        foreach ((string mode, Action<XmlDictionaryReader> read) in modes)
        {
            Exception? inBox = Outcome("in-box", data, quotas, read), ours = Outcome("BinaryXml", data, quotas, read);
            Assert.True((inBox is null) == (ours is null), $"{mode}: in-box {inBox?.GetType().Name ?? "passes"}, ours {ours?.GetType().Name ?? "passes"}");
            Assert.Equal(mode.EndsWith("namespaces"), ours is not null);
            if (ours is null) continue;
            Assert.IsAssignableFrom<XmlException>(inBox);
            var failure = Assert.IsType<BinaryXmlException>(ours);
            string first = mode == "element namespaces" ? nsA : nsI;
            Assert.Equal(data.AsSpan().IndexOf(System.Text.Encoding.UTF8.GetBytes(first)), failure.Offset);
        }
        Assert.Null(Outcome("BinaryXml", data, quotas, modes["compare"]));
    }

    [Fact]
    public void Malformed_input_throws_BinaryXmlException_where_the_in_box_reader_throws_XmlException()
    {
        foreach (string hex in new[] { "40 01 61", "40 01 61 A6 01", "01", "40 01 61 B6 03 61 00 62 01", "03 40 01 61 01 8D 00" })
        {
            byte[] data = Hex.Parse(hex);
            static void ReadAll(XmlDictionaryReader r) { while (r.Read()) { } }
            Assert.IsAssignableFrom<XmlException>(Outcome("in-box", data, XmlDictionaryReaderQuotas.Max, ReadAll));
            Assert.IsType<BinaryXmlException>(Outcome("BinaryXml", data, XmlDictionaryReaderQuotas.Max, ReadAll));
        }
    }

    [Fact]
    public void SetInput_and_stream_creation_reuse_the_reader()
    {
        var reader = BinaryXmlDictionaryReader.Create(Hex.Parse("40 01 61 83"), 0, 4, null, XmlDictionaryReaderQuotas.Max);
        Assert.Equal(1, reader.ReadElementContentAsInt());
        bool closed = false;
        ((IXmlBinaryReaderInitializer)reader).SetInput(new MemoryStream(Hex.Parse("40 01 62 99 01 78")), null, XmlDictionaryReaderQuotas.Max, null, _ => closed = true);
        Assert.Equal("x", reader.ReadElementContentAsString());
        reader.Close();
        Assert.True(closed);
        Assert.Equal(ReadState.Closed, reader.ReadState);
        using var fromStream = BinaryXmlDictionaryReader.Create(new MemoryStream(Hex.Parse("40 01 63 85")), null, XmlDictionaryReaderQuotas.Max);
        Assert.False(fromStream.ReadElementContentAsBoolean());
    }

    [Fact]
    public void A_reused_reader_takes_the_depth_and_attribute_quotas_of_each_SetInput()
    {
        // Five levels, and a start tag with 41 bytes of attributes: each read under quotas that allow them, then under
        // quotas that do not, then under the first again, by one reused reader of each kind. The native reader's
        // options are kept while the quotas stay the same and made again when either changes.
        byte[] deep = Doc(string.Concat(Enumerable.Repeat("StartElement(null, \"a\", null); ", 5)) + string.Concat(Enumerable.Repeat("EndElement(); ", 5)));
        byte[] attributes = Doc("StartElement(null, \"a\", null); AttributeString(null, \"n\", null, \"v\"*36); EndElement()");
        var roomy = new XmlDictionaryReaderQuotas { MaxDepth = 8, MaxBytesPerRead = 64 };
        var shallow = new XmlDictionaryReaderQuotas { MaxDepth = 4, MaxBytesPerRead = 64 };
        var narrow = new XmlDictionaryReaderQuotas { MaxDepth = 8, MaxBytesPerRead = 32 };
        (byte[] Data, XmlDictionaryReaderQuotas Quotas, bool Reads)[] steps =
        [
            (deep, roomy, true), (deep, shallow, false), (deep, roomy, true),
            (attributes, roomy, true), (attributes, narrow, false), (attributes, roomy, true),
        ];
        foreach (bool ours in new[] { false, true })
        {
            XmlDictionaryReader reader = ours
                ? BinaryXmlDictionaryReader.Create(deep, 0, deep.Length, null, roomy)
                : XmlDictionaryReader.CreateBinaryReader(deep, 0, deep.Length, null, roomy);
            foreach ((byte[] data, XmlDictionaryReaderQuotas quotas, bool reads) in steps)
            {
                ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, null, quotas, null, null);
                string what = $"{(ours ? "BinaryXml" : "in-box")}, {(data == deep ? "five levels" : "41 bytes of attributes")}, MaxDepth {quotas.MaxDepth}, MaxBytesPerRead {quotas.MaxBytesPerRead}";
                Exception? failure = Record.Exception(() => { while (reader.Read()) { } });
                Assert.True(reads == failure is null, $"{what}: {failure?.Message ?? "read"}");
                if (ours && failure is not null) Assert.IsType<BinaryXmlException>(failure);
            }
        }
    }

    [Fact]
    public void A_reused_reader_keeps_its_name_table_within_a_bound_and_counts_the_quota_per_document()
    {
        // Counted from the 99 characters of the fixed names each document's count starts with (as .NET's table does).
        var quotas = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = 99 + 40 };
        byte[] Named(string name) => Doc($"StartElement(null, \"{name}\", null); EndElement()");
        var reader = BinaryXmlDictionaryReader.Create(Named("first"), 0, Named("first").Length, null, quotas);
        // Each name is asked for (an element's inline local name is atomized then).
        void Read() => _ = reader.Read() ? reader.LocalName : null;
        Read();
        XmlNameTable table = reader.NameTable;
        Assert.Equal("first", table.Get("first"));
        // Each document may add up to the quota; the table is kept while it holds no more than the quota.
        byte[] next = Named("second");
        ((IXmlBinaryReaderInitializer)reader).SetInput(next, 0, next.Length, null, quotas, null, null);
        Read();
        Assert.Same(table, reader.NameTable);
        Assert.NotNull(reader.NameTable.Get("first"));
        byte[] longName = Named(new string('n', 35));
        for (int i = 0; i < 2; i++)
        {
            ((IXmlBinaryReaderInitializer)reader).SetInput(longName, 0, longName.Length, null, quotas, null, null);
            Read();
        }
        // 99 + 5 + 6 + 35 characters exceed the quota of 139: the next document starts a new table.
        ((IXmlBinaryReaderInitializer)reader).SetInput(next, 0, next.Length, null, quotas, null, null);
        Read();
        Assert.NotSame(table, reader.NameTable);
        Assert.Null(reader.NameTable.Get("first"));
        byte[] tooLong = Named(new string('m', 41));
        ((IXmlBinaryReaderInitializer)reader).SetInput(tooLong, 0, tooLong.Length, null, quotas, null, null);
        Assert.Throws<BinaryXmlException>(Read);

        // A difference from .NET, pinned: its reused reader counts on across documents, so the same three documents
        // (first, second, the 35-character name) fail on the third, which ours reads.
        var inBox = XmlDictionaryReader.CreateBinaryReader(Named("first"), quotas);
        foreach (byte[] document in new[] { Named("first"), next, longName })
        {
            ((IXmlBinaryReaderInitializer)inBox).SetInput(document, 0, document.Length, null, quotas, null, null);
            void ReadInBox() => _ = inBox.Read() ? inBox.LocalName : null;
            if (document == longName) Assert.ThrowsAny<XmlException>(ReadInBox);
            else ReadInBox();
        }
    }

    [Fact]
    public void A_reused_reader_takes_each_documents_namespaces_where_the_last_declared_others()
    {
        // <a xmlns=NS><b/><c/></a>, the namespace inline or an MC-NBFS string, then a child bound to the same
        // declaration, as documents of one shape declare other namespaces at the same offsets. The reader keeps its
        // open-element table from document to document, and where an element's namespace is declared for the next
        // element at its depth: within a document only. Each document, read by one reused reader, reads as in-box.
        static byte[] Inline(string ns) => [0x40, 0x01, 0x61, 0x08, (byte)ns.Length, .. System.Text.Encoding.UTF8.GetBytes(ns), 0x40, 0x01, 0x62, 0x01, 0x40, 0x01, 0x63, 0x01, 0x01];
        static byte[] Dictionary(byte id) => [0x40, 0x01, 0x61, 0x0A, id, 0x40, 0x01, 0x62, 0x01, 0x40, 0x01, 0x63, 0x01, 0x01];
        byte[][] documents = [Inline("urn:one"), Inline("urn:two"), Dictionary(0x04), Dictionary(0x06), Inline("urn:two"), Inline("urn:one"), Dictionary(0x06)];
        BinaryXmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(documents[0], 0, documents[0].Length, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max);
        for (int i = 0; i < documents.Length; i++)
        {
            byte[] data = documents[i];
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, NbfsDictionary.Instance, XmlDictionaryReaderQuotas.Max, null, null);
            Assert.Equal(NodeStream.FromInBox(data, NbfsDictionary.Instance), NodeStream.FromXmlReader(reader));
        }
    }

    [Fact]
    public void A_reused_reader_names_dictionary_strings_from_each_documents_dictionary_and_session()
    {
        // The same ids in two static dictionaries (and in a session changed between documents) name different
        // strings: a reused reader must not answer a document's id with an earlier document's string or atom.
        static XmlDictionary Dictionary(params string[] names)
        {
            var d = new XmlDictionary();
            foreach (string n in names) d.Add(n);
            return d;
        }
        XmlDictionary first = Dictionary("alpha", "urn:one", "attr", "p"), second = Dictionary("beta", "urn:two", "other", "q");
        static byte[] Write(XmlDictionary names, IXmlDictionary? staticDictionary, XmlBinaryWriterSession? session)
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, staticDictionary, session))
            {
                XmlDictionaryString[] s = [.. Enumerable.Range(0, 4).Select(i => names.TryLookup(i, out XmlDictionaryString? x) ? x : throw new InvalidOperationException())];
                w.WriteStartElement(s[3].Value, s[0], s[1]);
                w.WriteStartAttribute(s[3].Value, s[2], s[1]);
                w.WriteString(s[2]);
                w.WriteEndAttribute();
                w.WriteStartElement(s[0], s[1]);
                w.WriteEndElement();
                w.WriteEndElement();
            }
            return ms.ToArray();
        }
        byte[] one = Write(first, first, null), two = Write(second, second, null);
        // Session strings: the ids the writer's session gave them, and the same ids naming other strings.
        var writerSession = new RecordingWriterSession();
        byte[] viaSession = Write(Dictionary("gamma", "urn:three", "third", "r"), null, writerSession);
        Assert.Equal(3, writerSession.Keys.Count); // the local names and the namespace (a prefix is always inline)
        var renamed = writerSession.Keys.ToDictionary(k => k.Key, k => k.Value + "-renamed");
        var readerSession = new XmlBinaryReaderSession();

        var quotas = XmlDictionaryReaderQuotas.Max;
        var reader = BinaryXmlDictionaryReader.Create(one, 0, one.Length, first, quotas);
        var documents = new (byte[] Data, IXmlDictionary? Dictionary, Dictionary<int, string> Session, string Name)[]
        {
            (one, first, [], "alpha"), (two, second, [], "beta"), (one, first, [], "alpha"),
            (viaSession, null, writerSession.Keys, "gamma"), (viaSession, null, renamed, "gamma-renamed"),
        };
        foreach ((byte[] data, IXmlDictionary? dictionary, Dictionary<int, string> sessionStrings, string name) in documents)
        {
            readerSession.Clear();
            foreach ((int key, string value) in sessionStrings) readerSession.Add(key, value);
            List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, dictionary, quotas, readerSession), exactNodeTypes: true);
            Assert.Contains(expected, n => n.Contains(name));
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, dictionary, quotas, readerSession, null);
            Assert.Equal(expected, NodeStream.FromXmlReader(reader, exactNodeTypes: true));
        }
    }

    [Fact]
    public void Attributes_report_their_own_namespace_to_repeated_dictionary_strings()
    {
        // A serializer asks each attribute for its namespaces with its own dictionary strings (IsNamespaceUri,
        // IndexOfLocalName); the drop-in reader keeps the last match of an attribute's namespace not yet atomized. Two
        // prefixes declared on the root, used by attributes of alternating elements; read, then a document of the same
        // layout with other namespaces in the same places read by the same reader, then the first again.
        byte[] Write(string n1, string n2) => InBoxDocument(w =>
        {
            w.WriteStartElement("r");
            w.WriteXmlnsAttribute("p", "urn:" + n1);
            w.WriteXmlnsAttribute("o", "urn:" + n2);
            for (int i = 0; i < 4; i++)
            {
                w.WriteStartElement("e");
                w.WriteAttributeString(i % 2 == 0 ? "p" : "o", "x", "urn:" + (i % 2 == 0 ? n1 : n2), "1");
                w.WriteAttributeString(i % 2 == 0 ? "o" : "p", "y", "urn:" + (i % 2 == 0 ? n2 : n1), "2");
                w.WriteAttributeString("z", "3");
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        byte[] first = Write("aa", "bb"), second = Write("cc", "dd");
        Assert.Equal(first.Length, second.Length);
        var asked = new XmlDictionary();
        XmlDictionaryString[] questions = [asked.Add("urn:aa"), asked.Add("urn:bb"), asked.Add("urn:cc"), asked.Add("urn:dd"), asked.Add("")];
        XmlDictionaryString[] localNames = [asked.Add("y"), asked.Add("x")];
        string Answers(XmlDictionaryReader r)
        {
            var log = new System.Text.StringBuilder();
            while (r.Read())
            {
                while (r.MoveToNextAttribute())
                {
                    log.Append(r.LocalName).Append(':');
                    foreach (XmlDictionaryString q in questions) log.Append(r.IsNamespaceUri(q) ? 'N' : 'n').Append(r.IndexOfLocalName(localNames, q));
                    log.Append(' ');
                }
                log.Append('|');
            }
            return log.ToString();
        }
        var quotas = XmlDictionaryReaderQuotas.Max;
        var reader = BinaryXmlDictionaryReader.Create(first, 0, first.Length, null, quotas);
        foreach (byte[] data in new[] { first, second, first })
        {
            string expected = Answers(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, quotas));
            Assert.Contains(data == second ? "x:n-1n-1N1n-1n-1 " : "x:N1n-1n-1n-1n-1 ", expected);
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, null, quotas, null, null);
            Assert.Equal(expected, Answers(reader));
        }
    }

    [Fact]
    public void Elements_at_one_depth_report_their_own_namespace_when_it_changes_and_returns()
    {
        // The drop-in reader keeps where each depth's namespace came from and atomizes it again only when the next
        // element there is bound elsewhere: siblings bound to one declaration, to none, to a redeclared prefix, to a
        // default namespace of their own, to a static dictionary string and to a session string, then back; read once
        // and again by a reused reader over a document of the same layout with other namespaces in the same places.
        var staticDictionary = new XmlDictionary();
        XmlDictionaryString dName = staticDictionary.Add("d"), dNs = staticDictionary.Add("urn:dict");
        byte[] Write(string n1, string n2, XmlBinaryWriterSession session)
        {
            var sessionDictionary = new XmlDictionary();
            XmlDictionaryString sNs = sessionDictionary.Add("urn:sess-" + n1);
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, staticDictionary, session, false))
            {
                w.WriteStartElement("r");
                w.WriteXmlnsAttribute("p", "urn:" + n1);
                foreach (string step in new[] { "p", "none", "p", "redeclared", "p", "default", "p", "dictionary", "p", "session", "p", "none", "p" })
                {
                    switch (step)
                    {
                        case "p": w.WriteStartElement("p", "e", "urn:" + n1); break;
                        case "none": w.WriteStartElement("e"); break;
                        case "redeclared": w.WriteStartElement("p", "e", "urn:" + n2); break;
                        case "default": w.WriteStartElement("e", "urn:" + n2); break;
                        case "dictionary": w.WriteStartElement("q", dName, dNs); break;
                        default: w.WriteStartElement("s", dName, sNs); break;
                    }
                    w.WriteStartElement("p", "child", "urn:" + n1);
                    w.WriteEndElement();
                    w.WriteEndElement();
                }
                w.WriteEndElement();
            }
            return ms.ToArray();
        }
        var writerSession = new RecordingWriterSession();
        byte[] first = Write("aa", "bb", writerSession), second = Write("cc", "dd", writerSession);
        Assert.Equal(first.Length, second.Length);
        var readerSession = new XmlBinaryReaderSession();
        foreach ((int key, string value) in writerSession.Keys) readerSession.Add(key, value);
        var quotas = XmlDictionaryReaderQuotas.Max;
        var reader = BinaryXmlDictionaryReader.Create(first, 0, first.Length, staticDictionary, quotas, readerSession);
        // A serializer's questions by its own dictionary strings, answered from the last match where it still holds.
        var asked = new XmlDictionary();
        XmlDictionaryString[] questions = [asked.Add("urn:aa"), asked.Add("urn:cc"), asked.Add("urn:bb"), asked.Add("urn:dict")];
        string Answers(XmlDictionaryReader r)
        {
            var log = new System.Text.StringBuilder();
            while (r.Read())
            {
                if (r.NodeType == XmlNodeType.Element) log.AppendJoin(' ', questions.Select(q => r.IsNamespaceUri(q))).Append('|');
            }
            return log.ToString();
        }
        foreach (byte[] data in new[] { first, second, first })
        {
            List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, staticDictionary, quotas, readerSession), exactNodeTypes: true);
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, staticDictionary, quotas, readerSession, null);
            Assert.Equal(expected, NodeStream.FromXmlReader(reader, exactNodeTypes: true));
            string expectedAnswers = Answers(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, staticDictionary, quotas, readerSession));
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, staticDictionary, quotas, readerSession, null);
            Assert.Equal(expectedAnswers, Answers(reader));
        }
        Assert.Contains(NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(second, 0, second.Length, staticDictionary, quotas, readerSession)), n => n.Contains("urn:dd"));
    }

    [Fact]
    public void Start_element_tests_and_reads_by_string_names_agree_with_the_in_box_reader()
    {
        // Each element kind (unprefixed, prefixed, a static dictionary name, a non-ASCII name), reached from before it
        // (whitespace, an end tag), from its attribute, or from its text; every overload of IsStartElement and
        // ReadStartElement by strings, with matching, near-miss, prefixed and null names.
        var dictionary = new XmlDictionary();
        XmlDictionaryString dName = dictionary.Add("d"), dNs = dictionary.Add("urn:d");
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, null, false))
        {
            w.WriteStartElement("r", "urn:r");
            w.WriteWhitespace(" ");
            w.WriteStartElement("p", "a", "urn:p");
            w.WriteAttributeString("x", "1");
            w.WriteString("t");
            w.WriteEndElement();
            w.WriteStartElement(null, dName, dNs);
            w.WriteEndElement();
            w.WriteStartElement("\u00e9l\u00e9ment", "urn:r");
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        (string Name, Func<XmlDictionaryReader, object> Call)[] calls =
        [
            ("Is(r)", r => r.IsStartElement("r")), ("Is(p:a)", r => r.IsStartElement("p:a")), ("Is(a)", r => r.IsStartElement("a")),
            ("Is(q:a)", r => r.IsStartElement("q:a")), ("Is(p:)", r => r.IsStartElement("p:")), ("Is(:a)", r => r.IsStartElement(":a")),
            ("Is(d)", r => r.IsStartElement("d")), ("Is(\u00e9l\u00e9ment)", r => r.IsStartElement("\u00e9l\u00e9ment")), ("Is(null)", r => r.IsStartElement(null!)),
            ("Is(r, urn:r)", r => r.IsStartElement("r", "urn:r")), ("Is(a, urn:p)", r => r.IsStartElement("a", "urn:p")),
            ("Is(a, urn:r)", r => r.IsStartElement("a", "urn:r")), ("Is(d, urn:d)", r => r.IsStartElement("d", "urn:d")),
            ("Is(\u00e9l\u00e9ment, urn:r)", r => r.IsStartElement("\u00e9l\u00e9ment", "urn:r")), ("Is(p:a, urn:p)", r => r.IsStartElement("p:a", "urn:p")),
            ("Is(null, urn:r)", r => r.IsStartElement(null!, "urn:r")), ("Is(r, null)", r => r.IsStartElement("r", null!)),
            ("Is(null dictionary string, urn:d)", r => r.IsStartElement(null!, dNs)), ("Is(d, null dictionary string)", r => r.IsStartElement(dName, null!)),
            ("Is(d, urn:d) by dictionary strings", r => r.IsStartElement(dName, dNs)),
            ("Read(r)", r => { r.ReadStartElement("r"); return Where(r); }), ("Read(p:a)", r => { r.ReadStartElement("p:a"); return Where(r); }),
            ("Read(a)", r => { r.ReadStartElement("a"); return Where(r); }), ("Read(d)", r => { r.ReadStartElement("d"); return Where(r); }),
            ("Read(\u00e9l\u00e9ment)", r => { r.ReadStartElement("\u00e9l\u00e9ment"); return Where(r); }),
            ("Read(a, urn:p)", r => { r.ReadStartElement("a", "urn:p"); return Where(r); }),
            ("Read(a, urn:q)", r => { r.ReadStartElement("a", "urn:q"); return Where(r); }),
            ("Read(d, urn:d)", r => { r.ReadStartElement("d", "urn:d"); return Where(r); }),
            ("Read(\u00e9l\u00e9ment, urn:r)", r => { r.ReadStartElement("\u00e9l\u00e9ment", "urn:r"); return Where(r); }),
        ];
        string Outcome(string factory, int reads, bool onAttribute, Func<XmlDictionaryReader, object> call)
        {
            using XmlDictionaryReader r = Create(factory, data, dictionary);
            for (int i = 0; i < reads; i++) r.Read();
            if (onAttribute) r.MoveToFirstAttribute();
            try
            {
                return $"{call(r)} then {Where(r)}";
            }
            catch (Exception e)
            {
                return e is XmlException ? "XmlException" : e.GetType().Name;
            }
        }
        int checkedCases = 0;
        for (int reads = 0; reads < 9; reads++)
        {
            foreach (bool onAttribute in new[] { false, true })
            {
                foreach ((string name, Func<XmlDictionaryReader, object> call) in calls)
                {
                    string theirs = Outcome("in-box", reads, onAttribute, call);
                    Assert.True(theirs == Outcome("BinaryXml", reads, onAttribute, call), $"{name} after {reads} reads{(onAttribute ? " on an attribute" : "")}: in-box {theirs}");
                    checkedCases++;
                }
            }
        }
        Assert.Equal(9 * 2 * calls.Length, checkedCases);

        static string Where(XmlReader r) => $"{r.NodeType} {r.Prefix}:{r.LocalName} {r.Depth}";
    }

    [Fact]
    public void A_reused_reader_forgets_the_namespaces_and_elements_of_the_document_before()
    {
        // The second document declares other namespaces at the same offsets as the first, and is shallower: nothing of
        // the first (namespace atoms found by offset, open elements, the native reader's scopes) may show through,
        // whether the first was read to its end or left in the middle.
        byte[] deep = Doc("StartElement(\"p\", \"a\", \"urn:one\"); StartElement(null, \"b\", \"urn:b1\"); StartElement(\"p\", \"c\", \"urn:one\"); EndElement(); EndElement(); EndElement()");
        byte[] shallow = Doc("StartElement(\"p\", \"a\", \"urn:two\"); StartElement(null, \"b\", \"urn:b2\"); EndElement(); EndElement()");
        List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(shallow, XmlDictionaryReaderQuotas.Max), exactNodeTypes: true);
        Assert.Contains(expected, n => n.Contains("urn:two"));
        foreach (int nodesOfFirst in new[] { 2, 4, int.MaxValue })
        {
            XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(deep, 0, deep.Length, null, XmlDictionaryReaderQuotas.Max);
            for (int i = 0; i < nodesOfFirst && reader.Read(); i++) _ = reader.NamespaceURI;
            ((IXmlBinaryReaderInitializer)reader).SetInput(shallow, 0, shallow.Length, null, XmlDictionaryReaderQuotas.Max, null, null);
            Assert.Equal(expected, NodeStream.FromXmlReader(reader, exactNodeTypes: true));
        }
    }

    [Fact]
    public void A_reused_reader_atomizes_dictionary_names_in_its_current_name_table()
    {
        // When a reused reader starts a new name table (the old one held more than the quota), a dictionary name read
        // before is atomized again in the new table, not answered with the old table's string.
        var dictionary = new XmlDictionary();
        XmlDictionaryString alpha = dictionary.Add("alpha");
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, dictionary))
        {
            w.WriteStartElement(alpha, XmlDictionaryString.Empty);
            w.WriteEndElement();
        }
        byte[] named = ms.ToArray();
        byte[] LongName(char c) => Doc($"StartElement(null, \"{new string(c, 35)}\", null); EndElement()");
        var quotas = new XmlDictionaryReaderQuotas { MaxNameTableCharCount = 99 + 40 };
        var reader = BinaryXmlDictionaryReader.Create(named, 0, named.Length, dictionary, quotas);
        Assert.True(reader.Read());
        XmlNameTable table = reader.NameTable;
        Assert.Same(table.Get("alpha"), reader.LocalName);
        foreach (byte[] data in new[] { LongName('n'), LongName('m'), named })
        {
            ((IXmlBinaryReaderInitializer)reader).SetInput(data, 0, data.Length, dictionary, quotas, null, null);
            Assert.True(reader.Read());
            _ = reader.LocalName;
        }
        Assert.NotSame(table, reader.NameTable);
        Assert.Equal("alpha", reader.LocalName);
        Assert.Same(reader.NameTable.Get("alpha"), reader.LocalName);
    }

    private sealed class RecordingWriterSession : XmlBinaryWriterSession
    {
        public Dictionary<int, string> Keys { get; } = [];

        public override bool TryAdd(XmlDictionaryString value, out int key)
        {
            if (!base.TryAdd(value, out key)) return false;
            Keys[key] = value.Value;
            return true;
        }
    }

    private sealed class Segment : System.Buffers.ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, Segment? previous)
        {
            Memory = memory;
            if (previous is not null)
            {
                RunningIndex = previous.RunningIndex + previous.Memory.Length;
                previous.Next = this;
            }
        }
    }

    [Fact]
    public void Memory_and_sequence_inputs_read_like_the_array_input()
    {
        byte[] data = Doc("StartElement(\"p\", \"r\", \"urn:n\"); AttributeString(null, \"a\", null, \"v\"); Array(null, \"i\", null, int[1, 2, 3]); ElementString(null, \"s\", null, \"text\"); EndElement()");
        List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), exactNodeTypes: true);
        byte[] padded = [0xFF, .. data, 0xFF];
        var first = new Segment(padded.AsMemory(1, 5), null);
        var middle = new Segment(padded.AsMemory(6, 1), first);
        var last = new Segment(padded.AsMemory(7, data.Length - 6), middle);
        var inputs = new Dictionary<string, XmlDictionaryReader>
        {
            ["memory slice"] = BinaryXmlDictionaryReader.Create(padded.AsMemory(1, data.Length), null, XmlDictionaryReaderQuotas.Max),
            ["single segment"] = BinaryXmlDictionaryReader.Create(new System.Buffers.ReadOnlySequence<byte>(padded, 1, data.Length), null, XmlDictionaryReaderQuotas.Max),
            ["three segments"] = BinaryXmlDictionaryReader.Create(new System.Buffers.ReadOnlySequence<byte>(first, 0, last, data.Length - 6), null, XmlDictionaryReaderQuotas.Max),
        };
        foreach ((string name, XmlDictionaryReader reader) in inputs)
        {
            using (reader) Assert.True(expected.SequenceEqual(NodeStream.FromXmlReader(reader, exactNodeTypes: true)), name);
        }
        // One reader given each input in turn (longer, shorter, segmented, in place, after a close): the same nodes.
        byte[] longer = Doc("StartElement(null, \"r\", null); String(\"x\"*3000); ElementString(null, \"s\", null, \"text\"); EndElement()");
        List<string> expectedLonger = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(longer, 0, longer.Length, null, XmlDictionaryReaderQuotas.Max), exactNodeTypes: true);
        var longFirst = new Segment(longer.AsMemory(0, 100), null);
        var longLast = new Segment(longer.AsMemory(100), longFirst);
        var sequences = new (string Name, System.Buffers.ReadOnlySequence<byte> Input, List<string> Expected, bool CloseAfter)[]
        {
            ("three segments", new System.Buffers.ReadOnlySequence<byte>(first, 0, last, data.Length - 6), expected, false),
            ("two longer segments", new System.Buffers.ReadOnlySequence<byte>(longFirst, 0, longLast, longLast.Memory.Length), expectedLonger, false),
            ("three segments again", new System.Buffers.ReadOnlySequence<byte>(first, 0, last, data.Length - 6), expected, true),
            ("single segment after close", new System.Buffers.ReadOnlySequence<byte>(padded, 1, data.Length), expected, false),
            ("two longer segments last", new System.Buffers.ReadOnlySequence<byte>(longFirst, 0, longLast, longLast.Memory.Length), expectedLonger, true),
        };
        var reused = BinaryXmlDictionaryReader.Create(sequences[0].Input, null, XmlDictionaryReaderQuotas.Max);
        foreach ((string name, System.Buffers.ReadOnlySequence<byte> input, List<string> expectedNodes, bool closeAfter) in sequences)
        {
            reused.SetInput(input, null, XmlDictionaryReaderQuotas.Max, null, null);
            Assert.True(expectedNodes.SequenceEqual(NodeStream.FromXmlReader(reused, exactNodeTypes: true)), name);
            if (closeAfter) reused.Close();
        }
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void A_closed_reader_has_no_node_left(string factory)
    {
        byte[] data = Doc("StartElement(null, \"a\", null); AttributeString(null, \"x\", null, \"1\"); String(\"text\"); EndElement()");
        foreach (bool onAttribute in new[] { false, true })
        {
            XmlDictionaryReader r = Create(factory, data);
            r.Read();
            if (onAttribute) Assert.True(r.MoveToFirstAttribute());
            else r.Read();
            r.Close();
            Assert.Equal((ReadState.Closed, XmlNodeType.None, 1, "", "", "", 0, false), (r.ReadState, r.NodeType, r.Depth, r.LocalName, r.NamespaceURI, r.Value, r.AttributeCount, r.Read()));
        }
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void MoveToContent_passes_over_whitespace_text_and_comments(string factory)
    {
        // The binary reader reports whitespace as Text; .NET's binary reader still treats it as non-content here.
        byte[] data = Doc("StartElement(null, \"r\", null); Whitespace(\" \\n\"); Comment(\"c\"); String(\"\"); StartElement(null, \"a\", null); String(\"x\"); EndElement(); "
            + "StartElement(null, \"b\", null); Base64(hex:); EndElement(); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        r.Read();
        r.Read();
        Assert.Equal(XmlNodeType.Text, r.NodeType);
        Assert.Equal(XmlNodeType.Element, r.MoveToContent());
        Assert.Equal("a", r.LocalName);
        r.Read();
        Assert.Equal(XmlNodeType.Text, r.MoveToContent());
        Assert.Equal("x", r.Value);
        r.Read();
        r.Read();
        Assert.Equal("b", r.LocalName);
        r.Read();
        // An empty Bytes record is text whose value is empty: passed over, to b's end tag.
        Assert.Equal(XmlNodeType.EndElement, r.MoveToContent());
        Assert.Equal("b", r.LocalName);
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void An_attribute_value_node_has_the_attribute_names_and_is_content_unless_whitespace(string factory)
    {
        byte[] data = Doc("StartElement(\"p\", \"r\", \"urn:p\"); AttributeString(\"p\", \"a\", \"urn:p\", \"v\"); AttributeString(null, \"w\", null, \" \"); String(\"t\"); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        r.Read();
        Assert.True(r.MoveToAttribute("a", "urn:p"));
        Assert.True(r.ReadAttributeValue());
        Assert.Equal((XmlNodeType.Text, "p", "a", "urn:p", 2), (r.NodeType, r.Prefix, r.LocalName, r.NamespaceURI, r.Depth));
        Assert.Equal(XmlNodeType.Text, r.MoveToContent());
        Assert.Equal("v", r.Value);
        Assert.True(r.MoveToAttribute("w"));
        Assert.True(r.ReadAttributeValue());
        Assert.Equal(" ", r.Value);
        // A whitespace value is passed over: the element's content is next.
        Assert.Equal(XmlNodeType.Text, r.MoveToContent());
        Assert.Equal((1, "t"), (r.Depth, r.Value));
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Name_tests_compare_a_default_namespace_declaration_by_its_empty_prefix(string factory)
    {
        byte[] data = Doc("StartElement(null, \"r\", \"urn:d\"); Xmlns(\"q\", \"urn:q\"); EndElement()");
        using XmlDictionaryReader r = Create(factory, data);
        var names = new XmlDictionary();
        XmlDictionaryString xmlns = names.Add("xmlns"), empty = names.Add(""), q = names.Add("q"), xmlnsNamespace = names.Add("http://www.w3.org/2000/xmlns/");
        r.Read();
        Assert.True(r.MoveToAttribute("xmlns"));
        // LocalName says "xmlns", but .NET's binary reader tests the declaration's (empty) prefix.
        Assert.Equal("xmlns", r.LocalName);
        Assert.False(r.IsLocalName(xmlns));
        Assert.True(r.IsLocalName(empty));
        Assert.Equal(1, r.IndexOfLocalName([xmlns, empty], xmlnsNamespace));
        Assert.True(r.MoveToAttribute("xmlns:q"));
        Assert.True(r.IsLocalName(q));
        Assert.Equal(1, r.IndexOfLocalName([xmlns, q], xmlnsNamespace));
        Assert.True(r.IsNamespaceUri(xmlnsNamespace));
    }

    [Fact]
    public void MoveToContent_on_a_namespace_declarations_value_goes_by_the_value_where_in_box_goes_by_history()
    {
        // .NET's reader passes over the value of an xmlns attribute as if it were whitespace, unless Value was read on
        // it first (then the value decides, and a namespace is never whitespace). Ours always goes by the value.
        byte[] data = Doc("StartElement(\"p\", \"r\", \"urn:p\"); String(\"t\"); EndElement()");
        foreach (bool readValueFirst in new[] { false, true })
        {
            foreach (string factory in new[] { "in-box", "BinaryXml" })
            {
                using XmlDictionaryReader r = Create(factory, data);
                r.Read();
                r.MoveToAttribute("xmlns:p");
                r.ReadAttributeValue();
                if (readValueFirst) Assert.Equal("urn:p", r.Value);
                XmlNodeType type = r.MoveToContent();
                bool stays = factory == "BinaryXml" || readValueFirst;
                Assert.Equal(stays ? (XmlNodeType.Text, 2, "urn:p") : (XmlNodeType.Text, 1, "t"), (type, r.Depth, r.Value));
            }
        }
    }

    public static TheoryData<string, string> TextRecordsForMoveToContent() => new()
    {
        { "EmptyText", "A8" }, { "empty Chars8Text", "98 00" }, { "Chars8Text space", "98 01 20" }, { "Chars8Text x", "98 01 78" },
        { "empty Bytes8Text", "9E 00" }, { "Bytes8Text", "9E 01 AB" }, { "ZeroText", "80" }, { "TrueText", "86" }, { "Int64Text", "8E 01 00 00 00 00 00 00 00" },
        { "DictionaryText empty", "AA 00" }, { "DictionaryText space", "AA 04" }, { "DictionaryText x", "AA 02" },
        { "UnicodeChars8Text space", "B6 02 20 00" }, { "empty UnicodeChars8Text", "B6 00" },
    };

    [Theory]
    [MemberData(nameof(TextRecordsForMoveToContent))]
    public void MoveToContent_stops_at_a_text_record_unless_its_value_is_whitespace_as_in_box(string what, string record)
    {
        // The record as complex content (<a>R<b/></a>), as the atomic content closing its element (<a>R</a>), and after
        // the root element (top level); compared with the in-box reader, its Value read first or not.
        byte[] r = Hex.Parse(record);
        byte[] atomicRecord = [(byte)(r[0] | 1), .. r[1..]];
        var documents = new (string Position, byte[] Bytes, int Reads)[]
        {
            ("complex", [0x40, 1, (byte)'a', .. r, 0x40, 1, (byte)'b', 0x01, 0x01], 2),
            ("atomic", [0x40, 1, (byte)'a', .. atomicRecord], 2),
            ("top level", [0x40, 1, (byte)'a', 0x01, .. r], 3),
        };
        foreach ((string position, byte[] bytes, int reads) in documents)
        {
            foreach (bool readValue in new[] { false, true })
            {
                string inBox = MoveToContentFromText("in-box", bytes, reads, readValue), ours = MoveToContentFromText("BinaryXml", bytes, reads, readValue);
                Assert.True(inBox == ours, $"{what}, {position}, value {(readValue ? "read" : "not read")}: in-box {inBox}, ours {ours}");
            }
        }
    }

    [Fact]
    public void A_qualified_name_read_as_an_object_is_its_text_where_the_in_box_reader_fails()
    {
        // A difference, pinned (found by a probe of content reads): ReadContentAsObject on a QNameDictionaryText node
        // fails in .NET's reader with InvalidOperationException (its ValueHandle.ToObject has no conversion for a
        // qualified name); ours returns the text, as Value and ReadContentAsString do in both.
        // <a>b:mustUnderstand</a>, "mustUnderstand" being MC-NBFS id 0, the record closing its element.
        byte[] data = Hex.Parse("40 01 61 BD 01 00");
        using (XmlDictionaryReader inBox = Create("in-box", data, NbfsDictionary.Instance))
        {
            inBox.ReadStartElement("a");
            Assert.Throws<InvalidOperationException>(() => inBox.ReadContentAsObject());
        }
        using XmlDictionaryReader ours = Create("BinaryXml", data, NbfsDictionary.Instance);
        ours.ReadStartElement("a");
        Assert.Equal("b:mustUnderstand", ours.ReadContentAsObject());
        Assert.Equal(XmlNodeType.EndElement, ours.NodeType);
    }

    [Fact]
    public void A_qualified_name_in_a_list_is_read_where_the_in_box_reader_fails()
    {
        // A difference, pinned (found by the fuzzer's differential): MC-NBFX lets a list hold any text record, a
        // QNameDictionaryText included, rendered "letter:local". .NET's reader converts each list item to an object
        // to join them and has no conversion for a qualified name: Value fails with InvalidOperationException (its
        // ValueHandle.ToObject), for an attribute's list and a content list alike. Ours reads the list as rendered.
        // <a x="1 b:mustUnderstand">1 b:mustUnderstand</a>, "mustUnderstand" being MC-NBFS id 0.
        byte[] data = Hex.Parse("40 01 61 04 01 78 A4 82 BC 01 00 A6 A4 82 BC 01 00 A6 01");
        using (XmlDictionaryReader inBox = Create("in-box", data, NbfsDictionary.Instance))
        {
            inBox.Read();
            Assert.Throws<InvalidOperationException>(() => inBox.GetAttribute("x"));
            inBox.Read();
            Assert.Equal(XmlNodeType.Text, inBox.NodeType);
            Assert.Throws<InvalidOperationException>(() => inBox.Value);
        }
        using XmlDictionaryReader ours = Create("BinaryXml", data, NbfsDictionary.Instance);
        ours.Read();
        Assert.Equal("1 b:mustUnderstand", ours.GetAttribute("x"));
        ours.Read();
        Assert.Equal(XmlNodeType.Text, ours.NodeType);
        Assert.Equal("1 b:mustUnderstand", ours.Value);
    }

    [Fact]
    public void MoveToContent_differs_from_in_box_where_in_box_depends_on_what_was_read()
    {
        // Two in-box outcomes that depend on history, not on the node: a QNameDictionaryText (never whitespace) is passed
        // over unless its Value was read; an EmptyText is passed over, except right after a Chars record. Ours goes by
        // the value: it stops at the QName text, and passes over the empty text.
        byte[] qname = [0x40, 1, (byte)'a', 0xBC, 0, 2, 0x40, 1, (byte)'b', 0x01, 0x01];
        byte[] emptyAfterChars = [0x40, 1, (byte)'a', 0x98, 1, (byte)'x', 0xA8, 0x40, 1, (byte)'b', 0x01, 0x01];
        Assert.Equal("Element 1 b", MoveToContentFromText("in-box", qname, 2, readValue: false));
        Assert.Equal("Text 1 ", MoveToContentFromText("in-box", qname, 2, readValue: true));
        Assert.Equal("Text 1 ", MoveToContentFromText("BinaryXml", qname, 2, readValue: false));
        Assert.Equal("Text 1 ", MoveToContentFromText("BinaryXml", qname, 2, readValue: true));
        Assert.Equal("Text 1 ", MoveToContentFromText("in-box", emptyAfterChars, 3, readValue: false));
        Assert.Equal("Element 1 b", MoveToContentFromText("BinaryXml", emptyAfterChars, 3, readValue: false));
    }

    [Fact]
    public void A_typed_array_read_passes_over_an_empty_text_after_the_array_where_the_in_box_reader_may_stop()
    {
        // The same history-dependent difference, met through a typed array read (found by the fuzzer's differential,
        // seed 860): ReadInt16Array, having read the Array record's items, looks for more items of the name with
        // IsStartElement, whose MoveToContent meets the EmptyText after the array. .NET's reader passes over it when no
        // text record before it left a length behind, and stops at it otherwise (its text node's stale length); ours
        // passes over it every time, and is on the text after it.
        byte[] array = [0x03, 0x40, 0x01, (byte)'a', 0x01, 0x8B, 0x02, 0x01, 0x00, 0x02, 0x00];
        byte[] rest = [0xA8, 0x98, 0x01, (byte)'x', 0x01];
        byte[] first = [0x40, 0x01, (byte)'r', .. array, .. rest];
        byte[] afterText = [0x40, 0x01, (byte)'r', 0x92, .. BitConverter.GetBytes(1.5), .. array, .. rest];
        static string ReadArray(string factory, byte[] data)
        {
            using XmlDictionaryReader r = Create(factory, data);
            r.ReadStartElement("r");
            if (r.NodeType == XmlNodeType.Text) r.Read();
            short[] items = r.ReadInt16Array("a", "");
            return $"{string.Join(",", items)} then {r.NodeType} '{r.Value}'";
        }
        Assert.Equal("1,2 then Text 'x'", ReadArray("in-box", first));
        Assert.Equal("1,2 then Text 'x'", ReadArray("BinaryXml", first));
        Assert.Equal("1,2 then Text ''", ReadArray("in-box", afterText));
        Assert.Equal("1,2 then Text 'x'", ReadArray("BinaryXml", afterText));
    }

    /// <summary>
    /// Reads <paramref name="reads"/> nodes to a text node, its Value read or not, then MoveToContent: where the reader
    /// ends ("type depth local name"), "on …" when the node read to is not text, or "rejected". The dictionary holds
    /// "", "x" and " " (ids 0, 2, 4).
    /// </summary>
    private static string MoveToContentFromText(string factory, byte[] bytes, int reads, bool readValue)
    {
        var dictionary = new XmlDictionary();
        dictionary.Add("");
        dictionary.Add("x");
        dictionary.Add(" ");
        try
        {
            using XmlDictionaryReader reader = Create(factory, bytes, dictionary);
            for (int i = 0; i < reads; i++) reader.Read();
            if (reader.NodeType != XmlNodeType.Text) return "on " + reader.NodeType;
            if (readValue) _ = reader.Value;
            return $"{reader.MoveToContent()} {reader.Depth} {reader.LocalName}";
        }
        catch (XmlException)
        {
            return "rejected";
        }
    }

    /// <summary>Memory that is not an array (as a pipe's native or pooled memory can be).</summary>
    private sealed class NotAnArray(byte[] data) : System.Buffers.MemoryManager<byte>
    {
        public override Span<byte> GetSpan() => data;

        public override System.Buffers.MemoryHandle Pin(int elementIndex = 0) => throw new NotSupportedException();

        public override void Unpin()
        {
        }

        protected override void Dispose(bool disposing)
        {
        }
    }

    [Fact]
    public void Sequence_input_that_is_not_an_array_or_is_empty_reads_like_the_array_input()
    {
        byte[] data = Doc("StartElement(null, \"r\", null); ElementString(null, \"s\", null, \"text\"); EndElement()");
        List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, XmlDictionaryReaderQuotas.Max), exactNodeTypes: true);
        var notAnArray = new System.Buffers.ReadOnlySequence<byte>(new NotAnArray(data).Memory);
        using (XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(notAnArray, null, XmlDictionaryReaderQuotas.Max))
        {
            Assert.True(expected.SequenceEqual(NodeStream.FromXmlReader(reader, exactNodeTypes: true)));
        }
        using (XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(new ReadOnlyMemory<byte>(data), null, XmlDictionaryReaderQuotas.Max))
        {
            Assert.True(expected.SequenceEqual(NodeStream.FromXmlReader(reader, exactNodeTypes: true)));
        }
        using (XmlDictionaryReader reader = BinaryXmlDictionaryReader.Create(new NotAnArray(data).Memory, null, XmlDictionaryReaderQuotas.Max))
        {
            Assert.True(expected.SequenceEqual(NodeStream.FromXmlReader(reader, exactNodeTypes: true)));
        }
        // Memory that is not an array's is copied into the reader's rented buffer, not into an array of its own: readers
        // created per message over 100 KB of it allocate far less than 100 KB each.
        byte[] large = Doc("StartElement(null, \"r\", null); String(\"x\"*100000); EndElement()");
        ReadOnlyMemory<byte> native = new NotAnArray(large).Memory;
        static void CreateAndClose(ReadOnlyMemory<byte> input) => BinaryXmlDictionaryReader.Create(input, null, XmlDictionaryReaderQuotas.Max).Close();
        CreateAndClose(native);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 10; i++) CreateAndClose(native);
        long perReader = (GC.GetAllocatedBytesForCurrentThread() - before) / 10;
        Assert.True(perReader < 10_000, $"a reader over 100 KB of memory that is not an array's allocated {perReader} B");
        // An empty input is an empty document, as an empty array is for both readers.
        using XmlDictionaryReader inBoxEmpty = XmlDictionaryReader.CreateBinaryReader([], 0, 0, null, XmlDictionaryReaderQuotas.Max);
        using XmlDictionaryReader empty = BinaryXmlDictionaryReader.Create(System.Buffers.ReadOnlySequence<byte>.Empty, null, XmlDictionaryReaderQuotas.Max);
        Assert.Equal(inBoxEmpty.Read(), empty.Read());
        Assert.Equal((inBoxEmpty.ReadState, inBoxEmpty.NodeType), (empty.ReadState, empty.NodeType));
    }

    [Theory]
    [InlineData("as read")]
    [InlineData("after Value")]
    [InlineData("after three bytes of ReadContentAsBase64")]
    [InlineData("after ReadValueChunk")]
    public void Base64_content_length_is_reported_as_the_in_box_reader_reports_it(string before)
    {
        // .NET's binary reader adds up the Bytes records from the current one to one that closes the element or an end
        // tag (false when another record comes first): 7 bytes written are two records (6 + 1), 70,000 more, a Bytes
        // record closing its element followed by a start tag is false, an attribute counts with the content after it.
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("a"); w.WriteBase64(new byte[7], 0, 7); w.WriteEndElement();
            w.WriteStartElement("b"); w.WriteBase64(new byte[300], 0, 300); w.WriteEndElement();
            w.WriteStartElement("c"); w.WriteBase64(new byte[5], 0, 5); w.WriteString("x"); w.WriteEndElement();
            w.WriteStartElement("d"); w.WriteStartAttribute("x"); w.WriteBase64(new byte[4], 0, 4); w.WriteEndAttribute(); w.WriteString("t"); w.WriteEndElement();
            w.WriteStartElement("e"); w.WriteStartAttribute("x"); w.WriteBase64(new byte[2], 0, 2); w.WriteEndAttribute(); w.WriteBase64(new byte[9], 0, 9); w.WriteEndElement();
            w.WriteStartElement("f"); w.WriteString("AAAA"); w.WriteEndElement();
            w.WriteStartElement("g"); w.WriteBase64(new byte[70000], 0, 70000); w.WriteEndElement();
            w.WriteArray(null, "h", null, new[] { 1, 2 }, 0, 2);
            // Text then Bytes: a piece read of the text takes characters of the Bytes record's base64 (found by the fuzzer).
            w.WriteStartElement("i"); w.WriteString("0"); w.WriteBase64([4, 5, 6], 0, 3); w.WriteBase64([7, 8], 0, 2); w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        string Lengths(XmlDictionaryReader r)
        {
            var log = new List<string>();
            string Length() => r.TryGetBase64ContentLength(out int n) + "/" + n;
            string element = "";
            while (r.Read())
            {
                if (r.NodeType == XmlNodeType.Element) element = r.LocalName;
                if (r.NodeType == XmlNodeType.Text)
                {
                    if (before == "after Value") _ = r.Value;
                    // Text that is not base64 ("x" after Bytes in c, "t" in d, the numbers of h) fails in both readers,
                    // at different points; "AAAA" (f) is text the readers decode, so its length is unknown either way.
                    if (before == "after three bytes of ReadContentAsBase64" && element is "a" or "b" or "e" or "f" or "g" or "i")
                    {
                        log.Add($"read {r.ReadContentAsBase64(new byte[3], 0, 3)}, '{r.Value}' left");
                    }
                    if (before == "after ReadValueChunk") r.ReadValueChunk(new char[2], 0, 2);
                }
                log.Add($"{r.NodeType} {r.Name} {Length()}");
                if (r.MoveToFirstAttribute())
                {
                    log.Add($"attribute {Length()}");
                    if (r.ReadAttributeValue()) log.Add($"value {Length()}");
                    r.MoveToElement();
                }
            }
            return string.Join(", ", log);
        }
        string expected = Lengths(Create("in-box", data));
        Assert.Matches("Element g False/0, (read 3, '[^']*' left, )?Text  True/", expected);
        Assert.Equal(expected, Lengths(Create("BinaryXml", data)));
    }
    /// <summary>
    /// What may be done on an element before its attributes are asked for, staying on it: the attributes read after any
    /// of it are those the in-box reader reports (ours builds them when first asked for).
    /// </summary>
    private static readonly (string Name, Action<XmlDictionaryReader> Act)[] s_stayOnElement =
    [
        ("nothing", _ => { }),
        ("MoveToContent", r => r.MoveToContent()),
        ("IsStartElement", r => r.IsStartElement()),
        ("names", r => _ = (r.Prefix, r.LocalName, r.NamespaceURI, r.Name)),
        ("IsStartElement by name", r => r.IsStartElement(r.LocalName, r.NamespaceURI)),
        ("LookupNamespace", r => r.LookupNamespace("p")),
        ("counts", r => _ = (r.AttributeCount, r.HasAttributes, r.HasValue, r.IsEmptyElement)),
        ("MoveToElement", r => r.MoveToElement()),
    ];

    /// <summary>Every way to read an element's attributes, in one log: by index, by name, by navigation, as values.</summary>
    private static string AttributeLog(XmlDictionaryReader r)
    {
        var log = new List<string> { $"{r.AttributeCount}" };
        for (int i = 0; i < r.AttributeCount; i++) log.Add($"[{i}]={r.GetAttribute(i)}");
        if (r.MoveToFirstAttribute())
        {
            do
            {
                string name = r.Name, local = r.LocalName, ns = r.NamespaceURI;
                // ValueType before and after Value: .NET's turns to string once Value is asked for.
                log.Add($"{r.NodeType} {r.Depth} {r.Prefix}|{local}|{ns} {r.ValueType.Name} '{r.Value}' {r.ValueType.Name} {r.XmlLang}");
                log.Add($"by name {r.GetAttribute(name)}, by local name and namespace {r.GetAttribute(local, ns)}");
                if (r.ReadAttributeValue()) log.Add($"value node {r.NodeType} {r.Depth} {r.ValueType.Name} '{r.Value}' {r.ValueType.Name}");
            }
            while (r.MoveToNextAttribute());
            r.MoveToElement();
        }
        if (r.AttributeCount > 1)
        {
            r.MoveToAttribute(r.AttributeCount - 1);
            log.Add($"last {r.Name} '{r.Value}'");
            r.MoveToElement();
        }
        log.Add($"missing {r.GetAttribute("missing") ?? "null"} {r.MoveToAttribute("missing", "urn:none")}");
        return string.Join("; ", log);
    }

    [Fact]
    public void Attributes_asked_for_after_other_reads_of_their_element_are_those_of_the_in_box_reader()
    {
        // Elements with namespace declarations, prefixed and unprefixed attributes, a list, dictionary and typed values,
        // xml:lang (its scope begins at the start tag), and none. On each element in turn: one of the reads that stay
        // on it, then every attribute read; or the element read past (Skip, ReadElementContentAsString, Read) with its
        // attributes never asked for. Then the rest of the document node by node, attributes included.
        var dictionary = new XmlDictionary();
        XmlDictionaryString dictionaryValue = dictionary.Add("dictionary value"), nsP = dictionary.Add("urn:p");
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, dictionary, null, false))
        {
            w.WriteStartElement("r");
            w.WriteXmlnsAttribute("p", nsP);
            w.WriteStartElement("a");
            w.WriteAttributeString("x", "1");
            w.WriteAttributeString("p", "y", nsP.Value, "two");
            w.WriteXmlnsAttribute("q", "urn:q");
            w.WriteStartAttribute("q", "z", "urn:q"); w.WriteValue(new object[] { 1, 3.5 }); w.WriteEndAttribute();
            w.WriteString("text of a");
            w.WriteEndElement();
            w.WriteStartElement("p", "b", nsP.Value);
            w.WriteStartAttribute("d"); w.WriteString(dictionaryValue); w.WriteEndAttribute();
            w.WriteStartAttribute("n"); w.WriteValue(42); w.WriteEndAttribute();
            w.WriteString("text of b");
            w.WriteEndElement();
            w.WriteStartElement("c");
            w.WriteAttributeString("xml", "lang", null, "de");
            w.WriteAttributeString("k", "v");
            w.WriteElementString("d", "text of d");
            w.WriteEndElement();
            w.WriteStartElement("e");
            w.WriteString("no attributes");
            w.WriteEndElement();
            w.WriteStartElement("f"); w.WriteValue(7); w.WriteEndElement();
            w.WriteStartElement("g"); w.WriteBase64([1, 2, 3], 0, 3); w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        string Run(string factory, string element, string action)
        {
            using XmlDictionaryReader r = Create(factory, data, dictionary);
            var log = new List<string>();
            while (r.Read() && !(r.NodeType == XmlNodeType.Element && r.LocalName == element)) log.Add($"{r.NodeType} {r.Name}");
            switch (action)
            {
                case "Skip": r.Skip(); break;
                case "ReadElementContentAsString": log.Add(r.ReadElementContentAsString()); break;
                case "Read": r.Read(); break;
                default:
                    s_stayOnElement.Single(a => a.Name == action).Act(r);
                    log.Add($"{r.NodeType} {r.Name}: {AttributeLog(r)}");
                    break;
            }
            do
            {
                log.Add($"{r.NodeType} {r.Depth} {r.Name} {r.ValueType.Name} '{(r.NodeType == XmlNodeType.Text ? r.Value : "")}' {r.ValueType.Name} {r.XmlLang}: {AttributeLog(r)}");
            }
            while (r.Read());
            return string.Join(Environment.NewLine, log);
        }
        int cases = 0;
        foreach (string element in new[] { "r", "a", "b", "c", "e" })
        {
            foreach (string action in s_stayOnElement.Select(a => a.Name).Concat(["Skip", "ReadElementContentAsString", "Read"]))
            {
                if (action == "ReadElementContentAsString" && element is "r" or "c") continue;
                string expected = Run("in-box", element, action);
                Assert.Equal(expected, Run("BinaryXml", element, action));
                cases++;
            }
        }
        Assert.Equal(5 * 11 - 2, cases);
        // The log holds what it should: the list, the dictionary and typed values (their type string once Value is
        // asked for, and again their own on the attribute's value node), the scope of xml:lang.
        string a = Run("in-box", "a", "nothing"), b = Run("in-box", "b", "nothing"), c = Run("in-box", "c", "nothing");
        Assert.Contains("q|z|urn:q Object[] '1 3.5' String", a);
        Assert.Contains("|d| String 'dictionary value' String", b);
        Assert.Contains("|n| Int32 '42' String", b);
        Assert.Contains("value node Text 3 Int32 '42' String", b);
        Assert.Contains("Element 2 d String '' String de", c);
        Assert.Contains("Text 2  Int32 '7' String", c);
        Assert.Contains("Text 2  Byte[] 'AQID' String", c);
    }

    [Fact]
    public void Attributes_not_asked_for_before_a_failed_read_fail_with_it()
    {
        // <r><a x="1">, then text of malformed UTF-8 closing a. A deliberate difference, pinned: after the failed
        // ReadElementContentAsString the in-box reader is still on a and reads its attribute; ours, whose reader stays
        // failed after malformed input, builds an element's attribute nodes when first asked for and can no longer do
        // so: it throws a BinaryXmlException naming the element's offset. Attributes asked for before the failure stay.
        byte[] data = [0x40, 0x01, (byte)'r', 0x40, 0x01, (byte)'a', 0x04, 0x01, (byte)'x', 0x98, 0x01, (byte)'1', 0x99, 0x02, 0xC3, 0x28, 0x01];
        foreach (bool askedBefore in new[] { false, true })
        {
            XmlDictionaryReader inBox = Create("in-box", data), ours = Create("BinaryXml", data);
            foreach (XmlDictionaryReader r in new[] { inBox, ours })
            {
                r.Read();
                r.Read();
                Assert.Equal(("a", 1), (r.LocalName, r.AttributeCount));
                if (askedBefore) Assert.Equal("1", r.GetAttribute("x"));
                Assert.ThrowsAny<XmlException>(() => r.ReadElementContentAsString());
                Assert.Equal(("a", 1), (r.LocalName, r.AttributeCount));
            }
            Assert.Equal("1", inBox.GetAttribute("x"));
            if (askedBefore)
            {
                Assert.Equal("1", ours.GetAttribute("x"));
                continue;
            }
            var failure = Assert.Throws<BinaryXmlException>(() => ours.GetAttribute("x"));
            Assert.Equal(3, failure.Offset);
            Assert.Throws<BinaryXmlException>(() => ours.MoveToFirstAttribute());
            Assert.Equal(ReadState.Error, ours.ReadState);
        }
    }

    [Fact]
    public void A_session_changed_while_a_document_is_read_gives_the_strings_it_held_when_they_were_read()
    {
        // <p:e xmlns:p="urn:a"><p:f x="v"/><p:g/></p:e>, every name, the namespace and the value from a session. After
        // the first Read the session is cleared and refilled with other strings for the same ids. A deliberate
        // difference, pinned: .NET's reader looks a session string up whenever it is asked for, so the element it is on
        // and the namespace declared before the change take the new strings; ours looks strings up as it reads the
        // records that use them (a namespace declaration's when it is first used in the document, attribute values when
        // the element's attributes are first asked for) and gives the strings the session held then. WCF fills a
        // session between messages, never while one is read.
        var names = new XmlDictionary();
        XmlDictionaryString e = names.Add("e"), f = names.Add("f"), g = names.Add("g"), ns = names.Add("urn:a"), v = names.Add("v");
        var writerSession = new RecordingWriterSession();
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, writerSession))
        {
            w.WriteStartElement("p", e, ns);
            w.WriteStartElement("p", f, ns);
            w.WriteStartAttribute(null, "x", null); w.WriteString(v); w.WriteEndAttribute();
            w.WriteEndElement();
            w.WriteStartElement("p", g, ns);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        Assert.Equal(5, writerSession.Keys.Count);
        string Read(string factory)
        {
            var session = new XmlBinaryReaderSession();
            foreach ((int key, string value) in writerSession.Keys) session.Add(key, value);
            using XmlDictionaryReader r = Create(factory, data, null, null, session);
            var log = new List<string>();
            r.Read();
            session.Clear();
            foreach ((int key, string value) in writerSession.Keys) session.Add(key, value + "2");
            do
            {
                log.Add($"{r.NodeType} {r.LocalName} {r.NamespaceURI}{(r.NodeType == XmlNodeType.Element && r.GetAttribute("x") is string x ? " x=" + x : "")}");
            }
            while (r.Read());
            return string.Join(", ", log);
        }
        Assert.Equal("Element e2 urn:a2, Element f2 urn:a2 x=v2, EndElement f2 urn:a2, Element g2 urn:a2, EndElement g2 urn:a2, EndElement e2 urn:a2", Read("in-box"));
        Assert.Equal("Element e urn:a, Element f2 urn:a x=v2, EndElement f2 urn:a, Element g2 urn:a, EndElement g2 urn:a, EndElement e urn:a", Read("BinaryXml"));
    }
    /// <summary>
    /// A reader on a value of <paramref name="data"/>: the root element's attribute <paramref name="node"/> (names
    /// beginning with "a"), else the first node inside the element <paramref name="node"/>.
    /// </summary>
    private static XmlDictionaryReader OnValue(string factory, byte[] data, string node)
    {
        XmlDictionaryReader r = Create(factory, data);
        r.Read();
        if (node.StartsWith('a') || node.StartsWith("xmlns:", StringComparison.Ordinal))
        {
            Assert.True(r.MoveToAttribute(node));
            return r;
        }
        while (r.Read() && !(r.NodeType == XmlNodeType.Element && r.LocalName == node)) { }
        Assert.True(r.Read());
        return r;
    }

    [Fact]
    public void Content_read_after_Value_is_that_string_as_in_box()
    {
        // .NET's reader keeps the string Value returned: the node's ValueType is string from then on, a content read
        // returns that string, and on text closing its element the reader stays on the node, now empty. Without Value
        // first, typed records and Bytes (of an attribute, or closing the element) come back as their values. Each
        // read on each kind of node, with and without Value first: the value, its type, the node after, the next one.
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartAttribute("ai"); w.WriteValue(42); w.WriteEndAttribute();
            w.WriteStartAttribute("ab"); w.WriteBase64([1, 2, 3], 0, 3); w.WriteEndAttribute();
            w.WriteElementString("s", "str");
            w.WriteStartElement("t"); w.WriteString("text"); w.WriteStartElement("x"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteStartElement("i"); w.WriteValue(42); w.WriteEndElement();
            w.WriteStartElement("d"); w.WriteValue(2.5); w.WriteEndElement();
            w.WriteStartElement("b"); w.WriteBase64([1, 2, 3], 0, 3); w.WriteEndElement();
            w.WriteStartElement("c"); w.WriteBase64([4, 5, 6], 0, 3); w.WriteStartElement("x"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        var reads = new (string Name, Func<XmlReader, object> Read)[]
        {
            ("ReadContentAsString", r => r.ReadContentAsString()),
            ("ReadContentAsObject", r => r.ReadContentAsObject()),
            ("ReadContentAs(object)", r => r.ReadContentAs(typeof(object), null)),
            ("ReadContentAsInt", r => r.ReadContentAsInt()),
            ("ReadContentAsDouble", r => r.ReadContentAsDouble()),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach (string node in new[] { "ai", "ab", "s", "t", "i", "d", "b", "c" })
            {
                foreach (bool valueFirst in new[] { false, true })
                {
                    foreach ((string name, Func<XmlReader, object> read) in reads)
                    {
                        using XmlDictionaryReader r = OnValue(factory, data, node);
                        string before = $"{r.ValueType.Name}{(valueFirst ? " '" + r.Value + "'" : "")}";
                        string outcome;
                        try
                        {
                            object value = read(r);
                            outcome = $"{value.GetType().Name} {(value is byte[] bytes ? Convert.ToHexString(bytes) : Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture))}";
                        }
                        catch (Exception e) when (e is XmlException or FormatException or InvalidCastException)
                        {
                            outcome = "fails";
                        }
                        string after = $"{r.NodeType} {r.Depth} {r.Name} '{(r.NodeType is XmlNodeType.Text or XmlNodeType.Attribute ? r.Value : "")}' {r.ValueType.Name}";
                        string next = r.Read() ? $"{r.NodeType} {r.Name}" : "end";
                        log.Add($"{node} {before} {name}: {outcome}; on {after}; then {next}");
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        // The cases the reader once answered otherwise, in the in-box reader's words.
        Assert.Contains("s String 'str' ReadContentAsString: String str; on Text 2  '' String; then EndElement s", expected);
        Assert.Contains("i Int32 '42' ReadContentAsObject: String 42; on Text 2  '' String", expected);
        Assert.Contains("s String ReadContentAsInt: fails; on Text 2  'str' String", expected);
        Assert.Contains("b Byte[] ReadContentAsObject: Byte[] 010203; on EndElement 1 b '' String", expected);
        Assert.Contains("ab Byte[] ReadContentAsObject: Byte[] 010203", expected);
    }

    [Fact]
    public void A_value_read_in_part_leaves_the_rest_as_the_value_as_in_box()
    {
        // .NET's reader keeps what is left of a value read in chunks as the node's value (Value, the next chunk, a
        // content read) until it moves; an attribute whose text is read straight from its record (Value not asked for
        // first) keeps it itself, after a move and for GetAttribute too. Chunks of 3 characters, then Value, another
        // chunk, a content read or a move; on Bytes, ASCII, CJK and int attributes, text, an int and Bytes closing
        // their element, and text not closing it; with and without Value first. (Attributes read in part as base64 or
        // BinHex: An_attribute_read_in_part_as_bytes_is_read_as_in_box; text nodes without Value first are also pinned by
        // Value_chunks_are_cut_as_the_in_box_reader_cuts_them.)
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartAttribute("ab"); w.WriteBase64([1, 2, 3], 0, 3); w.WriteEndAttribute();
            w.WriteStartAttribute("as"); w.WriteString("attr text"); w.WriteEndAttribute();
            w.WriteStartAttribute("au"); w.WriteString("日本語のテキスト"); w.WriteEndAttribute();
            w.WriteStartAttribute("ai"); w.WriteValue(42); w.WriteEndAttribute();
            w.WriteElementString("s", "str value");
            w.WriteStartElement("i"); w.WriteValue(42); w.WriteEndElement();
            w.WriteStartElement("b"); w.WriteBase64([1, 2, 3, 4, 5, 6], 0, 6); w.WriteEndElement();
            w.WriteStartElement("t"); w.WriteString("AAAA"); w.WriteStartElement("x"); w.WriteEndElement(); w.WriteEndElement();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        static string Chunk(XmlReader r)
        {
            var chars = new char[3];
            int n = r.ReadValueChunk(chars, 0, 3);
            return $"{n}:{new string(chars, 0, n)}";
        }
        var reads = new (string Name, Func<XmlReader, string> Read)[]
        {
            ("chunk then Value", r => Chunk(r) + " | " + r.Value),
            ("two chunks then Value", r => Chunk(r) + " " + Chunk(r) + " | " + r.Value),
            ("chunk then ReadContentAsString", r => Chunk(r) + " | " + r.ReadContentAsString()),
            ("ReadContentAsString twice", r => r.ReadContentAsString() + " | " + r.ReadContentAsString()),
            ("ReadString", r => r.ReadString()),
            // A move (to the same attribute, to its value node, to the element and back) gives the whole value again.
            ("chunk, move, Value", r => Chunk(r) + " | " + (r.NodeType == XmlNodeType.Attribute && r.MoveToAttribute(r.Name) ? r.Value : "-")),
            ("chunk, value node, Value", r => Chunk(r) + " | " + (r.ReadAttributeValue() ? r.Value : "-")),
            ("chunk, element and back, Value", r => { string name = r.Name; return Chunk(r) + " | " + (r.MoveToElement() && r.MoveToAttribute(name) ? r.Value : "-"); }),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach (string node in new[] { "ab", "as", "au", "ai", "s", "i", "b", "t" })
            {
                foreach (bool valueFirst in new[] { false, true })
                {
                    foreach ((string name, Func<XmlReader, string> read) in reads)
                    {
                        using XmlDictionaryReader r = OnValue(factory, data, node);
                        if (valueFirst) _ = r.Value;
                        string outcome;
                        try
                        {
                            outcome = read(r);
                        }
                        catch (XmlException)
                        {
                            outcome = "fails";
                        }
                        log.Add($"{node}{(valueFirst ? " after Value" : "")} {name}: {outcome}; on {r.NodeType} {r.Depth} {r.Name} '{(r.NodeType is XmlNodeType.Text or XmlNodeType.Attribute ? r.Value : "")}' {r.ValueType.Name}");
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("ab chunk then Value: 3:AQI | D; on Attribute 1 ab 'D' String", expected);
        Assert.Contains("i chunk then Value: 2:42 | ; on Text 2  '' String", expected);
        Assert.Contains("s after Value two chunks then Value: 3:str 3: va | lue", expected);
        Assert.Contains("as chunk, move, Value: 3:att | r text", expected);
        Assert.Contains("ab chunk, move, Value: 3:AQI | AQID", expected);
    }

    /// <summary><c>&lt;r&gt;&lt;e&gt;content&lt;/e&gt;&lt;after/&gt;&lt;/r&gt;</c> from .NET's writer, for the binary content reads.</summary>
    private static byte[] ContentDocument(Action<XmlDictionaryWriter> content)
    {
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("e");
            content(w);
            w.WriteEndElement();
            w.WriteElementString("after", "");
            w.WriteEndElement();
        }
        return ms.ToArray();
    }

    /// <summary>The node a reader is on, with the value of an attribute or text node.</summary>
    private static string NodeAndValue(XmlReader r) => $"{r.NodeType} {r.Name} '{(r.NodeType is XmlNodeType.Attribute or XmlNodeType.Text ? r.Value : "")}'";

    /// <summary>
    /// Whether a binary read failed on bad input: an XmlException (a BinaryXmlException here). In-box, BinHex of a
    /// single byte from characters that are not hex is an argument error instead; here it is what bad input always is.
    /// </summary>
    private static bool IsBadBinaryInput(string factory, Exception e) => e is XmlException || (factory == "in-box" && e is ArgumentOutOfRangeException);

    [Fact]
    public void An_attribute_read_in_part_as_bytes_is_read_as_in_box()
    {
        // .NET's reader takes a Bytes attribute's payload, or a Chars one whose length is whole base64 blocks, from the
        // attribute itself (what is left is its value, for Value and GetAttribute too), and reads on to the node after
        // the start tag when a content read finds it used up; any other value it reads as characters (ReadValueChunk:
        // the rest becomes the value) in blocks of four (two for BinHex), keeping the bytes of a block that did not fit
        // for the next read. A first read of 1, 2 or 4 bytes (ReadContentAsBase64, ReadContentAsBinHex or
        // ReadValueAsBase64), with Value, GetAttribute or nothing first, on the attribute or its value node, on Bytes, text, base64 text, int, empty, hex text and
        // namespace declaration attributes; then Value, GetAttribute, a chunk, the same read to the end, the whole
        // value, a content read as string or object. The element's content after the attributes: an element, Bytes,
        // or a comment and base64 text.
        static byte[] Document(string content)
        {
            var ms = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
            {
                w.WriteStartElement("r");
                w.WriteStartAttribute("ab"); w.WriteBase64([1, 2, 3, 4, 5, 6, 7], 0, 7); w.WriteEndAttribute();
                w.WriteStartAttribute("as"); w.WriteString("attr text"); w.WriteEndAttribute();
                w.WriteStartAttribute("a4"); w.WriteString("AQIDBAUG"); w.WriteEndAttribute();
                w.WriteStartAttribute("ai"); w.WriteValue(42); w.WriteEndAttribute();
                w.WriteStartAttribute("ae"); w.WriteString(""); w.WriteEndAttribute();
                w.WriteStartAttribute("ah"); w.WriteString("0A0b0C 0d"); w.WriteEndAttribute();
                w.WriteXmlnsAttribute("p", "AQIDBAUG");
                switch (content)
                {
                    case "element": w.WriteElementString("s", "str value"); break;
                    case "Bytes": w.WriteBase64([8, 9], 0, 2); break;
                    default: w.WriteComment("c"); w.WriteString("CgsM"); break;
                }
                w.WriteEndElement();
            }
            return ms.ToArray();
        }
        var firstReads = new (string Name, Func<XmlDictionaryReader, byte[], int> Read)[]
        {
            ("ReadContentAsBase64", (r, b) => r.ReadContentAsBase64(b, 0, b.Length)),
            ("ReadContentAsBinHex", (r, b) => r.ReadContentAsBinHex(b, 0, b.Length)),
            ("ReadValueAsBase64", (r, b) => r.ReadValueAsBase64(b, 0, b.Length)),
        };
        var thenReads = new (string Name, Func<XmlDictionaryReader, byte[], Func<XmlDictionaryReader, byte[], int>, string> Read)[]
        {
            ("Value", (r, _, _) => r.Value),
            ("GetAttribute and back", (r, _, _) => { string name = r.Name; return r.GetAttribute(name) + " / " + (r.MoveToAttribute(name) ? r.Value : "-"); }),
            ("chunk", (r, _, _) => { var chars = new char[3]; int n = r.ReadValueChunk(chars, 0, 3); return new string(chars, 0, n); }),
            // Bounded: a reader that never returns 0 fails here instead of hanging.
            ("to the end", (r, b, read) => string.Join(" ", Enumerable.Range(0, 20).Select(_ => read(r, b)).TakeWhile(n => n > 0).Select(n => Convert.ToHexString(b, 0, n)))),
            ("whole", (r, _, _) => Convert.ToHexString(r.ReadContentAsBase64())),
            ("content as string", (r, _, _) => r.ReadContentAsString()),
            ("length and object", (r, _, _) => (r.TryGetBase64ContentLength(out int length) ? length.ToString(System.Globalization.CultureInfo.InvariantCulture) : "no") + " " + (r.ReadContentAsObject() is byte[] bytes ? "bytes " + Convert.ToHexString(bytes) : "string")),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach (string content in new[] { "element", "Bytes", "comment and text" })
            foreach (string node in new[] { "ab", "as", "a4", "ai", "ae", "ah", "xmlns:p" })
            {
                byte[] data = Document(content);
                foreach (string before in new[] { "", " after Value", " after GetAttribute", " on its value node", " on its value node after Value" })
                {
                    foreach (int size in new[] { 1, 2, 4 })
                    {
                        foreach ((string first, Func<XmlDictionaryReader, byte[], int> read) in firstReads)
                        {
                            foreach ((string then, Func<XmlDictionaryReader, byte[], Func<XmlDictionaryReader, byte[], int>, string> thenRead) in thenReads)
                            {
                                // .NET's reader runs out of memory reading a namespace declaration's content after a
                                // part of it: not compared.
                                if (node.StartsWith("xmlns:", StringComparison.Ordinal) && then is "content as string" or "length and object") continue;
                                using XmlDictionaryReader r = OnValue(factory, data, node);
                                if (before.StartsWith(" on its value node", StringComparison.Ordinal)) Assert.True(r.ReadAttributeValue());
                                _ = before.EndsWith(" after Value", StringComparison.Ordinal) ? r.Value : before == " after GetAttribute" ? r.GetAttribute(node) : null;
                                var buffer = new byte[size];
                                string outcome;
                                try
                                {
                                    int n = read(r, buffer);
                                    outcome = Convert.ToHexString(buffer, 0, n) + " | " + thenRead(r, buffer, read);
                                }
                                catch (Exception e) when (IsBadBinaryInput(factory, e))
                                {
                                    outcome = "fails";
                                }
                                log.Add($"{content}: {node}{before} {first} {size} then {then}: {outcome}; on {NodeAndValue(r)}");
                            }
                        }
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("element: ab ReadContentAsBase64 2 then Value: 0102 | AwQFBgc=; on Attribute ab 'AwQFBgc='", expected);
        Assert.Contains("element: ab ReadContentAsBase64 2 then to the end: 0102 | 0304 0506 07; on Element s ''", expected);
        Assert.Contains("element: ab after Value ReadContentAsBase64 2 then to the end: 0102 | 03 0405 06 07; on Attribute ab ''", expected);
        Assert.Contains("element: ab after GetAttribute ReadContentAsBase64 2 then Value: 0102 | AwQFBgc=", expected);
        // On the value node a content read stays there; one that takes a value the reader keeps leaves it empty.
        Assert.Contains("element: ab on its value node ReadContentAsBase64 2 then content as string: 0102 | AwQFBgc=; on Text ab 'AwQFBgc='", expected);
        Assert.Contains("element: ab on its value node after Value ReadContentAsBase64 2 then content as string: 0102 | BAUGBw==; on Text ab ''", expected);
        Assert.Contains("element: as ReadContentAsBase64 2 then GetAttribute and back: 6ADB |  text /  text; on Attribute as ' text'", expected);
        Assert.Contains("element: ah ReadContentAsBinHex 2 then to the end: 0A0B | 0C 0D; on Attribute ah ''", expected);
        // A content read that uses up a Bytes attribute goes on with the element's content.
        Assert.Contains("Bytes: ab ReadContentAsBase64 4 then to the end: 01020304 | 050607 0809;", expected);
        Assert.Contains("comment and text: ab ReadContentAsBase64 4 then to the end: 01020304 | 050607 0A0B0C;", expected);
    }

    [Fact]
    public void Content_read_as_BinHex_in_part_is_read_as_in_box()
    {
        // .NET's reader reads BinHex content as characters (ReadContentAsChars: a text node's value chunk by chunk,
        // passing over comments, the rest of a node its value), two characters a byte, and retries characters that do
        // not decode without white space. A first read of 1, 2 or 5 bytes, then where the reader is, the rest to the
        // end, the content as a string; and the element read whole in pieces with ReadElementContentAsBinHex.
        var documents = new (string Name, byte[] Data)[]
        {
            ("text", ContentDocument(w => w.WriteString("0A0B0C0D"))),
            ("text and an element", ContentDocument(w => { w.WriteString("0A0B"); w.WriteElementString("x", ""); })),
            ("text with spaces", ContentDocument(w => w.WriteString("0A 0B 0C"))),
            ("lines", ContentDocument(w => { w.WriteString("0A0B"); w.WriteString("\n"); w.WriteString("0C0D"); })),
            ("a comment inside a byte", ContentDocument(w => { w.WriteString("0A0"); w.WriteComment("c"); w.WriteString("B0C"); })),
            ("lower case", ContentDocument(w => w.WriteString("0a0b"))),
            ("an int", ContentDocument(w => w.WriteValue(42))),
            ("not hex", ContentDocument(w => w.WriteString("0A0G"))),
            ("empty", ContentDocument(_ => { })),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, byte[] data) in documents)
            {
                foreach (int size in new[] { 1, 2, 5 })
                {
                    foreach (string then in new[] { "nothing", "to the end", "content as string", "element in pieces" })
                    {
                        using XmlDictionaryReader r = Create(factory, data);
                        r.Read();
                        r.Read();
                        var buffer = new byte[size];
                        string outcome;
                        try
                        {
                            if (then == "element in pieces")
                            {
                                // Bounded: a reader that never returns 0 fails here instead of hanging.
                                outcome = string.Join(" ", Enumerable.Range(0, 20).Select(_ => r.ReadElementContentAsBinHex(buffer, 0, size)).TakeWhile(n => n > 0).Select(n => Convert.ToHexString(buffer, 0, n)));
                            }
                            else
                            {
                                r.Read();
                                int n = r.ReadContentAsBinHex(buffer, 0, size);
                                outcome = Convert.ToHexString(buffer, 0, n) + then switch
                                {
                                    "to the end" => " | " + string.Join(" ", Enumerable.Range(0, 20).Select(_ => r.ReadContentAsBinHex(buffer, 0, size)).TakeWhile(m => m > 0).Select(m => Convert.ToHexString(buffer, 0, m))),
                                    "content as string" => " | " + r.ReadContentAsString(),
                                    _ => "",
                                };
                            }
                        }
                        catch (Exception e) when (IsBadBinaryInput(factory, e))
                        {
                            outcome = "fails";
                        }
                        log.Add($"{name}, {size}, then {then}: {outcome}; on {NodeAndValue(r)}");
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        // Once decoded as a whole (white space rejected, the reader moved to the end of the content), and an element
        // read in pieces that held an element ended without failing.
        Assert.Contains("text with spaces, 2, then to the end: 0A | 0B 0C; on EndElement e ''", expected);
        Assert.Contains("text, 1, then nothing: 0A; on Text  '0B0C0D'", expected);
        Assert.Contains("a comment inside a byte, 5, then nothing: 0A; on Text  ''", expected);
        Assert.Contains("text and an element, 1, then element in pieces: fails; on Element x ''", expected);
    }

    [Fact]
    public void Text_read_in_part_then_as_base64_is_read_as_in_box()
    {
        // After part of a text node was read as characters (a chunk, or BinHex with characters of a block left), .NET's
        // reader reads base64 content on from there as characters, in blocks of four, the rest of the node its value.
        // A chunk of 1, 2 or 5 characters (with and without Value first) or BinHex of as many bytes, then two base64
        // reads of as many bytes or the rest read whole, and where the reader is. (.NET decodes the rest of a UTF-8
        // node closing its element, a chunk of it read without Value, in place: a failure leaves the reader on it.)
        var documents = new (string Name, byte[] Data)[]
        {
            ("hex text", ContentDocument(w => w.WriteString("0A0B0C0D"))),
            ("hex with spaces", ContentDocument(w => w.WriteString("0A 0B 0C"))),
            ("base64 text", ContentDocument(w => w.WriteString("AQIDBAUG"))),
            ("base64 in two nodes", ContentDocument(w => { w.WriteString("AQID"); w.WriteComment("c"); w.WriteString("BAUG"); })),
            ("base64 and more", ContentDocument(w => w.WriteString("AQIDBAUG\u00e9"))),
            ("Bytes", ContentDocument(w => w.WriteBase64([10, 11, 12], 0, 3))),
            ("an int", ContentDocument(w => w.WriteValue(42))),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, byte[] data) in documents)
            {
                foreach (int size in new[] { 1, 2, 5 })
                {
                    foreach (string first in new[] { "chunk", "Value and chunk", "BinHex" })
                    foreach (string then in new[] { "two pieces", "whole" })
                    {
                        using XmlDictionaryReader r = Create(factory, data);
                        r.Read();
                        r.Read();
                        r.Read();
                        var bytes = new byte[size];
                        string Base64()
                        {
                            try
                            {
                                return Convert.ToHexString(bytes, 0, r.ReadContentAsBase64(bytes, 0, size));
                            }
                            catch (XmlException)
                            {
                                return "fails";
                            }
                        }
                        string outcome;
                        try
                        {
                            if (first == "BinHex")
                            {
                                outcome = Convert.ToHexString(bytes, 0, r.ReadContentAsBinHex(bytes, 0, size));
                            }
                            else
                            {
                                if (first == "Value and chunk") _ = r.Value;
                                var chars = new char[size];
                                outcome = new string(chars, 0, r.ReadValueChunk(chars, 0, size));
                            }
                            if (then == "whole")
                            {
                                try
                                {
                                    outcome += " | " + Convert.ToHexString(r.ReadContentAsBase64());
                                }
                                catch (XmlException)
                                {
                                    outcome += " | fails";
                                }
                            }
                            else
                            {
                                outcome += " | " + Base64();
                                outcome += " | " + Base64();
                            }
                        }
                        catch (Exception e) when (IsBadBinaryInput(factory, e))
                        {
                            outcome = "fails";
                        }
                        log.Add($"{name}, {size}, {first}, {then}: {outcome}; on {NodeAndValue(r)}");
                    }
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        // Once read on from the input, the rest of the node left as it was.
        Assert.Contains("base64 text, 2, chunk, two pieces: AQ | 2030 | 40; on Text  'UG'", expected);
        Assert.Contains("base64 and more, 2, chunk, whole: AQ | fails; on Text  'IDBAUGé'", expected);
        Assert.Contains("hex text, 1, BinHex, two pieces: 0A | D0 | ", expected);
    }

    [Fact]
    public void An_element_read_as_base64_in_pieces_ends_at_its_end_tag_as_in_box()
    {
        // ReadElementContentAsBase64(buffer, …) ends, when the content gives no more bytes, with ReadEndElement: an
        // element inside the content fails the read there, as in .NET's reader (ours once returned 0 and stayed).
        var documents = new (string Name, byte[] Data)[]
        {
            ("text and an element", ContentDocument(w => { w.WriteString("AQID"); w.WriteElementString("x", ""); })),
            ("Bytes and an element", ContentDocument(w => { w.WriteBase64([1, 2, 3], 0, 3); w.WriteElementString("x", ""); })),
            ("Bytes and a comment", ContentDocument(w => { w.WriteBase64([1, 2, 3], 0, 3); w.WriteComment("c"); })),
            ("text", ContentDocument(w => w.WriteString("AQIDBA=="))),
            ("empty", ContentDocument(_ => { })),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, byte[] data) in documents)
            {
                foreach (int size in new[] { 1, 2, 5 })
                {
                    using XmlDictionaryReader r = Create(factory, data);
                    r.Read();
                    r.Read();
                    var buffer = new byte[size];
                    var pieces = new List<string>();
                    try
                    {
                        // Bounded: a reader that never returns 0 fails here instead of hanging.
                        for (int i = 0, n; i < 20 && (n = r.ReadElementContentAsBase64(buffer, 0, size)) > 0; i++) pieces.Add(Convert.ToHexString(buffer, 0, n));
                    }
                    catch (XmlException)
                    {
                        pieces.Add("fails");
                    }
                    log.Add($"{name}, {size}: {string.Join(" ", pieces)}; on {r.NodeType} {r.Name}");
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("Bytes and an element, 2: 0102 03 fails; on Element x", expected);
        Assert.Contains("Bytes and a comment, 2: 0102 03; on Element after", expected);
    }

    [Fact]
    public void Content_read_on_an_attribute_value_node_stays_there_as_in_box()
    {
        // After ReadAttributeValue, a content read is the attribute's value: .NET's reader stays on the value node (ours
        // once read on into the element's content). Bytes, text and int attributes; each content read.
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartAttribute("ab"); w.WriteBase64([1, 2, 3], 0, 3); w.WriteEndAttribute();
            w.WriteAttributeString("as", "attr text");
            w.WriteStartAttribute("ai"); w.WriteValue(42); w.WriteEndAttribute();
            w.WriteElementString("s", "str value");
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        var reads = new (string Name, Func<XmlReader, string> Read)[]
        {
            ("ReadContentAsString", r => r.ReadContentAsString()),
            ("ReadContentAsObject", r => Convert.ToString(r.ReadContentAsObject(), System.Globalization.CultureInfo.InvariantCulture)!),
            ("ReadContentAsInt", r => r.ReadContentAsInt().ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("ReadString", r => r.ReadString()),
            ("ReadContentAsString twice", r => r.ReadContentAsString() + " / " + r.ReadContentAsString()),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach (string node in new[] { "ab", "as", "ai" })
            {
                foreach ((string name, Func<XmlReader, string> read) in reads)
                {
                    using XmlDictionaryReader r = OnValue(factory, data, node);
                    Assert.True(r.ReadAttributeValue());
                    string outcome;
                    try
                    {
                        outcome = read(r);
                    }
                    catch (Exception e) when (e is XmlException or FormatException)
                    {
                        outcome = "fails";
                    }
                    log.Add($"{node} {name}: {outcome}; on {NodeAndValue(r)}");
                }
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("as ReadContentAsString twice: attr text / attr text; on Text as 'attr text'", expected);
        Assert.Contains("as ReadContentAsInt: fails; on Text as 'attr text'", expected);
    }

    [Fact]
    public void The_bytes_left_of_a_block_stay_with_their_node_where_in_box_they_go_to_the_next_read()
    {
        // A deliberate difference: .NET's reader keeps the bytes of a decoded block that did not fit when it moves, and
        // hands them to the next base64 read of another node; here they belong to the node they came from.
        var ms = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(ms, null, null, false))
        {
            w.WriteStartElement("r");
            w.WriteStartAttribute("a4"); w.WriteString("AQIDBAUG"); w.WriteEndAttribute();
            w.WriteStartAttribute("ab"); w.WriteBase64([9, 8, 7], 0, 3); w.WriteEndAttribute();
            w.WriteEndElement();
        }
        byte[] data = ms.ToArray();
        string Run(string factory)
        {
            using XmlDictionaryReader r = OnValue(factory, data, "a4");
            var buffer = new byte[2];
            int first = r.ReadContentAsBase64(buffer, 0, 1);
            string log = Convert.ToHexString(buffer, 0, first);
            Assert.True(r.MoveToAttribute("ab"));
            int next = r.ReadContentAsBase64(buffer, 0, 2);
            return log + " then ab: " + Convert.ToHexString(buffer, 0, next);
        }
        Assert.Equal("01 then ab: 0203", Run("in-box"));
        Assert.Equal("01 then ab: 0908", Run("BinaryXml"));
    }
}
