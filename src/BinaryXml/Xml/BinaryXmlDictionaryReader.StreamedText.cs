using System.Buffers;
using System.Buffers.Binary;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Text read from a stream as .NET's reader reads it there. Over a stream .NET's reader holds a window of
/// <see cref="XmlDictionaryReaderQuotas.MaxBytesPerRead"/> bytes: a Chars, UnicodeChars or Bytes text record whose value
/// is longer than that quota less five is reported as several text nodes. It takes a piece of the value (its rules:
/// <see cref="FirstPiece"/>), inserts the header of a …32Text record (the record's own kind, closing the element if the
/// record did) before the rest, and reads that record next, split again if it is still too long. Over an array
/// nothing is split. This reader reads a stream to its end first; the records .NET's reader would split are rewritten
/// so in the document read, and every read (node by node, in chunks, content in one call, canonicalization) sees the
/// records .NET's reader sees.
/// </summary>
public sealed partial class BinaryXmlDictionaryReader
{
    /// <summary>The header .NET's reader inserts before the rest of a text record it splits: a record type and a four-byte length.</summary>
    private const int InsertedHeaderLength = 5;

    /// <summary>
    /// Rewrites the document in the rented buffer, <paramref name="length"/> bytes read from a stream, with its long
    /// text records split as .NET's reader splits them there (<see cref="XmlDictionaryReaderQuotas.MaxBytesPerRead"/>);
    /// returns the document's length after. A document too short to hold such a record is not looked at. The records
    /// are found by the native reader, with the quotas the document is read with: where it fails, the records after are
    /// left as they are (the read fails there too, before reaching them). Without quotas nothing is done (the input is
    /// then refused as over an array).
    /// </summary>
    private int SplitLongTextAsStreamed(int length, IXmlDictionary? dictionary, XmlDictionaryReaderQuotas? quotas, XmlBinaryReaderSession? session)
    {
        if (quotas is null) return length;
        int maxLength = Math.Max(quotas.MaxBytesPerRead - InsertedHeaderLength, 0);
        // A record's value is at most the document less the record's type and length bytes.
        if (length - 2 <= maxLength) return length;
        // Kept from one document to the next: a reused reader allocates nothing for it in steady state.
        List<(int RecordStart, int ValueStart, int ValueLength)> records = _longText ??= [];
        records.Clear();
        FindLongText(_ownedBuffer.AsSpan(0, length), maxLength, dictionary, session, OptionsFor(quotas, streamed: true), records);
        if (records.Count == 0) return length;
        ReadOnlySpan<byte> source = _ownedBuffer.AsSpan(0, length);
        long newLength = length;
        foreach ((int recordStart, int valueStart, int valueLength) in records)
        {
            Family family = FamilyOf((RecordType)source[recordStart]);
            ReadOnlySpan<byte> value = source.Slice(valueStart, valueLength);
            for (int piece; (piece = FirstPiece(family, value, maxLength)) < value.Length; value = value[piece..]) newLength += InsertedHeaderLength;
        }
        if (newLength > Array.MaxLength) throw new IOException("The stream is longer than an array can be.");
        byte[] target = ArrayPool<byte>.Shared.Rent((int)newLength);
        int from = 0, to = 0;
        foreach ((int recordStart, int valueStart, int valueLength) in records)
        {
            source[from..recordStart].CopyTo(target.AsSpan(to));
            to += recordStart - from;
            to = WriteSplitRecord(source[recordStart..(valueStart + valueLength)], valueStart - recordStart, maxLength, target, to);
            from = valueStart + valueLength;
        }
        source[from..].CopyTo(target.AsSpan(to));
        // The document in the old buffer is not read from any more: it goes back to the pool, the new one kept (the
        // reader's state is cleared for the new one by SetInput).
        ReturnOwnedBuffer();
        _ownedBuffer = target;
        return (int)newLength;
    }

    /// <summary>The long text records of the document read last from a stream (<see cref="SplitLongTextAsStreamed"/>).</summary>
    private List<(int RecordStart, int ValueStart, int ValueLength)>? _longText;

    /// <summary>
    /// Adds to <paramref name="records"/> the text records of <paramref name="document"/> in element content (not a
    /// list's items, not an attribute's value) whose value is longer than <paramref name="maxLength"/>, in document order.
    /// </summary>
    private void FindLongText(ReadOnlySpan<byte> document, int maxLength, IXmlDictionary? dictionary, XmlBinaryReaderSession? session,
        BinaryXmlReaderOptions options, List<(int RecordStart, int ValueStart, int ValueLength)> records)
    {
        // On the reader's own state, cleared here and again for the document by SetInput: nothing rented or allocated.
        var reader = new BinaryXmlReader(document, _state._state, dictionary, session, options);
        BinaryXmlReaderState state = reader.CurrentState;
        if (!ReferenceEquals(_state._state, state._state)) _state = state;
        try
        {
            bool inList = false;
            while (reader.ReadPassingAttributes())
            {
                switch (reader.TokenType)
                {
                    case BinaryXmlTokenType.StartList:
                        inList = true;
                        break;
                    case BinaryXmlTokenType.Attribute:
                        inList = reader.ValueType == RecordType.StartListText;
                        break;
                    case BinaryXmlTokenType.EndList:
                        inList = false;
                        break;
                    case BinaryXmlTokenType.Text when !inList:
                        ValueLocation value = reader.CurrentValue;
                        if (value.Length > maxLength && FamilyOf(reader.RecordType) != Family.None)
                            records.Add((reader.TokenStartIndex, value.Start, value.Length));
                        break;
                }
            }
        }
        catch (XmlException)
        {
            // The document fails here: the read will fail here too, before reaching the records after.
        }
    }

    /// <summary>The kinds of text record .NET's reader splits over a stream.</summary>
    private enum Family : byte
    {
        None,
        Chars = (byte)RecordType.Chars32Text,
        UnicodeChars = (byte)RecordType.UnicodeChars32Text,
        Bytes = (byte)RecordType.Bytes32Text,
    }

    private static Family FamilyOf(RecordType record)
    {
        var plain = (RecordType)((byte)record & 0xFE);
        return IsUtf8Text(plain) ? Family.Chars : IsCharsText(plain) ? Family.UnicodeChars : IsBytes(plain) ? Family.Bytes : Family.None;
    }

    /// <summary>
    /// The length of the first text node .NET's reader makes of <paramref name="value"/> over a stream, or its whole
    /// length when it is read whole. Up to <paramref name="maxLength"/> bytes are read whole. Longer UTF-8 is cut at the
    /// last character start within <paramref name="maxLength"/> less five bytes (so at least one character goes to the
    /// rest), UTF-16 after as many whole characters, one fewer if the last is a high surrogate, base64 bytes after
    /// <paramref name="maxLength"/> bytes rounded down to a multiple of three. Where that leaves no bytes (quotas of
    /// about ten bytes or less), .NET's reader reports empty text without end or fails with an
    /// ArgumentOutOfRangeException: this reader reads the value whole.
    /// </summary>
    private static int FirstPiece(Family family, ReadOnlySpan<byte> value, int maxLength)
    {
        if (value.Length <= maxLength) return value.Length;
        int piece;
        switch (family)
        {
            case Family.Chars:
                piece = Math.Max(maxLength - InsertedHeaderLength, 0) - 1;
                while (piece >= 0 && (value[piece] & 0xC0) == 0x80) piece--;
                break;
            case Family.UnicodeChars:
                piece = Math.Max(maxLength - InsertedHeaderLength, 0) & ~1;
                if (piece >= 2 && char.IsHighSurrogate((char)BinaryPrimitives.ReadUInt16LittleEndian(value[(piece - 2)..]))) piece -= 2;
                break;
            default:
                piece = maxLength > 3 ? maxLength - maxLength % 3 : maxLength;
                break;
        }
        return piece > 0 ? piece : value.Length;
    }

    /// <summary>
    /// Writes <paramref name="record"/> (its header of <paramref name="headerLength"/> bytes, then its value) at
    /// <paramref name="to"/> of <paramref name="target"/> as the records .NET's reader reads it as over a stream: the first
    /// piece under the record's own type without its end, each further piece a …32Text record, the last closing the
    /// element if the record did. Returns the offset after.
    /// </summary>
    private static int WriteSplitRecord(ReadOnlySpan<byte> record, int headerLength, int maxLength, byte[] target, int to)
    {
        byte type = record[0];
        Family family = FamilyOf((RecordType)type);
        byte end = (byte)(type & 1);
        ReadOnlySpan<byte> value = record[headerLength..];
        bool first = true;
        while (true)
        {
            int piece = FirstPiece(family, value, maxLength);
            bool last = piece == value.Length;
            var pieceType = (RecordType)((first ? type & 0xFE : (byte)family) | (last ? end : 0));
            to += BinaryXmlPrimitives.WriteSizedTextHeader(target.AsSpan(to), pieceType, piece);
            value[..piece].CopyTo(target.AsSpan(to));
            to += piece;
            if (last) return to;
            value = value[piece..];
            first = false;
        }
    }

    // ---- The buffer index of .NET's reader over a stream (canonicalization) ----------------------------------

    /// <summary>
    /// Over a stream, keeps where the start tag just read begins and how many bytes the start tags of it and the
    /// elements around it take: .NET's reader moves each node it reads to the end of its open elements' start tags in
    /// its buffer, so a node's index there is that sum plus the node's own bytes before it.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void NoteStreamedStartTag(int depth, int tagStart, int tagEnd)
    {
        ref ElementName names = ref _openElements[depth];
        names.TagStart = tagStart;
        names.StartTagsLength = StartTagsLength(depth - 1) + (tagEnd - tagStart);
    }

    /// <summary>The bytes the start tags of the open elements at depth 0 to <paramref name="depth"/> take (0 below the root).</summary>
    private int StartTagsLength(int depth) => depth < 0 ? 0 : _openElements[depth].StartTagsLength;

    /// <summary>
    /// The index in .NET's buffer of the byte at <paramref name="start"/> of the input, in the node at depth
    /// <paramref name="depth"/> whose record (for an attribute: its element's start tag) begins at
    /// <paramref name="nodeStart"/>: over an array, the caller's array's; over a stream, its place after the start tags
    /// of the elements the node is in.
    /// </summary>
    private long BufferIndex(int start, int nodeStart, int depth) => _streamed ? StartTagsLength(depth - 1) + (long)(start - nodeStart) : (long)_offset + start;
}
