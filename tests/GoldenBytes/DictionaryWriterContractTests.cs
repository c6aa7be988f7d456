using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Contract tests for the drop-in writer: the same theory runs against <c>XmlDictionaryWriter.CreateBinaryWriter</c>
/// and <see cref="BinaryXmlDictionaryWriter.Create"/> through a factory parameter, and both must give the same
/// bytes, or throw the same exception type.
/// </summary>
public sealed partial class DictionaryWriterContractTests
{
    public static TheoryData<string> Factories() => new(["in-box", "BinaryXml"]);

    private static XmlDictionaryWriter Create(string factory, Stream stream, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null)
        => factory == "in-box" ? XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, session, false) : BinaryXmlDictionaryWriter.Create(stream, dictionary, session, false);

    private static (string Hex, Type? Error) Run(string factory, Action<XmlDictionaryWriter> calls, IXmlDictionary? dictionary = null)
    {
        var stream = new MemoryStream();
        XmlDictionaryWriter w = Create(factory, stream, dictionary);
        try
        {
            calls(w);
            if (w.WriteState != WriteState.Closed) w.Flush();
            return (Hex.Format(stream.ToArray()), null);
        }
        catch (Exception e)
        {
            return (Hex.Format(stream.ToArray()), e.GetType());
        }
    }

    /// <summary>Runs the calls through both factories and asserts the same outcome; returns it.</summary>
    private static (string Hex, Type? Error) Same(Action<XmlDictionaryWriter> calls, IXmlDictionary? dictionary = null)
    {
        (string Hex, Type? Error) inBox = Run("in-box", calls, dictionary);
        (string Hex, Type? Error) ours = Run("BinaryXml", calls, dictionary);
        Assert.Equal(inBox.Error, ours.Error);
        if (inBox.Error is null) Assert.Equal(inBox.Hex, ours.Hex);
        return inBox;
    }

    [Fact]
    public void Every_golden_scenario_gives_the_golden_bytes()
    {
        string[] lines = File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "InBox", "golden.txt"));
        int count = 0;
        for (int i = 0; i < lines.Length; i++)
        {
            if (!lines[i].StartsWith("== ", StringComparison.Ordinal)) continue;
            var context = new ScriptContext(useSession: lines[i].EndsWith(" session", StringComparison.Ordinal));
            (byte[] bytes, Exception? error) = WriterScript.RunAdapter(WriterScript.Parse(lines[i + 1]), context, context.CreateWriterSession());
            Assert.True(error is null, lines[i] + ": " + error);
            Assert.True(lines[i + 2][3..] == Hex.Format(bytes), lines[i] + " differs");
            count++;
        }
        Assert.True(count >= 60);
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public void Each_factory_writes_a_document(string factory)
    {
        (string hex, Type? error) = Run(factory, w =>
        {
            w.WriteStartElement("p", "a", "urn:p");
            w.WriteAttributeString("x", "1");
            w.WriteElementString("b", "text");
            w.WriteEndElement();
        });
        Assert.Null(error);
        Assert.StartsWith("6D 01 61", hex);
    }

    [Fact]
    public void A_string_of_another_dictionary_is_looked_up_in_the_writer_dictionary_as_in_box()
    {
        // DataContractSerializer names its elements with strings of its own XmlDictionary. The writer asks its static
        // dictionary for such a string (IXmlDictionary.TryLookup(XmlDictionaryString)): a dictionary that answers by
        // value gives its id; MC-NBFS and XmlDictionary answer only for their own strings, so it is written inline
        // (the native writer does not ask them: a type derived from XmlDictionary is asked, as it may answer by value).
        var foreign = new XmlDictionary();
        XmlDictionaryString envelope = foreign.Add("Envelope"), body = foreign.Add("Body"), soap = foreign.Add("http://www.w3.org/2003/05/soap-envelope"), other = foreign.Add("other");
        void Calls(XmlDictionaryWriter w)
        {
            w.WriteStartElement("s", envelope, soap);
            w.WriteStartAttribute("s", body, soap);
            w.WriteString(other);
            w.WriteEndAttribute();
            w.WriteStartElement(body, soap);
            w.WriteString(envelope);
            w.WriteEndElement();
            w.WriteEndElement();
        }
        // Three dictionaries of the same values, none of them the names' own: by value through the interface, an
        // XmlDictionary, and a type derived from it that answers by value.
        string[] values = ["Body", "Envelope", "http://www.w3.org/2003/05/soap-envelope"];
        var byValue = new ByValueDictionary(values);
        string mapped = Same(Calls, byValue).Hex;
        string nbfs = Same(Calls, Soap.NbfsDictionary.Instance).Hex;
        var sameValues = new XmlDictionary();
        foreach (string value in values) sameValues.Add(value);
        var derived = new ByValueXmlDictionary(values);
        string own = Same(Calls, sameValues).Hex;
        string none = Same(Calls).Hex;
        // The by-value dictionaries' ids are used; the others write the names inline, as without a dictionary.
        Assert.NotEqual(none, mapped);
        Assert.Equal(mapped, Same(Calls, derived).Hex);
        Assert.Equal(none, nbfs);
        Assert.Equal(none, own);

        // The native writer gives the same bytes.
        foreach (IXmlDictionary d in new IXmlDictionary[] { byValue, derived, Soap.NbfsDictionary.Instance, sameValues })
        {
            var output = new System.Buffers.ArrayBufferWriter<byte>();
            using (var w = new BinaryXmlWriter(output, d))
            {
                w.WriteStartElement("s", envelope, soap);
                w.WriteStartAttribute("s", body, soap);
                w.WriteString(other);
                w.WriteEndAttribute();
                w.WriteStartElement(null, body, soap);
                w.WriteString(envelope);
                w.WriteEndElement();
                w.WriteEndElement();
            }
            Assert.Equal(d is ByValueDictionary or ByValueXmlDictionary ? mapped : nbfs, Hex.Format(output.WrittenSpan.ToArray()));
        }
    }

    /// <summary>An <see cref="XmlDictionary"/> that also answers for another dictionary's string of a value it holds.</summary>
    private sealed class ByValueXmlDictionary : XmlDictionary
    {
        public ByValueXmlDictionary(params string[] values)
        {
            foreach (string value in values) Add(value);
        }

        public override bool TryLookup(XmlDictionaryString value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
            => TryLookup(value.Value, out result);
    }

    /// <summary>A static dictionary of a few strings that answers for any dictionary's string of the same value.</summary>
    private sealed class ByValueDictionary : IXmlDictionary
    {
        private readonly XmlDictionaryString[] _strings;

        public ByValueDictionary(params string[] values) => _strings = [.. values.Select((v, i) => new XmlDictionaryString(this, v, i))];

        public bool TryLookup(string value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
            => (result = Array.Find(_strings, s => s.Value == value)) is not null;

        public bool TryLookup(int key, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
            => (result = key >= 0 && key < _strings.Length ? _strings[key] : null) is not null;

        public bool TryLookup(XmlDictionaryString value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out XmlDictionaryString? result)
            => TryLookup(value.Value, out result);
    }

    [Fact]
    public void XmlWriter_members_write_the_same_bytes()
    {
        var dict = new XmlDictionary();
        XmlDictionaryString name = dict.Add("name"), ns = dict.Add("urn:ns");
        Same(w =>
        {
            w.WriteProcessingInstruction("xml", "version=\"1.0\"");
            w.WriteStartDocument(true);
            w.WriteStartElement("root");
            w.WriteAttributeString("xml", "lang", null, "fr");
            w.WriteStartElement(name, ns);
            w.WriteValue((object)ulong.MaxValue);
            w.WriteValue(new DateTimeOffset(2020, 1, 2, 3, 4, 5, TimeSpan.Zero));
            w.WriteValue((object)(byte)5);
            w.WriteValue((object)new[] { 1, 2, 3 });
            w.WriteValue(new object[] { "a", 1.5, true, new UniqueId(Guid.Empty), ns });
            w.WriteValue(ns);
            w.WriteName("n");
            w.WriteBinHex([1, 2, 255], 0, 3);
            w.WriteSurrogateCharEntity('\uDE00', '\uD83D');
            w.WriteEndElement();
            w.WriteArray(null, name, ns, new[] { 1.5, 2.5 }, 0, 2);
            w.WriteArray("q", "arr", "urn:q", new[] { true }, 0, 1);
            w.WriteArray(null, "empty", null, new long[3], 1, 0);
            Assert.Equal("fr", w.XmlLang);
            Assert.Equal("q", w.LookupPrefix("urn:q") ?? "q");
            w.WriteEndDocument();
        }, dict);
    }

    [Fact]
    public void A_namespace_is_looked_up_by_reference_first_then_by_value_newest_first()
    {
        // .NET looks for a namespace's prefix among the declarations in scope by reference, then by value, newest
        // first, passing over prefixes declared again since: where declarations of equal strings differ in reference,
        // the prefix chosen (for elements, attributes and LookupPrefix) tells the order apart.
        string ns = "urn:same", copy = new(ns.AsSpan()), query = new(ns.AsSpan());
        var answers = new List<string>();
        (string hex, _) = Same(w =>
        {
            answers.Clear();
            void Ask(string label, string uri)
            {
                string prefix = w.LookupPrefix(uri) ?? "-";
                answers.Add($"{label}={prefix}");
                w.WriteElementString(label, prefix);
            }
            w.WriteStartElement("r");
            w.WriteXmlnsAttribute("a", ns);
            w.WriteStartElement("c1");
            w.WriteXmlnsAttribute("b", copy);
            Ask("reference", ns);
            w.WriteStartElement("c2");
            w.WriteXmlnsAttribute("z", "urn:other");
            Ask("value", query);
            w.WriteStartElement("c3");
            w.WriteXmlnsAttribute("y", "urn:other2");
            w.WriteStartElement("x", ns);
            w.WriteAttributeString("t", ns, "v");
            w.WriteEndElement();
            // An attribute's prefix right after a declaration (which empties the one-entry cache of the last answer).
            foreach (string uri in new[] { ns, query })
            {
                w.WriteStartElement("y");
                w.WriteXmlnsAttribute("w", "urn:other3");
                w.WriteAttributeString("t", uri, "v");
                w.WriteEndElement();
            }
            w.WriteStartElement("c4");
            w.WriteXmlnsAttribute("a", "urn:again");
            Ask("redeclared", ns);
            w.WriteStartElement("x", query);
            w.WriteAttributeString("t", query, "v");
            w.WriteEndElement();
            w.WriteStartElement("y");
            w.WriteXmlnsAttribute("w", "urn:other3");
            w.WriteAttributeString("t", ns, "v");
            w.WriteEndElement();
            w.WriteEndElement();
            // Outside c4 again: two declarations of the one reference in scope, the newer one answers.
            w.WriteStartElement("c5");
            w.WriteXmlnsAttribute("d", ns);
            Ask("newest", ns);
            w.WriteEndDocument();
        });
        Assert.Equal(["reference=a", "value=b", "redeclared=b", "newest=d"], answers);
        Assert.NotEmpty(hex);
    }

    [Fact]
    public void A_prefix_found_last_is_not_answered_once_its_declaration_leaves_scope()
    {
        // The writer keeps the last lookup's namespace and prefix: the end of the declaring element must drop them,
        // whether the next lookup is an element's, an attribute's or LookupPrefix's, and a namespace declared again
        // deeper down must answer with the newer prefix.
        var answers = new List<string>();
        (string hex, Type? error) = Same(w =>
        {
            answers.Clear();
            w.WriteStartElement("r");
            w.WriteXmlnsAttribute("o", "urn:outer");
            w.WriteStartElement("c1");
            w.WriteXmlnsAttribute("p", "urn:x");
            w.WriteStartElement("e", "urn:x");
            w.WriteAttributeString("t", "urn:x", "v");
            w.WriteEndElement();
            answers.Add(w.LookupPrefix("urn:x") ?? "-");
            w.WriteEndElement();
            answers.Add(w.LookupPrefix("urn:x") ?? "-");
            w.WriteStartElement("e", "urn:x");
            w.WriteAttributeString("t", "urn:x", "v");
            w.WriteEndElement();
            w.WriteStartElement("f", "urn:outer");
            w.WriteStartElement("c2");
            w.WriteXmlnsAttribute("q", "urn:outer");
            w.WriteStartElement("g", "urn:outer");
            w.WriteEndElement();
            answers.Add(w.LookupPrefix("urn:outer") ?? "-");
            w.WriteEndElement();
            answers.Add(w.LookupPrefix("urn:outer") ?? "-");
            w.WriteStartElement("h");
            w.WriteAttributeString("t", "urn:outer", "v");
            w.WriteEndDocument();
        });
        Assert.Null(error);
        Assert.Equal(["p", "-", "q", "o"], answers);
        // urn:x is declared on c1 (p), then again on the "e" after c1 ended: as its default namespace, and under a
        // made-up prefix for its attribute (which cannot take the default namespace); both writers alike (Same).
        Assert.Equal(3, hex.Split("75 72 6E 3A 78").Length - 1);
    }

    [Fact]
    public void A_prefix_found_bound_is_looked_up_again_once_a_declaration_comes_or_goes()
    {
        // The writer keeps the prefix and namespace (the same string objects) of the last prefixed start tag or
        // attribute whose prefix was bound to its namespace: a declaration of the prefix deeper down, and the end of
        // the element that declared it, must each send the next such start tag back to the declarations.
        string p = "p", x = "urn:x", y = "urn:y";
        (string hex, Type? error) = Same(w =>
        {
            w.WriteStartElement("r");
            w.WriteXmlnsAttribute(p, x);
            w.WriteStartElement(p, "a", x);
            w.WriteAttributeString(p, "t", x, "v");
            w.WriteEndElement();
            w.WriteStartElement("c");
            w.WriteXmlnsAttribute(p, y);
            w.WriteStartElement(p, "b", x); // p is y's here: declared again, to x
            w.WriteEndElement();
            w.WriteStartElement(p, "b", y);
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteStartElement(p, "d", y); // p is x's again: declared again, to y
            w.WriteEndElement();
            w.WriteStartElement(p, "e", x);
            w.WriteAttributeString(p, "t", x, "v");
            w.WriteEndDocument();
        });
        Assert.Null(error);
        Assert.Equal(2, hex.Split("75 72 6E 3A 78").Length - 1);
        Assert.Equal(2, hex.Split("75 72 6E 3A 79").Length - 1);
    }

    [Fact]
    public void Stream_provider_values_are_written_as_base64_blocks()
    {
        var data = Enumerable.Range(0, 5000).Select(i => (byte)i).ToArray();
        Same(w =>
        {
            w.WriteStartElement("a");
            w.WriteValue(new Provider(data));
            w.WriteEndElement();
        });
    }

    private sealed class Provider(byte[] data) : IStreamProvider
    {
        public Stream GetStream() => new MemoryStream(data);
        public void ReleaseStream(Stream stream) => stream.Dispose();
    }

    [Theory]
    [InlineData("nested array in a list")]
    [InlineData("processing instruction")]
    [InlineData("declaration after content")]
    [InlineData("doctype")]
    [InlineData("entity ref")]
    [InlineData("array with bad offset")]
    [InlineData("array with bad count")]
    [InlineData("null array")]
    [InlineData("write after close")]
    [InlineData("string in xmlns attribute value then element")]
    public void Misuse_throws_the_in_box_exception_type(string what)
    {
        Action<XmlDictionaryWriter> calls = what switch
        {
            "nested array in a list" => w => { w.WriteStartElement("a"); w.WriteValue(new object[] { new[] { 1 } }); },
            "processing instruction" => w => w.WriteProcessingInstruction("pi", "x"),
            "declaration after content" => w => { w.WriteStartElement("a"); w.WriteProcessingInstruction("xml", ""); },
            "doctype" => w => w.WriteDocType("a", null, null, null),
            "entity ref" => w => { w.WriteStartElement("a"); w.WriteEntityRef("amp"); },
            "array with bad offset" => w => { w.WriteStartElement("a"); w.WriteArray(null, "x", null, new int[2], 3, 0); },
            "array with bad count" => w => { w.WriteStartElement("a"); w.WriteArray(null, "x", null, new int[2], 1, 2); },
            "null array" => w => { w.WriteStartElement("a"); w.WriteArray(null, "x", null, (int[])null!, 0, 0); },
            "write after close" => w => { w.Close(); w.WriteString("x"); },
            "string in xmlns attribute value then element" => w => { w.WriteStartElement("a"); w.WriteStartAttribute("xmlns", "p", null); w.WriteString("urn:p"); w.WriteEndAttribute(); w.WriteStartElement("p", "b", null); w.WriteEndElement(); w.WriteEndElement(); },
            _ => throw new ArgumentOutOfRangeException(nameof(what)),
        };
        (_, Type? error) = Same(calls);
        if (what != "string in xmlns attribute value then element") Assert.NotNull(error);
    }

    [Fact]
    public void WriteNode_copies_a_reader_as_the_in_box_writer_does()
    {
        (byte[] source, _) = WriterScript.RunInBox(WriterScript.Parse(
            "StartElement(\"p\", \"root\", \"urn:p\"); AttributeString(null, \"a\", null, \"v\"); String(\"x\"*600); Base64(hex:AB*1000); Value(dt:637970384960000000:Utc); Value(5); Array(null, \"n\", null, int[" + string.Join(", ", Enumerable.Range(0, 600)) + "]); Comment(\"c\"); List([1, 2]); EndElement()"), new ScriptContext());
        Same(w =>
        {
            using XmlDictionaryReader reader = XmlDictionaryReader.CreateBinaryReader(source, XmlDictionaryReaderQuotas.Max);
            w.WriteNode(reader, defattr: true);
        });
    }

    [Fact]
    public void SetOutput_reuses_the_writer_for_the_next_document()
    {
        var writer = BinaryXmlDictionaryWriter.Create(new MemoryStream());
        for (int i = 0; i < 3; i++)
        {
            var stream = new MemoryStream();
            ((IXmlBinaryWriterInitializer)writer).SetOutput(stream, null, null, ownsStream: false);
            writer.WriteElementString("a", i.ToString(System.Globalization.CultureInfo.InvariantCulture));
            writer.Flush();
            Assert.Equal(i switch { 0 => "40 01 61 81", 1 => "40 01 61 83", _ => "40 01 61 99 01 32" }, Hex.Format(stream.ToArray()));
        }
        Assert.True(writer.CanCanonicalize);
    }

    [Fact]
    public void Members_binary_XML_cannot_represent_fail_alike()
    {
        Same(w => { w.WriteStartElement("a"); w.WriteNmToken("token"); });
        Same(w => { w.WriteStartElement("a"); w.WriteEntityRef("amp"); });
        Same(w => w.WriteDocType("a", null, null, null));
        Same(w => w.WriteProcessingInstruction("pi", "data"));
        Same(w => { w.WriteProcessingInstruction("xml", "version=\"1.0\""); w.WriteElementString("a", "x"); });
        Same(w => { w.WriteStartElement("a"); w.WriteName("n"); w.WriteEndElement(); });
    }

    /// <summary>
    /// Generated prefixes after a–z are taken are dNpM, M counted per element: a sibling at the same depth starts
    /// again at 0, a nested element has its own counter, and the parent's counter is not disturbed by its children.
    /// </summary>
    [Fact]
    public void Generated_dNpM_prefixes_count_per_element_as_in_box()
    {
        (string hex, _) = Same(w =>
        {
            w.WriteStartElement("root");
            for (char c = 'a'; c <= 'z'; c++) w.WriteAttributeString("xmlns", c.ToString(), null, "urn:letter:" + c);
            for (int sibling = 0; sibling < 3; sibling++)
            {
                w.WriteStartElement("child");
                w.WriteAttributeString("x", "urn:one:" + sibling, "1");
                w.WriteAttributeString("y", "urn:two:" + sibling, "2");
                w.WriteStartElement("inner");
                w.WriteAttributeString("z", "urn:three:" + sibling, "3");
                w.WriteStartElement("plain");
                w.WriteEndElement();
                w.WriteEndElement();
                w.WriteStartElement("inner");
                w.WriteAttributeString("z", "urn:four:" + sibling, "4");
                w.WriteEndElement();
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        Assert.Contains(Hex.Format("d2p1"u8.ToArray()), hex, StringComparison.Ordinal);
        Assert.Contains(Hex.Format("d3p0"u8.ToArray()), hex, StringComparison.Ordinal);
        Assert.DoesNotContain(Hex.Format("d2p2"u8.ToArray()), hex, StringComparison.Ordinal);
        Assert.DoesNotContain(Hex.Format("d3p1"u8.ToArray()), hex, StringComparison.Ordinal);
    }

    /// <summary>xml:lang and xml:space scopes end with their element; a sibling and the parent see the outer values.</summary>
    [Fact]
    public void Xml_lang_and_space_scopes_end_with_their_element_as_in_box()
    {
        foreach (string factory in new[] { "in-box", "BinaryXml" })
        {
            var trace = new List<string>();
            var stream = new MemoryStream();
            XmlDictionaryWriter w = Create(factory, stream);
            w.WriteStartElement("root");
            w.WriteAttributeString("xml", "lang", null, "fr");
            w.WriteStartElement("a");
            w.WriteAttributeString("xml", "space", null, "preserve");
            w.WriteStartElement("b");
            w.WriteAttributeString("xml", "lang", null, "de");
            w.WriteString("x");
            trace.Add($"{w.XmlLang} {w.XmlSpace}");
            w.WriteEndElement();
            trace.Add($"{w.XmlLang} {w.XmlSpace}");
            w.WriteEndElement();
            trace.Add($"{w.XmlLang} {w.XmlSpace}");
            w.WriteStartElement("c");
            trace.Add($"{w.XmlLang} {w.XmlSpace}");
            w.WriteEndElement();
            w.WriteEndElement();
            trace.Add($"{w.XmlLang ?? "null"} {w.XmlSpace}");
            Assert.Equal(["de Preserve", "fr Preserve", "fr None", "fr None", "null None"], trace);
        }
        Same(w =>
        {
            w.WriteStartElement("root");
            w.WriteAttributeString("xml", "lang", null, "fr");
            w.WriteStartElement("a");
            w.WriteAttributeString("xml", "space", null, "preserve");
            w.WriteElementString("b", "x");
            w.WriteEndElement();
            w.WriteElementString("c", "y");
            w.WriteEndElement();
        });
    }

    /// <summary>
    /// A typed value given as the value of xml:lang or of a namespace declaration is taken as its text, rendered as
    /// in-box renders it: the scope's XmlLang, and the declared namespace in the bytes.
    /// </summary>
    [Fact]
    public void Typed_values_in_xml_lang_and_xmlns_attributes_are_rendered_as_in_box()
    {
        Guid guid = new("01234567-89ab-cdef-0123-456789abcdef");
        var values = new (string Name, Action<XmlDictionaryWriter> InBox, Action<BinaryXmlWriter> Native)[]
        {
            ("bool", w => w.WriteValue(true), w => w.WriteValue(true)),
            ("int", w => w.WriteValue(-5), w => w.WriteValue(-5)),
            ("long", w => w.WriteValue(long.MinValue), w => w.WriteValue(long.MinValue)),
            ("float", w => w.WriteValue(1.5e-7f), w => w.WriteValue(1.5e-7f)),
            ("double", w => w.WriteValue(double.NegativeInfinity), w => w.WriteValue(double.NegativeInfinity)),
            ("decimal", w => w.WriteValue(-1.250m), w => w.WriteValue(-1.250m)),
            ("DateTime", w => w.WriteValue(new DateTime(2026, 11, 29, 8, 0, 0, DateTimeKind.Unspecified)), w => w.WriteValue(new DateTime(2026, 11, 29, 8, 0, 0, DateTimeKind.Unspecified))),
            ("TimeSpan", w => w.WriteValue(TimeSpan.FromMinutes(-90)), w => w.WriteValue(TimeSpan.FromMinutes(-90))),
            ("Guid", w => w.WriteValue(guid), w => w.WriteValue(guid)),
            ("UniqueId", w => w.WriteValue(new UniqueId(guid)), w => w.WriteValue(new UniqueId(guid))),
            ("UniqueId of a GUID", w => w.WriteValue(new UniqueId(guid)), w => w.WriteUniqueId(guid)),
            ("UniqueId of a string", w => w.WriteValue(new UniqueId("id-1")), w => w.WriteValue(new UniqueId("id-1"))),
        };
        // The same calls to both writers; ours the drop-in writer, its values given to the native writer it wraps.
        static (string? Lang, string Hex) Write(XmlDictionaryWriter w, MemoryStream stream, Action<XmlDictionaryWriter> value)
        {
            string? lang;
            using (w)
            {
                w.WriteStartElement("a");
                w.WriteStartAttribute("xml", "lang", null);
                value(w);
                w.WriteEndAttribute();
                w.WriteStartAttribute("xmlns", "p", null);
                value(w);
                w.WriteEndAttribute();
                w.WriteElementString("p", "b", null, "x");
                lang = w.XmlLang;
                w.WriteEndElement();
            }
            return (lang, Hex.Format(stream.ToArray()));
        }
        foreach ((string name, var inBoxValue, var nativeValue) in values)
        {
            var inBoxStream = new MemoryStream();
            var ourStream = new MemoryStream();
            (string? Lang, string Hex) inBox = Write(XmlDictionaryWriter.CreateBinaryWriter(inBoxStream), inBoxStream, inBoxValue);
            (string? Lang, string Hex) ours = Write(BinaryXmlDictionaryWriter.Create(ourStream), ourStream, w => nativeValue(((BinaryXmlDictionaryWriter)w).NativeWriter));
            Assert.Equal($"{name}: {inBox.Lang}", $"{name}: {ours.Lang}");
            Assert.Equal($"{name}: {inBox.Hex}", $"{name}: {ours.Hex}");
        }
    }

    /// <summary>A writer reset inside an element with generated prefixes starts the next document with fresh counters.</summary>
    [Fact]
    public void Reset_inside_a_declaring_element_starts_the_next_document_afresh()
    {
        static void Document(BinaryXmlWriter w)
        {
            w.WriteStartElement("root");
            for (char c = 'a'; c <= 'z'; c++) w.WriteXmlnsAttribute(c.ToString(), "urn:letter:" + c);
            w.WriteAttributeString(null, "x", "urn:x", "1");
            w.WriteAttributeString(null, "y", "urn:y", "2");
            w.WriteAttributeString("xml", "lang", null, "fr");
        }
        var first = new System.Buffers.ArrayBufferWriter<byte>();
        var writer = new BinaryXmlWriter(first);
        Document(writer);
        var second = new System.Buffers.ArrayBufferWriter<byte>();
        writer.Reset(second);
        Assert.Null(writer.XmlLang);
        Assert.Equal(0, writer.CurrentDepth);
        Document(writer);
        writer.WriteEndElement();
        writer.Flush();
        var expected = new MemoryStream();
        using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected))
        {
            inBox.WriteStartElement("root");
            for (char c = 'a'; c <= 'z'; c++) inBox.WriteXmlnsAttribute(c.ToString(), "urn:letter:" + c);
            inBox.WriteAttributeString(null, "x", "urn:x", "1");
            inBox.WriteAttributeString(null, "y", "urn:y", "2");
            inBox.WriteAttributeString("xml", "lang", null, "fr");
            inBox.WriteEndElement();
        }
        Assert.Equal(Hex.Format(expected.ToArray()), Hex.Format(second.WrittenSpan.ToArray()));
    }

    /// <summary>
    /// Short names and texts are narrowed a word at a time: every length up to 10 chars, with a char at or past
    /// the ASCII limit (0x7F, 0x80, 'é', a CJK char, a surrogate pair) at every position, as element name,
    /// attribute name and text, give the in-box bytes.
    /// </summary>
    [Fact]
    public void Short_names_and_texts_with_a_non_ASCII_char_anywhere_give_the_in_box_bytes()
    {
        string[] specials = ["\u007F", "\u0080", "\u00E9", "\u4E2D", "\uD83D\uDE00", "\u00FF", "\u0100"];
        for (int n = 1; n <= 10; n++)
        {
            for (int position = -1; position < n; position++)
            {
                foreach (string special in specials)
                {
                    string text = "abcdefghij"[..n];
                    if (position >= 0) text = text[..position] + special + text[(position + 1)..];
                    Same(w =>
                    {
                        w.WriteStartElement("r");
                        w.WriteStartElement(text);
                        w.WriteAttributeString(text, text);
                        w.WriteString(text);
                        w.WriteEndElement();
                        w.WriteElementString("p", text, "urn:p", text);
                        w.WriteEndElement();
                    });
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(Factories))]
    public async Task FlushAsync_writes_to_a_stream_that_refuses_synchronous_writes(string factory)
    {
        // As .NET's binary writer: FlushAsync hands the bytes written so far to the stream and flushes it with the
        // stream's asynchronous methods, so a stream that refuses synchronous I/O (as an HTTP response body may) works.
        var stream = new AsyncOnlyStream();
        XmlDictionaryWriter w = Create(factory, stream);
        w.WriteStartElement("a");
        w.WriteString("text");
        w.WriteEndElement();
        await w.FlushAsync();
        Assert.Equal("40 01 61 99 04 74 65 78 74", Hex.Format(stream.ToArray()));
        Assert.True(stream.AsyncFlushes > 0);
    }

    [Fact]
    public void Prefixes_of_one_length_and_last_character_are_told_apart_as_in_box()
    {
        // The writer passes over declarations by their prefix's length and last character before it compares strings.
        // Prefixes alike in both (copies, not the same string objects), declared on one element or each on an element
        // inside the last, then used by elements and attributes, looked up by namespace, bound again on an element of
        // their own, and a prefix made up among them (the first letter not taken: "qc" does not take "c"); and two
        // look-alikes (or one prefix twice) declared on one element, to one namespace or two (the prefix twice to two
        // fails): the same bytes and errors as .NET's writer.
        string[] prefixes = [.. new[] { "p1", "q1", "ab", "cb", "qc", "d1p1", "d2p1", "a", "b" }.Select(p => new string(p.AsSpan()))];
        foreach (bool nested in new[] { false, true })
        {
            (_, Type? error) = Same(w =>
            {
                w.WriteStartElement("r");
                for (int i = 0; i < prefixes.Length; i++)
                {
                    if (nested) w.WriteStartElement("e");
                    w.WriteAttributeString(prefixes[i], "x", "urn:" + i, "v");
                }
                w.WriteStartElement("all");
                for (int i = 0; i < prefixes.Length; i++) w.WriteString(w.LookupPrefix("urn:" + i) ?? "(none)");
                w.WriteEndElement();
                for (int i = prefixes.Length - 1; i >= 0; i--)
                {
                    w.WriteStartElement(prefixes[i], "c", "urn:" + i);
                    w.WriteAttributeString("y", "urn:" + (prefixes.Length - 1 - i), "v");
                    w.WriteString(w.LookupPrefix("urn:" + i) ?? "(none)");
                    w.WriteStartElement("g");
                    w.WriteAttributeString(new string(prefixes[i].AsSpan()), "z", "urn:again" + i, "v");
                    w.WriteString(w.LookupPrefix("urn:again" + i) ?? "(none)");
                    w.WriteEndElement();
                    w.WriteEndElement();
                }
                w.WriteStartElement("f");
                w.WriteAttributeString("y", "urn:new", "v");
                w.WriteEndElement();
                w.WriteEndDocument();
            });
            Assert.Null(error);
        }
        foreach ((string first, string second) in new[] { ("p1", "q1"), ("d1p1", "d2p1"), ("p1", "p1") })
        {
            foreach (string secondNamespace in new[] { "urn:a", "urn:b" })
            {
                Same(w =>
                {
                    w.WriteStartElement("r");
                    w.WriteAttributeString(first, "x", "urn:a", "v");
                    w.WriteAttributeString(new string(second.AsSpan()), "y", secondNamespace, "v");
                    w.WriteEndElement();
                });
            }
        }
    }

    /// <summary>A stream over memory whose synchronous Write and Flush throw, as a stream refusing synchronous I/O does.</summary>
    private sealed class AsyncOnlyStream : Stream
    {
        private readonly MemoryStream _bytes = new();

        public int AsyncFlushes { get; private set; }

        public byte[] ToArray() => _bytes.ToArray();

        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => _bytes.Length;
        public override long Position { get => _bytes.Position; set => throw new NotSupportedException(); }

        public override void Write(byte[] buffer, int offset, int count) => throw new InvalidOperationException("Synchronous writes are not allowed.");

        public override void Flush() => throw new InvalidOperationException("Synchronous flushes are not allowed.");

        public override Task FlushAsync(CancellationToken cancellationToken)
        {
            AsyncFlushes++;
            return Task.CompletedTask;
        }

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            _bytes.Write(buffer.Span);
            return ValueTask.CompletedTask;
        }

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        {
            _bytes.Write(buffer, offset, count);
            return Task.CompletedTask;
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
