using System.Text;

namespace BinaryXml.Tool;

/// <summary>
/// Text from the input made safe to print on one line of a terminal: control characters (C0, DEL and C1, among them
/// the line breaks and the escape characters that start terminal commands) written as <c>\xNN</c>.
/// </summary>
internal static class Printable
{
    public static string Escape(string s)
    {
        if (!s.AsSpan().ContainsAnyInRange('\0', '\x1F') && !s.AsSpan().ContainsAnyInRange('\x7F', '\x9F')) return s;
        var sb = new StringBuilder(s.Length + 8);
        foreach (char c in s)
        {
            if (c < 0x20 || c is >= '\x7F' and <= '\x9F') sb.Append($"\\x{(int)c:X2}");
            else sb.Append(c);
        }
        return sb.ToString();
    }
}
