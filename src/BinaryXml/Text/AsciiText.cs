using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;

namespace BinaryXml;

/// <summary>Comparisons of UTF-8 input with strings, for the names and namespaces the readers test.</summary>
internal static class AsciiText
{
    /// <summary>
    /// Whether <paramref name="utf8"/> holds exactly the ASCII characters of <paramref name="value"/> (false where a
    /// byte is not ASCII), as <see cref="Ascii.Equals(ReadOnlySpan{byte}, ReadOnlySpan{char})"/>. Most names are 1 to
    /// 16 characters, which the runtime compares one by one after tests for longer text: they are compared here one by
    /// one (up to 3), as two overlapping words (4 to 7) or as two vectors (8 to 16) of bytes widened to characters.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool Equals(ReadOnlySpan<byte> utf8, ReadOnlySpan<char> value)
    {
        int n = utf8.Length;
        if (n != value.Length) return false;
        ref byte bytes = ref MemoryMarshal.GetReference(utf8);
        ref ushort chars = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        if ((uint)(n - 4) > 12) return n < 4 ? ShortEquals(ref bytes, ref chars, n) : Ascii.Equals(utf8, value);
        if (n >= 8)
        {
            ulong head = Unsafe.ReadUnaligned<ulong>(ref bytes), tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref bytes, n - 8));
            return ((head | tail) & 0x8080808080808080) == 0
                && Vector128.WidenLower(Vector128.CreateScalarUnsafe(head).AsByte()) == Vector128.LoadUnsafe(ref chars)
                && Vector128.WidenLower(Vector128.CreateScalarUnsafe(tail).AsByte()) == Vector128.LoadUnsafe(ref chars, (nuint)(n - 8));
        }
        uint headQuad = Unsafe.ReadUnaligned<uint>(ref bytes), tailQuad = Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref bytes, n - 4));
        return ((headQuad | tailQuad) & 0x80808080) == 0
            && Widen(headQuad) == Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref chars))
            && Widen(tailQuad) == Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref chars, n - 4)));
    }

    /// <summary>Up to three bytes against as many characters, one by one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool ShortEquals(ref byte bytes, ref ushort chars, int n)
    {
        for (int i = 0; i < n; i++)
        {
            uint b = Unsafe.Add(ref bytes, i);
            if (b >= 0x80 || b != Unsafe.Add(ref chars, i)) return false;
        }
        return true;
    }

    /// <summary>Four bytes widened to four characters, as one word.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Widen(uint quad) => Vector128.WidenLower(Vector128.CreateScalarUnsafe(quad).AsByte()).AsUInt64().ToScalar();
}
