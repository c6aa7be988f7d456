using System.Buffers;
using System.Buffers.Text;

namespace BinaryXml;

/// <summary>
/// Base64 decoded as .NET's binary reader decodes it (its <c>Base64Encoding</c>): in blocks of four characters, a padded
/// block anywhere giving its one or two bytes, the unused bits of a padded block ignored. White space is not base64 here:
/// the readers take it out first where .NET's reader does. The one place of this rule for both readers.
/// </summary>
internal static class Base64Blocks
{
    private static readonly SearchValues<char> s_whitespace = SearchValues.Create(" \t\r\n");

    /// <summary>
    /// The blocks decoded in one step: up to the first with padding (at <paramref name="padding"/>, or none: -1), or to
    /// the end (<paramref name="length"/>). The platform's decoders take padding only at the end of what they decode.
    /// </summary>
    private static int RunLength(int padding, int length) => padding < 0 ? length : (padding / 4 + 1) * 4;

    /// <summary>
    /// Whether a run's decoding gave the bytes of all its characters as blocks. The platform's decoders pass over white
    /// space, which is not base64 here: a run with white space in it decodes, if at all, to at least one block's bytes
    /// fewer (its other characters are whole blocks), so that the count tells it without a search first.
    /// </summary>
    private static bool DecodedEveryBlock(int written, int runLength, char secondLast, char last)
        => written == runLength / 4 * 3 - (last != '=' ? 0 : secondLast != '=' ? 1 : 2);

    /// <summary>
    /// Decodes whole blocks of ASCII base64 into <paramref name="destination"/> (room for them); false when they do not
    /// decode, <paramref name="destination"/> then written in part.
    /// </summary>
    public static bool TryDecode(ReadOnlySpan<byte> ascii, Span<byte> destination, out int written)
    {
        written = 0;
        if (ascii.Length % 4 != 0) return false;
        while (!ascii.IsEmpty)
        {
            int run = RunLength(ascii.IndexOf((byte)'='), ascii.Length);
            ReadOnlySpan<byte> blocks = ascii[..run];
            // The vectorized decoder refuses a padded block's unused bits; Convert's rule, taken where it fails, ignores them.
            if ((Base64.DecodeFromUtf8(blocks, destination[written..], out _, out int n) != OperationStatus.Done
                    && !Convert.TryFromBase64String(System.Text.Encoding.ASCII.GetString(blocks), destination[written..], out n))
                || !DecodedEveryBlock(n, run, (char)blocks[^2], (char)blocks[^1]))
            {
                return false;
            }
            written += n;
            ascii = ascii[run..];
        }
        return true;
    }

    /// <summary>
    /// Decodes whole blocks of base64 characters into <paramref name="destination"/> (room for them); false when they do
    /// not decode, <paramref name="destination"/> then written in part.
    /// </summary>
    public static bool TryDecode(ReadOnlySpan<char> chars, Span<byte> destination, out int written)
    {
        written = 0;
        if (chars.Length % 4 != 0) return false;
        while (!chars.IsEmpty)
        {
            int run = RunLength(chars.IndexOf('='), chars.Length);
            ReadOnlySpan<char> blocks = chars[..run];
            if (!Convert.TryFromBase64Chars(blocks, destination[written..], out int n)
                || !DecodedEveryBlock(n, run, blocks[^2], blocks[^1])) return false;
            written += n;
            chars = chars[run..];
        }
        return true;
    }

    /// <summary>Takes XML's white space (space, tab, CR, LF) out of <paramref name="chars"/>; the number kept.</summary>
    public static int RemoveWhitespace(Span<char> chars)
    {
        int kept = 0;
        foreach (char c in chars)
        {
            if (!s_whitespace.Contains(c)) chars[kept++] = c;
        }
        return kept;
    }

    /// <summary>A value decoded whole, white space taken out first, as .NET's reader decodes a value; null when it is not base64.</summary>
    public static byte[]? DecodeWhole(ReadOnlySpan<char> text)
    {
        if (text.IndexOfAny(s_whitespace) >= 0)
        {
            char[] kept = text.ToArray();
            text = kept.AsSpan(0, RemoveWhitespace(kept));
        }
        if (text.Length % 4 != 0) return null;
        int padding = text.EndsWith("==") ? 2 : text.EndsWith("=") ? 1 : 0;
        byte[] bytes = new byte[text.Length / 4 * 3 - padding];
        if (!TryDecode(text, bytes, out int written)) return null;
        // Padded blocks before the last give fewer bytes than the length tells.
        return written == bytes.Length ? bytes : bytes.AsSpan(0, written).ToArray();
    }
}
