using System.Diagnostics.CodeAnalysis;
using System.Xml;

namespace BinaryXml.Tests;

/// <summary>
/// The spec fixtures' private dictionary: the DictionaryString value N means "strN" (nbfx-format.md 16). Even N
/// resolves through this static dictionary (key N/2), odd N through <see cref="CreateReaderSession"/> (id N/2).
/// </summary>
public sealed class StrNDictionary : IXmlDictionary
{
    public static readonly StrNDictionary Instance = new();

    public bool TryLookup(string value, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        result = null;
        return false;
    }

    public bool TryLookup(int key, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        result = key >= 0 && key < 1 << 20 ? new XmlDictionaryString(this, "str" + (2 * key), key) : null;
        return result is not null;
    }

    public bool TryLookup(XmlDictionaryString value, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        result = null;
        return false;
    }

    /// <summary>A reader session where id k is "str(2k+1)", for the odd ids the fixtures use.</summary>
    public static XmlBinaryReaderSession CreateReaderSession()
    {
        var session = new XmlBinaryReaderSession();
        for (int id = 0; id < 1024; id++) session.Add(id, "str" + (2 * id + 1));
        return session;
    }

    /// <summary>A writer-side dictionary whose string "strN" (N even) has key N/2, so it is written as id N.</summary>
    public static XmlDictionary CreateWriterDictionary()
    {
        var d = new XmlDictionary();
        for (int n = 0; n < 2048; n += 2) d.Add("str" + n);
        return d;
    }
}
