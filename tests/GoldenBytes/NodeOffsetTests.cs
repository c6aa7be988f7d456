using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// <see cref="BinaryXmlException.NodeOffset"/>: where the node that was being read when a problem was found starts, as
/// the renderer (and the decoders built on it) report it, so that a tool names that node's record rather than the byte
/// at a field's offset.
/// </summary>
public sealed class NodeOffsetTests
{
    [Fact]
    public void A_field_deep_in_a_start_tag_is_reported_in_the_start_tags_node()
    {
        // <a x="v" y="…"> whose second attribute's value is a dictionary string with an id no dictionary defines.
        byte[] doc = [0x40, 0x01, (byte)'a', 0x04, 0x01, (byte)'x', 0x98, 0x01, (byte)'v', 0x04, 0x01, (byte)'y', 0xAA, 0xFE, 0x0F, 0x01];
        BinaryXmlException e = Assert.Throws<BinaryXmlException>(() => BinaryXmlText.ToXml(doc, NbfsDictionary.Instance));
        Assert.Equal(13, e.Offset);
        Assert.Equal(0, e.NodeOffset);
        // A reader's own exception leaves it to the reader.
        Assert.Equal(-1, Assert.Throws<BinaryXmlException>(() => Read(doc)).NodeOffset);
    }

    private static void Read(byte[] doc)
    {
        var r = new BinaryXmlReader(doc, NbfsDictionary.Instance);
        try
        {
            while (r.Read()) { }
        }
        finally
        {
            r.Dispose();
        }
    }

    /// <summary>
    /// Every byte of the msbin1 sample changed to several values: where rendering fails inside the input, the node it
    /// names starts at or before the offset, and the input cut there renders, or fails only for its end (everything
    /// before the node is whole).
    /// </summary>
    [Fact]
    public void The_node_of_a_failure_starts_where_the_input_before_it_is_whole()
    {
        byte[] sample = File.ReadAllBytes(Path.Combine(Samples.Folder, "msbin1-request.bin"));
        int failures = 0, inNode = 0;
        for (int i = 0; i < sample.Length; i++)
        {
            foreach (byte b in new byte[] { 0x00, 0x01, 0x03, 0x40, 0x56, 0x98, 0xAA, 0xFF, (byte)(sample[i] ^ 0x80) })
            {
                byte[] doc = (byte[])sample.Clone();
                doc[i] = b;
                BinaryXmlException? e = Record.Exception(() => BinaryXmlText.ToXml(doc, NbfsDictionary.Instance)) as BinaryXmlException;
                if (e is null || e.Offset >= doc.Length) continue;
                failures++;
                string what = $"byte {i} = {b:X2}: {e.Message}";
                Assert.True(e.NodeOffset >= 0 && e.NodeOffset <= e.Offset, what);
                if (e.NodeOffset < e.Offset) inNode++;
                Exception? before = Record.Exception(() => BinaryXmlText.ToXml(doc.AsSpan(0, (int)e.NodeOffset), NbfsDictionary.Instance));
                Assert.True(before is null || (before is BinaryXmlException cut && cut.Offset == e.NodeOffset && cut.Reason.StartsWith("Unexpected end of file", StringComparison.Ordinal)), $"{what}; cut there: {before?.Message}");
            }
        }
        // The sweep meets both kinds: failures at a node's first byte and within a node.
        Assert.True(failures > 500, failures.ToString());
        Assert.True(inNode > 100, inNode.ToString());
    }
}
