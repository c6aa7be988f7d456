using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Over a stream, bulk data converted as it is written (long UTF-8 text, names and comments; DateTime items with local
/// ones) goes to the stream during the call that writes it, through a buffer of a bounded size, as .NET's writer hands
/// on its 512-byte buffer as it fills: the same bytes as in-box's, not a buffer the payload's size held until the flush.
/// </summary>
public sealed partial class DictionaryWriterContractTests
{
    // Longer than the text the writer transcodes into its buffer before counting it over a stream (1,398,099
    // characters), and than the names and comments it transcodes so (16,384).
    private const int LongText = 1_500_000;
    private const int LongName = 100_000;

    // The most a call may allocate: the writer's buffer grown once from 4 KB to hold a piece (256 KB from the pool),
    // a fraction of every payload below (a buffer of the payload's size before the pieces).
    private const long MostAllocated = 512 * 1024;

    private static readonly string s_ascii = new('a', LongText);

    // Two- and three-byte characters, and surrogate pairs at odd positions, so that some piece's last character would
    // be a pair's first if pieces were cut by length alone.
    private const string MixedUnit = "Zoë — naïve \U0001F600 ";
    private static readonly string s_mixed = "x" + string.Concat(Enumerable.Repeat(MixedUnit, LongText / 15));
    private static readonly char[] s_mixedChars = s_mixed.ToCharArray();

    private static readonly DateTime[] s_localDates = Dates(100_000, [5, 40_000, 99_999]);
    private static readonly DateTime[] s_lateLocalDates = Dates(100_000, [99_000]);

    private static DateTime[] Dates(int count, int[] local)
    {
        var dates = new DateTime[count];
        for (int i = 0; i < count; i++) dates[i] = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddSeconds(i);
        foreach (int i in local) dates[i] = new DateTime(2026, 6, 1, 12, 0, 0, DateTimeKind.Local).AddSeconds(i);
        return dates;
    }

    public static TheoryData<string> LongPayloads() => new(
    [
        "ASCII text", "mixed text", "chars", "attribute value", "comment", "CDATA", "element name", "attribute name",
        "DateTime items with local ones", "DateTime items with a late local one", "mixed text after a text the buffer grew for",
    ]);

    // Text the writer transcodes into its buffer before counting it over a stream (4 MB at most), which leaves room for
    // part of the next: that text is transcoded into the room until it is full, then counted.
    private static readonly string s_bufferedMixed = string.Concat(Enumerable.Repeat(MixedUnit, 1_300_000 / 15));
    private static readonly string s_longerMixed = string.Concat(Enumerable.Repeat(MixedUnit, 2_000_000 / 15));

    /// <summary>What comes before the payload's call, outside what is measured.</summary>
    private static void PrepareLongPayload(XmlDictionaryWriter w, string what)
    {
        if (what == "mixed text after a text the buffer grew for") w.WriteString(s_bufferedMixed);
    }

    private static void WriteLongPayload(XmlDictionaryWriter w, string what, string name)
    {
        switch (what)
        {
            case "ASCII text": w.WriteString(s_ascii); break;
            case "mixed text": w.WriteString(s_mixed); break;
            case "chars": w.WriteChars(s_mixedChars, 1, s_mixedChars.Length - 1); break;
            case "attribute value": w.WriteAttributeString("v", s_mixed); break;
            case "comment": w.WriteComment(s_mixed); break;
            case "CDATA": w.WriteCData(s_ascii); break;
            case "element name": w.WriteStartElement(name); w.WriteEndElement(); break;
            case "attribute name": w.WriteAttributeString(name, "v"); break;
            case "DateTime items with local ones": w.WriteArray(null, "d", null, s_localDates, 0, s_localDates.Length); break;
            case "mixed text after a text the buffer grew for": w.WriteString(s_longerMixed); break;
            case "DateTime items with a late local one": w.WriteArray(null, "d", null, s_lateLocalDates, 0, s_lateLocalDates.Length); break;
            default: throw new ArgumentOutOfRangeException(nameof(what));
        }
    }

    [Theory]
    [MemberData(nameof(LongPayloads))]
    public void A_long_payload_reaches_the_stream_in_its_call_through_a_bounded_buffer(string what)
    {
        // The name made before anything is measured (a name of mixed characters, a pair at the pieces' edge too).
        string name = "n" + s_mixed[..LongName].Replace(' ', '_').Replace('—', '-');
        byte[] Write(string factory, out long lengthAfterCall, out long allocated)
        {
            // Room for the document from the start: the stream allocates nothing while the call is measured.
            var stream = new MemoryStream(8 * 1024 * 1024);
            using (XmlDictionaryWriter w = Create(factory, stream))
            {
                // The payload's call on an open start tag (attributes) or in its content (the rest).
                w.WriteStartElement("a");
                w.Flush();
                PrepareLongPayload(w, what);
                long before = GC.GetAllocatedBytesForCurrentThread();
                WriteLongPayload(w, what, name);
                allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                lengthAfterCall = stream.Length;
                w.WriteEndElement();
            }
            return stream.ToArray();
        }

        byte[] inBox = Write("in-box", out long inBoxLength, out _);
        byte[] ours = Write("BinaryXml", out long ourLength, out long allocated);
        Assert.True(inBox.AsSpan().SequenceEqual(ours), $"{what}: the bytes differ from in-box's");
        // .NET's writer keeps at most its 512-byte buffer; the call's record ends a few bytes from the document's end
        // (an element's end, the root's end).
        long heldBack = ours.Length - ourLength;
        Assert.True(heldBack <= 16, $"{what}: {heldBack:N0} of {ours.Length:N0} bytes were not on the stream after the call (in-box: {ours.Length - inBoxLength:N0})");
        // After a text the buffer grew for, the part of the next transcoded into the buffer's room before it was
        // counted is copied into an array from the pool for the call (returned at its end): a first call allocates
        // that array, whose size is the room's, not the text's. The writer's own buffer does not grow either way.
        long most = what == "mixed text after a text the buffer grew for" ? 4 * 1024 * 1024 + MostAllocated : MostAllocated;
        Assert.True(allocated < most, $"{what}: the call allocated {allocated:N0} bytes");
    }

    /// <summary>
    /// With <see cref="BinaryXmlWriterOptions.AlwaysFoldEndElements"/> (no in-box counterpart) a long text's record stays
    /// in the buffer, so that its element's end folds into it: in-box's bytes with the record's type one more and its
    /// EndElement record gone.
    /// </summary>
    [Fact]
    public void With_AlwaysFoldEndElements_a_long_text_over_a_stream_still_folds_its_end_element()
    {
        var inBoxStream = new MemoryStream();
        using (XmlDictionaryWriter w = Create("in-box", inBoxStream))
        {
            w.WriteStartElement("a");
            w.WriteString(s_mixed);
            w.WriteEndElement();
        }
        byte[] inBox = inBoxStream.ToArray();
        var stream = new MemoryStream();
        using (var w = new BinaryXmlWriter(stream, options: new BinaryXmlWriterOptions { AlwaysFoldEndElements = true }))
        {
            w.WriteStartElement("a");
            w.WriteString(s_mixed);
            w.WriteEndElement();
        }
        byte[] expected = inBox[..^1];
        // The element's record (40 01 61), then the text's type byte.
        expected[3]++;
        Assert.Equal((byte)RecordType.Chars32Text, inBox[3]);
        Assert.True(expected.AsSpan().SequenceEqual(stream.ToArray()));
    }
}
