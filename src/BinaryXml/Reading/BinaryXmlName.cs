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

    /// <summary>Compares with a string, without allocating for dictionary strings.</summary>
    public bool ValueEquals(string? value)
    {
        if (value is null) return false;
        if (_dictionaryString is not null) return _dictionaryString.Value == value;
        if (_utf8.Length < value.Length || _utf8.Length > value.Length * 3) return false;
        Span<byte> buffer = value.Length <= 128 ? stackalloc byte[value.Length * 3] : new byte[Encoding.UTF8.GetMaxByteCount(value.Length)];
        return Encoding.UTF8.TryGetBytes(value, buffer, out int n) && buffer[..n].SequenceEqual(_utf8);
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

    private static bool ValueEqualsDictionary(ReadOnlySpan<byte> utf8, XmlDictionaryString s) => s.Value == Encoding.UTF8.GetString(utf8);

    /// <summary>The name as a string (no allocation for dictionary strings). Invalid UTF-8 becomes U+FFFD here; the reader validates names it hands out.</summary>
    public override string ToString() => _dictionaryString?.Value ?? Encoding.UTF8.GetString(_utf8);
}
