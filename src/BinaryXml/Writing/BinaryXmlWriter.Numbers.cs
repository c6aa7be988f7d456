using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    /// <summary>Writes TrueText or FalseText (BoolText appears only in arrays).</summary>
    public void WriteValue(bool value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        WriteTextNode(value ? RecordType.TrueText : RecordType.FalseText);
    }

    /// <summary>Writes the smallest of ZeroText, OneText, Int8Text, Int16Text and Int32Text that holds the value.</summary>
    public void WriteValue(int value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        WriteInt32Node(value);
    }

    /// <summary>Writes the int rules when the value fits in 32 bits, else Int64Text.</summary>
    public void WriteValue(long value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        WriteInt64Node(value);
    }

    /// <summary>Writes the long rules up to <see cref="long.MaxValue"/>, UInt64Text above.</summary>
    public void WriteValue(ulong value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        if (value <= long.MaxValue)
        {
            WriteInt64Node((long)value);
        }
        else
        {
            BinaryXmlPrimitives.WriteUInt64(BeginFixedTextNode(RecordType.UInt64Text, 8), value);
            EndFixedTextNode(8);
        }
    }

    /// <summary>
    /// Writes a float with the current .NET rule: an integral value within the Int16 range uses the int rules
    /// (so −0 becomes ZeroText), anything else FloatText with its exact bits (dotnet-behaviour 2.11).
    /// </summary>
    public void WriteValue(float value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        WriteSingleNode(value);
    }

    /// <summary>Writes a double: when it converts to float exactly, the float rule; otherwise DoubleText.</summary>
    public void WriteValue(double value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        float f = (float)value;
        if (f == value)
        {
            WriteSingleNode(f);
        }
        else
        {
            BinaryXmlPrimitives.WriteDouble(BeginFixedTextNode(RecordType.DoubleText, 8), value);
            EndFixedTextNode(8);
        }
    }

    /// <summary>Writes DecimalText (no compaction; the scale is kept).</summary>
    public void WriteValue(decimal value)
    {
        if (!BeginValue(value, XmlConvert.ToString)) return;
        BinaryXmlPrimitives.WriteDecimal(BeginFixedTextNode(RecordType.DecimalText, 16), value);
        EndFixedTextNode(16);
    }

    /// <summary>
    /// Starts a typed value; returns whether its text record is to be written. Inside an element, with no attribute
    /// open, no base64 bytes held back and no xmlns records to write (the common case), that is a few compares;
    /// otherwise <see cref="BeginValueInAnyState"/> checks the state, and inside an attribute collects the value's text.
    /// </summary>
    private bool BeginValue<T>(T value, Func<T, string> attributeText)
    {
        if (InPlainContent)
        {
            _writeState = WriteState.Content;
            return true;
        }
        return BeginValueInAnyState(value, attributeText);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private bool BeginValueInAnyState<T>(T value, Func<T, string> attributeText)
    {
        ThrowIfClosed();
        FlushBase64();
        if (_attributeValue is not null) AppendAttributeText(attributeText(value));
        if (_isXmlnsAttribute) return false;
        StartContent();
        return true;
    }

    private void WriteInt32Node(int value)
    {
        if (value == (sbyte)value)
        {
            if (value == 0) WriteTextNode(RecordType.ZeroText);
            else if (value == 1) WriteTextNode(RecordType.OneText);
            else
            {
                BeginFixedTextNode(RecordType.Int8Text, 1)[0] = (byte)value;
                EndFixedTextNode(1);
            }
        }
        else if (value == (short)value)
        {
            BinaryXmlPrimitives.WriteInt16(BeginFixedTextNode(RecordType.Int16Text, 2), (short)value);
            EndFixedTextNode(2);
        }
        else
        {
            BinaryXmlPrimitives.WriteInt32(BeginFixedTextNode(RecordType.Int32Text, 4), value);
            EndFixedTextNode(4);
        }
    }

    private void WriteInt64Node(long value)
    {
        if (value == (int)value)
        {
            WriteInt32Node((int)value);
        }
        else
        {
            BinaryXmlPrimitives.WriteInt64(BeginFixedTextNode(RecordType.Int64Text, 8), value);
            EndFixedTextNode(8);
        }
    }

    private void WriteSingleNode(float value)
    {
        // "Only write as an integer-type if it would save space": .NET 7 and later (dotnet-behaviour 2.11).
        if (value >= short.MinValue && value <= short.MaxValue && (int)value == value)
        {
            WriteInt32Node((int)value);
        }
        else
        {
            BinaryXmlPrimitives.WriteSingle(BeginFixedTextNode(RecordType.FloatText, 4), value);
            EndFixedTextNode(4);
        }
    }
}
