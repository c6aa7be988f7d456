using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Unicode;

namespace BinaryXml;

/// <summary>
/// Stateless encoders and decoders for every MC-NBFX payload. They write to and read from spans, know nothing
/// about documents, and are the single source of truth for the byte layouts: the writer, the reader and the tool
/// all go through them. Multi-byte values are little-endian on every host (MC-NBFX 2.1).
/// </summary>
/// <remarks>
/// <c>Write*</c> methods require a destination large enough for the payload (the documented size) and return the
/// number of bytes written. <c>TryRead*</c> methods return <see langword="false"/> when the source is too short or
/// the payload is invalid; they never throw on any input.
/// </remarks>
public static partial class BinaryXmlPrimitives
{
    /// <summary>A strict UTF-8 encoding: no BOM, throws on lone surrogates, as .NET's binary writer uses.</summary>
    internal static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    // ---- Strings and names (MC-NBFX 2.1.3) -----------------------------------------------------------------

    /// <summary>The size of a String (MultiByteInt31 byte count, then UTF-8) holding <paramref name="utf8Length"/> bytes.</summary>
    public static int GetStringSize(int utf8Length) => MultiByteInt31.GetByteCount(utf8Length) + utf8Length;

    /// <summary>Writes a String: MultiByteInt31 byte count, then the UTF-8 bytes.</summary>
    public static int WriteString(Span<byte> destination, ReadOnlySpan<byte> utf8)
    {
        int n = MultiByteInt31.Write(destination, utf8.Length);
        utf8.CopyTo(destination[n..]);
        return n + utf8.Length;
    }

    /// <summary>Writes a String from UTF-16 text, failing on lone surrogates.</summary>
    /// <exception cref="ArgumentException">The text has a lone surrogate or the destination is too short.</exception>
    public static int WriteString(Span<byte> destination, ReadOnlySpan<char> text)
    {
        int length = StrictUtf8.GetByteCount(text);
        int n = MultiByteInt31.Write(destination, length);
        if (Utf8.FromUtf16(text, destination[n..], out _, out int written, replaceInvalidSequences: false) != OperationStatus.Done)
        {
            throw new ArgumentException("The destination is too short for the encoded string.", nameof(destination));
        }
        return n + written;
    }

    /// <summary>Reads a String: returns its UTF-8 bytes (not validated) and the total size consumed.</summary>
    public static bool TryReadString(ReadOnlySpan<byte> source, out ReadOnlySpan<byte> utf8, out int bytesConsumed)
    {
        if (MultiByteInt31.Decode(source, out int length, out int n) == OperationStatus.Done && length <= source.Length - n)
        {
            utf8 = source.Slice(n, length);
            bytesConsumed = n + length;
            return true;
        }
        utf8 = default;
        bytesConsumed = 0;
        return false;
    }

    /// <summary>Reads a DictionaryString (MC-NBFX 2.1.4): a MultiByteInt31 id.</summary>
    public static bool TryReadDictionaryString(ReadOnlySpan<byte> source, out int id, out int bytesConsumed)
        => MultiByteInt31.Decode(source, out id, out bytesConsumed) == OperationStatus.Done;

    // ---- Text record length headers (MC-NBFX 2.2.3.13–2.2.3.18, 2.2.3.28–2.2.3.30) --------------------------

    /// <summary>
    /// Chooses the 8-, 16- or 32-bit form of a Chars, Bytes or UnicodeChars record for a payload of
    /// <paramref name="length"/> bytes, as .NET does: &lt; 256, &lt; 65536, else 32-bit.
    /// </summary>
    /// <param name="baseType"><see cref="RecordType.Chars8Text"/>, <see cref="RecordType.Bytes8Text"/> or <see cref="RecordType.UnicodeChars8Text"/>.</param>
    /// <param name="length">The payload size in bytes.</param>
    public static RecordType GetSizedTextType(RecordType baseType, int length)
        => length < 0x100 ? baseType : length < 0x10000 ? baseType + 2 : baseType + 4;

    /// <summary>The size of the length field (1, 2 or 4) of a sized text record type (either form).</summary>
    public static int GetLengthFieldSize(RecordType type)
    {
        // Each family is three pairs of types (8-, 16-, 32-bit lengths): Chars 0x98, Bytes 0x9E, UnicodeChars 0xB6.
        uint t = (uint)type & 0xFE;
        uint inFamily = t - 0x98 < 6 ? t - 0x98 : t - 0x9E < 6 ? t - 0x9E : t - 0xB6 < 6 ? t - 0xB6 : uint.MaxValue;
        if (inFamily == uint.MaxValue) ThrowNotSized(type);
        return 1 << (int)(inFamily >> 1);
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowNotSized(RecordType type)
        => throw new ArgumentOutOfRangeException(nameof(type), type, "Not a Chars, Bytes or UnicodeChars record.");

    /// <summary>Writes a sized text record header (type byte and length field) and returns its size.</summary>
    public static int WriteSizedTextHeader(Span<byte> destination, RecordType type, int length)
    {
        destination[0] = (byte)type;
        switch (GetLengthFieldSize(type))
        {
            case 1: destination[1] = checked((byte)length); return 2;
            case 2: BinaryPrimitives.WriteUInt16LittleEndian(destination[1..], checked((ushort)length)); return 3;
            default: BinaryPrimitives.WriteInt32LittleEndian(destination[1..], length); return 5;
        }
    }

    /// <summary>
    /// Reads the length field of a sized text record (the bytes after the type byte). A negative 32-bit length is
    /// invalid, as in .NET's reader.
    /// </summary>
    public static bool TryReadLength(ReadOnlySpan<byte> source, int lengthFieldSize, out int length)
    {
        length = 0;
        if (source.Length < lengthFieldSize) return false;
        switch (lengthFieldSize)
        {
            case 1: length = source[0]; return true;
            case 2: length = BinaryPrimitives.ReadUInt16LittleEndian(source); return true;
            default:
                length = BinaryPrimitives.ReadInt32LittleEndian(source);
                return length >= 0;
        }
    }

    // ---- Bool (MC-NBFX 2.2.3.27) ---------------------------------------------------------------------------

    /// <summary>Writes a BoolText payload: one byte, 0 or 1.</summary>
    public static int WriteBoolean(Span<byte> destination, bool value) { destination[0] = value ? (byte)1 : (byte)0; return 1; }

    /// <summary>Reads a BoolText payload. Like .NET's reader, any non-zero byte is <see langword="true"/>.</summary>
    public static bool TryReadBoolean(ReadOnlySpan<byte> source, out bool value)
    {
        if (source.IsEmpty) { value = false; return false; }
        value = source[0] != 0;
        return true;
    }

    // ---- QNameDictionaryText (MC-NBFX 2.2.3.31) -------------------------------------------------------------

    /// <summary>Writes a QNameDictionaryText payload: the prefix letter index 0–25, then a MultiByteInt31 id.</summary>
    public static int WriteQNameDictionary(Span<byte> destination, char prefixLetter, int id)
    {
        if (!char.IsAsciiLetterLower(prefixLetter)) throw new ArgumentOutOfRangeException(nameof(prefixLetter));
        destination[0] = (byte)(prefixLetter - 'a');
        return 1 + MultiByteInt31.Write(destination[1..], id);
    }

    /// <summary>Reads a QNameDictionaryText payload; a prefix index of 26 or more is invalid.</summary>
    public static bool TryReadQNameDictionary(ReadOnlySpan<byte> source, out char prefixLetter, out int id, out int bytesConsumed)
    {
        prefixLetter = '\0'; id = 0; bytesConsumed = 0;
        if (source.IsEmpty || source[0] >= 26) return false;
        if (MultiByteInt31.Decode(source[1..], out id, out int n) != OperationStatus.Done) return false;
        prefixLetter = (char)('a' + source[0]);
        bytesConsumed = 1 + n;
        return true;
    }

    // ---- Array header (MC-NBFX 2.3.3) -----------------------------------------------------------------------

    /// <summary>Whether <paramref name="type"/> may be the value type of an Array record, and its item size.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public static bool IsArrayItemType(RecordType type, out int itemSize)
    {
        // The ten item types (Bool, Int16, Int32, Int64, Float, Double, Decimal, DateTime, TimeSpan, Uuid, each in its
        // …WithEndElement form) lie between 0x8B and 0xB5: their sizes by type, 0 for every other type.
        uint index = (uint)type - (uint)RecordType.Int16TextWithEndElement;
        itemSize = index < (uint)ArrayItemSizes.Length ? ArrayItemSizes[(int)index] : 0;
        return itemSize != 0;
    }

    private static ReadOnlySpan<byte> ArrayItemSizes =>
    [
        2, 0, 4, 0, 8, 0, 4, 0, 8, 0, 16, 0, 8, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 8, 0, 16, 0, 0, 0, 1,
    ];

    /// <summary>Writes the part of an Array record after its element: EndElement, the value type byte, the count.</summary>
    public static int WriteArrayHeader(Span<byte> destination, RecordType itemType, int count)
    {
        if (!IsArrayItemType(itemType, out _)) throw new ArgumentOutOfRangeException(nameof(itemType));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        return WriteArrayHeaderUnchecked(destination, itemType, count);
    }

    /// <summary><see cref="WriteArrayHeader"/> for the writer, whose item type and count are valid already.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int WriteArrayHeaderUnchecked(Span<byte> destination, RecordType itemType, int count)
    {
        destination[0] = (byte)RecordType.EndElement;
        destination[1] = (byte)itemType;
        return 2 + MultiByteInt31.Write(destination[2..], count);
    }

    /// <summary>
    /// Reads the value type byte and count of an Array record (the bytes after its EndElement) and checks that
    /// <c>count × item size</c> fits in what follows. A count of zero or an item type outside MC-NBFX 2.3.3 is invalid.
    /// </summary>
    public static bool TryReadArrayHeader(ReadOnlySpan<byte> source, out RecordType itemType, out int count, out int bytesConsumed)
    {
        itemType = 0; count = 0; bytesConsumed = 0;
        if (source.IsEmpty || !IsArrayItemType((RecordType)source[0], out int size)) return false;
        if (MultiByteInt31.Decode(source[1..], out count, out int n) != OperationStatus.Done || count <= 0) return false;
        if ((long)count * size > source.Length - 1 - n) return false;
        itemType = (RecordType)source[0];
        bytesConsumed = 1 + n;
        return true;
    }
}
