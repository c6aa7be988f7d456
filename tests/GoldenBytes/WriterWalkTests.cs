using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>Random sequences of writer calls, in any state, give the in-box writer's bytes and failures.</summary>
public sealed class WriterWalkTests
{
    // The writers' static dictionary, and strings of another that go to their sessions.
    private static readonly XmlDictionary s_dictionary = new();
    private static readonly XmlDictionaryString s_a = s_dictionary.Add("a");
    private static readonly XmlDictionaryString s_ns = s_dictionary.Add("urn:p");
    private static readonly XmlDictionary s_sessionStrings = new();
    private static readonly XmlDictionaryString s_sessionName = s_sessionStrings.Add("other");
    private static readonly XmlDictionaryString s_sessionNs = s_sessionStrings.Add("urn:o");

    private static readonly (string Name, Action<XmlDictionaryWriter> Call)[] s_calls =
    [
        ("StartElement e", w => w.WriteStartElement("e")),
        ("StartElement f", w => w.WriteStartElement("f")),
        ("StartElement p:b", w => w.WriteStartElement("p", "b", "urn:p")),
        ("StartElement in a default namespace", w => w.WriteStartElement("", "d", "urn:d")),
        ("EndElement", w => w.WriteEndElement()),
        ("EndElement", w => w.WriteEndElement()),
        ("FullEndElement", w => w.WriteFullEndElement()),
        ("String", w => w.WriteString("text")),
        ("String empty", w => w.WriteString("")),
        ("Value int", w => w.WriteValue(300)),
        ("Value bool", w => w.WriteValue(true)),
        ("Value double", w => w.WriteValue(1.5)),
        ("Value Guid", w => w.WriteValue(Guid.Empty)),
        ("Value list", w => w.WriteValue(new object[] { 1, true })),
        ("StartAttribute a", w => w.WriteStartAttribute("a")),
        ("StartAttribute p:q", w => w.WriteStartAttribute("p", "q", "urn:p")),
        ("EndAttribute", w => w.WriteEndAttribute()),
        ("AttributeString", w => w.WriteAttributeString("x", "v")),
        ("xmlns:p", w => w.WriteXmlnsAttribute("p", "urn:p")),
        ("xml:lang", w => w.WriteAttributeString("xml", "lang", null, "fr")),
        ("xml:space", w => w.WriteAttributeString("xml", "space", null, "preserve")),
        ("xml:lang, its namespace given", w => w.WriteAttributeString("xml", "lang", "http://www.w3.org/XML/1998/namespace", "de")),
        ("xmlns:p, its namespace given", w => w.WriteAttributeString("xmlns", "p", "http://www.w3.org/2000/xmlns/", "urn:p")),
        ("xmlns as an attribute's name", w => w.WriteAttributeString("xmlns", "urn:d")),
        ("AttributeString p:r", w => w.WriteAttributeString("p", "r", "urn:p", "v")),
        ("Comment", w => w.WriteComment("c")),
        ("Base64", w => w.WriteBase64([1, 2, 3, 4], 0, 2)),
        ("BinHex", w => w.WriteBinHex([1, 2], 0, 2)),
        ("StartDocument", w => w.WriteStartDocument()),
        ("EndDocument", w => w.WriteEndDocument()),
        ("ElementString", w => w.WriteElementString("s", "v")),
        ("QualifiedName", w => w.WriteQualifiedName("q", "urn:p")),
        ("Array", w => w.WriteArray(null, "arr", null, [1, 2], 0, 2)),
        ("Whitespace", w => w.WriteWhitespace(" ")),
        ("CData", w => w.WriteCData("cd")),
        ("CharEntity", w => w.WriteCharEntity('é')),
        ("Raw", w => w.WriteRaw("raw")),
        ("StartElement, dictionary names", w => w.WriteStartElement(s_a, s_ns)),
        ("StartElement p, dictionary names", w => w.WriteStartElement("p", s_a, s_ns)),
        ("StartElement, session names", w => w.WriteStartElement(s_sessionName, s_sessionNs)),
        ("String, dictionary", w => w.WriteString(s_a)),
        ("String, session", w => w.WriteString(s_sessionName)),
        ("StartAttribute, dictionary names", w => w.WriteStartAttribute(s_a, s_ns)),
        ("AttributeString, session namespace", w => w.WriteAttributeString(s_a, s_sessionNs, "x")),
        ("xmlns:p, dictionary", w => w.WriteXmlnsAttribute("p", s_ns)),
        ("xmlns, no prefix, dictionary", w => w.WriteXmlnsAttribute(null, s_ns)),
        ("ElementString, dictionary names", w => w.WriteElementString(s_a, s_ns, "v")),
        ("Array, dictionary names", w => w.WriteArray("p", s_a, s_ns, [1L, 2L], 0, 2)),
        ("QualifiedName, dictionary", w => w.WriteQualifiedName(s_a, s_ns)),
    ];


    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Random_call_sequences_write_and_fail_as_in_box(int seed)
    {
        // 1,500 sequences of 20 calls from 49 (elements, attributes, namespaces, typed values, lists, arrays, base64,
        // documents, static and session dictionary strings, misuse in every state) on both writers: after every call the write state, xml:lang, xml:space
        // and a prefix lookup (and that our writer's short paths are closed where its state needs checks); the first failure's type, message and parameter; the bytes flushed. A sequence stops
        // at its first failure. (65,000 such sequences, 30,000 of them with dictionary strings, found no difference when this test was written.)
        for (int i = 0; i < 1500; i++)
        {
            int callSeed = seed * 100_000 + i;
            string expected = Walk(stream => XmlDictionaryWriter.CreateBinaryWriter(stream, s_dictionary, new XmlBinaryWriterSession()), new Random(callSeed));
            string actual = Walk(stream => BinaryXmlDictionaryWriter.Create(stream, s_dictionary, new XmlBinaryWriterSession()), new Random(callSeed));
            Assert.Equal(expected, actual);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Scopes_of_many_declarations_write_and_look_up_as_in_box(int seed)
    {
        // Past 32 declarations on one element, the writer finds prefixes and namespaces through tables, not by passing over
        // the declarations as .NET's writer does; below 17 in scope it passes over them again. Documents of 300 steps
        // that declare hundreds of prefixes and namespaces on nested elements and on wide start tags, redeclare,
        // shadow and end them, generate prefixes (a to z, then d{depth}p{n}), and give namespaces as other instances
        // of equal strings (found by reference first, then by value): after every call the prefix each namespace has,
        // and the bytes written, are in-box's.
        int calls = 0;
        for (int i = 0; i < 30; i++)
        {
            int callSeed = seed * 1_000 + i;
            string expected = ManyDeclarations(XmlDictionaryWriter.CreateBinaryWriter, new Random(callSeed));
            string actual = ManyDeclarations(stream => BinaryXmlDictionaryWriter.Create(stream), new Random(callSeed));
            Assert.Equal(expected, actual);
            Assert.All(expected.Split('\n').Where(line => line.Contains(" fails: ")), line => Assert.StartsWith("conflict", line));
            calls += expected.Split('\n').Length;
        }
        Assert.True(calls > 30 * 600, $"{calls} calls");
    }

    private static string ManyDeclarations(Func<Stream, XmlDictionaryWriter> create, Random random)
    {
        string[] letters = ["", "a", "b", "c", "z"];
        string[] namespaces = [.. Enumerable.Range(0, 40).Select(i => "urn:" + i)];
        string[] looked = [.. namespaces, ""];
        // A namespace, sometimes as another instance of the same string.
        string Namespace() => namespaces[random.Next(namespaces.Length)] is var ns && random.Next(4) == 0 ? new string(ns.AsSpan()) : ns;
        var stream = new MemoryStream();
        var log = new StringBuilder();
        XmlDictionaryWriter w = create(stream);
        void Call(string name, Action call)
        {
            string failure = "";
            try
            {
                call();
            }
            catch (Exception e)
            {
                failure = $" fails: {e.GetType().Name}: {e.Message}";
            }
            log.Append(name).Append(failure).Append(" |");
            foreach (string ns in looked) log.Append(' ').Append(Outcome(() => w.LookupPrefix(ns) ?? "null"));
            log.Append('\n');
        }
        int depth = 0, attributes = 0;
        Call("root", () => w.WriteStartElement("root"));
        for (int step = 0; step < 300; step++)
        {
            int kind = random.Next(20);
            if (kind < 9 || depth == 0)
            {
                // An element with a prefix of its own (or none) and a few declarations and attributes: prefixes declared
                // on it are each declared once, so the document is always well formed.
                string prefix = random.Next(3) == 0 ? letters[random.Next(letters.Length)] : "p" + random.Next(40), ns = Namespace();
                bool wide = random.Next(15) == 0;
                var own = new Dictionary<string, string> { [prefix] = ns };
                if (random.Next(8) == 0) Call($"element {ns}", () => w.WriteStartElement("e", ns));
                else Call($"element {prefix}:{ns}", () => w.WriteStartElement(prefix, "e", ns));
                depth++;
                for (int n = wide ? 30 + random.Next(30) : random.Next(4); n > 0; n--)
                {
                    string p = "p" + random.Next(40), u = Namespace();
                    // A prefix declared on the element already is declared again only to its namespace (nothing written).
                    if (own.TryGetValue(p, out string? bound))
                    {
                        if (p.Length == 0 || random.Next(2) == 0) continue;
                        u = bound;
                    }
                    own[p] = u;
                    switch (random.Next(3))
                    {
                        case 0:
                            Call($"xmlns:{p}={u}", () => w.WriteXmlnsAttribute(p, u));
                            break;
                        case 1:
                            Call($"attribute {p}:{u}", () => w.WriteAttributeString(p, "a" + attributes++, u, "v"));
                            break;
                        default:
                            Call($"attribute {u}", () => w.WriteAttributeString("a" + attributes++, u, "v"));
                            break;
                    }
                }
            }
            else if (kind < 11)
            {
                Call("text", () => w.WriteString("t"));
            }
            else
            {
                Call("end", () => w.WriteEndElement());
                depth--;
            }
        }
        // The end of some documents: a wide start tag, then one of its prefixes bound to another namespace, which fails.
        if (random.Next(2) == 0)
        {
            Call("element", () => w.WriteStartElement("p0", "e", namespaces[0]));
            for (int n = 1; n < 40; n++) Call($"xmlns:p{n}", () => w.WriteXmlnsAttribute("p" + n, namespaces[n]));
            int again = random.Next(40);
            Call($"conflict xmlns:p{again}", () => w.WriteXmlnsAttribute("p" + again, namespaces[(again + 1) % 40]));
        }
        return log.Append(Outcome(() =>
        {
            while (w.WriteState is WriteState.Element or WriteState.Content) w.WriteEndElement();
            w.Flush();
            return Convert.ToHexString(stream.ToArray());
        })).ToString();
    }

    private static string Walk(Func<Stream, XmlDictionaryWriter> create, Random random)
    {
        var stream = new MemoryStream();
        var log = new StringBuilder();
        XmlDictionaryWriter w = create(stream);
        for (int step = 0; step < 20; step++)
        {
            (string name, Action<XmlDictionaryWriter> call) = s_calls[random.Next(s_calls.Length)];
            string failure = "";
            try
            {
                call(w);
            }
            catch (Exception e)
            {
                failure = $" fails: {e.GetType().Name}: {e.Message} [{(e as ArgumentException)?.ParamName}]";
            }
            log.Append($"{name}{failure} | {Outcome(() => $"{w.WriteState} {w.XmlLang} {w.XmlSpace} {w.LookupPrefix("urn:p")}")}\n");
            // Our writer's short paths may be taken only where the state allows them, after failures too.
            if (w is BinaryXmlDictionaryWriter ours) Assert.True(ours.NativeWriter.PlainStateIsSafe, $"The plain state allows short paths after: {log}");
            if (failure.Length > 0) break;
        }
        return log.Append(Outcome(() =>
        {
            w.Flush();
            return Convert.ToHexString(stream.ToArray());
        })).ToString();
    }

    private static string Outcome(Func<string> read)
    {
        try
        {
            return read();
        }
        catch (Exception e)
        {
            return $"fails: {e.GetType().Name}";
        }
    }
}
