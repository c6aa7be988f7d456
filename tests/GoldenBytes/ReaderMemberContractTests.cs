using System.Globalization;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Member-by-member contract for the drop-in reader: each scenario calls a group of <see cref="XmlReader"/> /
/// <see cref="XmlDictionaryReader"/> members on .NET's binary reader and on ours, logging every result (or the
/// exception type), and the two logs must be equal.
/// </summary>
public sealed class ReaderMemberContractTests
{
    private static readonly byte[] Document = CreateDocument();

    private static byte[] CreateDocument()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, null, null, false))
        {
            w.WriteStartElement("p", "root", "urn:p");
            w.WriteXmlnsAttribute("q", "urn:q");
            w.WriteAttributeString("xml", "space", null, "preserve");
            w.WriteAttributeString("xml", "lang", null, "fr");
            w.WriteAttributeString("q", "qn", "urn:q", "q:name");
            w.WriteStartElement("b64");
            w.WriteBase64([1, 2, 3, 4, 5, 6, 7], 0, 7);
            w.WriteEndElement();
            w.WriteStartElement("hex");
            w.WriteString("0A0B0C");
            w.WriteEndElement();
            w.WriteStartElement("qname");
            w.WriteString("q:local");
            w.WriteEndElement();
            w.WriteStartElement("inner");
            w.WriteAttributeString("xml", "space", null, "default");
            w.WriteStartElement("leaf");
            w.WriteAttributeString("k", "v");
            w.WriteString("text & more");
            w.WriteEndElement();
            w.WriteComment("note");
            w.WriteElementString("leaf", "second");
            w.WriteEndElement();
            w.WriteElementString("target", "urn:q", "found");
            w.WriteArray(null, "arr", null, new[] { 1, 2, 3 }, 0, 3);
            w.WriteEndElement();
        }
        return stream.ToArray();
    }

    private static string Log(object? value) => value switch
    {
        null => "null",
        byte[] b => Convert.ToHexString(b),
        XmlQualifiedName q => "{" + q.Namespace + "}" + q.Name,
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    private static readonly Dictionary<string, Action<XmlDictionaryReader, List<string>>> Scenarios = new()
    {
        ["base64 content in pieces"] = (r, log) =>
        {
            r.ReadToFollowing("b64");
            r.Read();
            byte[] buffer = new byte[3];
            int n;
            while ((n = r.ReadContentAsBase64(buffer, 0, buffer.Length)) > 0) log.Add(Convert.ToHexString(buffer, 0, n));
            log.Add(r.NodeType + " " + r.LocalName);
        },
        ["base64 element content in pieces"] = (r, log) =>
        {
            r.ReadToFollowing("b64");
            byte[] buffer = new byte[4];
            int n;
            while ((n = r.ReadElementContentAsBase64(buffer, 0, buffer.Length)) > 0) log.Add(Convert.ToHexString(buffer, 0, n));
            log.Add(r.NodeType + " " + r.LocalName);
        },
        ["value as base64"] = (r, log) =>
        {
            r.ReadToFollowing("b64");
            r.Read();
            byte[] buffer = new byte[5];
            log.Add(Log(r.ReadValueAsBase64(buffer, 0, 5)) + Convert.ToHexString(buffer));
            log.Add(Log(r.ReadValueAsBase64(buffer, 0, 5)));
        },
        ["binhex content"] = (r, log) =>
        {
            r.ReadToFollowing("hex");
            byte[] buffer = new byte[8];
            log.Add(Log(r.ReadElementContentAsBinHex(buffer, 0, buffer.Length)) + Convert.ToHexString(buffer));
        },
        ["qualified names"] = (r, log) =>
        {
            r.MoveToContent();
            r.MoveToAttribute("qn", "urn:q");
            r.ReadContentAsQualifiedName(out string local, out string ns);
            log.Add(local + " " + ns);
            r.ReadToFollowing("qname");
            r.ReadStartElement();
            r.ReadContentAsQualifiedName(out local, out ns);
            log.Add(local + " " + ns + " " + r.NodeType);
            r.ReadEndElement();
        },
        ["xml:space and xml:lang scopes"] = (r, log) =>
        {
            while (r.Read()) log.Add($"{r.NodeType} {r.LocalName} {r.XmlSpace} {r.XmlLang}");
        },
        ["inner and outer xml"] = (r, log) =>
        {
            r.ReadToFollowing("inner");
            log.Add(r.ReadOuterXml());
            log.Add(r.NodeType + " " + r.LocalName);
            log.Add(r.ReadInnerXml());
            log.Add(r.NodeType + " " + r.LocalName);
        },
        ["subtree"] = (r, log) =>
        {
            r.ReadToFollowing("inner");
            using (XmlReader sub = r.ReadSubtree())
            {
                while (sub.Read()) log.Add($"{sub.NodeType} {sub.Name} {sub.Value} {sub.Depth}");
            }
            log.Add(r.NodeType + " " + r.LocalName);
        },
        ["ReadToFollowing, ReadToDescendant, ReadToNextSibling"] = (r, log) =>
        {
            log.Add(Log(r.ReadToFollowing("target", "urn:q")));
            log.Add(r.ReadElementContentAsString());
            r.Close();
            log.Add(r.ReadState.ToString());
        },
        ["descendants and siblings"] = (r, log) =>
        {
            r.ReadToFollowing("inner");
            log.Add(Log(r.ReadToDescendant("leaf")));
            log.Add(Log(r.GetAttribute(0)) + Log(r.GetAttribute("k")) + Log(r.GetAttribute("k", "")));
            log.Add(Log(r.ReadToNextSibling("leaf")));
            log.Add(r.ReadElementString());
            log.Add(Log(r.ReadToNextSibling("nothing")));
        },
        ["full start element, element string, string"] = (r, log) =>
        {
            r.ReadFullStartElement("root", "urn:p");
            r.ReadToFollowing("leaf");
            r.ReadStartElement();
            log.Add(r.ReadString());
            r.ReadEndElement();
            log.Add(r.ReadElementString("leaf"));
            r.ReadEndElement();
            log.Add(r.NodeType + " " + r.LocalName);
        },
        ["arrays: IsStartArray, TryGetArrayLength, partial ReadArray"] = (r, log) =>
        {
            r.ReadToFollowing("arr");
            log.Add(Log(r.IsStartArray(out Type? type)) + " " + type);
            log.Add(Log(r.TryGetArrayLength(out int count)) + " " + count);
            int[] items = new int[2];
            log.Add(Log(r.ReadArray("arr", "", items, 0, 2)) + " " + string.Join(",", items));
            log.Add(Log(r.TryGetArrayLength(out count)) + " " + count);
            log.Add(r.ReadElementContentAsInt().ToString(CultureInfo.InvariantCulture));
            log.Add(Log(r.IsStartArray(out type)));
        },
        ["entities and namespaces"] = (r, log) =>
        {
            r.MoveToContent();
            log.Add(Log(r.LookupNamespace("q")) + Log(r.LookupNamespace("p")) + Log(r.LookupNamespace("zz")) + Log(r.LookupNamespace("xml")));
            log.Add(Log(r.CanResolveEntity));
            try { r.ResolveEntity(); } catch (Exception e) { log.Add(e.GetType().Name); }
            log.Add(Log(r.MoveToAttribute("space", "http://www.w3.org/XML/1998/namespace")) + r.Value);
            log.Add(Log(r.ReadAttributeValue()) + r.NodeType + r.Value);
            log.Add(Log(r.MoveToElement()) + r.NodeType);
        },
    };

    /// <summary>A call's result, or the type of the exception it threw (XmlException for ours too).</summary>
    private static string Try(Func<object?> call)
    {
        try
        {
            return Log(call());
        }
        catch (Exception e)
        {
            return e is XmlException ? "XmlException" : e.GetType().Name;
        }
    }

    /// <summary>
    /// Every node, every attribute of an element and every attribute's value node, with <paramref name="visit"/> at each.
    /// Attributes are visited by index because a visit may move the reader (IsStartElement moves to the element); the
    /// node count is bounded so that a reader that does not move on fails the test instead of hanging it.
    /// </summary>
    private static void EachPosition(XmlDictionaryReader r, List<string> log, Action<XmlDictionaryReader, List<string>> visit)
    {
        for (int nodes = 0; r.Read(); nodes++)
        {
            Assert.True(nodes < 1000, "the reader does not reach the end of the document");
            log.Add($"{r.NodeType} {r.Name}");
            visit(r, log);
            if (r.NodeType != XmlNodeType.Element) continue;
            int count = r.AttributeCount;
            for (int i = 0; i < count; i++)
            {
                r.MoveToAttribute(i);
                log.Add($"attribute {r.Name}");
                visit(r, log);
                if (!r.ReadAttributeValue()) continue;
                log.Add("value");
                visit(r, log);
            }
            r.MoveToElement();
        }
    }

    // The members .NET's binary reader overrides and ours leaves to XmlReader / XmlDictionaryReader.
    private static readonly Dictionary<string, Action<XmlDictionaryReader, List<string>>> InheritedMemberScenarios = new()
    {
        ["name tests by string at every position"] = (r, log) => EachPosition(r, log, (r, log) =>
        {
            string local = r.LocalName, ns = r.NamespaceURI;
            log.Add(string.Join(" ", Try(() => r.IsLocalName(local)), Try(() => r.IsLocalName("")), Try(() => r.IsLocalName("xmlns")),
                Try(() => r.IsLocalName(r.Prefix)), Try(() => r.IsLocalName((string)null!)), Try(() => r.IsNamespaceUri(ns)),
                Try(() => r.IsNamespaceUri("")), Try(() => r.IsNamespaceUri("http://www.w3.org/2000/xmlns/")), Try(() => r.IsNamespaceUri((string)null!)),
                Try(() => r.IndexOfLocalName(["other", "", local], ns)), Try(() => r.IndexOfLocalName(["xmlns", r.Prefix], ns)),
                Try(() => r.IndexOfLocalName(null!, ns)), Try(() => r.IndexOfLocalName([local], null!)), Try(() => r.IndexOfLocalName(["x", null!], ns)),
                Try(() => r.IsStartElement())));
        }),
        ["attribute indexers and lookups at every position"] = (r, log) => EachPosition(r, log, (r, log) =>
        {
            var names = new XmlDictionary();
            log.Add(string.Join(" ", Try(() => r[0]), Try(() => r[1]), Try(() => r[-1]), Try(() => r["k"]), Try(() => r["q:qn"]), Try(() => r["qn", "urn:q"]),
                Try(() => r["space", "http://www.w3.org/XML/1998/namespace"]), Try(() => r["xmlns:q"]), Try(() => r[null!]),
                Try(() => r.GetAttribute(names.Add("qn"), names.Add("urn:q"))), Try(() => r.GetAttribute(names.Add("k"), names.Add(""))),
                Try(() => r.GetAttribute(null!, names.Add(""))), Try(() => r.GetAttribute(names.Add("k"), null!)),
                Try(() => r.IsDefault), Try(() => r.QuoteChar)));
        }),
        ["base64 content length at every position"] = (r, log) => EachPosition(r, log, (r, log) =>
        {
            log.Add(Try(() => r.TryGetBase64ContentLength(out int length) + " " + length));
        }),
        ["content as bytes, whole"] = (r, log) =>
        {
            r.ReadToFollowing("b64");
            r.Read();
            log.Add(Try(() => r.ReadContentAsBase64()));
            log.Add($"{r.NodeType} {r.LocalName} '{Try(() => r.Value)}' {Try(() => r.HasValue)} {Try(() => r.MoveToContent())}");
            r.ReadToFollowing("hex");
            r.Read();
            log.Add(Try(() => r.ReadContentAsBinHex()));
            log.Add(r.NodeType + " " + r.LocalName);
        },
        ["element strings, start and end tags, on every node"] = (r, log) =>
        {
            for (int i = 0; i < 40 && r.ReadState is ReadState.Initial or ReadState.Interactive; i++)
            {
                // One of the calls, then zero to two moves on.
                string result = (i % 5) switch
                {
                    0 => Try(() => r.ReadElementString()),
                    1 => Try(() => r.ReadElementString("leaf")),
                    2 => Try(() => r.ReadElementString("target", "urn:q")),
                    3 => Try(() => { r.ReadStartElement(); return r.NodeType; }),
                    _ => Try(() => { r.ReadEndElement(); return r.NodeType; }),
                };
                log.Add($"{i}: {result} then {r.NodeType} {r.Name} {r.ReadState}");
                for (int k = 0; k < i / 5 % 3; k++) r.Read();
            }
        },
        ["null arguments"] = (r, log) =>
        {
            r.MoveToContent();
            var names = new XmlDictionary();
            // .NET's reader throws NullReferenceException from LookupNamespace(null); ours ArgumentNullException (logged alike).
            log.Add(string.Join(" ", Try(() => r.GetAttribute(null!)), Try(() => r.GetAttribute(null!, "")), Try(() => r.GetAttribute("qn", null)),
                Try(() => r.GetAttribute(null!, names.Add(""))), Try(() => r.MoveToAttribute(null!)), Try(() => r.MoveToAttribute(null!, "")),
                Try(() => r.MoveToAttribute("k", null)), Try(() => r.LookupNamespace(null!)) is "NullReferenceException" or "ArgumentNullException" ? "null prefix refused" : "accepted",
                Try(() => r.IsStartElement((string)null!)), Try(() => r.IsStartElement(null!, null!)), Try(() => r.ReadContentAs(null!, null)),
                Try(() => r.ReadElementContentAsString(null!, "")), Try(() => r.ReadToFollowing(null!)), Try(() => r.ReadToDescendant(null!))));
        },
    };

    public static TheoryData<string> ScenarioNames() => new(Scenarios.Keys.Concat(InheritedMemberScenarios.Keys));

    private static List<string> Run(XmlDictionaryReader r, Action<XmlDictionaryReader, List<string>> scenario)
    {
        var log = new List<string>();
        try
        {
            scenario(r, log);
        }
        catch (Exception e)
        {
            log.Add("threw " + e.GetType().Name);
        }
        return log;
    }

    [Theory]
    [MemberData(nameof(ScenarioNames))]
    public void Members_behave_alike(string scenario)
    {
        Action<XmlDictionaryReader, List<string>> run = Scenarios.GetValueOrDefault(scenario) ?? InheritedMemberScenarios[scenario];
        List<string> inBox = Run(XmlDictionaryReader.CreateBinaryReader(Document, 0, Document.Length, null, XmlDictionaryReaderQuotas.Max), run);
        List<string> ours = Run(BinaryXmlDictionaryReader.Create(Document, 0, Document.Length, null, XmlDictionaryReaderQuotas.Max), run);
        Assert.NotEmpty(inBox);
        Assert.DoesNotContain(inBox, line => line.StartsWith("threw ", StringComparison.Ordinal));
        // The first line that differs, whole, then the lists.
        int first = inBox.Zip(ours).TakeWhile(pair => pair.First == pair.Second).Count();
        if (first < Math.Min(inBox.Count, ours.Count)) Assert.Equal($"{first}: {inBox[first]}", $"{first}: {ours[first]}");
        Assert.Equal(inBox, ours);
    }
}
