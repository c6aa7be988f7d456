using System.Xml;

namespace BinaryXml;

/// <summary>
/// Thrown for malformed, truncated or disallowed binary XML input, unknown dictionary or session ids and exceeded
/// quotas. Derives from <see cref="XmlException"/> so that existing <c>catch (XmlException)</c> code keeps working.
/// </summary>
public sealed class BinaryXmlException : XmlException
{
    /// <summary>Creates an exception for a problem found at <paramref name="offset"/>.</summary>
    /// <param name="reason">What was wrong, without the offset.</param>
    /// <param name="offset">The byte offset in the input where the offending record or field starts.</param>
    public BinaryXmlException(string reason, long offset)
        : base($"{reason} (at byte offset {offset}).")
    {
        Reason = reason;
        Offset = offset;
    }

    /// <summary>Creates an exception with a cause.</summary>
    public BinaryXmlException(string reason, long offset, Exception? innerException)
        : base($"{reason} (at byte offset {offset}).", innerException)
    {
        Reason = reason;
        Offset = offset;
    }

    /// <summary>
    /// Creates an exception for a problem found at <paramref name="offset"/> while reading the node that starts at
    /// <paramref name="nodeOffset"/> (see <see cref="NodeOffset"/>).
    /// </summary>
    public BinaryXmlException(string reason, long offset, long nodeOffset, Exception? innerException)
        : this(reason, offset, innerException)
    {
        NodeOffset = nodeOffset;
    }

    /// <summary>The byte offset in the input where the offending record or field starts.</summary>
    public long Offset { get; }

    /// <summary>
    /// Where the node that was being read when the problem was found starts (the type byte of its first record: a
    /// start tag's element record, a text record, an EndElement…), which <see cref="Offset"/> may lie beyond (a field of
    /// that record, an attribute of that start tag); -1 when not known. <see cref="BinaryXmlText"/> sets it, and the
    /// decoders built on it (<see cref="Soap.BinaryMessageDecoder.ToXml"/>, <see cref="Soap.Nmf.NmfDecoder"/>) with
    /// the same base as <see cref="Offset"/>; a reader's own exceptions leave it to the reader's
    /// <see cref="BinaryXmlReader.BytesConsumed"/>.
    /// </summary>
    public long NodeOffset { get; } = -1;

    /// <summary>What was wrong, without the offset.</summary>
    public string Reason { get; }

    /// <summary>
    /// This failure as one of a larger input that holds the part it was found in at <paramref name="partOffset"/>:
    /// <see cref="Offset"/> and a known <see cref="NodeOffset"/> moved by it, the reason after
    /// <paramref name="context"/> if given ("context: reason"), this exception as the inner one.
    /// </summary>
    /// <param name="partOffset">Where the part starts in the larger input.</param>
    /// <param name="context">What the part is, or null.</param>
    public BinaryXmlException InLargerInput(long partOffset, string? context = null) => InLargerInput(partOffset + Offset, partOffset + NodeOffset, context);

    /// <summary>
    /// This failure of a part of a larger input, at <paramref name="offset"/> there (and <paramref name="nodeOffset"/>
    /// where it has a node offset): for a part whose bytes are not contiguous in the input.
    /// </summary>
    internal BinaryXmlException InLargerInput(long offset, long nodeOffset, string? context)
        => new(context is null ? Reason : $"{context}: {Reason}", offset, NodeOffset < 0 ? -1 : nodeOffset, this);
}
