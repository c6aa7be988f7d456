using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Canonicalization through the drop-in reader against .NET's binary reader: the same reads must give the same
/// canonical bytes, the same values and the same exception types.
/// </summary>
public sealed class ReaderCanonicalizationContractTests
{
    private static readonly byte[] Document = CreateDocument();

    private static byte[] CreateDocument()
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, CanonicalizationContractTests.Dictionary, null, false))
        {
            w.WriteComment("before the root");
            CanonicalizationContractTests.WriteEnvelopeStart(w);
            w.WriteStartElement("s", "Body", "http://www.w3.org/2003/05/soap-envelope");
            w.WriteAttributeString("u", "Id", "urn:utility", "body");
            CanonicalizationContractTests.WriteRichContent(w);
            CanonicalizationContractTests.WriteArrays(w);
            w.WriteStartElement("", "defaults", "urn:d");
            w.WriteStartElement("", "none", "");
            w.WriteElementString("leaf", "", "x");
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteEndElement();
            w.WriteComment("after the root");
        }
        return stream.ToArray();
    }

    private sealed record Outcome(string Canonical, string Log, Type? Error, string? ErrorMessage);

    private static Outcome Run(bool ours, Action<XmlDictionaryReader, Stream, StringBuilder> reads)
    {
        XmlDictionaryReaderQuotas quotas = XmlDictionaryReaderQuotas.Max;
        XmlDictionaryReader r = ours
            ? BinaryXmlDictionaryReader.Create(Document, 0, Document.Length, CanonicalizationContractTests.Dictionary, quotas)
            : XmlDictionaryReader.CreateBinaryReader(Document, 0, Document.Length, CanonicalizationContractTests.Dictionary, quotas);
        var canonical = new MemoryStream();
        var log = new StringBuilder();
        Exception? error = null;
        try
        {
            reads(r, canonical, log);
        }
        catch (Exception e)
        {
            error = e;
        }
        return new Outcome(Encoding.UTF8.GetString(canonical.ToArray()), log.ToString(), error?.GetType(), error?.ToString());
    }

    private static string Same(Action<XmlDictionaryReader, Stream, StringBuilder> reads, bool valid = true)
    {
        Outcome inBox = Run(ours: false, reads);
        Outcome ours = Run(ours: true, reads);
        if (valid) Assert.True(inBox.Error is null, "in-box: " + inBox.ErrorMessage);
        Assert.True(inBox.Error == ours.Error, $"in-box: {inBox.ErrorMessage ?? "no error"}\nours: {ours.ErrorMessage ?? "no error"}");
        Assert.Equal(inBox.Log, ours.Log);
        Assert.Equal(inBox.Canonical, ours.Canonical);
        return inBox.Canonical;
    }

    [Theory]
    [MemberData(nameof(CanonicalizationContractTests.Options), MemberType = typeof(CanonicalizationContractTests))]
    public void The_whole_document_read_node_by_node_is_canonicalized_alike(bool includeComments, string inclusive)
    {
        string canonical = Same((r, c, log) =>
        {
            r.StartCanonicalization(c, includeComments, CanonicalizationContractTests.Prefixes(inclusive));
            while (r.Read()) log.Append(r.NodeType).Append(' ');
            r.EndCanonicalization();
        });
        Assert.Contains("<i32 xmlns=\"urn:x\">2</i32>", canonical);
        Assert.Equal(includeComments, canonical.Contains("<!--after the root-->", StringComparison.Ordinal));
    }

    [Theory]
    [MemberData(nameof(CanonicalizationContractTests.Options), MemberType = typeof(CanonicalizationContractTests))]
    public void A_body_skipped_from_its_start_element_is_canonicalized_alike(bool includeComments, string inclusive)
    {
        string canonical = Same((r, c, log) =>
        {
            r.MoveToContent();
            r.ReadStartElement("Envelope", "http://www.w3.org/2003/05/soap-envelope");
            r.Skip();
            log.Append(r.LocalName);
            r.StartCanonicalization(c, includeComments, CanonicalizationContractTests.Prefixes(inclusive));
            r.Skip();
            r.EndCanonicalization();
            log.Append(' ').Append(r.NodeType);
        });
        Assert.StartsWith("<s:Body ", canonical);
        Assert.EndsWith("</s:Body>", canonical);
    }

    [Theory]
    [MemberData(nameof(CanonicalizationContractTests.Options), MemberType = typeof(CanonicalizationContractTests))]
    public void Typed_reads_and_array_reads_while_canonicalizing_are_alike(bool includeComments, string inclusive)
    {
        Same((r, c, log) =>
        {
            while (r.Read() && r.LocalName != "arrays") { }
            r.StartCanonicalization(c, includeComments, CanonicalizationContractTests.Prefixes(inclusive));
            r.ReadStartElement();
            log.Append(r.IsStartArray(out Type? type)).Append(type).Append(' ');
            log.Append(string.Join(",", r.ReadBooleanArray("b", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadInt16Array("i16", "http://www.w3.org/2003/05/soap-envelope"))).Append(' ');
            int[] ints = new int[4];
            log.Append(r.ReadArray("i32", "urn:x", ints, 0, 1)).Append(' ');
            log.Append(r.ReadElementContentAsInt()).Append(' ');
            log.Append(string.Join(",", r.ReadInt64Array("i64", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadSingleArray("f", ""))).Append(' ');
            log.Append(r.ReadElementContentAsDouble()).Append(' ');
            log.Append(r.ReadElementContentAsString()).Append(' ');
            log.Append(string.Join(",", r.ReadDecimalArray("m", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadDateTimeArray("dt", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadGuidArray("g", ""))).Append(' ');
            log.Append(string.Join(",", r.ReadTimeSpanArray("ts", ""))).Append(' ');
            log.Append(r.ReadElementContentAsInt()).Append(' ');
            r.EndCanonicalization();
            log.Append(r.NodeType).Append(r.LocalName);
        });
    }

    [Fact]
    public void Canonicalization_can_start_on_text_and_comments_and_run_twice()
    {
        Same((r, c, log) =>
        {
            while (r.Read() && r.NodeType != XmlNodeType.Comment) { }
            r.StartCanonicalization(c, true, null);
            r.Read();
            r.Read();
            r.EndCanonicalization();
            while (r.Read() && r.NodeType != XmlNodeType.Text) { }
            r.StartCanonicalization(c, true, null);
            r.Read();
            r.Read();
            r.EndCanonicalization();
            log.Append(r.NodeType);
        });
    }

    [Fact]
    public void Reading_on_from_an_attribute_while_canonicalizing_fails_alike()
    {
        Same((r, c, log) =>
        {
            while (r.Read() && r.LocalName != "a") { }
            r.StartCanonicalization(c, false, null);
            r.Read();
            r.MoveToContent();
            log.Append(r.MoveToFirstAttribute());
            r.Read();
        }, valid: false);
    }

    [Fact]
    public void Misuse_throws_the_same_exception_types()
    {
        Same((r, c, log) => r.EndCanonicalization(), valid: false);
        Same((r, c, log) =>
        {
            r.StartCanonicalization(c, false, null);
            r.StartCanonicalization(c, false, null);
        }, valid: false);
        Same((r, c, log) => r.StartCanonicalization(null!, false, null), valid: false);
        Same((r, c, log) =>
        {
            r.StartCanonicalization(c, false, null);
            r.EndCanonicalization();
            log.Append(c.CanWrite);
            r.EndCanonicalization();
        }, valid: false);
        Assert.True(BinaryXmlDictionaryReader.Create(Document, 0, Document.Length, null, XmlDictionaryReaderQuotas.Max).CanCanonicalize);
    }

    /// <summary>
    /// Pinned difference: reading, while canonicalizing, past the end of an element that was open when
    /// canonicalization started makes .NET's reader fail with an IndexOutOfRangeException; ours fails with an
    /// InvalidOperationException.
    /// </summary>
    [Fact]
    public void Reading_past_the_element_canonicalization_started_in_is_refused()
    {
        static void Reads(XmlDictionaryReader r, Stream c, StringBuilder log)
        {
            while (r.Read() && r.LocalName != "defaults") { }
            r.Read();
            r.StartCanonicalization(c, false, null);
            while (r.Read()) { }
        }
        Assert.Equal(typeof(IndexOutOfRangeException), Run(ours: false, Reads).Error);
        Assert.Equal(typeof(InvalidOperationException), Run(ours: true, Reads).Error);
    }
}
