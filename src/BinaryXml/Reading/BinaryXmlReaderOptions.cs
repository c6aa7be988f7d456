namespace BinaryXml;

/// <summary>Limits and settings for <see cref="BinaryXmlReader"/>.</summary>
public sealed class BinaryXmlReaderOptions
{
    /// <summary>The defaults: <see cref="MaxDepth"/> 32, as <c>XmlDictionaryReaderQuotas</c>.</summary>
    public static BinaryXmlReaderOptions Default { get; } = new();

    /// <summary>
    /// The deepest element nesting allowed (the root is depth 1). Exceeding it throws
    /// <see cref="BinaryXmlException"/>. Default 32.
    /// </summary>
    public int MaxDepth
    {
        get;
        init
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            field = value;
        }
    } = 32;
}
