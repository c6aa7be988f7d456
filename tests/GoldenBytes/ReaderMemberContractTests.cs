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

    public static TheoryData<string> ScenarioNames() => new(Scenarios.Keys);

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
        List<string> inBox = Run(XmlDictionaryReader.CreateBinaryReader(Document, 0, Document.Length, null, XmlDictionaryReaderQuotas.Max), Scenarios[scenario]);
        List<string> ours = Run(BinaryXmlDictionaryReader.Create(Document, 0, Document.Length, null, XmlDictionaryReaderQuotas.Max), Scenarios[scenario]);
        Assert.NotEmpty(inBox);
        Assert.DoesNotContain(inBox, line => line.StartsWith("threw ", StringComparison.Ordinal));
        Assert.Equal(inBox, ours);
    }
}
