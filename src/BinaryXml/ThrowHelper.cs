using System.Diagnostics.CodeAnalysis;

namespace BinaryXml;

/// <summary>Out-of-line throws, so that hot paths stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static void ThrowFormat(string reason, long offset) => throw new BinaryXmlException(reason, offset);

    [DoesNotReturn]
    public static T ThrowFormat<T>(string reason, long offset) => throw new BinaryXmlException(reason, offset);

    [DoesNotReturn]
    public static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);

    [DoesNotReturn]
    public static void ThrowArgument(string message, string? paramName) => throw new ArgumentException(message, paramName);

    [DoesNotReturn]
    public static void ThrowObjectDisposed() => throw new ObjectDisposedException(nameof(BinaryXmlWriter));

    [DoesNotReturn]
    public static void ThrowWriterClosed() => throw new InvalidOperationException("The writer is closed.");
}
