using System.Text;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Canonicalization through the drop-in writer and reader against .NET's binary writer and reader: the same calls
/// must give the same canonical bytes, the same binary bytes (canonicalizing changes them: arrays become repeated
/// elements) and the same exception types.
/// </summary>
public sealed class CanonicalizationContractTests
{
    internal static readonly XmlDictionary Dictionary = CreateDictionary();
    private static readonly XmlDictionaryString Envelope = Dictionary.Add("Envelope");
    private static readonly XmlDictionaryString EnvNs = Dictionary.Add("http://www.w3.org/2003/05/soap-envelope");
    private static readonly XmlDictionaryString Body = Dictionary.Add("Body");
    private static readonly XmlDictionaryString Item = Dictionary.Add("item");

    private static XmlDictionary CreateDictionary() => new();

    /// <summary>Options for one canonicalization: with or without comments, and the inclusive prefixes.</summary>
    public static TheoryData<bool, string> Options() => new()
    {
        { false, "" },
        { true, "" },
        { false, "s" },
        { false, "s q" },
        { true, "# q" },
    };

    internal static string[]? Prefixes(string list)
        => list.Length == 0 ? null : list.Split(' ').Select(p => p == "#" ? "" : p).ToArray();

    private sealed record Outcome(string Binary, string Canonical, Type? Error, string? ErrorMessage = null);

    /// <summary>As <see cref="Same"/>, for calls that must succeed.</summary>
    private static string SameAndValid(Action<XmlDictionaryWriter, Stream> calls)
    {
        Outcome inBox = Run(ours: false, calls);
        Assert.True(inBox.Error is null, "in-box: " + inBox.ErrorMessage);
        return Same(calls);
    }

    private static Outcome Run(bool ours, Action<XmlDictionaryWriter, Stream> calls)
    {
        var stream = new MemoryStream();
        var canonical = new MemoryStream();
        XmlDictionaryWriter w = ours
            ? BinaryXmlDictionaryWriter.Create(stream, Dictionary, null, false)
            : XmlDictionaryWriter.CreateBinaryWriter(stream, Dictionary, null, false);
        Exception? error = null;
        try
        {
            calls(w, canonical);
            if (w.WriteState != WriteState.Closed) w.Flush();
        }
        catch (Exception e)
        {
            error = e;
        }
        return new Outcome(Hex.Format(stream.ToArray()), Encoding.UTF8.GetString(canonical.ToArray()), error?.GetType(), error?.ToString());
    }

    /// <summary>Runs the calls through both writers, asserts the same outcome and returns the canonical text.</summary>
    private static string Same(Action<XmlDictionaryWriter, Stream> calls)
    {
        Outcome inBox = Run(ours: false, calls);
        Outcome ours = Run(ours: true, calls);
        Assert.True(inBox.Error == ours.Error, $"in-box: {inBox.ErrorMessage ?? "no error"}\nours: {ours.ErrorMessage ?? "no error"}");
        if (inBox.Error is not null) return inBox.Canonical;
        Assert.Equal(inBox.Binary, ours.Binary);
        Assert.Equal(inBox.Canonical, ours.Canonical);
        return inBox.Canonical;
    }

    internal static void WriteRichContent(XmlDictionaryWriter w)
    {
        w.WriteStartElement(null, "a", "urn:x");
        w.WriteAttributeString("z", "1");
        w.WriteAttributeString("b", "2 & <3>");
        w.WriteAttributeString(null, "g", "urn:generated", "3");
        w.WriteAttributeString("xml", "lang", null, "en");
        w.WriteXmlnsAttribute("unused", "urn:unused");
        w.WriteXmlnsAttribute(null, "urn:declared-by-null");
        w.WriteComment("a comment");
        w.WriteString("text & <markup> \r\n\t \"quoted\" 'apos'");
        w.WriteCharEntity('\u00e9');
        w.WriteSurrogateCharEntity('\udc00', '\ud800');
        w.WriteCData("cdata ]] >");
        w.WriteWhitespace(" \n");
        w.WriteRaw("raw<b/>");
        w.WriteStartElement("s", "inner", "http://www.w3.org/2003/05/soap-envelope");
        w.WriteValue(42);
        w.WriteEndElement();
        w.WriteStartElement("v", "urn:x");
        w.WriteValue(-5L);
        w.WriteValue(' ');
        w.WriteValue(1.5);
        w.WriteValue(0.1f);
        w.WriteValue(12.5m);
        w.WriteValue(true);
        w.WriteValue(new DateTime(2024, 2, 29, 13, 14, 15, DateTimeKind.Utc));
        w.WriteValue(new Guid("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"));
        w.WriteValue(TimeSpan.FromMinutes(90));
        w.WriteValue(new UniqueId(new Guid("00112233-4455-6677-8899-aabbccddeeff")));
        w.WriteValue(new object[] { 1, "two", 3.5, false });
        w.WriteValue(ulong.MaxValue as object);
        w.WriteEndElement();
        w.WriteStartElement("q", "qn", "urn:q");
        w.WriteStartAttribute("type", "");
        w.WriteQualifiedName("local", "urn:q");
        w.WriteEndAttribute();
        w.WriteQualifiedName("name", "urn:x");
        w.WriteEndElement();
        w.WriteStartElement(null, Item, EnvNs);
        w.WriteStartAttribute("attr", "urn:attr-ns");
        w.WriteEndAttribute();
        w.WriteString(Body);
        w.WriteEndElement();
        byte[] bytes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 251, 252, 253];
        w.WriteStartElement("b64");
        w.WriteBase64(bytes, 0, 1);
        w.WriteBase64(bytes, 1, 5);
        w.WriteBase64(bytes, 6, 7);
        w.WriteEndElement();
        w.WriteStartElement("hex");
        w.WriteBinHex(bytes, 0, bytes.Length);
        w.WriteEndElement();
        w.WriteStartElement("empty");
        w.WriteFullEndElement();
        w.WriteElementString("p", "prefixed", "urn:p", "value");
        w.WriteEndElement();
    }

    internal static void WriteArrays(XmlDictionaryWriter w)
    {
        w.WriteStartElement("arrays");
        w.WriteArray(null, "b", null, new[] { true, false }, 0, 2);
        w.WriteArray("s", "i16", "http://www.w3.org/2003/05/soap-envelope", new short[] { 1, -2 }, 0, 2);
        w.WriteArray(null, "i32", "urn:x", new[] { 1, 2, 3 }, 1, 2);
        w.WriteArray(null, "i64", null, new[] { long.MinValue }, 0, 1);
        w.WriteArray(null, "f", null, new[] { 1.5f, float.NaN }, 0, 2);
        w.WriteArray(null, "d", null, new[] { double.NegativeInfinity, 1e300 }, 0, 2);
        w.WriteArray(null, "m", null, new[] { 1.25m }, 0, 1);
        w.WriteArray(null, "dt", null, new[] { new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Local) }, 0, 1);
        w.WriteArray(null, "g", null, new[] { Guid.Empty }, 0, 1);
        w.WriteArray(null, "ts", null, new[] { TimeSpan.FromTicks(-1) }, 0, 1);
        w.WriteArray(null, Item, EnvNs, new[] { 7, 8 }, 0, 2);
        w.WriteArray(null, "none", null, new int[3], 0, 0);
        w.WriteEndElement();
    }

    internal static void WriteEnvelopeStart(XmlDictionaryWriter w)
    {
        w.WriteStartElement("s", Envelope, EnvNs);
        w.WriteXmlnsAttribute("q", "urn:q");
        w.WriteXmlnsAttribute("unused", "urn:declared-above");
        w.WriteStartElement("s", "Header", "http://www.w3.org/2003/05/soap-envelope");
        w.WriteEndElement();
    }

    [Theory]
    [MemberData(nameof(Options))]
    public void A_SOAP_body_is_canonicalized_alike(bool includeComments, string inclusive)
    {
        string canonical = SameAndValid((w, c) =>
        {
            WriteEnvelopeStart(w);
            w.StartCanonicalization(c, includeComments, Prefixes(inclusive));
            w.WriteStartElement("s", Body, EnvNs);
            WriteRichContent(w);
            w.WriteEndElement();
            w.EndCanonicalization();
            w.WriteEndElement();
        });
        Assert.StartsWith("<s:Body xmlns:", canonical);
        Assert.Contains(" xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"", canonical);
        Assert.Equal(includeComments, canonical.Contains("<!--a comment-->", StringComparison.Ordinal));
    }

    [Theory]
    [MemberData(nameof(Options))]
    public void Arrays_are_written_as_repeated_elements_while_canonicalizing(bool includeComments, string inclusive)
    {
        string canonical = SameAndValid((w, c) =>
        {
            WriteEnvelopeStart(w);
            WriteArrays(w);
            w.StartCanonicalization(c, includeComments, Prefixes(inclusive));
            WriteArrays(w);
            w.EndCanonicalization();
            WriteArrays(w);
            w.WriteEndElement();
        });
        Assert.Contains("<i32 xmlns=\"urn:x\">2</i32><i32 xmlns=\"urn:x\">3</i32>", canonical);
    }

    [Theory]
    [MemberData(nameof(Options))]
    public void A_whole_document_is_canonicalized_alike(bool includeComments, string inclusive)
    {
        SameAndValid((w, c) =>
        {
            w.StartCanonicalization(c, includeComments, Prefixes(inclusive));
            w.WriteStartDocument();
            w.WriteComment("before the root");
            WriteEnvelopeStart(w);
            WriteRichContent(w);
            WriteArrays(w);
            w.WriteEndElement();
            w.WriteComment("after the root");
            w.WriteEndDocument();
            w.EndCanonicalization();
        });
    }

    [Fact]
    public void Canonicalization_can_start_while_a_start_tag_is_open_and_run_twice()
    {
        SameAndValid((w, c) =>
        {
            w.WriteStartElement("root", "urn:root");
            w.WriteAttributeString("k", "v");
            w.WriteXmlnsAttribute("p", "urn:p");
            w.StartCanonicalization(c, false, ["p", ""]);
            w.WriteElementString("p", "one", "urn:p", "1");
            w.EndCanonicalization();
            w.WriteElementString("between", "x");
            w.StartCanonicalization(c, true, null);
            w.WriteStartElement("two");
            w.WriteXmlnsAttribute("", "");
            w.WriteComment("c");
            w.WriteEndElement();
            w.EndCanonicalization();
            w.WriteEndElement();
        });
    }

    /// <summary>
    /// Outside any canonicalized element .NET keeps typed values (formatted characters) and drops text: the same here,
    /// for every typed value, lists, base64 held back before canonicalization started, and DateTimeOffset.
    /// </summary>
    [Fact]
    public void Typed_values_and_text_outside_the_canonicalized_elements_are_kept_or_dropped_alike()
    {
        string canonical = SameAndValid((w, c) =>
        {
            w.WriteStartElement("a");
            w.WriteBase64([1, 2, 3, 4], 0, 4);
            w.StartCanonicalization(c, true, null);
            w.WriteBase64([5], 0, 1);
            w.WriteString("dropped");
            w.WriteValue(5);
            w.WriteValue(5L);
            w.WriteValue(1.5f);
            w.WriteValue(1.5);
            w.WriteValue(1.5m);
            w.WriteValue(new DateTime(2000, 1, 1, 1, 2, 3, DateTimeKind.Local).AddTicks(5));
            w.WriteValue(new DateTimeOffset(2000, 1, 1, 0, 0, 0, TimeSpan.FromHours(2)));
            w.WriteValue(Guid.Empty);
            w.WriteValue(TimeSpan.FromSeconds(1));
            w.WriteValue(new UniqueId(Guid.Empty));
            w.WriteValue(true);
            w.WriteValue((object)ulong.MaxValue);
            w.WriteValue(new object[] { 1, "s", 2.5, new DateTime(2000, 1, 1), true, Guid.Empty });
            w.WriteComment("kept");
            w.EndCanonicalization();
            w.WriteEndElement();
        });
        Assert.DoesNotContain("dropped", canonical);
        Assert.Contains("2000-01-01T01:02:03.0000005", canonical);
    }

    [Fact]
    public void Default_namespaces_declared_above_are_seeded_alike()
    {
        foreach (string?[] defaults in new[] { new[] { "urn:d", null }, new[] { "urn:d", "" }, new[] { "", "urn:e" } })
        {
            SameAndValid((w, c) =>
            {
                w.WriteStartElement("", "outer", defaults[0]);
                if (defaults[1] is not null) w.WriteStartElement("", "middle", defaults[1]);
                w.StartCanonicalization(c, false, [""]);
                w.WriteElementString("inner", "", "x");
                w.WriteElementString("inner2", "urn:d", "y");
                w.EndCanonicalization();
                w.WriteEndDocument();
            });
        }
    }

    [Fact]
    public void Flush_while_canonicalizing_flushes_the_canonical_stream_alike()
    {
        SameAndValid((w, c) =>
        {
            w.StartCanonicalization(c, false, null);
            w.WriteStartElement("a");
            w.WriteString("x");
            w.Flush();
            Assert.Equal("<a>x", Encoding.UTF8.GetString(((MemoryStream)c).ToArray()));
            w.WriteEndElement();
            w.EndCanonicalization();
        });
    }

    [Fact]
    public void Close_while_canonicalizing_completes_the_canonical_form_alike()
    {
        string canonical = SameAndValid((w, c) =>
        {
            w.StartCanonicalization(c, false, null);
            w.WriteStartElement("a");
            w.WriteStartElement("b");
            w.WriteString("x");
            w.Close();
        });
        Assert.Equal("<a><b>x</b></a>", canonical);
    }

    [Fact]
    public void Misuse_throws_the_same_exception_types()
    {
        Same((w, c) => w.EndCanonicalization());
        Same((w, c) =>
        {
            w.StartCanonicalization(c, false, null);
            w.StartCanonicalization(c, false, null);
        });
        Same((w, c) => w.StartCanonicalization(null!, false, null));
        Same((w, c) =>
        {
            w.Close();
            w.StartCanonicalization(c, false, null);
        });
        Same((w, c) =>
        {
            w.StartCanonicalization(c, false, null);
            w.WriteStartElement("a");
            w.Close();
            w.EndCanonicalization();
        });
        Same((w, c) =>
        {
            w.StartCanonicalization(c, false, null);
            w.WriteString("text outside the root");
        });
    }

    /// <summary>
    /// Pinned difference: closing, while canonicalizing, an element that was open when canonicalization started makes
    /// .NET's writer fail with an IndexOutOfRangeException (or a NullReferenceException after text); ours refuses it
    /// with an InvalidOperationException before writing anything.
    /// </summary>
    [Fact]
    public void Closing_an_element_opened_before_canonicalization_is_refused()
    {
        void Calls(XmlDictionaryWriter w, Stream c)
        {
            w.WriteStartElement("outer");
            w.StartCanonicalization(c, false, null);
            w.WriteElementString("inner", "x");
            w.WriteEndElement();
        }
        Assert.Equal(typeof(IndexOutOfRangeException), Run(ours: false, Calls).Error);
        Outcome ours = Run(ours: true, Calls);
        Assert.Equal(typeof(InvalidOperationException), ours.Error);
    }

    [Fact]
    public void Starting_canonicalization_while_it_runs_fails_alike()
    {
        static void Calls(XmlDictionaryWriter w, Stream c)
        {
            w.WriteStartElement("a");
            w.StartCanonicalization(c, false, null);
            w.StartCanonicalization(new MemoryStream(), false, null);
        }
        Outcome inBox = Run(ours: false, Calls), ours = Run(ours: true, Calls);
        Assert.Equal(typeof(InvalidOperationException), inBox.Error);
        Assert.Equal(inBox.Error, ours.Error);
        Assert.StartsWith("System.InvalidOperationException: Canonicalization already started.", ours.ErrorMessage);
    }

    [Fact]
    public void SetOutput_ends_canonicalization_alike()
    {
        foreach (bool ours in new[] { false, true })
        {
            XmlDictionaryWriter writer = ours ? BinaryXmlDictionaryWriter.Create(new MemoryStream()) : XmlDictionaryWriter.CreateBinaryWriter(new MemoryStream());
            var canonical = new MemoryStream();
            writer.WriteStartElement("a");
            writer.StartCanonicalization(canonical, false, null);
            var stream = new MemoryStream();
            ((IXmlBinaryWriterInitializer)writer).SetOutput(stream, null, null, false);
            writer.WriteArray(null, "i", null, new[] { 1 }, 0, 1);
            writer.Flush();
            Assert.Equal("03 40 01 69 01 8D 01 01 00 00 00", Hex.Format(stream.ToArray()));
            Assert.Equal(0, canonical.Length);
            Assert.Throws<InvalidOperationException>(() => writer.EndCanonicalization());
        }
    }

    [Fact]
    public void The_drop_in_writers_short_paths_open_again_when_canonicalization_ends_or_the_output_changes()
    {
        // While canonicalizing, the native writer reports every start tag's prefix and takes only its general paths.
        // The end of canonicalization and a new output turn the report off (SetOutput only when it was on) and open the
        // short paths again as far as the state allows, not merely safely.
        var writer = BinaryXmlDictionaryWriter.Create(new MemoryStream());
        writer.WriteStartElement("r");
        writer.StartCanonicalization(new MemoryStream(), false, null);
        writer.WriteStartElement("a");
        writer.WriteEndElement();
        Assert.True(writer.NativeWriter.ReportResolvedPrefixes);
        writer.EndCanonicalization();
        Assert.False(writer.NativeWriter.ReportResolvedPrefixes);
        Assert.True(writer.NativeWriter.PlainStateIsExact);

        writer.StartCanonicalization(new MemoryStream(), false, null);
        ((IXmlBinaryWriterInitializer)writer).SetOutput(new MemoryStream(), null, null, false);
        Assert.False(writer.NativeWriter.ReportResolvedPrefixes);
        Assert.True(writer.NativeWriter.PlainStateIsExact);
        ((IXmlBinaryWriterInitializer)writer).SetOutput(new MemoryStream(), null, null, false);
        Assert.True(writer.NativeWriter.PlainStateIsExact);
    }

    [Fact]
    public void The_native_writer_reports_every_start_tags_prefix_while_replaying_after_an_array_too()
    {
        // Canonicalization replays calls with the prefix each start tag was written with. The drop-in writer writes
        // arrays as elements while canonicalizing; the native writer, asked directly, must not let an array's start
        // tag open the short path that skips the report.
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using var w = new BinaryXmlWriter(buffer);
        w.ReportResolvedPrefixes = true;
        w.WriteStartElement("p", "r", "urn:p");
        Assert.Equal("p", w.LastResolvedPrefix);
        w.WriteArray(null, "a", "urn:p", (ReadOnlySpan<int>)[1, 2]);
        Assert.Equal("p", w.LastResolvedPrefix);
        w.WriteStartElement("e");
        Assert.Equal("", w.LastResolvedPrefix);
        w.WriteStartElement("f", "urn:p");
        Assert.Equal("p", w.LastResolvedPrefix);
    }
}
