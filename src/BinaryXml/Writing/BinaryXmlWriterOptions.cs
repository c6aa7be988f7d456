namespace BinaryXml;

/// <summary>Options for <see cref="BinaryXmlWriter"/>.</summary>
public sealed class BinaryXmlWriterOptions
{
    /// <summary>The defaults: output byte-identical with <c>XmlDictionaryWriter.CreateBinaryWriter</c>.</summary>
    public static BinaryXmlWriterOptions Default { get; } = new();

    /// <summary>
    /// When <see langword="true"/>, an end element is always folded into the text record before it
    /// (<c>…WithEndElement</c>) whenever the writer still holds that record, instead of only when .NET's 512-byte
    /// buffer would still hold it. Output is then smaller but no longer byte-identical with .NET's writer.
    /// Default <see langword="false"/>.
    /// </summary>
    public bool AlwaysFoldEndElements { get; init; }

    /// <summary>
    /// Test hook: write arrays element by element with explicit little-endian conversion, the path a big-endian
    /// host takes, instead of one block copy. The bytes are the same either way.
    /// </summary>
    internal bool ForceElementwiseArrays { get; init; }
}
