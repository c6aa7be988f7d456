using System.Buffers;

namespace BinaryXml;

/// <summary>
/// MultiByteInt31 (MC-NBFX 2.1.2): an unsigned 31-bit value stored seven bits per byte, least significant group
/// first, bit 7 set on every byte but the last.
/// </summary>
public static class MultiByteInt31
{
    /// <summary>The longest encoding: five bytes, the fifth carrying only the top three bits.</summary>
    public const int MaxLength = 5;

    /// <summary>The length of the shortest encoding of <paramref name="value"/> (1–5 bytes).</summary>
    public static int GetByteCount(int value)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        uint v = (uint)value;
        return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
    }

    /// <summary>Writes the shortest encoding of <paramref name="value"/> and returns its length.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative.</exception>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is too short.</exception>
    public static int Write(Span<byte> destination, int value)
    {
        // One byte (most ids, lengths and counts) inline; the rest, and every failure, out of line, so that a writer's
        // loop that inlines this keeps its budget for its own helpers.
        if ((uint)value < 0x80 && !destination.IsEmpty)
        {
            destination[0] = (byte)value;
            return 1;
        }
        return WriteLonger(destination, value);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static int WriteLonger(Span<byte> destination, int value)
    {
        if (!TryWrite(destination, value, out int written))
        {
            throw new ArgumentException("The destination is too short for the encoded value.", nameof(destination));
        }
        return written;
    }

    /// <summary>Writes the shortest encoding of <paramref name="value"/> if it fits.</summary>
    public static bool TryWrite(Span<byte> destination, int value, out int bytesWritten)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        uint v = (uint)value;
        int i = 0;
        while (v >= 0x80)
        {
            if ((uint)i >= (uint)destination.Length) { bytesWritten = 0; return false; }
            destination[i++] = (byte)(v | 0x80);
            v >>= 7;
        }
        if ((uint)i >= (uint)destination.Length) { bytesWritten = 0; return false; }
        destination[i++] = (byte)v;
        bytesWritten = i;
        return true;
    }

    /// <summary>
    /// Decodes a MultiByteInt31 as .NET's reader does: at most five bytes, the fifth at most 0x07; a non-minimal
    /// encoding such as <c>80 00</c> is accepted.
    /// </summary>
    /// <returns>
    /// <see cref="OperationStatus.Done"/>; <see cref="OperationStatus.NeedMoreData"/> when the input ends inside
    /// the value; <see cref="OperationStatus.InvalidData"/> when the fifth byte has any of bits 3–7 set.
    /// </returns>
    public static OperationStatus Decode(ReadOnlySpan<byte> source, out int value, out int bytesConsumed)
    {
        uint result = 0;
        for (int i = 0; i < MaxLength; i++)
        {
            if ((uint)i >= (uint)source.Length)
            {
                value = 0; bytesConsumed = 0;
                return OperationStatus.NeedMoreData;
            }
            uint b = source[i];
            if (i == MaxLength - 1)
            {
                if (b > 0x07)
                {
                    value = 0; bytesConsumed = 0;
                    return OperationStatus.InvalidData;
                }
                result |= b << 28;
                value = (int)result; bytesConsumed = MaxLength;
                return OperationStatus.Done;
            }
            result |= (b & 0x7F) << (7 * i);
            if (b < 0x80)
            {
                value = (int)result; bytesConsumed = i + 1;
                return OperationStatus.Done;
            }
        }
        value = 0; bytesConsumed = 0;
        return OperationStatus.InvalidData; // unreachable: the loop returns on the fifth byte
    }
}
