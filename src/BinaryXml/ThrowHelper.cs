using System.Diagnostics.CodeAnalysis;
using System.Globalization;

namespace BinaryXml;

/// <summary>Out-of-line throws, so that hot paths stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    public static void ThrowFormat(string reason, long offset) => throw new BinaryXmlException(reason, offset);

    [DoesNotReturn]
    public static T ThrowFormat<T>(string reason, long offset) => throw new BinaryXmlException(reason, offset);

    /// <summary>
    /// A buffer and a range of it given to a reader (or to an array write), checked as .NET's binary reader checks them:
    /// the buffer, the offset (not negative, within the buffer), then the count (not negative, within what is left).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public static void CheckBufferRange([NotNull] Array? buffer, int offset, int count, string bufferName = "buffer")
    {
        if (!IsRange(buffer, offset, count)) ThrowBufferRange(buffer, offset, count, bufferName, offsetWithinBuffer: true);
    }

    /// <summary>
    /// A buffer and a range of it given to a writer's text or binary write, checked as .NET's binary writer checks them:
    /// an offset past the end is not refused as such, but as a count over what is left (a negative space).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public static void CheckWriteRange([NotNull] Array? buffer, int offset, int count, string bufferName = "buffer")
    {
        if (!IsRange(buffer, offset, count)) ThrowBufferRange(buffer, offset, count, bufferName, offsetWithinBuffer: false);
    }

    /// <summary>Whether <paramref name="offset"/> and <paramref name="count"/> are a range of <paramref name="buffer"/>.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private static bool IsRange([NotNullWhen(true)] Array? buffer, int offset, int count)
        => buffer is not null && (uint)offset <= (uint)buffer.Length && (uint)count <= (uint)(buffer.Length - offset);

    /// <summary>The exception for a range the checks above refuse, in the order and words .NET uses.</summary>
    [DoesNotReturn]
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void ThrowBufferRange(Array? buffer, int offset, int count, string bufferName, bool offsetWithinBuffer)
    {
        ArgumentNullException.ThrowIfNull(buffer, bufferName);
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        if (offsetWithinBuffer && offset > buffer.Length) throw new ArgumentOutOfRangeException(nameof(offset), $"The specified offset exceeds the buffer size ({buffer.Length} bytes).");
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        throw new ArgumentOutOfRangeException(nameof(count), $"The specified size exceeds the remaining buffer space ({buffer.Length - offset} bytes).");
    }

    // Messages with values take a composite format and its arguments rather than an interpolated string: an
    // interpolated string builds its handler in the caller, whose frame (zeroed on every call) grows with each one.

    [DoesNotReturn]
    public static void ThrowFormat(string format, object? arg0, long offset)
        => throw new BinaryXmlException(string.Format(CultureInfo.InvariantCulture, format, arg0), offset);

    [DoesNotReturn]
    public static void ThrowFormat(string format, object? arg0, object? arg1, long offset)
        => throw new BinaryXmlException(string.Format(CultureInfo.InvariantCulture, format, arg0, arg1), offset);

    [DoesNotReturn]
    public static void ThrowFormat(string format, object? arg0, object? arg1, object? arg2, long offset)
        => throw new BinaryXmlException(string.Format(CultureInfo.InvariantCulture, format, arg0, arg1, arg2), offset);

    [DoesNotReturn]
    public static T ThrowFormat<T>(string format, object? arg0, long offset)
        => throw new BinaryXmlException(string.Format(CultureInfo.InvariantCulture, format, arg0), offset);

    [DoesNotReturn]
    public static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);

    [DoesNotReturn]
    public static void ThrowArgument(string message, string? paramName) => throw new ArgumentException(message, paramName);

    [DoesNotReturn]
    public static void ThrowInvalidOperation(string format, object? arg0)
        => throw new InvalidOperationException(string.Format(CultureInfo.InvariantCulture, format, arg0));

    [DoesNotReturn]
    public static void ThrowArgument(string format, object? arg0, string? paramName)
        => throw new ArgumentException(string.Format(CultureInfo.InvariantCulture, format, arg0), paramName);

    [DoesNotReturn]
    public static void ThrowArgument(string format, object? arg0, object? arg1, string? paramName)
        => throw new ArgumentException(string.Format(CultureInfo.InvariantCulture, format, arg0, arg1), paramName);

    [DoesNotReturn]
    public static void ThrowArgument(string format, object? arg0, object? arg1, object? arg2, string? paramName)
        => throw new ArgumentException(string.Format(CultureInfo.InvariantCulture, format, arg0, arg1, arg2), paramName);

    [DoesNotReturn]
    public static void ThrowObjectDisposed() => throw new ObjectDisposedException(nameof(BinaryXmlWriter));

    [DoesNotReturn]
    public static void ThrowWriterClosed() => throw new InvalidOperationException("The XmlWriter is closed.");

    /// <summary>A writer method called in a state that does not allow it, in .NET's words.</summary>
    [DoesNotReturn]
    public static void ThrowWrongState(string method, System.Xml.WriteState state)
        => throw new InvalidOperationException($"'{method}' cannot be called while WriteState is '{state}'.");
}
