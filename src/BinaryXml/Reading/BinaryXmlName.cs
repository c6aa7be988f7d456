using System.Buffers;
using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// A name, prefix or namespace read from binary XML without allocating: either inline UTF-8 bytes or a dictionary
/// string (MC-NBFX 2.1.3, 2.1.4).
/// </summary>
public readonly ref struct BinaryXmlName
{
    private readonly ReadOnlySpan<byte> _utf8;
    private readonly XmlDictionaryString? _dictionaryString;

    internal BinaryXmlName(ReadOnlySpan<byte> utf8)
    {
        _utf8 = utf8;
        _dictionaryString = null;
        DictionaryId = -1;
    }

    internal BinaryXmlName(int id, XmlDictionaryString value)
    {
        _utf8 = default;
        _dictionaryString = value;
        DictionaryId = id;
    }

    /// <summary>Whether the name is a dictionary string.</summary>
    public bool IsDictionaryString => _dictionaryString is not null;

    /// <summary>The wire id of a dictionary string (even: static dictionary, odd: session), or -1.</summary>
    public int DictionaryId { get; }

    /// <summary>The resolved dictionary string, or null for an inline name.</summary>
    public XmlDictionaryString? DictionaryString => _dictionaryString;

    /// <summary>The inline UTF-8 bytes; empty for a dictionary string.</summary>
    public ReadOnlySpan<byte> Utf8 => _utf8;

    /// <summary>Whether the name is empty.</summary>
    public bool IsEmpty => _dictionaryString is null ? _utf8.IsEmpty : _dictionaryString.Value.Length == 0;

    /// <summary>Compares with a string, without allocating.</summary>
    public bool ValueEquals(string? value)
    {
        if (value is null) return false;
        if (_dictionaryString is not null) return _dictionaryString.Value == value;
        return Utf8Equals(_utf8, value);
    }

    /// <summary>Compares with UTF-8 bytes.</summary>
    public bool ValueEquals(ReadOnlySpan<byte> utf8)
        => _dictionaryString is null ? _utf8.SequenceEqual(utf8) : ValueEqualsDictionary(utf8, _dictionaryString);

    /// <summary>Compares with another name by value.</summary>
    public bool ValueEquals(BinaryXmlName other)
    {
        if (_dictionaryString is not null && other._dictionaryString is not null) return _dictionaryString.Value == other._dictionaryString.Value;
        if (_dictionaryString is null && other._dictionaryString is null) return _utf8.SequenceEqual(other._utf8);
        return _dictionaryString is null ? ValueEqualsDictionary(_utf8, other._dictionaryString!) : ValueEqualsDictionary(other._utf8, _dictionaryString);
    }

    private static bool ValueEqualsDictionary(ReadOnlySpan<byte> utf8, XmlDictionaryString s) => Utf8Equals(utf8, s.Value);

    /// <summary>Whether UTF-8 bytes are the encoding of <paramref name="value"/> (never allocating; names are nearly always ASCII).</summary>
    internal static bool Utf8Equals(ReadOnlySpan<byte> utf8, ReadOnlySpan<char> value)
    {
        // A character outside ASCII takes more UTF-8 bytes than UTF-16 characters (2–3 for one, 4 for a pair): the
        // UTF-8 of a text is as long as the text only when it is all ASCII, and never shorter. Up to that length the
        // ASCII comparison answers; a longer one must be encoded to compare.
        if (utf8.Length <= value.Length) return AsciiText.Equals(utf8, value);
        // ASCII bytes are as many characters: more of them than the text has are another text.
        return !Ascii.IsValid(utf8) && EncodedEquals(utf8, value);

        static bool EncodedEquals(ReadOnlySpan<byte> utf8, ReadOnlySpan<char> value)
        {
            if (utf8.Length < value.Length || utf8.Length > value.Length * 3) return false;
            const int StackBytes = 256;
            byte[]? rented = utf8.Length <= StackBytes ? null : ArrayPool<byte>.Shared.Rent(utf8.Length);
            Span<byte> buffer = rented ?? stackalloc byte[StackBytes];
            // A string that is not valid UTF-16 (a lone surrogate) equals no valid UTF-8; one that needs more bytes than
            // the name has does not fit the buffer: both are unequal.
            bool equal = System.Text.Unicode.Utf8.FromUtf16(value, buffer[..utf8.Length], out _, out int written, replaceInvalidSequences: false) == OperationStatus.Done
                && written == utf8.Length && buffer[..written].SequenceEqual(utf8);
            if (rented is not null) ArrayPool<byte>.Shared.Return(rented);
            return equal;
        }
    }

    /// <summary>The name as a string (no allocation for dictionary strings). Invalid UTF-8 becomes U+FFFD here; the reader validates names it hands out.</summary>
    public override string ToString() => _dictionaryString?.Value ?? Encoding.UTF8.GetString(_utf8);
}
