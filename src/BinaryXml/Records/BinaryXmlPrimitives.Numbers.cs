using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace BinaryXml;

public static partial class BinaryXmlPrimitives
{
    /// <summary>Writes an Int16Text payload (2 bytes).</summary>
    public static int WriteInt16(Span<byte> destination, short value) { BinaryPrimitives.WriteInt16LittleEndian(destination, value); return 2; }

    /// <summary>Writes an Int32Text payload (4 bytes).</summary>
    public static int WriteInt32(Span<byte> destination, int value) { BinaryPrimitives.WriteInt32LittleEndian(destination, value); return 4; }

    /// <summary>Writes an Int64Text payload (8 bytes).</summary>
    public static int WriteInt64(Span<byte> destination, long value) { BinaryPrimitives.WriteInt64LittleEndian(destination, value); return 8; }

    /// <summary>Writes a UInt64Text payload (8 bytes).</summary>
    public static int WriteUInt64(Span<byte> destination, ulong value) { BinaryPrimitives.WriteUInt64LittleEndian(destination, value); return 8; }

    /// <summary>Writes a FloatText payload (4 bytes, IEEE-754 binary32; NaN payload bits are kept).</summary>
    public static int WriteSingle(Span<byte> destination, float value) { BinaryPrimitives.WriteSingleLittleEndian(destination, value); return 4; }

    /// <summary>Writes a DoubleText payload (8 bytes, IEEE-754 binary64).</summary>
    public static int WriteDouble(Span<byte> destination, double value) { BinaryPrimitives.WriteDoubleLittleEndian(destination, value); return 8; }

    /// <summary>
    /// Writes a DecimalText payload: the four 32-bit words <c>flags, hi, lo, mid</c>, little-endian (the in-memory
    /// System.Decimal layout; MC-NBFX 2.2.3.11). The scale is kept: 1.0m and 1m differ on the wire.
    /// </summary>
    public static int WriteDecimal(Span<byte> destination, decimal value)
    {
        if (destination.Length < 16) throw new ArgumentException("The destination is shorter than 16 bytes.", nameof(destination));
        if (BitConverter.IsLittleEndian)
        {
            // A decimal is laid out as the OLE DECIMAL that DecimalText stores (flags, hi 32, lo 64).
            Write16Bytes(destination, in value);
            return 16;
        }
        Span<int> bits = stackalloc int[4];
        decimal.GetBits(value, bits); // lo, mid, hi, flags
        BinaryPrimitives.WriteInt32LittleEndian(destination, bits[3]);
        BinaryPrimitives.WriteInt32LittleEndian(destination[4..], bits[2]);
        BinaryPrimitives.WriteInt32LittleEndian(destination[8..], bits[0]);
        BinaryPrimitives.WriteInt32LittleEndian(destination[12..], bits[1]);
        return 16;
    }

    /// <summary>
    /// Reads the payload of an integer record (Zero, One, Int8–Int64, UInt64; the plain, even type) as a 64-bit value,
    /// with <paramref name="isUInt64Above"/> set for a UInt64 above <see cref="long.MaxValue"/>; false for other records.
    /// The payload holds the record's fixed size (validated when the record was read).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    internal static bool TryReadIntegerRecord(RecordType type, ReadOnlySpan<byte> payload, out long value, out bool isUInt64Above)
    {
        isUInt64Above = false;
        switch (type)
        {
            case RecordType.ZeroText: value = 0; return true;
            case RecordType.OneText: value = 1; return true;
            case RecordType.Int8Text: value = (sbyte)payload[0]; return true;
            case RecordType.Int16Text: value = BinaryPrimitives.ReadInt16LittleEndian(payload); return true;
            case RecordType.Int32Text: value = BinaryPrimitives.ReadInt32LittleEndian(payload); return true;
            case RecordType.Int64Text: value = BinaryPrimitives.ReadInt64LittleEndian(payload); return true;
            case RecordType.UInt64Text:
                ulong u = BinaryPrimitives.ReadUInt64LittleEndian(payload);
                isUInt64Above = u > long.MaxValue;
                value = (long)u;
                return true;
            default: value = 0; return false;
        }
    }

    /// <summary>Reads an Int8Text payload.</summary>
    public static bool TryReadInt8(ReadOnlySpan<byte> source, out sbyte value)
    {
        if (source.IsEmpty) { value = 0; return false; }
        value = (sbyte)source[0];
        return true;
    }

    /// <summary>Reads an Int16Text payload.</summary>
    public static bool TryReadInt16(ReadOnlySpan<byte> source, out short value) => BinaryPrimitives.TryReadInt16LittleEndian(source, out value);

    /// <summary>Reads an Int32Text payload.</summary>
    public static bool TryReadInt32(ReadOnlySpan<byte> source, out int value) => BinaryPrimitives.TryReadInt32LittleEndian(source, out value);

    /// <summary>Reads an Int64Text payload.</summary>
    public static bool TryReadInt64(ReadOnlySpan<byte> source, out long value) => BinaryPrimitives.TryReadInt64LittleEndian(source, out value);

    /// <summary>Reads a UInt64Text payload.</summary>
    public static bool TryReadUInt64(ReadOnlySpan<byte> source, out ulong value) => BinaryPrimitives.TryReadUInt64LittleEndian(source, out value);

    /// <summary>Reads a FloatText payload.</summary>
    public static bool TryReadSingle(ReadOnlySpan<byte> source, out float value)
    {
        if (source.Length < 4) { value = 0; return false; }
        value = BinaryPrimitives.ReadSingleLittleEndian(source);
        return true;
    }

    /// <summary>Reads a DoubleText payload.</summary>
    public static bool TryReadDouble(ReadOnlySpan<byte> source, out double value)
    {
        if (source.Length < 8) { value = 0; return false; }
        value = BinaryPrimitives.ReadDoubleLittleEndian(source);
        return true;
    }

    /// <summary>
    /// Reads a DecimalText payload. Unlike .NET's reader (which reinterprets the bytes unchecked), a payload whose
    /// flags word has reserved bits set or a scale above 28 is rejected.
    /// </summary>
    public static bool TryReadDecimal(ReadOnlySpan<byte> source, out decimal value)
    {
        value = 0;
        if (source.Length < 16) return false;
        int flags = BinaryPrimitives.ReadInt32LittleEndian(source);
        if (!IsValidDecimalFlags(flags)) return false;
        int hi = BinaryPrimitives.ReadInt32LittleEndian(source[4..]);
        int lo = BinaryPrimitives.ReadInt32LittleEndian(source[8..]);
        int mid = BinaryPrimitives.ReadInt32LittleEndian(source[12..]);
        value = new decimal(lo, mid, hi, flags < 0, (byte)((flags >> 16) & 0xFF));
        return true;
    }

    /// <summary>Whether a DecimalText payload's flags are a decimal's: the sign bit, a scale of 0 to 28, nothing else.</summary>
    private static bool IsValidDecimalFlags(int flags) => (flags & 0x7F00FFFF) == 0 && ((flags >> 16) & 0xFF) <= 28;

    /// <summary>
    /// Copies an Array record's DecimalText payloads (<paramref name="items"/>) to a decimal array's bytes
    /// (<paramref name="destination"/>), from the first up to the first with invalid flags (the rule of
    /// <see cref="TryReadDecimal"/>), checked as they are copied; returns how many were. On a little-endian host an item
    /// with valid flags (flags, hi, lo, mid) is its value as a decimal holds it in memory.
    /// </summary>
    internal static int CopyValidDecimals(ReadOnlySpan<byte> items, Span<byte> destination)
    {
        Debug.Assert(BitConverter.IsLittleEndian);
        if (destination.Length < items.Length) throw new ArgumentException("The destination is shorter than the items.", nameof(destination));
        int count = items.Length / 16;
        int i = 0;
        if (Vector256.IsHardwareAccelerated)
        {
            // Two items a vector: the flags are the first of each item's four ints; the other lanes mask to zero. (Four
            // items a 512-bit vector made the copy twice as slow: run 97, its loads and stores mostly split cache lines.)
            Vector256<int> invalidBits = Vector256.Create(0x7F00FFFF, 0, 0, 0, 0x7F00FFFF, 0, 0, 0);
            Vector256<int> scaleBits = Vector256.Create(0x00FF0000, 0, 0, 0, 0x00FF0000, 0, 0, 0);
            Vector256<int> maxScale = Vector256.Create(28 << 16);
            ref byte from = ref MemoryMarshal.GetReference(items);
            ref byte to = ref MemoryMarshal.GetReference(destination);
            // Four vectors (eight items) a step, tested together, as CopyPlainDateTimes does; from the step that holds an
            // invalid item, a vector at a time, then item by item.
            for (; i <= count - 8; i += 8)
            {
                nuint at = (nuint)(16 * i);
                Vector256<int> a = Vector256.LoadUnsafe(ref from, at).AsInt32(), b = Vector256.LoadUnsafe(ref from, at + 32).AsInt32();
                Vector256<int> c = Vector256.LoadUnsafe(ref from, at + 64).AsInt32(), d = Vector256.LoadUnsafe(ref from, at + 96).AsInt32();
                Vector256<int> invalid = ((a | b | c | d) & invalidBits) | Vector256.GreaterThan(a & scaleBits, maxScale) | Vector256.GreaterThan(b & scaleBits, maxScale)
                    | Vector256.GreaterThan(c & scaleBits, maxScale) | Vector256.GreaterThan(d & scaleBits, maxScale);
                if (invalid != Vector256<int>.Zero) break;
                a.AsByte().StoreUnsafe(ref to, at);
                b.AsByte().StoreUnsafe(ref to, at + 32);
                c.AsByte().StoreUnsafe(ref to, at + 64);
                d.AsByte().StoreUnsafe(ref to, at + 96);
            }
            for (; i <= count - 2; i += 2)
            {
                Vector256<int> v = Vector256.LoadUnsafe(ref from, (nuint)(16 * i)).AsInt32();
                if (((v & invalidBits) | Vector256.GreaterThan(v & scaleBits, maxScale)) != Vector256<int>.Zero) break;
                v.AsByte().StoreUnsafe(ref to, (nuint)(16 * i));
            }
        }
        for (; i < count; i++)
        {
            if (!IsValidDecimalFlags(BinaryPrimitives.ReadInt32LittleEndian(items[(16 * i)..]))) return i;
            items.Slice(16 * i, 16).CopyTo(destination[(16 * i)..]);
        }
        return count;
    }
}
