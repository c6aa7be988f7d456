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

    /// <summary>
    /// Whether every element and attribute prefix must be bound by a namespace declaration in scope, as .NET's
    /// reader requires. MC-NBFX itself does not check bindings (its examples use unbound prefixes); set this to
    /// <see langword="false"/> to read such documents. An unbound prefix then has an empty namespace. Default true.
    /// </summary>
    public bool RequireBoundPrefixes { get; init; } = true;
}
