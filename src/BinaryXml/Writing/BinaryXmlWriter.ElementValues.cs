using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    // ---- WriteElementValue: an element with one typed value, in one call ----------------------------------------
    // The bytes are those of WriteStartElement, WriteValue and WriteEndElement (the value's record with the end folded
    // in). Inside content with nothing pending, a short name's record and the value's are written with one buffer
    // request and no state tests between them; anything else takes those three calls.

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="bool"/>: TrueText or FalseText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(bool)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, bool value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatBooleanRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="bool"/>: TrueText or FalseText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(bool)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, bool value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatBooleanRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is an <see cref="int"/>: the smallest integer record that holds it.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(int)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, int value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatInt32Record(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is an <see cref="int"/>: the smallest integer record that holds it.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(int)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, int value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatInt32Record(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="long"/>: the int rules when it fits in 32 bits, else Int64Text.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(long)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, long value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatInt64Record(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="long"/>: the int rules when it fits in 32 bits, else Int64Text.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(long)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, long value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatInt64Record(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="ulong"/>: the long rules up to <see cref="long.MaxValue"/>, UInt64Text above.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(ulong)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, ulong value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatUInt64Record(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="ulong"/>: the long rules up to <see cref="long.MaxValue"/>, UInt64Text above.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(ulong)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, ulong value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatUInt64Record(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="float"/>: the int rules for an integral value within the Int16 range, else FloatText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(float)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, float value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatSingleRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="float"/>: the int rules for an integral value within the Int16 range, else FloatText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(float)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, float value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatSingleRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="double"/>: the float rules when it converts to float exactly, else DoubleText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(double)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, double value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatDoubleRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="double"/>: the float rules when it converts to float exactly, else DoubleText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(double)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, double value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatDoubleRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="decimal"/>: DecimalText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(decimal)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, decimal value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatDecimalRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="decimal"/>: DecimalText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(decimal)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, decimal value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatDecimalRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="DateTime"/>: DateTimeText, keeping the kind.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(DateTime)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, DateTime value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatDateTimeRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="DateTime"/>: DateTimeText, keeping the kind.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(DateTime)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, DateTime value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatDateTimeRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="DateTimeOffset"/>, as <see cref="WriteValue(DateTimeOffset)"/> writes it.</summary>
    public void WriteElementValue(string localName, DateTimeOffset value) => WriteElementValue(localName, XmlWriterDateTime(value));

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="DateTimeOffset"/>, as <see cref="WriteValue(DateTimeOffset)"/> writes it.</summary>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, DateTimeOffset value) => WriteElementValue(localName, ns, XmlWriterDateTime(value));

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="TimeSpan"/>: TimeSpanText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(TimeSpan)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, TimeSpan value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatTimeSpanRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="TimeSpan"/>: TimeSpanText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(TimeSpan)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, TimeSpan value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatTimeSpanRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element with no prefix in the current default namespace whose content is a <see cref="Guid"/>: UuidText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(string)"/>, <see cref="WriteValue(Guid)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(string localName, Guid value)
    {
        if (TryStartValueElement(localName, out Span<byte> record)) EndValueElement(record, FormatGuidRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>Writes an element whose name may be written as dictionary ids and whose content is a <see cref="Guid"/>: UuidText.</summary>
    /// <remarks>The same bytes as <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>, <see cref="WriteValue(Guid)"/> and <see cref="WriteEndElement"/>, in one call.</remarks>
    public void WriteElementValue(XmlDictionaryString localName, XmlDictionaryString? ns, Guid value)
    {
        if (TryStartValueElement(localName, ns, out Span<byte> record)) EndValueElement(record, FormatGuidRecord(record, value));
        else EndValueElement(value);
    }

    /// <summary>
    /// Starts the element of a WriteElementValue call. Inside content with nothing pending (as <see cref="WriteElementString(string, string?)"/>
    /// tests it), a short name: its record is written with room for the value's after it, returned in
    /// <paramref name="record"/>. Otherwise the element is started by <see cref="WriteStartElement(string)"/> (which
    /// checks the name and the state) and false is returned.
    /// </summary>
    private bool TryStartValueElement(string localName, out Span<byte> record)
    {
        if (CanStartPlainElement && localName is not null && IsShortName(localName.Length))
        {
            _nsMgr.EnterScope();
            record = WriteNodeWithShortName(RecordType.ShortElement, localName, MaxTypedRecordSize);
            return true;
        }
        WriteStartElement(localName!);
        record = default;
        return false;
    }

    /// <summary>
    /// Starts the element of a WriteElementValue call with dictionary names by <see cref="WriteStartElement(XmlDictionaryString, XmlDictionaryString?)"/>;
    /// when it declared nothing and nothing is pending, returns room for the value's record.
    /// </summary>
    private bool TryStartValueElement(XmlDictionaryString localName, XmlDictionaryString? ns, out Span<byte> record)
    {
        WriteStartElement(null, localName, ns);
        if (InPlainContent)
        {
            record = GetSpan(MaxTypedRecordSize);
            return true;
        }
        record = default;
        return false;
    }

    /// <summary>
    /// Ends a value element started by TryStartValueElement: <paramref name="record"/> holds the value's record of
    /// <paramref name="size"/> bytes, which takes the element's end (<c>…WithEndElement</c>, its type + 1): just
    /// written, it is still in .NET's buffer, so .NET folds there too. The element's record left no text record to
    /// fold into; the value's, folded, leaves none either.
    /// </summary>
    private void EndValueElement(Span<byte> record, int size)
    {
        record[0]++;
        _model.Reserve(_pending, size);
        _pending += size;
        ExitPlainScope();
    }

    private void EndValueElement(bool value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(int value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(long value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(ulong value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(float value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(double value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(decimal value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(DateTime value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(TimeSpan value)
    {
        WriteValue(value);
        WriteEndElement();
    }

    private void EndValueElement(Guid value)
    {
        WriteValue(value);
        WriteEndElement();
    }
}
