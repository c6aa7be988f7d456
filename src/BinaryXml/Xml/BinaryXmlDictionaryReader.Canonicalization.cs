using System.Text;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlDictionaryReader
{
    private CanonicalizationTee? _tee;

    /// <summary>While canonicalizing: the writer each node read is replayed into.</summary>
    private XmlDictionaryWriter? _c14n;

    /// <summary>Elements replayed since canonicalization started and not yet closed.</summary>
    private int _c14nOpenElements;

    /// <summary>Always true: exclusive canonicalization is supported.</summary>
    public override bool CanCanonicalize => true;

    /// <summary>
    /// Starts writing the exclusive canonical form (C14N, with or without comments, with optional inclusive
    /// prefixes) of the nodes read from now on, the current node included, to <paramref name="stream"/>, as .NET's
    /// binary reader does: a node is canonicalized when the reader moves past it, and the namespace declarations in
    /// scope are known to the canonicalizer.
    /// </summary>
    public override void StartCanonicalization(Stream stream, bool includeComments, string[]? inclusivePrefixes)
    {
        if (_c14n is not null) throw new InvalidOperationException("Canonicalization already started.");
        ArgumentNullException.ThrowIfNull(stream);
        _tee ??= new CanonicalizationTee();
        if (_readState != ReadState.Closed) new BinaryXmlReader(Data, _state).CopyInScopeDeclarations(_tee.InScope);
        _tee.Start(stream, includeComments, inclusivePrefixes, _depth, enclose: true);
        _c14n = _tee.Writer;
        _c14nOpenElements = 0;
    }

    /// <summary>Stops canonicalizing; the canonical bytes are flushed to the stream given to <see cref="StartCanonicalization"/>.</summary>
    public override void EndCanonicalization()
    {
        if (_c14n is null) throw new InvalidOperationException("Canonicalization not started.");
        _c14n = null;
        _tee!.End();
    }

    /// <summary>
    /// The records .NET's reader hands its canonicalizer as formatted characters (its ValueHandle.Sign); every other
    /// text record (characters, dictionary strings, Zero/One/True/False, lists, qualified names) is text to escape.
    /// </summary>
    private static bool IsFormattedRecord(RecordType record) => record is RecordType.Int8Text or RecordType.Int16Text
        or RecordType.Int32Text or RecordType.Int64Text or RecordType.UInt64Text or RecordType.FloatText or RecordType.DoubleText
        or RecordType.DecimalText or RecordType.DateTimeText or RecordType.Bytes8Text or RecordType.Bytes16Text
        or RecordType.Bytes32Text or RecordType.UniqueIdText or RecordType.UuidText or RecordType.TimeSpanText;

    /// <summary>
    /// Replays text to escape, <paramref name="value"/>, read from the record <paramref name="record"/> whose bytes
    /// left are the <paramref name="length"/> at <paramref name="start"/> of the input. .NET's reader hands its
    /// canonicalizer a Chars record's UTF-8 as bytes, which its node writer escapes by the byte: U+FFFE and U+FFFF
    /// (EF BF BE and EF BF BF) become character references only where their index in the reader's buffer, plus two, is
    /// below the value's byte count (it compares the buffer's index, not the value's, with the count), and are written
    /// as they are elsewhere, which is nearly everywhere but at a document's start. Other text is handed over as
    /// characters, where both always become references, as the replay writer's strings do. The index in .NET's buffer
    /// of the value's first byte is <paramref name="bufferIndex"/> (<see cref="BufferIndex"/>).
    /// </summary>
    private void WriteCanonicalText(XmlDictionaryWriter c14n, string value, RecordType record, int start, int length, long bufferIndex)
    {
        if (record is not (RecordType.Chars8Text or RecordType.Chars16Text or RecordType.Chars32Text) || !value.AsSpan().ContainsAny('\uFFFE', '\uFFFF'))
        {
            c14n.WriteString(value);
            return;
        }
        ReadOnlySpan<byte> bytes = Data.Slice(start, length);
        // Below this index of the value's bytes they are references, from it on as they are.
        long rawFrom = length - 2 - bufferIndex;
        int written = 0;
        for (int at = 0; at + 2 < bytes.Length; at++)
        {
            if (bytes[at] != 0xEF || bytes[at + 1] != 0xBF || (bytes[at + 2] & 0xFE) != 0xBE || at < rawFrom) continue;
            if (at > written) c14n.WriteString(Encoding.UTF8.GetString(bytes[written..at]));
            c14n.WriteRaw(bytes[at + 2] == 0xBE ? "\uFFFE" : "\uFFFF");
            written = at + 3;
            at += 2;
        }
        if (written == 0) c14n.WriteString(value);
        else if (written < bytes.Length) c14n.WriteString(Encoding.UTF8.GetString(bytes[written..]));
    }

    private static bool IsXmlns(Attr a) => a.Namespace == XmlnsNamespace && (a.Prefix == "xmlns" || a.LocalName == "xmlns");

    private string XmlnsPrefix(Attr a) => a.Prefix.Length == 0 ? "" : AttrLocalName(a);

    /// <summary>Replays the current node into the canonicalizer, before the reader moves past it.</summary>
    private void CanonicalizeNode()
    {
        XmlDictionaryWriter c14n = _c14n!;
        // .NET canonicalizes the node it is on: on an attribute there is no such node, and it fails the same way.
        if (_attributeIndex >= 0) throw new InvalidOperationException("Operation is not valid due to the current state of the object.");
        switch (_nodeType)
        {
            case XmlNodeType.Element:
            {
                // Names are replayed by prefix, and xmlns attributes as read: the canonicalizer resolves prefixes
                // itself, as .NET's does (a prefix is given its namespace only where the element declares it).
                bool declaresOwnPrefix = false;
                List<Attr> attributes = Attributes;
                for (int i = 0; i < _attributeCount; i++)
                {
                    Attr a = attributes[i];
                    if (IsXmlns(a) && XmlnsPrefix(a) == CurrentPrefix) declaresOwnPrefix = true;
                }
                c14n.WriteStartElement(CurrentPrefix, CurrentLocalName, declaresOwnPrefix ? CurrentNamespace : null);
                for (int i = 0; i < _attributeCount; i++)
                {
                    Attr a = attributes[i];
                    if (IsXmlns(a)) c14n.WriteXmlnsAttribute(XmlnsPrefix(a), AttributeValue(a));
                }
                for (int i = 0; i < _attributeCount; i++)
                {
                    Attr a = attributes[i];
                    if (IsXmlns(a)) continue;
                    c14n.WriteStartAttribute(a.Prefix, AttrLocalName(a), null);
                    ValueLocation at = a.AtomicValue;
                    WriteCanonicalText(c14n, AttributeValue(a), (RecordType)at.ValueType, at.Start, at.Length, BufferIndex(at.Start, _openElements[_depth].TagStart, _depth));
                    c14n.WriteEndAttribute();
                }
                _tee!.CloseStartTag();
                _c14nOpenElements++;
                break;
            }
            case XmlNodeType.EndElement:
                if (_c14nOpenElements == 0)
                    throw new InvalidOperationException("An element that was open when canonicalization started cannot be closed before EndCanonicalization.");
                _c14nOpenElements--;
                c14n.WriteEndElement();
                break;
            case XmlNodeType.Text:
                // .NET hands text records to its canonicalizer as text to escape (dropped outside the root) and
                // typed records as formatted characters (kept even outside the root): replayed as string and raw. What
                // it hands over is its value handle: what reads from the record left, whole when the reads took a
                // string kept from it (Value asked for, a typed value formatted).
                if (IsFormattedRecord(_textRecord)) c14n.WriteRaw(RecordValue);
                // Outside the root text is dropped, so it is not replayed raw in part; text partly read in pieces is
                // replayed as a string.
                else if (_c14nOpenElements == 0 || PieceReadUnderWay) c14n.WriteString(RecordValue);
                else
                {
                    int read = TextChunkReadUnderWay ? _textChunkBytes : 0;
                    int start = _valueLocation.Start + read;
                    // The record's start, before its type and length field (needed for Chars records only).
                    int recordStart = IsUtf8Text(_textRecord) ? _valueLocation.Start - 1 - BinaryXmlPrimitives.GetLengthFieldSize(_textRecord) : _valueLocation.Start;
                    WriteCanonicalText(c14n, RecordValue, _textRecord, start, _valueLocation.Length - read, BufferIndex(start, recordStart, _depth));
                }
                break;
            case XmlNodeType.Comment:
                c14n.WriteComment(NodeValue);
                break;
        }
    }
}
