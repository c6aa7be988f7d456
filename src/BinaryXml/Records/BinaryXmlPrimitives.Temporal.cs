using System.Buffers.Binary;

namespace BinaryXml;

public static partial class BinaryXmlPrimitives
{
    private const long TicksMask = 0x3FFFFFFFFFFFFFFF;

    /// <summary>
    /// Writes a DateTimeText payload: <see cref="DateTime.ToBinary"/> as 8 little-endian bytes (MC-NBFX 2.2.3.12).
    /// Kind bits: 0 unspecified, 1 UTC, 2 local; a local time is stored as its UTC instant with the local flag.
    /// </summary>
    public static int WriteDateTime(Span<byte> destination, DateTime value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, value.ToBinary());
        return 8;
    }

    /// <summary>
    /// Reads a DateTimeText payload with <see cref="DateTime.FromBinary"/> semantics (a local value is converted to
    /// this machine's zone); ticks outside the DateTime range are invalid.
    /// </summary>
    public static bool TryReadDateTime(ReadOnlySpan<byte> source, out DateTime value)
    {
        value = default;
        if (source.Length < 8) return false;
        long data = BinaryPrimitives.ReadInt64LittleEndian(source);
        long ticks = data & TicksMask;
        if (data >= 0)
        {
            // Kind 0 (unspecified) or 1 (UTC).
            if (ticks > DateTime.MaxValue.Ticks) return false;
            value = new DateTime(ticks, (data & ~TicksMask) == 0 ? DateTimeKind.Unspecified : DateTimeKind.Utc);
            return true;
        }
        try
        {
            value = DateTime.FromBinary(data);
            return true;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    /// <summary>Writes a TimeSpanText payload: the ticks as 8 little-endian bytes (MC-NBFX 2.2.3.24).</summary>
    public static int WriteTimeSpan(Span<byte> destination, TimeSpan value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, value.Ticks);
        return 8;
    }

    /// <summary>Reads a TimeSpanText payload.</summary>
    public static bool TryReadTimeSpan(ReadOnlySpan<byte> source, out TimeSpan value)
    {
        if (BinaryPrimitives.TryReadInt64LittleEndian(source, out long ticks)) { value = new TimeSpan(ticks); return true; }
        value = default;
        return false;
    }

    /// <summary>
    /// Writes a UuidText or UniqueIdText payload: 16 bytes in <see cref="Guid.ToByteArray()"/> order (Data1, Data2
    /// and Data3 little-endian, then Data4 as is) on every host (MC-NBFX 2.2.3.23, 2.2.3.25).
    /// </summary>
    public static int WriteGuid(Span<byte> destination, Guid value)
    {
        if (destination.Length < 16) throw new ArgumentException("The destination is shorter than 16 bytes.", nameof(destination));
        // A little-endian host stores a Guid in exactly this order.
        if (BitConverter.IsLittleEndian) Write16Bytes(destination, in value);
        else value.TryWriteBytes(destination);
        return 16;
    }

    /// <summary>
    /// Copies a 16-byte value's memory as two 8-byte halves: a 16-byte value passed in two registers is spilled as
    /// two 8-byte stores, which one 16-byte load cannot take forwarded, and stalls on.
    /// </summary>
    private static void Write16Bytes<T>(Span<byte> destination, in T value) where T : unmanaged
    {
        ReadOnlySpan<ulong> halves = System.Runtime.InteropServices.MemoryMarshal.Cast<T, ulong>(new ReadOnlySpan<T>(in value));
        System.Runtime.InteropServices.MemoryMarshal.Write(destination, in halves[0]);
        System.Runtime.InteropServices.MemoryMarshal.Write(destination.Slice(8), in halves[1]);
    }

    /// <summary>Reads a UuidText or UniqueIdText payload.</summary>
    public static bool TryReadGuid(ReadOnlySpan<byte> source, out Guid value)
    {
        if (source.Length < 16) { value = default; return false; }
        value = new Guid(source[..16]);
        return true;
    }
}
