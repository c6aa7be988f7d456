using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    /// <summary>Writes TrueText or FalseText (BoolText appears only in arrays).</summary>
    public void WriteValue(bool value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatBooleanRecord(BeginTypedTextNode(), value));
    }

    /// <summary>Writes the smallest of ZeroText, OneText, Int8Text, Int16Text and Int32Text that holds the value.</summary>
    public void WriteValue(int value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatInt32Record(BeginTypedTextNode(), value));
    }

    /// <summary>Writes the int rules when the value fits in 32 bits, else Int64Text.</summary>
    public void WriteValue(long value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatInt64Record(BeginTypedTextNode(), value));
    }

    /// <summary>Writes the long rules up to <see cref="long.MaxValue"/>, UInt64Text above.</summary>
    public void WriteValue(ulong value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatUInt64Record(BeginTypedTextNode(), value));
    }

    /// <summary>
    /// Writes a float with the current .NET rule: an integral value within the Int16 range uses the int rules
    /// (so −0 becomes ZeroText), anything else FloatText with its exact bits (dotnet-behaviour 2.11).
    /// </summary>
    public void WriteValue(float value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatSingleRecord(BeginTypedTextNode(), value));
    }

    /// <summary>Writes a double: when it converts to float exactly, the float rule; otherwise DoubleText.</summary>
    public void WriteValue(double value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatDoubleRecord(BeginTypedTextNode(), value));
    }

    /// <summary>Writes DecimalText (no compaction; the scale is kept).</summary>
    public void WriteValue(decimal value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatDecimalRecord(BeginTypedTextNode(), value));
    }

    /// <summary>
    /// Starts a typed value; returns whether its text record is to be written. Inside an element, with no attribute
    /// open, no base64 bytes held back and no xmlns records to write (the common case), that is a few compares;
    /// otherwise <see cref="BeginValueInAnyState"/> checks the state, and inside an attribute collects the value's text.
    /// </summary>
    private bool BeginValue<T>(T value)
    {
        if (InPlainContent)
        {
            _writeState = WriteState.Content;
            return true;
        }
        return BeginValueInAnyState(value);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private bool BeginValueInAnyState<T>(T value)
    {
        ThrowIfClosed();
        FlushBase64();
        if (_attributeValue is not null) AppendAttributeText(AttributeText(value));
        if (IsXmlnsAttribute) return false;
        StartContent();
        return true;
    }

    /// <summary>
    /// A typed value's text inside an attribute, as .NET's writer renders it. Chosen here by type rather than passed in
    /// as a delegate: the delegate's cached static was loaded and tested on every value written, and its IL took
    /// inlining budget from the callers' loops.
    /// </summary>
    private static string AttributeText<T>(T value) => value switch
    {
        bool v => XmlConvert.ToString(v),
        int v => XmlConvert.ToString(v),
        long v => XmlConvert.ToString(v),
        ulong v => XmlConvert.ToString(v),
        float v => XmlConvert.ToString(v),
        double v => XmlConvert.ToString(v),
        decimal v => XmlConvert.ToString(v),
        DateTime v => XmlConvert.ToString(v, XmlDateTimeSerializationMode.RoundtripKind),
        TimeSpan v => XmlConvert.ToString(v),
        Guid v => XmlConvert.ToString(v),
        UniqueIdGuid v => new UniqueId(v.Value).ToString(),
        UniqueId v => v.ToString(),
        _ => throw new System.Diagnostics.UnreachableException($"No attribute text for {typeof(T)}."),
    };

    /// <summary>A GUID written as a <see cref="UniqueId"/> (<see cref="WriteUniqueId(Guid)"/>): its text is <c>urn:uuid:…</c>.</summary>
    private readonly record struct UniqueIdGuid(Guid Value);

    // ---- The record chosen for each typed value, as .NET's writer chooses it (dotnet-behaviour 2.11) ------------
    // Each writes the record's type byte and payload at the start of the destination (MaxTypedRecordSize bytes at
    // least) and returns its size; WriteValue writes it as content, WriteElementValue with its element's end folded in.

    /// <summary>The largest typed text record: a type byte and 16 bytes (DecimalText, UuidText).</summary>
    private const int MaxTypedRecordSize = 17;

    /// <summary>A record type byte followed by a payload of <paramref name="payloadSize"/> bytes already written; returns the record's size.</summary>
    private static int FixedRecord(Span<byte> destination, RecordType type, int payloadSize)
    {
        destination[0] = (byte)type;
        return 1 + payloadSize;
    }

    private static int FormatBooleanRecord(Span<byte> destination, bool value)
        => FixedRecord(destination, value ? RecordType.TrueText : RecordType.FalseText, 0);

    /// <summary>The smallest of ZeroText, OneText, Int8Text, Int16Text and Int32Text that holds the value.</summary>
    private static int FormatInt32Record(Span<byte> destination, int value)
    {
        // The value's four little-endian bytes hold each smaller record's payload in their first one or two: one
        // write for every size (the destination has room for the largest record; bytes past the one chosen are not
        // part of it). Short for the inliner, which takes this into the caller's loop within its budget.
        BinaryXmlPrimitives.WriteInt32(destination[1..], value);
        if (value == (sbyte)value)
        {
            if ((uint)value > 1) return FixedRecord(destination, RecordType.Int8Text, 1);
            return FixedRecord(destination, value == 0 ? RecordType.ZeroText : RecordType.OneText, 0);
        }
        return value == (short)value ? FixedRecord(destination, RecordType.Int16Text, 2) : FixedRecord(destination, RecordType.Int32Text, 4);
    }

    private static int FormatInt64Record(Span<byte> destination, long value)
        => value == (int)value
            ? FormatInt32Record(destination, (int)value)
            : FixedRecord(destination, RecordType.Int64Text, BinaryXmlPrimitives.WriteInt64(destination[1..], value));

    private static int FormatUInt64Record(Span<byte> destination, ulong value)
        => value <= long.MaxValue
            ? FormatInt64Record(destination, (long)value)
            : FixedRecord(destination, RecordType.UInt64Text, BinaryXmlPrimitives.WriteUInt64(destination[1..], value));

    /// <summary>"Only write as an integer-type if it would save space": .NET 7 and later (dotnet-behaviour 2.11).</summary>
    private static int FormatSingleRecord(Span<byte> destination, float value)
        => value >= short.MinValue && value <= short.MaxValue && (int)value == value
            ? FormatInt32Record(destination, (int)value)
            : FixedRecord(destination, RecordType.FloatText, BinaryXmlPrimitives.WriteSingle(destination[1..], value));

    private static int FormatDoubleRecord(Span<byte> destination, double value)
    {
        float f = (float)value;
        return f == value
            ? FormatSingleRecord(destination, f)
            : FixedRecord(destination, RecordType.DoubleText, BinaryXmlPrimitives.WriteDouble(destination[1..], value));
    }

    private static int FormatDecimalRecord(Span<byte> destination, decimal value)
        => FixedRecord(destination, RecordType.DecimalText, BinaryXmlPrimitives.WriteDecimal(destination[1..], value));
}
