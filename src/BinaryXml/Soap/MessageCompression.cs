using System.Buffers;
using System.IO.Compression;

namespace BinaryXml.Soap;

/// <summary>Compression of a whole encoded message, as WCF's <c>CompressionFormat</c> (the <c>+gzip</c> and <c>+deflate</c> media types).</summary>
public enum MessageCompression
{
    /// <summary>No compression.</summary>
    None,
    /// <summary>GZip (RFC 1952): media type suffix <c>+gzip</c>.</summary>
    GZip,
    /// <summary>Raw deflate (RFC 1951): media type suffix <c>+deflate</c>.</summary>
    Deflate,
}

/// <summary>Compresses and decompresses whole messages through <see cref="System.IO.Compression"/>.</summary>
public static class MessageCompressor
{
    /// <summary>Compresses <paramref name="message"/>.</summary>
    public static byte[] Compress(ReadOnlySpan<byte> message, MessageCompression compression)
    {
        if (compression == MessageCompression.None) return message.ToArray();
        var output = new MemoryStream();
        using (Stream z = compression == MessageCompression.GZip
            ? new GZipStream(output, CompressionLevel.Optimal, leaveOpen: true)
            : new DeflateStream(output, CompressionLevel.Optimal, leaveOpen: true))
        {
            z.Write(message);
        }
        return output.ToArray();
    }

    /// <summary>
    /// Decompresses a message, refusing to produce more than <paramref name="maxSize"/> bytes (a small input can
    /// expand enormously). Corrupt data or an oversized result throws <see cref="BinaryXmlException"/>.
    /// </summary>
    public static byte[] Decompress(ReadOnlySpan<byte> data, MessageCompression compression, int maxSize)
    {
        if (compression == MessageCompression.None) return data.ToArray();
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        byte[] input = data.ToArray();
        using Stream z = compression == MessageCompression.GZip
            ? new GZipStream(new MemoryStream(input), CompressionMode.Decompress)
            : new DeflateStream(new MemoryStream(input), CompressionMode.Decompress);
        var output = new ArrayBufferWriter<byte>(Math.Min(Math.Max(input.Length * 4, 256), maxSize + 1));
        try
        {
            while (true)
            {
                Span<byte> span = output.GetSpan(4096);
                int n = z.Read(span);
                if (n == 0) break;
                output.Advance(n);
                if (output.WrittenCount > maxSize)
                    throw new BinaryXmlException($"The {compression} data expands past the limit of {maxSize} bytes", 0);
            }
        }
        catch (InvalidDataException e)
        {
            throw new BinaryXmlException($"The {compression} data is corrupt: {e.Message}", 0, e);
        }
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Whether <paramref name="data"/> starts with the GZip magic bytes (1F 8B).</summary>
    public static bool LooksLikeGZip(ReadOnlySpan<byte> data) => data.Length >= 2 && data[0] == 0x1F && data[1] == 0x8B;
}

/// <summary>The media types of WCF's binary message encoding (dotnet/wcf <c>BinaryEncodingString</c>).</summary>
public static class BinaryMessageContentType
{
    /// <summary><c>application/soap+msbin1</c>: MC-NBFS messages without a session.</summary>
    public const string Binary = "application/soap+msbin1";

    /// <summary><c>application/soap+msbinsession1</c>: MC-NBFSE messages, each with a StringTable.</summary>
    public const string BinarySession = "application/soap+msbinsession1";

    /// <summary>The media type for a session mode and compression, e.g. <c>application/soap+msbin1+gzip</c>.</summary>
    public static string Get(bool session, MessageCompression compression = MessageCompression.None)
        => (session ? BinarySession : Binary) + compression switch
        {
            MessageCompression.GZip => "+gzip",
            MessageCompression.Deflate => "+deflate",
            _ => "",
        };

    /// <summary>Parses one of the six media types (parameters after ';' are ignored).</summary>
    public static bool TryParse(string contentType, out bool session, out MessageCompression compression)
    {
        ArgumentNullException.ThrowIfNull(contentType);
        string media = contentType.Split(';')[0].Trim().ToLowerInvariant();
        compression = MessageCompression.None;
        if (media.EndsWith("+gzip", StringComparison.Ordinal)) { compression = MessageCompression.GZip; media = media[..^5]; }
        else if (media.EndsWith("+deflate", StringComparison.Ordinal)) { compression = MessageCompression.Deflate; media = media[..^8]; }
        session = media == BinarySession;
        return session || media == Binary;
    }
}
