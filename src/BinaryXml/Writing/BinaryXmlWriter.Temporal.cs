using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    /// <summary>Writes DateTimeText: <see cref="DateTime.ToBinary"/>, keeping the kind (MC-NBFX 2.2.3.12).</summary>
    public void WriteValue(DateTime value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatDateTimeRecord(BeginTypedTextNode(), value));
    }

    /// <summary>
    /// Writes a DateTimeOffset as <see cref="XmlWriter"/> does: the local time when the offset is not zero, else the
    /// UTC time. The offset itself is not stored.
    /// </summary>
    public void WriteValue(DateTimeOffset value) => WriteValue(XmlWriterDateTime(value));

    /// <summary>The DateTime <see cref="XmlWriter"/> writes for a DateTimeOffset: the local time when the offset is not zero, else the UTC time.</summary>
    private static DateTime XmlWriterDateTime(DateTimeOffset value) => value.Offset != TimeSpan.Zero ? value.LocalDateTime : value.UtcDateTime;

    /// <summary>Writes TimeSpanText (ticks).</summary>
    public void WriteValue(TimeSpan value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatTimeSpanRecord(BeginTypedTextNode(), value));
    }

    /// <summary>Writes UuidText (.NET's GuidText): the GUID rendered bare.</summary>
    public void WriteValue(Guid value)
    {
        if (!BeginValue(value)) return;
        EndTypedTextNode(FormatGuidRecord(BeginTypedTextNode(), value));
    }


    /// <summary>
    /// Writes a <see cref="UniqueId"/>: UniqueIdText (rendered <c>urn:uuid:…</c>) when it is a GUID, otherwise its
    /// string form as text, as .NET does.
    /// </summary>
    public void WriteValue(UniqueId value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (!BeginValue(value)) return;
        // UniqueId.TryGetGuid(out Guid) allocates a byte[16]; its array overload fills ours (the Guid's byte order).
        if (value.TryGetGuid(_scratch!.UniqueIdBytes, 0))
        {
            Span<byte> record = BeginTypedTextNode();
            _scratch!.UniqueIdBytes.CopyTo(record[1..]);
            EndTypedTextNode(FixedRecord(record, RecordType.UniqueIdText, 16));
        }
        else
        {
            WriteTextOrCapture(value.ToString());
        }
    }

    /// <summary>Writes UniqueIdText for a GUID (rendered <c>urn:uuid:…</c>). .NET writes <see cref="Guid.Empty"/> as text; so does this.</summary>
    public void WriteUniqueId(Guid value)
    {
        // A UniqueId of Guid.Empty is not a GUID to .NET: its text.
        if (value == Guid.Empty)
        {
            WriteValue(new UniqueId(value));
            return;
        }
        if (!BeginValue(new UniqueIdGuid(value))) return;
        Span<byte> record = BeginTypedTextNode();
        value.TryWriteBytes(record[1..]);
        EndTypedTextNode(FixedRecord(record, RecordType.UniqueIdText, 16));
    }

    private static int FormatDateTimeRecord(Span<byte> destination, DateTime value)
        => FixedRecord(destination, RecordType.DateTimeText, BinaryXmlPrimitives.WriteDateTime(destination[1..], value));

    private static int FormatTimeSpanRecord(Span<byte> destination, TimeSpan value)
        => FixedRecord(destination, RecordType.TimeSpanText, BinaryXmlPrimitives.WriteTimeSpan(destination[1..], value));

    private static int FormatGuidRecord(Span<byte> destination, Guid value)
        => FixedRecord(destination, RecordType.UuidText, BinaryXmlPrimitives.WriteGuidPayload(destination[1..], value));
}
