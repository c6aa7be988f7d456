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

    /// <summary>The byte offset in the input where the offending record or field starts.</summary>
    public long Offset { get; }

    /// <summary>What was wrong, without the offset.</summary>
    public string Reason { get; }
}
