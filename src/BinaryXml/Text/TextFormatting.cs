using System.Buffers;
using System.Buffers.Binary;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// How each text record reads as characters (MC-NBFX 2.2.3): .NET's <c>XmlConvert</c> forms, which are the
/// shortest round-trip for floats and doubles (<c>INF</c>, <c>-INF</c>, <c>NaN</c>, <c>-0</c>), RoundtripKind for
/// DateTime (errata E6: the time is always present) and xsd:duration for TimeSpan (errata E7).
/// </summary>
internal static class TextFormatting
{
    private static readonly SearchValues<char> s_xmlWhitespace = SearchValues.Create(" \t\r\n");

    /// <summary>Whether <paramref name="text"/> is XML white space only (space, tab, carriage return, line feed: what an XML parser reports as white space).</summary>
    public static bool IsXmlWhitespace(ReadOnlySpan<char> text) => text.IndexOfAnyExcept(s_xmlWhitespace) < 0;

    /// <summary>
    /// Formats a fixed-size, Chars, UnicodeChars or Bytes payload of a plain (even) text record type. Returns null when
    /// the payload is not a valid value of its type (a decimal with bad flags, a DateTime out of range).
    /// </summary>
    public static string? Format(RecordType type, ReadOnlySpan<byte> payload)
    {
        switch (type)
        {
            case RecordType.ZeroText: return "0";
            case RecordType.OneText: return "1";
            case RecordType.FalseText: return "false";
            case RecordType.TrueText: return "true";
            case RecordType.EmptyText: return string.Empty;
            case RecordType.BoolText: return payload[0] != 0 ? "true" : "false";
            case RecordType.Int8Text: return ((sbyte)payload[0]).ToString(CultureInfo.InvariantCulture);
            case RecordType.Int16Text: return BinaryPrimitives.ReadInt16LittleEndian(payload).ToString(CultureInfo.InvariantCulture);
            case RecordType.Int32Text: return BinaryPrimitives.ReadInt32LittleEndian(payload).ToString(CultureInfo.InvariantCulture);
            case RecordType.Int64Text: return BinaryPrimitives.ReadInt64LittleEndian(payload).ToString(CultureInfo.InvariantCulture);
            case RecordType.UInt64Text: return BinaryPrimitives.ReadUInt64LittleEndian(payload).ToString(CultureInfo.InvariantCulture);
            case RecordType.FloatText or RecordType.DoubleText or RecordType.DecimalText:
                Span<char> chars = stackalloc char[NumberLength];
                return TryFormatNumber(type, payload, chars, out int written) ? new string(chars[..written]) : null;
            case RecordType.DateTimeText:
                return BinaryXmlPrimitives.TryReadDateTime(payload, out DateTime dt) ? XmlConvert.ToString(dt, XmlDateTimeSerializationMode.RoundtripKind) : null;
            case RecordType.TimeSpanText: return XmlConvert.ToString(new TimeSpan(BinaryPrimitives.ReadInt64LittleEndian(payload)));
            case RecordType.UuidText: return new Guid(payload[..16]).ToString();
            case RecordType.UniqueIdText: return FormatUniqueId(new Guid(payload[..16]));
            case RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text:
                return DecodeUtf8(payload);
            case RecordType.UnicodeChars8Text or RecordType.UnicodeChars16Text or RecordType.UnicodeChars32Text:
                return Encoding.Unicode.GetString(payload);
            case RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text:
                return Convert.ToBase64String(payload);
            default:
                throw new ArgumentOutOfRangeException(nameof(type), type, "Not a self-contained text record type.");
        }
    }

    /// <summary>Room for any record's characters that <see cref="TryFormatNumber"/> writes (a decimal's 29 digits, sign and point; a double's 24 characters).</summary>
    public const int NumberLength = 48;

    /// <summary>
    /// The characters of a Boolean or number record (Zero, One, False, True, Bool, Int8–Int64, UInt64, Float, Double,
    /// Decimal) written into <paramref name="destination"/> (room for <see cref="NumberLength"/>), as .NET's
    /// <c>XmlConvert</c> forms them: floats and doubles their shortest round-trip form, <c>INF</c>, <c>-INF</c>,
    /// <c>NaN</c> and <c>-0</c>. False for any other record, and for a decimal with bad flags. The native reader's typed
    /// reads parse it without a string; <see cref="Format"/> makes the strings of floats, doubles and decimals from it
    /// (integers and Booleans there keep <c>ToString</c>, whose small integers' strings the runtime caches: the same
    /// forms, pinned by <c>NativeTypedReadTests.Integer_and_boolean_records_have_one_text_in_both_forms</c>).
    /// </summary>
    public static bool TryFormatNumber(RecordType type, ReadOnlySpan<byte> payload, Span<char> destination, out int written)
    {
        CultureInfo invariant = CultureInfo.InvariantCulture;
        switch (type)
        {
            case RecordType.ZeroText: return Copy("0", destination, out written);
            case RecordType.OneText: return Copy("1", destination, out written);
            case RecordType.FalseText: return Copy("false", destination, out written);
            case RecordType.TrueText: return Copy("true", destination, out written);
            case RecordType.BoolText: return Copy(payload[0] != 0 ? "true" : "false", destination, out written);
            case RecordType.Int8Text: return ((sbyte)payload[0]).TryFormat(destination, out written, default, invariant);
            case RecordType.Int16Text: return BinaryPrimitives.ReadInt16LittleEndian(payload).TryFormat(destination, out written, default, invariant);
            case RecordType.Int32Text: return BinaryPrimitives.ReadInt32LittleEndian(payload).TryFormat(destination, out written, default, invariant);
            case RecordType.Int64Text: return BinaryPrimitives.ReadInt64LittleEndian(payload).TryFormat(destination, out written, default, invariant);
            case RecordType.UInt64Text: return BinaryPrimitives.ReadUInt64LittleEndian(payload).TryFormat(destination, out written, default, invariant);
            case RecordType.FloatText: return TryFormatFloatingPoint(BinaryPrimitives.ReadSingleLittleEndian(payload), destination, out written);
            case RecordType.DoubleText: return TryFormatFloatingPoint(BinaryPrimitives.ReadDoubleLittleEndian(payload), destination, out written);
            case RecordType.DecimalText:
                written = 0;
                return BinaryXmlPrimitives.TryReadDecimal(payload, out decimal m) && m.TryFormat(destination, out written, default, invariant);
            default:
                written = 0;
                return false;
        }

        static bool Copy(string text, Span<char> destination, out int written)
        {
            written = text.Length;
            return text.TryCopyTo(destination);
        }
    }

    /// <summary>XmlConvert's form of a float or double: <c>INF</c>, <c>-INF</c>, else the shortest round-trip ("R", which gives <c>NaN</c> and <c>-0</c>).</summary>
    private static bool TryFormatFloatingPoint<T>(T value, Span<char> destination, out int written) where T : System.Numerics.IFloatingPointIeee754<T>
    {
        string? special = T.IsPositiveInfinity(value) ? "INF" : T.IsNegativeInfinity(value) ? "-INF" : null;
        if (special is null) return value.TryFormat(destination, out written, "R", CultureInfo.InvariantCulture);
        written = special.Length;
        return special.TryCopyTo(destination);
    }

    /// <summary>
    /// Every surrogate, U+D800 to U+DFFF, for a vectorised search of UTF-16 (<c>IndexOfAnyInRange</c> searches the same
    /// way, but boxes 96 bytes a call until the runtime compiles its caller again optimized).
    /// </summary>
    public static readonly SearchValues<char> Surrogates = SearchValues.Create(string.Create(0x800, 0xD800, static (range, first) =>
    {
        for (int i = 0; i < range.Length; i++) range[i] = (char)(first + i);
    }));

    /// <summary>
    /// Copies UTF-16 (little-endian) <paramref name="utf16le"/> into <paramref name="destination"/> (room for its
    /// characters) as characters: as it is in memory on a little-endian host.
    /// </summary>
    public static void CopyUtf16(ReadOnlySpan<byte> utf16le, Span<char> destination)
    {
        ReadOnlySpan<ushort> units = MemoryMarshal.Cast<byte, ushort>(utf16le);
        Span<ushort> target = MemoryMarshal.Cast<char, ushort>(destination);
        if (BitConverter.IsLittleEndian) units.CopyTo(target);
        else BinaryPrimitives.ReverseEndianness(units, target);
    }

    /// <summary>
    /// The characters of UTF-16 (little-endian) a reader checked for lone surrogates (or the rest of it after a value
    /// chunk): its units copied as they are on a little-endian host, where <see cref="Format"/>'s decoder, which
    /// replaces lone surrogates, takes several times as long.
    /// </summary>
    public static string DecodeCheckedUtf16(ReadOnlySpan<byte> utf16le)
        => BitConverter.IsLittleEndian ? new string(MemoryMarshal.Cast<byte, char>(utf16le)) : Encoding.Unicode.GetString(utf16le);

    /// <summary>
    /// The longest UTF-8 text <see cref="DecodeUtf8"/> transcodes through a pooled buffer: 4 MB, a buffer of 8 MB at
    /// most that <see cref="ArrayPool{T}.Shared"/> keeps until it trims unused arrays (.NET's reader allocates such a
    /// buffer on every read).
    /// </summary>
    private const int PooledDecodeBytes = 4 * 1024 * 1024;

    /// <summary>The longest UTF-8 text <see cref="DecodeUtf8"/> transcodes through a buffer on the stack: 256 bytes.</summary>
    private const int StackDecodeBytes = 256;

    /// <summary>
    /// Decodes UTF-8 text as <see cref="Encoding.UTF8"/> does, in one pass where that is faster (see
    /// <see cref="TryDecodeUtf8"/>); text over 4 MB, and text that is not valid UTF-8 (then with U+FFFD for each
    /// invalid sequence), go through <see cref="Encoding.UTF8"/>.
    /// </summary>
    public static string DecodeUtf8(ReadOnlySpan<byte> utf8)
        => utf8.Length <= PooledDecodeBytes && TryDecodeUtf8(utf8, out string? text) ? text : Encoding.UTF8.GetString(utf8);

    /// <summary>
    /// Decodes well-formed UTF-8, checking it as it goes: false, and no text, where the bytes are not well-formed (what
    /// <see cref="System.Text.Unicode.Utf8.IsValid(ReadOnlySpan{byte})"/> refuses, <c>Utf8.ToUtf16</c> without
    /// replacement refuses). ASCII text (found by a vector scan up to its first non-ASCII byte) is widened byte to
    /// character by <see cref="Encoding.Latin1"/>, which agrees with UTF-8 on ASCII and does not count the characters
    /// first (about 5 ns less than <c>Encoding.UTF8.GetString</c> on 11 to 200 ASCII bytes). Other text is transcoded
    /// into a buffer (it has at most as many characters as bytes) and the string copied from it, where
    /// <c>Encoding.UTF8.GetString</c> first counts the characters in a pass of its own, as slow as the transcoding on
    /// non-ASCII text. The buffer is on the stack up to 256 bytes, pooled from there to 4 MB; longer text is checked,
    /// then decoded by <see cref="Encoding.UTF8"/>.
    /// </summary>
    public static bool TryDecodeUtf8(ReadOnlySpan<byte> utf8, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? text)
    {
        text = null;
        if (Ascii.IsValid(utf8))
        {
            text = Encoding.Latin1.GetString(utf8);
        }
        else if (utf8.Length <= PooledDecodeBytes)
        {
            char[]? rented = null;
            Span<char> buffer = utf8.Length <= StackDecodeBytes
                ? stackalloc char[StackDecodeBytes]
                : rented = ArrayPool<char>.Shared.Rent(utf8.Length);
            if (System.Text.Unicode.Utf8.ToUtf16(utf8, buffer, out _, out int count, replaceInvalidSequences: false) == OperationStatus.Done)
                text = new string(buffer[..count]);
            if (rented is not null) ArrayPool<char>.Shared.Return(rented);
        }
        else if (System.Text.Unicode.Utf8.IsValid(utf8))
        {
            text = Encoding.UTF8.GetString(utf8);
        }
        return text is not null;
    }

    /// <summary>
    /// Appends text escaped as MC-NBFX 2.2.3.13.1 says: in content <c>&amp; &lt; &gt;</c>; in a double-quoted
    /// attribute value <c>&amp; &lt; &quot;</c>; characters XML does not allow at all as <c>&amp;#N;</c>. With
    /// <paramref name="exact"/>, also what an XML parser would normalize (a carriage return anywhere, a tab or line feed
    /// in an attribute value), each as .NET's <see cref="XmlWriter"/> writes it with <see cref="NewLineHandling.Entitize"/>
    /// (<c>&amp;#xD;</c>, <c>&amp;gt;</c> in attribute values too), so that XML read and written again is the same text.
    /// </summary>
    public static void AppendEscaped(StringBuilder sb, ReadOnlySpan<char> text, bool attribute, bool exact = false)
    {
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            switch (c)
            {
                case '&': sb.Append("&amp;"); continue;
                case '<': sb.Append("&lt;"); continue;
                case '>' when !attribute || exact: sb.Append("&gt;"); continue;
                case '"' when attribute: sb.Append("&quot;"); continue;
                case '\r' when exact: sb.Append("&#xD;"); continue;
                case '\t' when exact && attribute: sb.Append("&#x9;"); continue;
                case '\n' when exact && attribute: sb.Append("&#xA;"); continue;
            }
            if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                sb.Append(c).Append(text[i + 1]);
                i++;
                continue;
            }
            if (IsXmlChar(c)) sb.Append(c);
            else if (exact) sb.Append("&#x").Append(((int)c).ToString("X", CultureInfo.InvariantCulture)).Append(';');
            else sb.Append("&#").Append(((int)c).ToString(CultureInfo.InvariantCulture)).Append(';');
        }
    }

    /// <summary>XML 1.0 Char, for a BMP character that is not part of a surrogate pair.</summary>
    private static bool IsXmlChar(char c) => c is '\t' or '\n' or '\r' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);

    /// <summary><c>urn:uuid:</c> and the GUID in its "D" form, as <see cref="System.Xml.UniqueId.ToString"/>, in one string.</summary>
    private static string FormatUniqueId(Guid id) => string.Create(45, id, static (chars, g) =>
    {
        "urn:uuid:".CopyTo(chars);
        g.TryFormat(chars[9..], out _);
    });
}
