using System.Buffers;
using System.Text;
using System.Text.Unicode;

namespace BinaryXml.Soap;

/// <summary>
/// The MC-NBFSE StringTable (MC-NBFSE 2.1) at the start of every msbinsession1 message: a MultiByteInt31 byte size,
/// then that many bytes of Strings. Each string gets the next session id (0, 1, 2, … for the whole session), written
/// in documents as the odd DictionaryString <c>2 × id + 1</c>.
/// </summary>
public static class SessionStringTable
{
    /// <summary>The quota unit: a string costs its MultiByteInt31 length prefix plus its UTF-8 bytes.</summary>
    public static int GetCost(string value)
    {
        int length = Encoding.UTF8.GetByteCount(value);
        return MultiByteInt31.GetByteCount(length) + length;
    }

    /// <summary>Writes a StringTable holding <paramref name="strings"/> (a single 00 byte when there are none).</summary>
    public static void Write(IBufferWriter<byte> output, IReadOnlyList<string> strings)
    {
        ArgumentNullException.ThrowIfNull(output);
        int size = 0;
        foreach (string s in strings) size += GetCost(s);
        Span<byte> span = output.GetSpan(MultiByteInt31.MaxLength + size);
        int n = MultiByteInt31.Write(span, size);
        foreach (string s in strings) n += BinaryXmlPrimitives.WriteString(span[n..], s);
        output.Advance(n);
    }

    /// <summary>
    /// Reads a StringTable: checks that its size fits the message, that every string fits the declared size and is
    /// valid UTF-8, and that the strings fill it exactly. Returns the strings and the size of the table.
    /// </summary>
    /// <exception cref="BinaryXmlException">The table is malformed.</exception>
    public static List<string> Read(ReadOnlySpan<byte> message, out int bytesConsumed)
    {
        OperationStatus status = MultiByteInt31.Decode(message, out int size, out int n);
        if (status == OperationStatus.NeedMoreData) throw new BinaryXmlException("The message ends inside the StringTable size", 0);
        if (status == OperationStatus.InvalidData) throw new BinaryXmlException("The StringTable size is not a valid MultiByteInt31", 0);
        if (size > message.Length - n) throw new BinaryXmlException($"The StringTable declares {size} bytes but the message has {message.Length - n} after it", 0);
        var strings = new List<string>();
        int p = n, end = n + size;
        while (p < end)
        {
            status = MultiByteInt31.Decode(message[p..end], out int length, out int m);
            if (status != OperationStatus.Done) throw new BinaryXmlException("A StringTable string's length is malformed or runs past the table", p);
            if (length > end - p - m) throw new BinaryXmlException($"A StringTable string of {length} bytes runs past the table's declared size", p);
            ReadOnlySpan<byte> utf8 = message.Slice(p + m, length);
            if (!Utf8.IsValid(utf8)) throw new BinaryXmlException("A StringTable string is not valid UTF-8", p + m);
            strings.Add(Encoding.UTF8.GetString(utf8));
            p += m + length;
        }
        bytesConsumed = end;
        return strings;
    }
}
