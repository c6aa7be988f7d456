using System.Diagnostics.CodeAnalysis;
using System.Xml;

namespace BinaryXml.Soap;

/// <summary>
/// The MC-NBFS static dictionary (MC-NBFS 2.1): the 487 strings WCF's binary message encoding refers to by even
/// DictionaryString ids. String <c>k</c> has key <c>k</c> and is written as wire id <c>2k</c>. As in .NET, 0xA2 is the
/// empty string and 0x1A8 has a leading space (nbfx-format.md errata E10).
/// </summary>
/// <remarks>
/// Like <see cref="XmlDictionary"/>, it matches an <see cref="XmlDictionaryString"/> only when the string belongs
/// to it: take the strings from <see cref="Instance"/> (<see cref="TryLookup(string, out XmlDictionaryString?)"/>)
/// to have writers use ids.
/// </remarks>
public sealed partial class NbfsDictionary : IXmlDictionary
{
    private readonly XmlDictionaryString[] _strings;
    private readonly Dictionary<string, XmlDictionaryString> _byValue;

    private NbfsDictionary()
    {
        string[] values = CreateStrings();
        _strings = new XmlDictionaryString[values.Length];
        _byValue = new Dictionary<string, XmlDictionaryString>(values.Length, StringComparer.Ordinal);
        for (int i = 0; i < values.Length; i++)
        {
            _strings[i] = new XmlDictionaryString(this, values[i], i);
            _byValue.TryAdd(values[i], _strings[i]);
        }
    }

    /// <summary>The shared instance (immutable, safe to use from any thread).</summary>
    public static NbfsDictionary Instance { get; } = new();

    /// <summary>The strings by key (<see cref="TryLookup(int, out XmlDictionaryString?)"/> indexes this array), for readers that index it in line.</summary>
    internal XmlDictionaryString[] Strings => _strings;

    /// <summary>The string with wire id <paramref name="wireId"/> (an even number below 2 × <see cref="Count"/>).</summary>
    public XmlDictionaryString GetByWireId(int wireId)
    {
        if ((wireId & 1) != 0 || wireId < 0 || wireId / 2 >= _strings.Length) throw new ArgumentOutOfRangeException(nameof(wireId));
        return _strings[wireId / 2];
    }

    /// <inheritdoc/>
    public bool TryLookup(string value, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        ArgumentNullException.ThrowIfNull(value);
        return _byValue.TryGetValue(value, out result);
    }

    /// <inheritdoc/>
    public bool TryLookup(int key, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        if ((uint)key < (uint)_strings.Length)
        {
            result = _strings[key];
            return true;
        }
        result = null;
        return false;
    }

    /// <inheritdoc/>
    public bool TryLookup(XmlDictionaryString value, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (value.Dictionary == this)
        {
            result = value;
            return true;
        }
        result = null;
        return false;
    }
}
