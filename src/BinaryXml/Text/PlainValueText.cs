using System.Globalization;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace BinaryXml;

/// <summary>
/// Text in the plain form most numbers and booleans are written in ("42", "-12.5", "1e-3", "true"): ASCII that every
/// rule reads alike (XmlConvert's, .NET's binary reader's), so it is parsed from its UTF-8 directly, without
/// characters or a string. Both readers take their typed reads of UTF-8 text from here first; text of any other form
/// (white space around it, INF, an exponent in a decimal, an integer out of range) is false here and left to their
/// rules for characters.
/// </summary>
internal static class PlainValueText
{
    /// <summary>An int: an optional minus sign and digits, in range.</summary>
    public static bool TryParse(ReadOnlySpan<byte> utf8, out int value)
    {
        value = 0;
        return IsPlainNumber(utf8, fraction: false, exponent: false) && int.TryParse(utf8, NumberStyles.AllowLeadingSign, NumberFormatInfo.InvariantInfo, out value);
    }

    /// <summary>A long: an optional minus sign and digits, in range.</summary>
    public static bool TryParse(ReadOnlySpan<byte> utf8, out long value)
    {
        value = 0;
        return IsPlainNumber(utf8, fraction: false, exponent: false) && long.TryParse(utf8, NumberStyles.AllowLeadingSign, NumberFormatInfo.InvariantInfo, out value);
    }

    /// <summary>A decimal: an optional minus sign, digits and a point (no exponent, as XmlConvert's decimal takes none).</summary>
    public static bool TryParse(ReadOnlySpan<byte> utf8, out decimal value)
    {
        value = 0;
        return IsPlainNumber(utf8, fraction: true, exponent: false) && decimal.TryParse(utf8, NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint, NumberFormatInfo.InvariantInfo, out value);
    }

    /// <summary>A double: a plain number, of at most 15 digits without exponent as the quotient of its digits and a power of ten.</summary>
    public static bool TryParse(ReadOnlySpan<byte> utf8, out double value) => TryParseFloatingPoint(utf8, 15, out value);

    /// <summary>A float: a plain number, of at most 7 digits without exponent as the quotient of its digits and a power of ten.</summary>
    public static bool TryParse(ReadOnlySpan<byte> utf8, out float value) => TryParseFloatingPoint(utf8, 7, out value);

    /// <summary>
    /// <typeparamref name="T"/> (int, long, decimal, double, float or bool) by the overload of its type; false for any
    /// other type, whose text is left to the caller's rule.
    /// </summary>
    public static bool TryParse<T>(ReadOnlySpan<byte> utf8, out T value)
    {
        bool parsed;
        if (typeof(T) == typeof(int)) { parsed = TryParse(utf8, out int v); value = Unsafe.As<int, T>(ref v); }
        else if (typeof(T) == typeof(long)) { parsed = TryParse(utf8, out long v); value = Unsafe.As<long, T>(ref v); }
        else if (typeof(T) == typeof(decimal)) { parsed = TryParse(utf8, out decimal v); value = Unsafe.As<decimal, T>(ref v); }
        else if (typeof(T) == typeof(double)) { parsed = TryParse(utf8, out double v); value = Unsafe.As<double, T>(ref v); }
        else if (typeof(T) == typeof(float)) { parsed = TryParse(utf8, out float v); value = Unsafe.As<float, T>(ref v); }
        else if (typeof(T) == typeof(bool)) { parsed = TryParseBoolean(utf8, out bool v); value = Unsafe.As<bool, T>(ref v); }
        else { parsed = false; value = default!; }
        return parsed;
    }

    /// <summary>A boolean: exactly "true", "1", "false" or "0".</summary>
    public static bool TryParseBoolean(ReadOnlySpan<byte> utf8, out bool value)
    {
        value = utf8.SequenceEqual("true"u8) || utf8.SequenceEqual("1"u8);
        return value || utf8.SequenceEqual("false"u8) || utf8.SequenceEqual("0"u8);
    }

    /// <summary>Whether <paramref name="utf8"/> is an optional minus sign and digits, then (with <paramref name="fraction"/>) a point and digits, then (with <paramref name="exponent"/>) e or E, a sign and digits: at least one digit before the exponent.</summary>
    private static bool IsPlainNumber(ReadOnlySpan<byte> utf8, bool fraction, bool exponent)
    {
        int i = utf8.Length > 0 && utf8[0] == (byte)'-' ? 1 : 0;
        int digits = 0;
        while (i < utf8.Length && char.IsAsciiDigit((char)utf8[i])) { i++; digits++; }
        if (fraction && i < utf8.Length && utf8[i] == (byte)'.')
        {
            i++;
            while (i < utf8.Length && char.IsAsciiDigit((char)utf8[i])) { i++; digits++; }
        }
        if (digits == 0) return false;
        if (exponent && i < utf8.Length && (utf8[i] | 0x20) == (byte)'e')
        {
            i++;
            if (i < utf8.Length && utf8[i] is (byte)'+' or (byte)'-') i++;
            int exponentDigits = 0;
            while (i < utf8.Length && char.IsAsciiDigit((char)utf8[i])) { i++; exponentDigits++; }
            if (exponentDigits == 0) return false;
        }
        return i == utf8.Length;
    }

    // The floating-point style of a plain number: no white space, separators or currency.
    private const NumberStyles PlainNumber = NumberStyles.AllowLeadingSign | NumberStyles.AllowDecimalPoint | NumberStyles.AllowExponent;

    /// <summary>
    /// A plain number without exponent of at most <paramref name="maxDigits"/> digits, as most numbers are written
    /// ("0.37", "-12.5"): its digits as an integer, how many of them follow the point, and its sign. Such a number is
    /// the quotient of that integer and a power of ten; where both are exact in a floating-point type (up to 15 digits
    /// and 10^15 in a double, 7 digits and 10^7 in a float) their division rounds as parsing the text does (the fast
    /// path of floating-point parsers, Clinger's).
    /// </summary>
    private static bool TryReadShortDecimal(ReadOnlySpan<byte> utf8, int maxDigits, out ulong digits, out int scale, out bool negative)
    {
        negative = utf8.Length > 0 && utf8[0] == (byte)'-';
        digits = 0;
        scale = -1;
        int count = 0;
        for (int i = negative ? 1 : 0; i < utf8.Length; i++)
        {
            uint digit = (uint)(utf8[i] - '0');
            if (digit < 10)
            {
                if (++count > maxDigits) return false;
                digits = digits * 10 + digit;
                if (scale >= 0) scale++;
            }
            else if (utf8[i] != (byte)'.' || scale >= 0)
            {
                return false;
            }
            else
            {
                scale = 0;
            }
        }
        scale = Math.Max(scale, 0);
        return count > 0;
    }

    private static ReadOnlySpan<double> PowersOf10 => [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

    /// <summary>
    /// A double or float written as text: a short decimal (<see cref="TryReadShortDecimal"/>, of at most
    /// <paramref name="maxDigits"/> digits, those exact in <typeparamref name="T"/>) as the quotient of its digits and a
    /// power of ten, any other plain number by .NET's parser of <typeparamref name="T"/> on the UTF-8.
    /// </summary>
    private static bool TryParseFloatingPoint<T>(ReadOnlySpan<byte> utf8, int maxDigits, out T value) where T : struct, IFloatingPointIeee754<T>
    {
        if (TryReadShortDecimal(utf8, maxDigits, out ulong digits, out int scale, out bool negative))
        {
            value = T.CreateTruncating(digits) / T.CreateTruncating(PowersOf10[scale]);
            if (negative) value = -value;
            return true;
        }
        value = T.Zero;
        return IsPlainNumber(utf8, fraction: true, exponent: true) && T.TryParse(utf8, PlainNumber, NumberFormatInfo.InvariantInfo, out value);
    }
}
