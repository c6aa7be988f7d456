using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    /// <summary>Writes an Array record of Booleans (MC-NBFX 2.3.3; BoolTextWithEndElement items). Nothing for an empty span.</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<bool> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.BoolTextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.BoolTextWithEndElement)) return;
        WriteArrayBlock(MemoryMarshal.AsBytes(values));
    }

    /// <summary>Writes an Array record of 16-bit integers.</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<short> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.Int16TextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.Int16TextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 2);
        for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteInt16LittleEndian(span[(2 * i)..], values[i]);
    }

    /// <summary>Writes an Array record of 32-bit integers.</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<int> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.Int32TextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.Int32TextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 4);
        for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteInt32LittleEndian(span[(4 * i)..], values[i]);
    }

    /// <summary>Writes an Array record of 64-bit integers.</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<long> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.Int64TextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.Int64TextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 8);
        for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteInt64LittleEndian(span[(8 * i)..], values[i]);
    }

    /// <summary>Writes an Array record of floats (no compaction inside arrays).</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<float> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.FloatTextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.FloatTextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 4);
        for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteSingleLittleEndian(span[(4 * i)..], values[i]);
    }

    /// <summary>Writes an Array record of doubles.</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<double> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.DoubleTextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.DoubleTextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 8);
        for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteDoubleLittleEndian(span[(8 * i)..], values[i]);
    }

    /// <summary>Writes an Array record of decimals (flags, hi, lo, mid per item).</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<decimal> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.DecimalTextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.DecimalTextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 16);
        for (int i = 0; i < values.Length; i++) BinaryXmlPrimitives.WriteDecimal(span[(16 * i)..], values[i]);
    }

    /// <summary>
    /// Writes an Array record of DateTimes (<see cref="DateTime.ToBinary"/> of each item: on a little-endian host, a
    /// block copy with local items converted).
    /// </summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<DateTime> values)
    {
        if (UseBlockCopy && TryBeginSmallArray(prefix, localName, ns, values.Length, 8, RecordType.DateTimeTextWithEndElement, out Span<byte> items))
        {
            CopyDateTimes(values, items);
            return;
        }
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.DateTimeTextWithEndElement)) return;
        // .NET writes DateTime items one by one, each reserving 8 bytes.
        _model.WriteItems(_pending, values.Length, 8);
        int size = values.Length * 8;
        if (UseBlockCopy)
        {
            // Items that are not local are their ToBinary value in memory: up to the first local one, the items are the
            // bytes. A block handed to a stream as it is must be known to have none first; into the buffer, the items
            // are tested as they are copied.
            if (PassesToStream(size))
            {
                int firstLocal = BinaryXmlPrimitives.IndexOfLocalDateTime(values);
                if (firstLocal < 0) WriteToStream(MemoryMarshal.AsBytes(values));
                else WriteDateTimesInPieces(values, firstLocal);
                return;
            }
            CopyDateTimes(values, GetSpan(size));
        }
        else
        {
            Span<byte> span = GetSpan(size);
            for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteInt64LittleEndian(span[(8 * i)..], values[i].ToBinary());
        }
        _pending += size;
    }

    /// <summary>
    /// Over a stream, DateTime items of which the one at <paramref name="firstLocal"/> is the first local one: those
    /// before it handed on as they are, the rest converted a piece at a time (<see cref="CommitToStream"/>).
    /// </summary>
    private void WriteDateTimesInPieces(ReadOnlySpan<DateTime> values, int firstLocal)
    {
        WriteToStream(MemoryMarshal.AsBytes(values[..firstLocal]));
        for (int i = firstLocal; i < values.Length; )
        {
            ReadOnlySpan<DateTime> piece = values.Slice(i, Math.Min(StreamPieceSize / 8, values.Length - i));
            CopyDateTimes(piece, GetSpan(8 * piece.Length));
            _pending += 8 * piece.Length;
            CommitToStream();
            i += piece.Length;
        }
    }

    /// <summary>
    /// Copies DateTime items into <paramref name="destination"/> as their <see cref="DateTime.ToBinary"/> values: tested
    /// as they are copied, the local ones from the first written again.
    /// </summary>
    private static void CopyDateTimes(ReadOnlySpan<DateTime> values, Span<byte> destination)
    {
        int plain = BinaryXmlPrimitives.CopyNonLocalDateTimes(values, destination);
        if (plain < values.Length) BinaryXmlPrimitives.WriteDateTimes(destination, values, plain);
    }

    /// <summary>Writes an Array record of TimeSpans (ticks).</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<TimeSpan> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.TimeSpanTextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.TimeSpanTextWithEndElement)) return;
        // .NET writes TimeSpan items one by one, each reserving 8 bytes.
        _model.WriteItems(_pending, values.Length, 8);
        if (UseBlockCopy)
        {
            WriteModelledBytes(MemoryMarshal.AsBytes(values));
            return;
        }
        Span<byte> span = GetSpan(values.Length * 8);
        for (int i = 0; i < values.Length; i++) BinaryPrimitives.WriteInt64LittleEndian(span[(8 * i)..], values[i].Ticks);
        _pending += values.Length * 8;
    }

    /// <summary>Writes an Array record of GUIDs (UuidTextWithEndElement items in <see cref="Guid.ToByteArray()"/> order).</summary>
    public void WriteArray(string? prefix, string localName, string? ns, ReadOnlySpan<Guid> values)
    {
        if (TryWriteSmallArray(prefix, localName, ns, values, RecordType.UuidTextWithEndElement)) return;
        if (!StartArray(prefix, localName, ns, values.Length, RecordType.UuidTextWithEndElement)) return;
        if (UseBlockCopy) { WriteArrayBlock(MemoryMarshal.AsBytes(values)); return; }
        Span<byte> span = BeginArrayItems(values.Length, 16);
        for (int i = 0; i < values.Length; i++) values[i].TryWriteBytes(span[(16 * i)..]);
    }

    /// <summary>Whether arrays are copied as one block: on little-endian hosts, unless a test forces the other path.</summary>
    private bool UseBlockCopy => BitConverter.IsLittleEndian && !_options.ForceElementwiseArrays;

    /// <summary>
    /// Writes the Array record up to its items: 0x03, the element with its namespace declarations, EndElement,
    /// the item type and the count (MC-NBFX 2.3.3). Returns false (writing nothing) for an empty array, as .NET does.
    /// </summary>
    private bool StartArray(string? prefix, string localName, string? ns, int count, RecordType itemType)
    {
        ThrowIfClosed();
        ThrowIfInList("WriteArray");
        if (count == 0) return false;
        FlushBase64();
        if (_documentState == DocumentState.Epilog) ThrowHelper.ThrowInvalidOperation("Only one root element is permitted per document.");
        if (IsSecondRoot(count)) ThrowHelper.ThrowInvalidOperation("Only one root element is permitted per document.");
        if (_writeState == WriteState.Attribute) ThrowHelper.ThrowWrongState("WriteStartElement", WriteState.Attribute);
        if (IsPlainArrayStart(prefix, localName, ns))
        {
            // A short name in the default namespace with nothing pending (as WriteStartElement(localName) takes it):
            // the element's record, its end, the item type and the count in one buffer request (the start tag before
            // it, if open, has nothing to declare).
            WriteNode(RecordType.Array);
            _nsMgr.EnterScope();
            WriteArrayHeader(WriteNodeWithShortName(RecordType.ShortElement, localName, ArrayHeaderSize), itemType, count);
            ExitPlainScope();
            return true;
        }
        AutoComplete(WriteState.Content);
        WriteNode(RecordType.Array);
        WriteStartElement(prefix, localName!, ns);
        if (_writeState == WriteState.Element && !_nsMgr.HasScopeWork)
        {
            // The start tag declared nothing (the common case): its end, the item type and the count in one buffer
            // request.
            WriteArrayHeader(GetSpan(ArrayHeaderSize), itemType, count);
            ExitPlainScope();
            // ExitPlainScope's rule assumes a plain start (this one may report its prefix).
            RefreshPlainState();
            return true;
        }
        WriteEndElement();
        WriteNode(itemType);
        WriteMultiByteInt31(count);
        return true;
    }

    /// <summary>The most item bytes an array may take for <see cref="TryBeginSmallArray"/>'s single buffer request.</summary>
    private const int SmallArrayBytes = 256;

    /// <summary>
    /// <see cref="TryBeginSmallArray"/> with the items copied as they are in memory (on a little-endian host, the items
    /// of every type but DateTime, whose local items are converted).
    /// </summary>
    // Out of line, the short path inlined into it: inlined whole into a one-element document's caller, it spent that
    // caller's inlining budget and left the copy's and the flush's steps as calls (level in a harness either way,
    // 17–18 ns a document of 16 ints; benchmarks/HISTORY.md, runs 977–981).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryWriteSmallArray<T>(string? prefix, string localName, string? ns, ReadOnlySpan<T> values, RecordType itemType)
        where T : unmanaged
    {
        if (!UseBlockCopy || !TryBeginSmallArray(prefix, localName, ns, values.Length, Unsafe.SizeOf<T>(), itemType, out Span<byte> items))
            return false;
        MemoryMarshal.AsBytes(values).CopyTo(items);
        return true;
    }

    /// <summary>
    /// An array of a few items (up to <see cref="SmallArrayBytes"/> bytes) under a short name in the default namespace
    /// where nothing is pending (as <see cref="StartArray"/>'s short path takes it), whose records and items fit both
    /// .NET's buffer and the output memory (<see cref="TryTakeRoom"/>): the Array record, the element, its end, the
    /// item type and the count written and room for the items returned in <paramref name="items"/>, in one buffer
    /// request. Every reservation .NET makes for these records and items (of the name's worst case, and under 512 bytes
    /// for the items) ends within that room. Returns false, writing nothing, where any of this does not hold; the
    /// caller then takes <see cref="StartArray"/>, which also raises the misuse errors.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryBeginSmallArray(string? prefix, string localName, string? ns, int count, int itemSize, RecordType itemType, out Span<byte> items)
    {
        items = default;
        if (!IsPlainArrayStart(prefix, localName, ns) || (uint)(count - 1) >= (uint)(SmallArrayBytes / itemSize) || IsSecondRoot(count))
            return false;
        int itemBytes = count * itemSize;
        int size = 3 + localName.Length * MaxBytesPerChar + ArrayHeaderSize + itemBytes;
        if (!TryTakeRoom(size, out Span<byte> span)) return false;
        span[0] = (byte)RecordType.Array;
        span[1] = (byte)RecordType.ShortElement;
        int length = TranscodeName(localName, span.Slice(3, localName.Length * MaxBytesPerChar));
        span[2] = (byte)length;
        int itemsStart = 3 + length + BinaryXmlPrimitives.WriteArrayHeaderUnchecked(span.Slice(3 + length), itemType, count);
        items = span.Slice(itemsStart, itemBytes);
        _textNodeStart = -1;
        _pending += itemsStart + itemBytes;
        _nsMgr.EnterScope();
        ExitPlainScope();
        return true;
    }

    /// <summary>
    /// Whether an array's start tag is a short name in the default namespace with nothing pending (as
    /// <c>WriteStartElement(localName)</c> takes it): its records are written without the general start tag's steps.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsPlainArrayStart(string? prefix, string? localName, string? ns)
        => prefix is null && ns is null && localName is not null && IsShortName(localName.Length) && CanStartPlainElement;

    /// <summary>
    /// Whether an Array record of <paramref name="count"/> items would be a document's second root: its items are
    /// repeated elements, so more than one at the top level of a document (.NET raises "Only one root element").
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsSecondRoot(int count) => _documentState == DocumentState.Document && count > 1 && _nsMgr.Depth == 0;

    /// <summary>The most bytes <see cref="WriteArrayHeader"/> writes.</summary>
    private const int ArrayHeaderSize = 2 + MultiByteInt31.MaxLength;

    /// <summary>
    /// Writes EndElement, the item type and the count into <paramref name="span"/> (at least
    /// <see cref="ArrayHeaderSize"/> bytes) after an array's start tag with nothing to declare, modelled as .NET's
    /// <c>WriteEndElement</c>, <c>WriteNode</c> and <c>WriteMultiByteInt31</c> (the start tag left no text record to
    /// fold into).
    /// </summary>
    private void WriteArrayHeader(Span<byte> span, RecordType itemType, int count)
    {
        int n = BinaryXmlPrimitives.WriteArrayHeaderUnchecked(span, itemType, count);
        _model.WriteArrayHeader(_pending);
        _pending += n;
    }

    /// <summary>Writes the items as one block copy (.NET: one <c>WriteBytes</c>, past its buffer from 512 bytes).</summary>
    private void WriteArrayBlock(ReadOnlySpan<byte> bytes) => WriteBlock(bytes);

    /// <summary>Reserves the item bytes for element-by-element conversion; the model sees the same single block.</summary>
    private Span<byte> BeginArrayItems(int count, int itemSize)
    {
        int size = count * itemSize;
        _model.WriteBlock(_pending, size);
        Span<byte> span = GetSpan(size)[..size];
        _pending += size;
        return span;
    }
}
