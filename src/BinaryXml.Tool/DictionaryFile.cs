using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Xml;

namespace BinaryXml.Tool;

/// <summary>
/// A private dictionary from a file of <c>id&lt;TAB&gt;string</c> lines with raw wire ids (decimal or 0x hex): even
/// ids form the static dictionary (key id/2), odd ids a reader session (id/2).
/// </summary>
internal sealed class DictionaryFile : IXmlDictionary
{
    private readonly Dictionary<int, XmlDictionaryString> _byKey = [];

    public XmlBinaryReaderSession? Session { get; private set; }

    public static DictionaryFile Load(string path)
    {
        var file = new DictionaryFile();
        int lineNumber = 0;
        foreach (string line in File.ReadLines(path))
        {
            lineNumber++;
            if (line.Length == 0 || line.StartsWith('#')) continue;
            int tab = line.IndexOf('\t');
            if (tab < 0) throw new FormatException($"{path}:{lineNumber}: expected 'id<TAB>string'.");
            string idText = line[..tab].Trim();
            bool ok = idText.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
                ? int.TryParse(idText.AsSpan(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out int id)
                : int.TryParse(idText, NumberStyles.None, CultureInfo.InvariantCulture, out id);
            if (!ok || id < 0) throw new FormatException($"{path}:{lineNumber}: '{idText}' is not a wire id.");
            string value = line[(tab + 1)..];
            if ((id & 1) == 0) file._byKey[id >> 1] = new XmlDictionaryString(file, value, id >> 1);
            else (file.Session ??= new XmlBinaryReaderSession()).Add(id >> 1, value);
        }
        return file;
    }

    public bool TryLookup(string value, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        result = _byKey.Values.FirstOrDefault(s => s.Value == value);
        return result is not null;
    }

    public bool TryLookup(int key, [NotNullWhen(true)] out XmlDictionaryString? result) => _byKey.TryGetValue(key, out result);

    public bool TryLookup(XmlDictionaryString value, [NotNullWhen(true)] out XmlDictionaryString? result)
    {
        result = value.Dictionary == this ? value : null;
        return result is not null;
    }
}
