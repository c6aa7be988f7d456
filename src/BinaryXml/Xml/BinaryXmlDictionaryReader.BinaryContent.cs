using System.Buffers;
using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Binary content: base64 and BinHex reads. Base64 content is read in pieces straight from the input, as .NET's reader
/// reads it: a Bytes record's payload copied, base64 text decoded, a stream of any length with no quota and nothing
/// allocated; read whole, it is one array under MaxArrayLength. BinHex content and attribute values are decoded whole.
/// </summary>
public sealed partial class BinaryXmlDictionaryReader
{
    // ---- Base64 content length ---------------------------------------------------------------------------------------

    /// <summary>
    /// The length of the base64 content from the current node on, as .NET's binary reader reports it: on a node whose
    /// value is a Bytes record (a text node or a bytes attribute), its length plus those of the Bytes records that
    /// follow it in the input up to one that closes the element or an end tag; false when another record comes first,
    /// on any other node and inside an Array record. On a text node read in part with <c>ReadContentAsBase64</c>, the
    /// part of its payload not read yet (all of it when the pieces came through its text, as in .NET's reader).
    /// </summary>
    public override bool TryGetBase64ContentLength(out int length)
    {
        length = 0;
        if (_streamed || _arrayNodesRead < ArrayNodes) return false;
        int total;
        if (_attributeIndex >= 0)
        {
            Attr a = _attributes[_attributeIndex];
            if (a.ValueType != typeof(byte[])) return false;
            total = a.AtomicValue.Length;
        }
        else if (_nodeType == XmlNodeType.Text && IsBytes(_textRecord))
        {
            // A read in pieces under way on the node: what is left of its payload when the pieces came from it; when
            // they came through its text (a block begun in the text before it, a comment passed on the way, or Value
            // read first), what was left when they began to, as .NET's reader, whose count goes by the bytes taken
            // from the record and not by the characters taken from its text.
            total = _valueLocation.Length - (!PieceReadUnderWay ? 0 : _pieceText is null ? _pieceUsed : _pieceBytesTaken);
        }
        else
        {
            return false;
        }

        // The input after the current record (after a start tag's attributes when on an attribute), not yet read.
        ReadOnlySpan<byte> data = Data;
        int pos = _state.BytesConsumed;
        switch (MeasureBytesRun(data, ref pos, ref total))
        {
            case BytesRunEnd.Malformed:
                ThrowMalformedBytesRecord(data, pos);
                break;
            case BytesRunEnd.TooLong:
            case BytesRunEnd.OtherRecord when data[pos] != (byte)RecordType.EndElement:
                return false;
        }
        length = total;
        return true;
    }

    /// <summary>How a run of Bytes records measured by <see cref="MeasureBytesRun"/> ends.</summary>
    private enum BytesRunEnd
    {
        /// <summary>With a record that closes its element (…WithEndElement); the position is after it.</summary>
        ClosingRecord,
        /// <summary>Before a record of another kind (at the position).</summary>
        OtherRecord,
        /// <summary>At the end of the input.</summary>
        EndOfInput,
        /// <summary>At a record whose length is cut off by the end of the input or runs past it (at the position).</summary>
        Malformed,
        /// <summary>At a record that would take the total past <see cref="int.MaxValue"/> (at the position).</summary>
        TooLong,
    }

    /// <summary>
    /// Adds the payload lengths of the Bytes records from <paramref name="pos"/> on to <paramref name="total"/>, up to
    /// one that closes its element; <paramref name="pos"/> is left where the run ends. The records are measured, not
    /// read: nothing moves.
    /// </summary>
    private static BytesRunEnd MeasureBytesRun(ReadOnlySpan<byte> data, ref int pos, ref int total)
    {
        while (pos < data.Length)
        {
            var type = (RecordType)data[pos];
            if ((RecordType)((byte)type & 0xFE) is not (RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text))
                return BytesRunEnd.OtherRecord;
            int lengthSize = BinaryXmlPrimitives.GetLengthFieldSize(type);
            if (!BinaryXmlPrimitives.TryReadLength(data[(pos + 1)..], lengthSize, out int payload) || payload > data.Length - pos - 1 - lengthSize)
                return BytesRunEnd.Malformed;
            if (total > int.MaxValue - payload) return BytesRunEnd.TooLong;
            total += payload;
            pos += 1 + lengthSize + payload;
            if (((byte)type & 1) != 0) return BytesRunEnd.ClosingRecord;
        }
        return BytesRunEnd.EndOfInput;
    }

    /// <summary>Throws for the Bytes record at <paramref name="pos"/> that <see cref="MeasureBytesRun"/> found malformed.</summary>
    private static void ThrowMalformedBytesRecord(ReadOnlySpan<byte> data, int pos)
    {
        var type = (RecordType)data[pos];
        string name = RecordTypes.GetName((byte)type);
        int lengthSize = BinaryXmlPrimitives.GetLengthFieldSize(type);
        if (data.Length - pos - 1 < lengthSize) throw new BinaryXmlException($"The input ends inside the length of a {name} record", pos);
        // The length read (a negative 32-bit one included) runs past the end of the input.
        BinaryXmlPrimitives.TryReadLength(data[(pos + 1)..], lengthSize, out int payload);
        throw new BinaryXmlException($"The {name} record's {payload} bytes run past the end of the input", pos);
    }

    // ---- Base64 content in pieces ----------------------------------------------------------------------------------
    // A read in pieces belongs to the node it was left on (NodeKey); a read whose key is not the current one starts
    // afresh (the caller moved the reader). Its state: how far into the node's payload or text; base64 characters of a block begun in an earlier node (fewer than four: a block may be
    // split between text nodes, as when text was written in several calls); decoded bytes that did not fit (fewer
    // than three: a piece of one or two bytes).

    private long _pieceKey = -1;
    private int _pieceUsed;
    // The bytes a Bytes record gave as bytes before the read went on in its text (PieceSource): .NET's reader counts
    // what is left of the record by them (TryGetBase64ContentLength).
    private int _pieceBytesTaken;
    // A text node's characters one byte each (ASCII, '?' for any other character: no base64), when they are not
    // ASCII in the input (non-ASCII UTF-8, a Unicode, dictionary or typed record), and the string they come from: a
    // read in pieces counts characters, as .NET's reader, which decodes the characters of the content.
    private byte[]? _pieceText;
    private string? _pieceString;
    private bool _pieceInputAscii;
    // The node's characters are those of its UTF-8 record in the input, not all ASCII: read from its string
    // (_pieceText), but what is left of them is the record's rest (Utf8PieceRest).
    private bool _pieceTextOfUtf8Record;
    private BlockReadState _pieceBlocks;

    /// <summary>Whether a read in pieces is under way on the current node.</summary>
    private bool PieceReadUnderWay => _pieceKey == NodeKey;

    /// <summary>Whether the current node is a text node of a Bytes record not formatted yet: its payload is its bytes (no base64 round trip).</summary>
    private bool IsUndecodedBytesText => _attributeIndex < 0 && _nodeType == XmlNodeType.Text && _value is null
        && IsBytes((RecordType)_valueLocation.ValueType);

    /// <summary>Whether the current node is part of element content that binary reads take (comments are passed over).</summary>
    private bool IsContentText => _attributeIndex < 0
        && _nodeType is XmlNodeType.Text or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace or XmlNodeType.CDATA;

    /// <summary>Starts a read in pieces of the current node (its payload or text from the start).</summary>
    private void EnterPieceNode()
    {
        _pieceKey = NodeKey;
        _pieceUsed = 0;
        _pieceBytesTaken = 0;
        _pieceText = null;
        _pieceString = null;
        _pieceInputAscii = false;
        _pieceTextOfUtf8Record = false;
    }

    /// <summary>
    /// Once reads in pieces have taken part of the current text node, what is left of it: as .NET's reader, whose
    /// pieces consume the node's value, Value is then what is left ("" at its end) and MoveToContent passes over a node
    /// read to its end. <paramref name="bytes"/>: the rest is a Bytes record's payload; else it is characters, one
    /// byte each when <paramref name="text"/> is not null (then the rest is <paramref name="text"/>), else ASCII.
    /// </summary>
    private bool TryGetPieceRest(out ReadOnlySpan<byte> rest, out bool bytes, out string? text)
    {
        rest = default;
        bytes = false;
        text = null;
        if (_attributeIndex >= 0 || _nodeType != XmlNodeType.Text || !PieceReadUnderWay || _pieceUsed == 0) return false;
        if (_pieceText is not null)
        {
            rest = _pieceText.AsSpan(_pieceUsed);
            text = _pieceString![_pieceUsed..];
        }
        else if (IsUndecodedBytesText)
        {
            rest = Data.Slice(_valueLocation.Start + _pieceUsed, _valueLocation.Length - _pieceUsed);
            bytes = true;
        }
        else if (PieceTextIsInput)
        {
            // (ASCII, and checked: the pieces came through PieceSource.)
            rest = Data.Slice(_valueLocation.Start + _pieceUsed, _valueLocation.Length - _pieceUsed);
        }
        else
        {
            return false;
        }
        return true;
    }

    /// <summary>Whether the current text node's characters are its UTF-8 record in the input, not decoded yet.</summary>
    private bool PieceTextIsInput => _value is null && !TextChunkReadUnderWay && IsUtf8Text((RecordType)_valueLocation.ValueType);

    /// <summary>
    /// The current text node's characters one byte each, base64 being ASCII: ASCII UTF-8 straight from the input;
    /// anything else (a Bytes record after a block begun in text as its base64) as its text, a character that is not
    /// ASCII as a byte that is not base64 either, so that pieces and failures fall on the characters .NET's reader's do.
    /// </summary>
    private ReadOnlySpan<byte> PieceSource()
    {
        if (_pieceText is not null) return _pieceText;
        if (PieceTextIsInput)
        {
            CheckTextBytes();
            ReadOnlySpan<byte> utf8 = Data.Slice(_valueLocation.Start, _valueLocation.Length);
            if (_pieceInputAscii || (_pieceInputAscii = Ascii.IsValid(utf8))) return utf8;
            _pieceTextOfUtf8Record = true;
        }
        // ASCII, with '?' for every other character (no best fit, which Latin-1 would use: 'Ů' would become 'U'). The
        // string is what is left of the node after the pieces taken straight from its record (its Value then): a Bytes
        // record's rest as base64, UTF-8 text's rest after whole blocks; the pieces go on from its start.
        _pieceString = NodeValue;
        if (IsUndecodedBytesText) _pieceBytesTaken = _pieceUsed;
        _pieceUsed = 0;
        return _pieceText = Encoding.ASCII.GetBytes(_pieceString);
    }

    /// <summary>
    /// Reads the next bytes of base64 content into <paramref name="destination"/>, as .NET's reader does: bytes left
    /// over from the last call; else bytes taken straight from the records (<see cref="TryReadBase64Straight"/>); else
    /// the content's characters, in blocks (<see cref="ReadBlocks"/>). At the end of the content the reader is on
    /// the node after it and the call returns 0. <paramref name="withinNode"/>: the current node's value only (0 at its
    /// end, the reader not moved).
    /// </summary>
    private int ReadBase64Content(Span<byte> destination, bool withinNode = false)
    {
        if (!PieceReadUnderWay)
        {
            EnterPieceNode();
            _pieceBlocks.Clear();
        }
        if (destination.IsEmpty) return 0;
        // Bytes or characters of a block begun, or Value asked for, make the call one of characters.
        if (!_pieceBlocks.Kept && !ValueStringKept && TryReadBase64Straight(destination, withinNode, out int written)) return written;
        return ReadBlocks(destination, hex: false, withinNode ? BlockSource.NodePieces : BlockSource.ContentPieces, ref _pieceBlocks);
    }

    /// <summary>
    /// Bytes taken straight from the records, as .NET's reader takes them (its value handle's <c>TryReadBase64</c>):
    /// a Bytes record's payload, or UTF-8 text of whole blocks (three bytes or more asked for) that decodes; a record
    /// used up, the reader moves on and tries the next, until one gives bytes. False, with nothing taken from it, at a
    /// node that gives none this way (a comment, other text, an end tag), or before the first Read: the call goes on
    /// in characters.
    /// </summary>
    private bool TryReadBase64Straight(Span<byte> destination, bool withinNode, out int written)
    {
        written = 0;
        while (_readState != ReadState.Initial && _nodeType != XmlNodeType.Comment)
        {
            int left = _valueLocation.Length - _pieceUsed, taken;
            if (IsUndecodedBytesText)
            {
                written = taken = Math.Min(destination.Length, left);
                Data.Slice(_valueLocation.Start + _pieceUsed, taken).CopyTo(destination);
            }
            else if (destination.Length >= 3 && IsContentText && PieceTextIsUtf8Record && Utf8PieceRest() is var rest && rest.Length % 4 == 0)
            {
                CheckTextBytes();
                taken = Math.Min(destination.Length / 3 * 4, rest.Length);
                if (!Base64Blocks.TryDecode(rest[..taken], destination, out written)) return false;
            }
            else
            {
                return false;
            }
            _pieceUsed += taken;
            if (written > 0 || withinNode) return true;
            NextPieceNode();
        }
        return false;
    }

    /// <summary>
    /// Whether the current text node's characters read in pieces are its UTF-8 record's: from the input, or from its
    /// string when they are not all ASCII.
    /// </summary>
    private bool PieceTextIsUtf8Record => _pieceText is null ? PieceTextIsInput : _pieceTextOfUtf8Record;

    /// <summary>
    /// The UTF-8 in the input of the current text node's characters not read yet in pieces
    /// (<see cref="PieceTextIsUtf8Record"/>). .NET's reader reads such a node's characters from its record, so that
    /// what is left of it is that record's rest, which it takes straight when it is whole blocks of base64: after
    /// characters that are not ASCII too (read before a read that failed on them), and when nothing is left.
    /// </summary>
    private ReadOnlySpan<byte> Utf8PieceRest()
    {
        int length = _pieceText is null ? _valueLocation.Length - _pieceUsed : Encoding.UTF8.GetByteCount(_pieceString.AsSpan(_pieceUsed));
        return Data.Slice(_valueLocation.Start + _valueLocation.Length - length, length);
    }

    /// <summary>
    /// The next characters of the content (<paramref name="withinNode"/>: of the current node), ASCII from
    /// <see cref="PieceSource"/>, as many as fit and the node has: what ReadContentAsChars (ReadValueChunk) gives,
    /// moving on past a used-up node and any that is not text; 0 at an element, an end tag or the end of the input.
    /// </summary>
    private int ReadPieceChars(Span<char> into, bool withinNode)
    {
        while (true)
        {
            if (_nodeType is XmlNodeType.Element or XmlNodeType.EndElement || _readState != ReadState.Interactive && _readState != ReadState.Initial) return 0;
            if (IsContentText)
            {
                ReadOnlySpan<byte> source = PieceSource();
                int n = Math.Min(into.Length, source.Length - _pieceUsed);
                if (n > 0)
                {
                    Ascii.ToUtf16(source.Slice(_pieceUsed, n), into, out _);
                    _pieceUsed += n;
                    return n;
                }
            }
            if (withinNode) return 0;
            NextPieceNode();
        }
    }

    /// <summary>Moves to the next node of the content and starts reading it (a block begun may go on in it).</summary>
    private void NextPieceNode()
    {
        Read();
        EnterPieceNode();
    }

    /// <summary>
    /// Reads base64 content (Bytes records or base64 text) in pieces of the caller's size, with no quota, as .NET's
    /// reader does: a stream of any length. One call returns bytes of one text node at most.
    /// </summary>
    public override int ReadContentAsBase64(byte[] buffer, int index, int count) => ReadBinaryContent(buffer, index, count, hex: false);

    /// <summary>Reads BinHex content (the text of the content, decoded), enforcing MaxArrayLength.</summary>
    public override int ReadContentAsBinHex(byte[] buffer, int index, int count) => ReadBinaryContent(buffer, index, count, hex: true);

    /// <inheritdoc/>
    public override int ReadElementContentAsBase64(byte[] buffer, int index, int count) => ReadElementBinaryContent(buffer, index, count, hex: false);

    /// <inheritdoc/>
    public override int ReadElementContentAsBinHex(byte[] buffer, int index, int count) => ReadElementBinaryContent(buffer, index, count, hex: true);

    private int ReadBinaryContent(byte[] buffer, int index, int count, bool hex)
    {
        ThrowHelper.CheckBufferRange(buffer, index, count);
        // As .NET's reader, a node whose value was read in part as characters (in chunks, or as BinHex) goes on as
        // characters, in blocks.
        if (hex || _attributeIndex >= 0 || ValueReadInPart) return ReadValueBinary(buffer.AsSpan(index, count), hex, content: true);
        return ReadBase64Content(buffer.AsSpan(index, count));
    }

    private int ReadElementBinaryContent(byte[] buffer, int index, int count, bool hex)
    {
        // Under way: the last read of an element's content left the reader here (on its content, or on its end tag
        // with bytes still to hand out).
        if (_elementBinaryKey != NodeKey && !PieceReadUnderWay)
        {
            if (NodeType != XmlNodeType.Element) throw new XmlException($"ReadElementContentAs{(hex ? "BinHex" : "Base64")} method is not supported on node type {NodeType}.");
            Read();
        }
        int n = -1;
        try
        {
            n = ReadBinaryContent(buffer, index, count, hex);
        }
        finally
        {
            // As .NET's reader, the element's read is under way after a read that failed too.
            _elementBinaryKey = n == 0 ? -1 : NodeKey;
        }
        // As .NET's reader: the content ends at the element's end tag, or the read fails (at an element inside).
        if (n == 0) ReadEndElement();
        return n;
    }

    private long _elementBinaryKey = -1;

    /// <summary>Whether bytes or characters of a block read before are kept for the current node.</summary>
    private bool ValueTrailKept => _valueTrailKey == NodeKey && _valueBlocks.Kept;

    /// <summary>
    /// Whether the reader keeps anything of the current value (its string, what a partial read left, bytes or characters
    /// of a block): .NET's reader then reads it on as characters, not from the node's record.
    /// </summary>
    private bool ValueKept => ValueStringKept || ValueTrailKept;

    /// <summary>Whether the current node's value has been read in part as characters (ReadValueChunk, through which BinHex is read too).</summary>
    private bool ValueReadInPart => _valueRest is not null || TextChunkReadUnderWay;

    /// <summary>
    /// Reads an element's base64 content into one array, as <see cref="XmlDictionaryReader.ReadElementContentAsBase64()"/>
    /// does. An element whose content is Bytes records only (how .NET's writer and DataContractSerializer write a
    /// <c>byte[]</c>), up to one that closes the element or an end tag, is read in one step: the records are measured,
    /// one array of their total length is filled from them and the reader moves past the end tag. Anything else
    /// (other content, a record that fails its checks, more than MaxArrayLength bytes) is read as XmlDictionaryReader
    /// reads it, node by node, so that failures keep their offsets.
    /// </summary>
    public override byte[] ReadElementContentAsBase64()
        => TryReadBytesElement(out byte[]? bytes) ? bytes : base.ReadElementContentAsBase64();

    private bool TryReadBytesElement([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out byte[]? bytes)
    {
        bytes = null;
        if (!CanReadContentInOneStep(out int offset)) return false;
        ReadOnlySpan<byte> data = Data;
        int pos = offset, total = 0;
        BytesRunEnd end = MeasureBytesRun(data, ref pos, ref total);
        // At least one Bytes record, and nothing but Bytes records up to the element's end; the quota is left to the
        // node-by-node read, which fails where .NET's does.
        bool closed = end == BytesRunEnd.ClosingRecord || (end == BytesRunEnd.OtherRecord && data[pos] == (byte)RecordType.EndElement);
        if (pos == offset || !closed || total > _quotas.MaxArrayLength) return false;
        bytes = total == 0 ? [] : new byte[total];
        // The records through the native reader, which checks them and moves to the element's end tag.
        var r = new BinaryXmlReader(data, _state);
        try
        {
            int at = 0;
            while (r.Read() && r.TokenType == BinaryXmlTokenType.Text)
            {
                ReadOnlySpan<byte> payload = r.ValueSpan;
                payload.CopyTo(bytes.AsSpan(at));
                at += payload.Length;
            }
        }
        catch (XmlException)
        {
            _readState = ReadState.Error;
            throw;
        }
        LeaveElementReadInOneStep();
        return true;
    }

    /// <summary>
    /// Reads the whole base64 content into one array under MaxArrayLength. Bytes records (how DataContractSerializer
    /// writes a byte[]) are copied once into an array of their total length, as .NET's reader does; base64 text after
    /// them is read in pieces into a pooled buffer.
    /// </summary>
    public override byte[] ReadContentAsBase64()
    {
        if (_attributeIndex >= 0) return ReadAttributeBase64();
        // Before the first Read, as .NET's reader (whose content reads move on from a node that is not content): on the
        // first node, an element, whose content is not read.
        if (_readState == ReadState.Initial) Read();
        // As .NET's reader: the value of a text node closing its element (its "atomic" value), when nothing of it is kept
        // (Value, a rest, a block's bytes) and no read in pieces has taken part of it, is decoded whole in place.
        if (_nodeType == XmlNodeType.Text && _textClosesElement && !ValueKept && !PieceReadUnderWay && !IsUndecodedBytesText) return ReadTextRestBase64();
        // A read in pieces is under way, or the node's value was read in part as characters: go on in pieces.
        if (PieceReadUnderWay || ValueReadInPart) return base.ReadContentAsBase64();
        int quota = _quotas.MaxArrayLength;
        // As .NET's reader over a buffer: a Bytes record that closes its element is read whole and passed (below);
        // other content of a length known in advance (TryGetBase64ContentLength: Bytes records up to one that closes
        // the element or an end tag) is read into an array of that length in pieces, which leaves the reader on the
        // last Bytes text node rather than on the end tag.
        if (!(IsUndecodedBytesText && _textClosesElement) && TryGetBase64ContentLength(out int known))
        {
            if (known > quota) ThrowArrayQuota();
            byte[] result = new byte[known];
            for (int read = 0; read < known;)
            {
                int n = ReadBase64Content(result.AsSpan(read));
                if (n == 0) throw new BinaryXmlException($"Base64 content ends {known - read} bytes short of the length its records give", _state.BytesConsumed);
                read += n;
            }
            return result;
        }
        List<(int Start, int Length)> parts = _bytesParts;
        parts.Clear();
        int total = 0;
        while (IsUndecodedBytesText || _nodeType == XmlNodeType.Comment)
        {
            if (_nodeType == XmlNodeType.Text)
            {
                parts.Add((_valueLocation.Start, _valueLocation.Length));
                total += _valueLocation.Length;
                if (total > quota) ThrowArrayQuota();
            }
            Read();
        }
        byte[]? text = null;
        int textLength = 0;
        try
        {
            if (IsContentText)
            {
                text = ArrayPool<byte>.Shared.Rent(4096);
                int n;
                // At most one byte past the quota is read, to find that it is exceeded.
                while ((n = ReadBase64Content(text.AsSpan(textLength, (int)Math.Min(text.Length - textLength, (long)quota - total - textLength + 1)))) > 0)
                {
                    textLength += n;
                    if ((long)total + textLength > quota) ThrowArrayQuota();
                    if (textLength == text.Length)
                    {
                        byte[] larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(text.Length * 2L, Array.MaxLength));
                        text.AsSpan().CopyTo(larger);
                        ArrayPool<byte>.Shared.Return(text);
                        text = larger;
                    }
                }
            }
            byte[] all = total + textLength == 0 ? [] : new byte[total + textLength];
            int at = 0;
            foreach ((int start, int length) in parts)
            {
                Data.Slice(start, length).CopyTo(all.AsSpan(at));
                at += length;
            }
            text.AsSpan(0, textLength).CopyTo(all.AsSpan(at));
            return all;
        }
        finally
        {
            parts.Clear();
            if (text is not null) ArrayPool<byte>.Shared.Return(text);
        }
    }

    private readonly List<(int Start, int Length)> _bytesParts = [];

    /// <summary>
    /// The value of a text node closing its element (what is left of it after chunks of its UTF-8 were read), read whole
    /// as base64 as .NET's reader reads it: decoded in place (white space passed over), the reader moving past it only
    /// if it decodes.
    /// </summary>
    private byte[] ReadTextRestBase64()
    {
        byte[] bytes = DecodeBase64(NodeValue);
        if (bytes.Length > _quotas.MaxArrayLength) ThrowArrayQuota();
        Read();
        return bytes;
    }

    private void ThrowArrayQuota()
        => throw new BinaryXmlException($"The maximum array length quota ({_quotas.MaxArrayLength}) has been exceeded while reading XML data", _state.BytesConsumed);

    /// <summary>A value decoded whole from base64, as .NET's reader decodes it (<see cref="Base64Blocks.DecodeWhole"/>).</summary>
    private byte[] DecodeBase64(string text)
        => Base64Blocks.DecodeWhole(text) ?? throw new BinaryXmlException("The content is not base64", _state.BytesConsumed);

    // ---- A value's bytes in pieces ---------------------------------------------------------------------------------
    // As .NET's reader reads the value of an attribute (or of any node that is not text content) as base64 or BinHex:
    // a Bytes attribute's payload, or a Chars one that is base64 in whole blocks, is handed out from the attribute
    // itself, and what is left is its value from then on (for Value and GetAttribute too); otherwise the value is read
    // as characters (as ReadValueChunk reads it, which leaves the rest as the value) in blocks of four (two for
    // BinHex) and decoded, the bytes of a block that did not fit kept for the next read. A content read that finds
    // the attribute's own bytes used up reads on, and goes on with the node after the start tag, as .NET's does.
    // .NET's reader keeps the bytes and characters left of a block when it moves, and hands them to the next read of
    // any node; here they belong to the node they came from.

    private BlockReadState _valueBlocks;
    private long _valueTrailKey = -1;

    /// <summary>
    /// Reads the current value as base64 in pieces, the reader staying on the node as .NET's does: a text node's
    /// Bytes record copied or base64 text decoded from the input (as content reads do, within the node); any other
    /// node's value as an attribute's is read (see above).
    /// </summary>
    public override int ReadValueAsBase64(byte[] buffer, int offset, int count)
    {
        ThrowHelper.CheckBufferRange(buffer, offset, count);
        // As ReadContentAsBase64: a node whose value was read in part as characters goes on as characters, in blocks
        // (what is left of its value is then used up, as in .NET's reader).
        if (IsContentText && !ValueReadInPart) return ReadBase64Content(buffer.AsSpan(offset, count), withinNode: true);
        return ReadValueBinary(buffer.AsSpan(offset, count), hex: false, content: false);
    }

    /// <summary>
    /// The current value (an attribute's, or a node's that is not text content) as base64 or BinHex, in pieces; with
    /// <paramref name="content"/>, a content read, which reads on when a Bytes or base64 attribute is used up.
    /// </summary>
    private int ReadValueBinary(Span<byte> destination, bool hex, bool content)
    {
        if (destination.IsEmpty) return 0;
        // What is left of a block belongs to the node the last read ended on (a content read may have moved on).
        if (_valueTrailKey != NodeKey) _valueBlocks.Clear();
        try
        {
            if (hex || _attributeIndex < 0 || ValueKept || !TryReadAttributeBase64(_attributes[_attributeIndex], destination, out int n))
                return ReadBlocks(destination, hex, content ? BlockSource.ContentChars : BlockSource.ValueChars, ref _valueBlocks);
            if (n > 0 || !content) return n;
            Read();
            return ReadBase64Content(destination);
        }
        finally
        {
            // What a read keeps belongs to the node it ended on, whether it failed or not (.NET's reader keeps it on a
            // failure too).
            _valueTrailKey = NodeKey;
        }
    }

    /// <summary>
    /// The bytes of an attribute's value taken from the attribute itself, as .NET's reader takes them: a Bytes
    /// record's payload, or a Chars record's text when its length is whole blocks of base64 and the part that fits
    /// decodes; false otherwise (and nothing taken).
    /// </summary>
    private bool TryReadAttributeBase64(Attr a, Span<byte> destination, out int actual)
    {
        actual = 0;
        if (IsNamespaceDeclaration(a)) return false;
        var type = (RecordType)a.AtomicValue.ValueType;
        if (IsBytes(type))
        {
            ValueLocation at = a.AtomicValue;
            actual = Math.Min(destination.Length, at.Length);
            Data.Slice(at.Start, actual).CopyTo(destination);
            a.AtomicValue = at with { Start = at.Start + actual, Length = at.Length - actual };
            a.Value = null;
            return true;
        }
        if (!IsUtf8Text(type) || destination.Length < 3) return false;
        string value = AttributeValue(a);
        if (value.Length % 4 != 0) return false;
        int chars = Math.Min(destination.Length / 3 * 4, value.Length);
        if (!TryDecodeBlocks(value.AsSpan(0, chars), hex: false, destination, out actual)) return false;
        a.Value = value[chars..];
        return true;
    }

    /// <summary>
    /// An attribute's value read whole as base64, as .NET's reader reads it: when nothing of it is kept by the reader
    /// (no value asked for or read in part, no bytes of a block left), what is left of it decoded, the reader staying on
    /// the attribute; otherwise the rest read in pieces, as a content read.
    /// </summary>
    private byte[] ReadAttributeBase64()
    {
        if (ValueKept) return base.ReadContentAsBase64();
        Attr a = _attributes[_attributeIndex];
        if (!IsBytes((RecordType)a.AtomicValue.ValueType) || IsNamespaceDeclaration(a))
        {
            byte[] decoded = DecodeBase64(AttributeValue(a));
            if (decoded.Length > _quotas.MaxArrayLength) ThrowArrayQuota();
            return decoded;
        }
        if (a.AtomicValue.Length > _quotas.MaxArrayLength) ThrowArrayQuota();
        return Data.Slice(a.AtomicValue.Start, a.AtomicValue.Length).ToArray();
    }
}
