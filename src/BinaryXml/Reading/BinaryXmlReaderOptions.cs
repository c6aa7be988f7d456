namespace BinaryXml;

/// <summary>
/// Limits and settings for <see cref="BinaryXmlReader"/>. The defaults are <c>XmlDictionaryReaderQuotas</c>'s; every
/// limit is checked before the memory it guards is allocated, and exceeding one throws
/// <see cref="BinaryXmlException"/> naming the quota and the offset.
/// </summary>
public sealed class BinaryXmlReaderOptions
{
    /// <summary>The defaults: MaxDepth 32, MaxStringContentLength 8,192, MaxArrayLength 16,384, MaxBytesPerRead 4,096.</summary>
    public static BinaryXmlReaderOptions Default { get; } = new();

    /// <summary>No limits (input from a trusted source): every quota at <see cref="int.MaxValue"/>.</summary>
    public static BinaryXmlReaderOptions Trusted { get; } = new()
    {
        MaxDepth = int.MaxValue,
        MaxStringContentLength = int.MaxValue,
        MaxArrayLength = int.MaxValue,
        MaxBytesPerRead = int.MaxValue,
        MaxNameTableCharCount = int.MaxValue,
    };

    /// <summary>The deepest element nesting allowed (the root is depth 1). Default 32.</summary>
    public int MaxDepth { get; init => field = Positive(value); } = 32;

    /// <summary>The most characters in one text record (Chars, UnicodeChars, a comment). Default 8,192.</summary>
    public int MaxStringContentLength { get; init => field = Positive(value); } = 8192;

    /// <summary>The most items in an Array record, and the most bytes in a Bytes record. Default 16,384.</summary>
    public int MaxArrayLength { get; init => field = Positive(value); } = 16384;

    /// <summary>The most bytes of attribute records one start tag may have. Default 4,096.</summary>
    public int MaxBytesPerRead { get; init => field = Positive(value); } = 4096;

    /// <summary>
    /// The most characters of distinct names. <see cref="BinaryXmlReader"/> keeps no name table, so it cannot exceed
    /// this; <see cref="BinaryXmlDictionaryReader"/> enforces it on its name table. Default 16,384.
    /// </summary>
    public int MaxNameTableCharCount { get; init => field = Positive(value); } = 16384;

    /// <summary>
    /// Whether every element and attribute prefix must be bound by a namespace declaration in scope, as .NET's
    /// reader requires. MC-NBFX itself does not check bindings (its examples use unbound prefixes); set this to
    /// <see langword="false"/> to read such documents. An unbound prefix then has an empty namespace. Default true.
    /// </summary>
    public bool RequireBoundPrefixes { get; init; } = true;

    private static int Positive(int value)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
        return value;
    }
}
