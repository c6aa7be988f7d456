using System.Globalization;
using System.Text;

namespace BinaryXml.Tests;

/// <summary>Hex strings as the fixtures write them: upper-case bytes separated by spaces.</summary>
public static class Hex
{
    public static byte[] Parse(string hex)
    {
        var bytes = new List<byte>();
        foreach (string part in hex.Split([' ', '\t', '\n', '\r'], StringSplitOptions.RemoveEmptyEntries))
        {
            string p = part.StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? part[2..] : part;
            for (int i = 0; i < p.Length; i += 2) bytes.Add(byte.Parse(p.AsSpan(i, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
        }
        return bytes.ToArray();
    }

    public static string Format(ReadOnlySpan<byte> bytes)
    {
        var sb = new StringBuilder(bytes.Length * 3);
        foreach (byte b in bytes)
        {
            if (sb.Length > 0) sb.Append(' ');
            sb.Append(b.ToString("X2", CultureInfo.InvariantCulture));
        }
        return sb.ToString();
    }
}
