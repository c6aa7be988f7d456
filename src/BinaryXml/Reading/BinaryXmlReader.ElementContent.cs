using System.Diagnostics;
using System.Text;

namespace BinaryXml;

public ref partial struct BinaryXmlReader
{
    // ---- ReadElementContentAs…: an element with one value, in one call -----------------------------------------
    // From the element's StartElement token to its EndElement: what Read, Get… and Read give, and where they leave
    // the reader. A fixed-size record closing the element (what writers write for a typed value) is taken in one step.

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetBoolean"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as bool (as <see cref="GetBoolean"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public bool ReadElementContentAsBoolean() => ReadElementContent<bool, BooleanGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetInt32"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as int (as <see cref="GetInt32"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public int ReadElementContentAsInt32() => ReadElementContent<int, Int32Getter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetInt64"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as long (as <see cref="GetInt64"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public long ReadElementContentAsInt64() => ReadElementContent<long, Int64Getter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetUInt64"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as ulong (as <see cref="GetUInt64"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public ulong ReadElementContentAsUInt64() => ReadElementContent<ulong, UInt64Getter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetSingle"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as float (as <see cref="GetSingle"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public float ReadElementContentAsSingle() => ReadElementContent<float, SingleGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetDouble"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as double (as <see cref="GetDouble"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public double ReadElementContentAsDouble() => ReadElementContent<double, DoubleGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetDecimal"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as decimal (as <see cref="GetDecimal"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public decimal ReadElementContentAsDecimal() => ReadElementContent<decimal, DecimalGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetDateTime"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as DateTime (as <see cref="GetDateTime"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public DateTime ReadElementContentAsDateTime() => ReadElementContent<DateTime, DateTimeGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetTimeSpan"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as TimeSpan (as <see cref="GetTimeSpan"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public TimeSpan ReadElementContentAsTimeSpan() => ReadElementContent<TimeSpan, TimeSpanGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's value as <see cref="GetGuid"/> reads it and moves to the
    /// element's EndElement (the next <see cref="Read"/> goes on after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than one value (a child element, two values; comments are passed over).</exception>
    /// <exception cref="FormatException">The value cannot be read as Guid (as <see cref="GetGuid"/>), or the element is empty.</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public Guid ReadElementContentAsGuid() => ReadElementContent<Guid, GuidGetter>();

    /// <summary>
    /// On a StartElement token: reads the element's content as text (<see cref="GetString"/> of each value, joined; an
    /// empty element is the empty string) and moves to the element's EndElement (the next <see cref="Read"/> goes on
    /// after the element). Attributes not read are passed over.
    /// </summary>
    /// <exception cref="InvalidOperationException">The reader is not on a StartElement (or is on an Array record's), or
    /// the element holds something other than values (a child element; comments are passed over).</exception>
    /// <exception cref="BinaryXmlException">The input is malformed.</exception>
    public string ReadElementContentAsString()
    {
        StartElementContent();
        // Character text closing the element, decoded and checked in one pass.
        if (TryReadCharsTextClosingElement(int.MaxValue, out string? text)) return text;
        if (TryPeekFixedTextClosingElement(out int start, out int size))
        {
            EnterFixedTextClosingElement(start, size);
            return ExitFixedTextClosingElement(GetString());
        }
        ReadContentToken();
        if (_s._tokenType == BinaryXmlTokenType.EndElement) return string.Empty;
        RequireContentValue();
        text = GetString();
        ReadContentToken();
        if (_s._tokenType == BinaryXmlTokenType.EndElement) return text;
        var joined = new StringBuilder(text);
        do
        {
            RequireContentValue();
            joined.Append(GetString());
            ReadContentToken();
        }
        while (_s._tokenType != BinaryXmlTokenType.EndElement);
        return joined.ToString();
    }

    /// <summary>The next token of an element's content other than a comment (XmlReader's content reads pass comments over too).</summary>
    private void ReadContentToken()
    {
        do Read();
        while (_s._tokenType == BinaryXmlTokenType.Comment);
    }

    private T ReadElementContent<T, TGetter>() where TGetter : struct, IValueGetter<T>
    {
        StartElementContent();
        // On a start tag nothing is pending and the element is open (depth 1 or more), and StartElementContent has
        // passed over the attributes: the content's first record comes next, if any input remains.
        ReaderState s = _s;
        ReadOnlySpan<byte> data = _data;
        int start = s._pos;
        Debug.Assert(s._pending == PendingStep.None && s._depth > 0);
        if ((uint)start < (uint)data.Length && IsFixedTextClosingElement(data, start, out int size))
        {
            Debug.Assert(TryPeekFixedTextClosingElement(out int peeked, out int peekedSize) && peeked == start && peekedSize == size);
            // A typed record closing the element is converted straight from its payload, and the reader moves to the
            // end tag. A record the type does not take is made the Text token, so that Get… fails on it as Read would.
            if (TryPassFixedTextClosingElement<T, TGetter>(s, data, start, size, out T record)) return record;
            EnterFixedTextClosingElement(start, size);
            return ExitFixedTextClosingElement(TGetter.Get(in this));
        }
        // Plain text closing the element ("42", "-0.37", "true": PlainValueText), within the MaxStringContentLength
        // quota Read holds text to, is parsed from its UTF-8 and the reader moves to the end tag, as Read, Get… and
        // Read give it (the getters take plain text first, the same rule).
        if (TryReadPlainTextClosingElement(s._maxStringContentLength, out T plain)) return plain;
        ReadContentToken();
        if (_s._tokenType == BinaryXmlTokenType.EndElement)
            throw new FormatException($"The element ending at byte offset {_s._tokenStart} is empty: it has no value to read as {typeof(T).Name}.");
        RequireContentValue();
        T value = TGetter.Get(in this);
        ReadContentToken();
        if (_s._tokenType != BinaryXmlTokenType.EndElement) ThrowNotOneValue();
        return value;
    }

    /// <summary>Checks that the reader is on a StartElement (not an Array record's) and passes over its attributes (validated with the start tag).</summary>
    private void StartElementContent()
    {
        if (_s._tokenType != BinaryXmlTokenType.StartElement || _s._isArray)
            throw new InvalidOperationException($"ReadElementContentAs… reads an element from its StartElement token, not from {(_s._isArray && _s._tokenType == BinaryXmlTokenType.StartElement ? "an Array record's" : "a " + _s._tokenType + " token")}.");
        if (_s._phase == ReaderPhase.Attributes) _s._attrIndex = _s._attrCount;
    }

    /// <summary>
    /// Makes the fixed-size record closing the element that <see cref="TryPeekFixedTextClosingElement"/> found the
    /// current Text token, as <see cref="Read"/> would (such a record has nothing to check but its size).
    /// <see cref="ExitFixedTextClosingElement"/> then moves to its end.
    /// </summary>
    private void EnterFixedTextClosingElement(int start, int size)
    {
        ReaderState s = _s;
        byte type = _data[start];
        s._phase = ReaderPhase.Content;
        s._tokenStart = start;
        s._recordType = type;
        s._valueType = (byte)(type & 0xFE);
        s._valueStart = start + 1;
        s._valueLength = size;
        EnterTextToken(start + 1 + size, withEnd: true);
    }

    /// <summary>After the value of the Text token <see cref="EnterFixedTextClosingElement"/> made was read: the end it implies.</summary>
    private T ExitFixedTextClosingElement<T>(T value)
    {
        EmitEndElement();
        return value;
    }

    private readonly void RequireContentValue()
    {
        if (_s._tokenType != BinaryXmlTokenType.Text) ThrowNotOneValue();
    }

    private readonly void ThrowNotOneValue()
        => throw new InvalidOperationException($"ReadElementContentAs… reads an element holding one value; this one holds a {_s._tokenType} token at byte offset {_s._tokenStart}.");

    /// <summary>
    /// How a ReadElementContentAs… reads its value: from a typed record closing the element (the Get… method's rule for
    /// typed records), or from the current Text token with the Get… method. Static members of a struct, so that each
    /// read's code is specialized.
    /// </summary>
    private interface IValueGetter<T> : IFixedTextRead<T>
    {
        static abstract T Get(scoped in BinaryXmlReader reader);
    }

    private struct BooleanGetter : IValueGetter<bool>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out bool value) => TryReadBooleanRecord(record, payload, out value);

        public static bool Get(scoped in BinaryXmlReader reader) => reader.GetBoolean();
    }

    private struct Int32Getter : IValueGetter<int>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out int value) => TryReadInt32Record(record, payload, out value);

        public static int Get(scoped in BinaryXmlReader reader) => reader.GetInt32();
    }

    private struct Int64Getter : IValueGetter<long>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out long value) => TryReadInt64Record(record, payload, out value);

        public static long Get(scoped in BinaryXmlReader reader) => reader.GetInt64();
    }

    private struct UInt64Getter : IValueGetter<ulong>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out ulong value) => TryReadUInt64Record(record, payload, out value);

        public static ulong Get(scoped in BinaryXmlReader reader) => reader.GetUInt64();
    }

    private struct SingleGetter : IValueGetter<float>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out float value) => TryReadSingleRecord(record, payload, out value);

        public static float Get(scoped in BinaryXmlReader reader) => reader.GetSingle();
    }

    private struct DoubleGetter : IValueGetter<double>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out double value) => TryReadDoubleRecord(record, payload, out value);

        public static double Get(scoped in BinaryXmlReader reader) => reader.GetDouble();
    }

    private struct DecimalGetter : IValueGetter<decimal>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out decimal value) => TryReadDecimalRecord(record, payload, out value);

        public static decimal Get(scoped in BinaryXmlReader reader) => reader.GetDecimal();
    }

    private struct DateTimeGetter : IValueGetter<DateTime>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out DateTime value) => TryReadDateTimeRecord(record, payload, out value);

        public static DateTime Get(scoped in BinaryXmlReader reader) => reader.GetDateTime();
    }

    private struct TimeSpanGetter : IValueGetter<TimeSpan>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out TimeSpan value) => TryReadTimeSpanRecord(record, payload, out value);

        public static TimeSpan Get(scoped in BinaryXmlReader reader) => reader.GetTimeSpan();
    }

    private struct GuidGetter : IValueGetter<Guid>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out Guid value) => TryReadGuidRecord(record, payload, out value);

        public static Guid Get(scoped in BinaryXmlReader reader) => reader.GetGuid();
    }
}
