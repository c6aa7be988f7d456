using System.Xml;

namespace BinaryXml.Tests;

/// <summary>
/// Quotas under which .NET's reader, reading a stream, cuts long text into several nodes: a MaxBytesPerRead window of 16
/// to 79 bytes, chosen by the document's length (so that a run meets every window), the other quotas unlimited.
/// </summary>
public static class StreamWindow
{
    public static XmlDictionaryReaderQuotas Quotas(int documentLength) => new()
    {
        MaxBytesPerRead = 16 + documentLength % 64,
        MaxDepth = int.MaxValue,
        MaxStringContentLength = int.MaxValue,
        MaxArrayLength = int.MaxValue,
        MaxNameTableCharCount = int.MaxValue,
    };
}
