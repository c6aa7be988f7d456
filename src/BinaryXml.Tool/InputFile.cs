using System.Text;

namespace BinaryXml.Tool;

/// <summary>How input bytes are written in a file.</summary>
internal enum InputEncoding { Binary, Hex, Base64 }

/// <summary>Reads the bytes of a FILE argument (or standard input for "-") in binary, hex or base64.</summary>
internal static class InputFile
{
    public static byte[] Read(string path, InputEncoding encoding, Func<Stream> stdin)
    {
        byte[] raw;
        if (path == "-")
        {
            using var buffer = new MemoryStream();
            using Stream input = stdin();
            input.CopyTo(buffer);
            raw = buffer.ToArray();
        }
        else
        {
            raw = File.ReadAllBytes(path);
        }
        try
        {
            return encoding switch
            {
                InputEncoding.Hex => ParseHex(Encoding.UTF8.GetString(raw)),
                InputEncoding.Base64 => Convert.FromBase64String(Encoding.UTF8.GetString(raw).Trim()),
                _ => raw,
            };
        }
        catch (FormatException e)
        {
            throw new ToolException($"{path}: {e.Message}");
        }
    }

    /// <summary>Hex digits in pairs; white space anywhere and an optional 0x before each byte.</summary>
    public static byte[] ParseHex(string text)
    {
        var bytes = new List<byte>(text.Length / 2);
        foreach (string token in text.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries))
        {
            ReadOnlySpan<char> t = token.StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? token.AsSpan(2) : token;
            if (t.Length % 2 != 0) throw new FormatException($"'{token}' is not a whole number of hex bytes.");
            for (int i = 0; i < t.Length; i += 2)
            {
                if (!byte.TryParse(t.Slice(i, 2), System.Globalization.NumberStyles.HexNumber, null, out byte b))
                    throw new FormatException($"'{token}' is not hex.");
                bytes.Add(b);
            }
        }
        return bytes.ToArray();
    }
}
