using System.Globalization;
using System.Runtime.CompilerServices;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Typed content reads. As in .NET's binary reader, a typed record that closes its element (an "atomic" value) is
/// converted from its binary form, with .NET's rules for reading one type as another (an Int64 that fits read as
/// int, a Float read as double, …); any other content is read as a string and converted with <see cref="XmlConvert"/>,
/// a failed conversion throwing <see cref="BinaryXmlException"/>.
/// </summary>
public sealed partial class BinaryXmlDictionaryReader
{
    /// <summary>A record with a typed value (not text, not bytes): .NET's atomic values.</summary>
    private static bool IsAtomicType(RecordType type) => RecordTypes.GetValueType(type) is var t && t != typeof(string) && t != typeof(byte[]);

    /// <summary>
    /// The typed record of the current attribute, or of the current text node when it closes its element; none once
    /// Value has been asked for (.NET's reader then reads the content as that string, see ReadContentAsString).
    /// </summary>
    private RecordType CurrentAtomic => _valueAsked ? 0 : _attributeIndex >= 0 ? _attributes[_attributeIndex].Atomic : _nodeType == XmlNodeType.Text ? _atomic : 0;

    private BinaryXmlReader ValueReader() => ValueReader(_attributeIndex >= 0 ? _attributes[_attributeIndex].AtomicValue : _valueLocation);

    /// <summary>
    /// Whether the current node is a text record closing its element (its value is .NET's "atomic" value, read whole by
    /// content reads: a typed record's, or characters), Value not asked for on it.
    /// </summary>
    private bool IsAtomicText => !_valueAsked && _attributeIndex < 0 && _nodeType == XmlNodeType.Text && _textClosesElement;

    /// <summary>Returns an atomic value once read; a text node is moved past, as .NET does (an attribute stays).</summary>
    private T Consumed<T>(T value)
    {
        if (_attributeIndex < 0) Read();
        return value;
    }

    /// <summary>Reads the content as a string and converts it; a failure is a <see cref="BinaryXmlException"/>.</summary>
    private T ReadConverted<T>(Func<string, T> convert, string typeName)
    {
        long offset = _state.BytesConsumed;
        if (IsAtomicText)
        {
            // As .NET's reader: text closing its element is converted before the reader moves past it, so that a
            // failure leaves the reader on it (and, converted from its value, is not held to MaxStringContentLength).
            T value = Convert(NodeValue);
            Read();
            return value;
        }
        return Convert(ReadContentAsString());

        T Convert(string s)
        {
            try
            {
                return convert(s);
            }
            catch (Exception e) when (e is FormatException or OverflowException or ArgumentException)
            {
                throw new BinaryXmlException($"The value '{s}' cannot be parsed as the type '{typeName}'", offset, e);
            }
        }
    }

    // Integer records in range convert directly (the native reader's rule is .NET's); anything else goes through text.

    /// <inheritdoc/>
    public override int ReadContentAsInt()
        => CurrentAtomic != 0 && ValueReader().TryGetInt32(out int value) ? Consumed(value) : ReadConverted(XmlConvert.ToInt32, "Int32");

    /// <inheritdoc/>
    public override long ReadContentAsLong()
        => CurrentAtomic != 0 && ValueReader().TryGetInt64(out long value) ? Consumed(value) : ReadConverted(XmlConvert.ToInt64, "Int64");

    /// <inheritdoc/>
    public override double ReadContentAsDouble()
        => CurrentAtomic is var type and not 0 && DoubleRead.TryRead(type, ValueReader().ValueSpan, out double value)
            ? Consumed(value)
            : ReadConverted(XmlConvert.ToDouble, "Double");

    /// <inheritdoc/>
    public override float ReadContentAsFloat()
        => CurrentAtomic is var type and not 0 && SingleRead.TryRead(type, ValueReader().ValueSpan, out float value)
            ? Consumed(value)
            : ReadConverted(XmlConvert.ToSingle, "Single");

    /// <inheritdoc/>
    public override decimal ReadContentAsDecimal()
        => CurrentAtomic is var type and not 0 && DecimalRead.TryRead(type, ValueReader().ValueSpan, out decimal value)
            ? Consumed(value)
            : ReadConverted(XmlConvert.ToDecimal, "Decimal");

    /// <inheritdoc/>
    public override bool ReadContentAsBoolean()
        => CurrentAtomic is RecordType.TrueText or RecordType.FalseText or RecordType.BoolText ? Consumed(ValueReader().GetBoolean()) : ReadConverted(XmlConvert.ToBoolean, "Boolean");

    /// <inheritdoc/>
    public override DateTime ReadContentAsDateTime()
        => CurrentAtomic == RecordType.DateTimeText ? Consumed(ValueReader().GetDateTime()) : ReadConverted(s => XmlConvert.ToDateTime(s, XmlDateTimeSerializationMode.RoundtripKind), "DateTime");

    /// <inheritdoc/>
    public override TimeSpan ReadContentAsTimeSpan()
        => CurrentAtomic == RecordType.TimeSpanText ? Consumed(ValueReader().GetTimeSpan()) : ReadConverted(XmlConvert.ToTimeSpan, "TimeSpan");

    /// <inheritdoc/>
    public override Guid ReadContentAsGuid()
        => CurrentAtomic == RecordType.UuidText ? Consumed(ValueReader().GetGuid()) : ReadConverted(s => Guid.Parse(s.Trim()), "Guid");

    /// <inheritdoc/>
    /// <remarks>
    /// As in .NET's binary reader, only UniqueIdText is read as a GUID; a UuidText value is read from its text (a
    /// UniqueId of the GUID's plain form, not <c>urn:uuid:…</c>).
    /// </remarks>
    public override UniqueId ReadContentAsUniqueId()
        => CurrentAtomic == RecordType.UniqueIdText ? Consumed(ValueReader().GetUniqueId()) : ReadConverted(s => new UniqueId(s.Trim()), "UniqueId");

    /// <summary>
    /// Reads the content as <paramref name="type"/>: as .NET's binary reader does, the types it reads typed (the
    /// primitives, <see cref="DateTime"/>, <see cref="Guid"/>, <see cref="TimeSpan"/>, <see cref="UniqueId"/>,
    /// <see cref="ulong"/>, <see cref="object"/> and <see cref="string"/>) through the typed reads, a typed record
    /// converted directly; any other type as <see cref="XmlDictionaryReader"/> reads it, from the content's text.
    /// </summary>
    public override object ReadContentAs(Type type, IXmlNamespaceResolver? namespaceResolver)
    {
        // A null type goes to the base class, which checks the node first (as .NET's reader does).
        if (type == typeof(ulong)) return ReadContentAsUInt64();
        if (type == typeof(bool)) return ReadContentAsBoolean();
        if (type == typeof(int)) return ReadContentAsInt();
        if (type == typeof(long)) return ReadContentAsLong();
        if (type == typeof(float)) return ReadContentAsFloat();
        if (type == typeof(double)) return ReadContentAsDouble();
        if (type == typeof(decimal)) return ReadContentAsDecimal();
        if (type == typeof(DateTime)) return ReadContentAsDateTime();
        if (type == typeof(UniqueId)) return ReadContentAsUniqueId();
        if (type == typeof(Guid)) return ReadContentAsGuid();
        if (type == typeof(TimeSpan)) return ReadContentAsTimeSpan();
        if (type == typeof(object)) return ReadContentAsObject();
        if (type == typeof(string))
        {
            // .NET's reader leaves a string to XmlReader, which refuses an element (or no node) where
            // ReadContentAsString itself returns "".
            if (NodeType is XmlNodeType.Element or XmlNodeType.None)
                throw new InvalidOperationException($"The ReadContentAs method is not supported on node type {NodeType}.");
            return ReadContentAsString();
        }
        return base.ReadContentAs(type, namespaceResolver);
    }

    /// <summary>
    /// Whether the current value is Bytes that .NET's reader hands out whole as an array: an attribute's, or one
    /// Bytes record closing its element (and not partly read as base64 already).
    /// </summary>
    private bool IsWholeBytesValue => _attributeIndex >= 0
        ? _attributes[_attributeIndex].ValueType == typeof(byte[])
        : _nodeType == XmlNodeType.Text && _textClosesElement && IsBytes(_textRecord) && !PieceReadUnderWay;

    /// <summary>
    /// An unsigned 64-bit value: an integer record that is not negative, or UInt64Text; anything else from its text,
    /// with a sign allowed as .NET's binary reader allows it ("+42", "-0"; <c>XmlConvert.ToUInt64</c> refuses both).
    /// </summary>
    private ulong ReadContentAsUInt64()
        => CurrentAtomic != 0 && ValueReader().TryGetUInt64(out ulong value) ? Consumed(value)
            : ReadConverted(s => ulong.Parse(s, NumberStyles.Integer, NumberFormatInfo.InvariantInfo), "UInt64");

    /// <inheritdoc/>
    public override object ReadContentAsObject()
    {
        // As .NET's reader: the string once Value has been asked for (ValueType is string then); the bytes of an
        // attribute's Bytes value, or of a Bytes record closing its element, as an array.
        if (_valueAsked) return ReadContentAsString();
        if (IsWholeBytesValue) return Consumed<object>(ValueReader().ValueSpan.ToArray());
        RecordType type = CurrentAtomic;
        // Characters closing their element, or an attribute's, are their value (as a typed read converts it, not held
        // to MaxStringContentLength); other text is read as a string.
        if (type == 0)
        {
            // A list attribute's value is its items, each converted as a typed value is (.NET's ValueType for it is
            // object[]).
            if (_attributeIndex >= 0 && _attributes[_attributeIndex].ListItems is { } items) return items.Clone();
            // An attribute's text, as text closing its element, is its value, not held to MaxStringContentLength.
            return _attributeIndex >= 0 ? NodeValue : IsAtomicText ? Consumed<object>(NodeValue) : ReadContentAsString();
        }
        BinaryXmlReader r = ValueReader();
        return Consumed(AtomicObject(type, ref r));
    }

    /// <summary>A typed record's value as the object .NET's reader gives for it (an integer that fits as int).</summary>
    private static object AtomicObject(RecordType type, ref BinaryXmlReader r) => type switch
    {
        RecordType.Int64Text => r.GetInt64(),
        RecordType.UInt64Text => r.GetUInt64(),
        RecordType.FloatText => r.GetSingle(),
        RecordType.DoubleText => r.GetDouble(),
        RecordType.DecimalText => r.GetDecimal(),
        RecordType.DateTimeText => r.GetDateTime(),
        RecordType.TimeSpanText => r.GetTimeSpan(),
        RecordType.UuidText => r.GetGuid(),
        RecordType.UniqueIdText => r.GetUniqueId(),
        RecordType.TrueText or RecordType.FalseText or RecordType.BoolText => r.GetBoolean(),
        _ => r.GetInt32(),
    };

    // ---- Element content in one step ----------------------------------------------------------------------------
    // As .NET's reader does, an element whose whole content is one typed record closing it (…WithEndElement) is read
    // with its value and end tag in one step, without presenting the text and end-element nodes.

    /// <summary>
    /// The record after the current element's start tag when it is a text record closing the element
    /// (…WithEndElement): its plain (even) type, and its offset. Only on an element read from its record (not an
    /// Array's presented item, not while canonicalizing). Moves nothing.
    /// </summary>
    private bool TryPeekClosingContent(out RecordType record, out int offset)
    {
        record = 0;
        if (!CanReadContentInOneStep(out offset)) return false;
        byte type = Data[offset];
        if ((type & 1) == 0 || RecordTypes.GetFamily(type) != RecordFamily.Text) return false;
        record = (RecordType)(type & 0xFE);
        return true;
    }

    /// <summary>
    /// Whether the reader is on a start tag (not on its attributes, not canonicalizing, not on an array's items) whose
    /// content may be read in one native step; where the content begins.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool CanReadContentInOneStep(out int offset)
    {
        offset = _state.BytesConsumed;
        // _count is the length of Data, whose span is built by the callers that go on.
        return _nodeType == XmlNodeType.Element && _attributeIndex < 0 && _c14n is null && !HasArrayItemsLeft
            && _readState == ReadState.Interactive && offset < _count;
    }

    /// <summary>
    /// The common case of <see cref="TryReadTextClosingElement"/>, and all of it that ReadElementString takes: UTF-8
    /// text within MaxStringContentLength closing the element or followed by its end tag, read, checked and decoded at
    /// once. Otherwise false and nothing moved: text over the quota is left to the steps node by node, which fail where
    /// .NET's reader fails.
    /// </summary>
    private bool TryReadCharsTextClosingElement([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? text)
    {
        text = null;
        if (!CanReadContentInOneStep(out _) || !NativeReader.TryReadCharsTextClosingElement(_quotas.MaxStringContentLength, out text)) return false;
        LeaveElementReadInOneStep();
        return true;
    }

    /// <summary>
    /// When the current element's whole content is one character record closing it, reads element, text and end tag
    /// in one step; otherwise false and nothing moved.
    /// </summary>
    private bool TryReadTextClosingElement([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? text)
    {
        if (TryReadCharsTextClosingElement(out text)) return true;
        if (!CanReadContentInOneStep(out _)) return false;
        if (!TryPeekClosingContent(out RecordType record, out _) || !(IsCharsText(record) || record is RecordType.DictionaryText or RecordType.EmptyText))
            return false;
        text = ReadClosingText(record);
        return true;
    }

    /// <summary>
    /// Reads the text record found by a peek (<paramref name="record"/>, its plain type) and the end tag it implies,
    /// and moves past them. As .NET's reader, text over MaxStringContentLength fails once read: past the end tag after
    /// a Chars8Text or DictionaryText record (its one-step read), on the end tag after another.
    /// </summary>
    private string ReadClosingText(RecordType record)
    {
        var r = NativeReader;
        string text;
        try
        {
            r.Read();
            text = r.GetString();
            r.Read();
        }
        catch (XmlException)
        {
            _readState = ReadState.Error;
            throw;
        }
        if (text.Length > _quotas.MaxStringContentLength)
        {
            int textEnd = _state.BytesConsumed;
            if (record is RecordType.Chars8Text or RecordType.DictionaryText) LeaveElementReadInOneStep();
            else SetElementNode(XmlNodeType.EndElement, _depth);
            ThrowStringQuota(textEnd);
        }
        LeaveElementReadInOneStep();
        return text;
    }

    /// <summary>
    /// After a one-step read, the native reader on the element's EndElement: moves to the node after it, as reading
    /// the end tag would (Read leaves the element's xml:lang/xml:space scope).
    /// </summary>
    private void LeaveElementReadInOneStep()
    {
        _nodeType = XmlNodeType.EndElement;
        Read();
    }

    /// <summary>
    /// One typed element read: the records it takes and how it converts them (the same rule as ReadContentAs* on that
    /// record). Static members of a struct, so that each read's code is specialized, with no delegate call.
    /// </summary>
    private interface IAtomicRead<T> : IFixedTextRead<T>;

    // The typed records each type takes directly are the native reader's rules (any other record is read through its
    // text, as .NET's reader reads it).

    private struct Int32Read : IAtomicRead<int>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out int value) => BinaryXmlReader.TryReadInt32Record(record, payload, out value);
    }

    private struct Int64Read : IAtomicRead<long>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out long value) => BinaryXmlReader.TryReadInt64Record(record, payload, out value);
    }

    private struct BooleanRead : IAtomicRead<bool>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out bool value) => BinaryXmlReader.TryReadBooleanRecord(record, payload, out value);
    }

    private struct DateTimeRead : IAtomicRead<DateTime>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out DateTime value) => BinaryXmlReader.TryReadDateTimeRecord(record, payload, out value);
    }

    private struct DecimalRead : IAtomicRead<decimal>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out decimal value) => BinaryXmlReader.TryReadDecimalRecord(record, payload, out value);
    }

    private struct DoubleRead : IAtomicRead<double>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out double value) => BinaryXmlReader.TryReadDoubleRecord(record, payload, out value);
    }

    private struct SingleRead : IAtomicRead<float>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out float value) => BinaryXmlReader.TryReadSingleRecord(record, payload, out value);
    }

    /// <summary>Only UuidText: .NET's reader reads a UniqueIdText record as a GUID through its text (<c>urn:uuid:…</c>), and fails, where the native reader takes it.</summary>
    private struct GuidRead : IAtomicRead<Guid>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out Guid value)
        {
            value = default;
            return record == RecordType.UuidText && BinaryXmlPrimitives.TryReadGuid(payload, out value);
        }
    }

    private struct TimeSpanRead : IAtomicRead<TimeSpan>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out TimeSpan value) => BinaryXmlReader.TryReadTimeSpanRecord(record, payload, out value);
    }

    /// <summary>Takes a UniqueIdText record (its 16 bytes are any GUID); the caller builds the UniqueId from the input.</summary>
    private struct UniqueIdTextRead : IAtomicRead<bool>
    {
        public static bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out bool value)
        {
            value = record == RecordType.UniqueIdText;
            return value;
        }
    }

    /// <summary>
    /// Reads an element whose content is one typed record closing it, when <typeparamref name="TRead"/> takes the
    /// record and converts it: element, value and end tag in one step. Otherwise false and nothing moved.
    /// </summary>
    private bool TryReadAtomicElement<T, TRead>(out T value) where TRead : struct, IAtomicRead<T>
    {
        value = default!;
        if (!CanReadContentInOneStep(out _)) return false;
        var r = NativeReader;
        if (!r.TryReadFixedTextClosingElement<T, TRead>(out value)) return false;
        LeaveElementReadInOneStep();
        return true;
    }

    /// <summary>
    /// Reads an element whose content is one character record closing it, when its text is a plain number or boolean
    /// (<see cref="PlainValueText"/>): element, value and end tag in one step. Otherwise false and nothing moved. Any
    /// other text (white space around it, INF, an exponent in a decimal, an integer out of range) is read node by node
    /// and fails there as .NET's reader fails; as there, typed reads are not held to MaxStringContentLength.
    /// </summary>
    private bool TryReadTextElement<T>(out T value)
    {
        value = default!;
        if (!CanReadContentInOneStep(out _)) return false;
        var r = NativeReader;
        if (!r.TryReadPlainTextClosingElement(int.MaxValue, out value)) return false;
        LeaveElementReadInOneStep();
        return true;
    }

    /// <inheritdoc/>
    public override int ReadElementContentAsInt()
        => TryReadAtomicElement<int, Int32Read>(out int value) || TryReadTextElement<int>(out value) ? value : base.ReadElementContentAsInt();

    /// <inheritdoc/>
    public override long ReadElementContentAsLong()
        => TryReadAtomicElement<long, Int64Read>(out long value) || TryReadTextElement<long>(out value) ? value : base.ReadElementContentAsLong();

    /// <inheritdoc/>
    public override bool ReadElementContentAsBoolean()
        => TryReadAtomicElement<bool, BooleanRead>(out bool value) || TryReadTextElement<bool>(out value) ? value : base.ReadElementContentAsBoolean();

    /// <inheritdoc/>
    public override DateTime ReadElementContentAsDateTime()
        => TryReadAtomicElement<DateTime, DateTimeRead>(out DateTime value) ? value : base.ReadElementContentAsDateTime();

    /// <inheritdoc/>
    public override decimal ReadElementContentAsDecimal()
        => TryReadAtomicElement<decimal, DecimalRead>(out decimal value) || TryReadTextElement<decimal>(out value) ? value : base.ReadElementContentAsDecimal();

    /// <inheritdoc/>
    public override double ReadElementContentAsDouble()
        => TryReadAtomicElement<double, DoubleRead>(out double value) || TryReadTextElement<double>(out value) ? value : base.ReadElementContentAsDouble();

    /// <inheritdoc/>
    public override Guid ReadElementContentAsGuid() => TryReadAtomicElement<Guid, GuidRead>(out Guid value) ? value : base.ReadElementContentAsGuid();

    /// <inheritdoc/>
    public override float ReadElementContentAsFloat()
        => TryReadAtomicElement<float, SingleRead>(out float value) || TryReadTextElement<float>(out value) ? value : base.ReadElementContentAsFloat();

    /// <inheritdoc/>
    public override TimeSpan ReadElementContentAsTimeSpan()
        => TryReadAtomicElement<TimeSpan, TimeSpanRead>(out TimeSpan value) ? value : base.ReadElementContentAsTimeSpan();

    /// <inheritdoc/>
    public override UniqueId ReadElementContentAsUniqueId()
    {
        // A UniqueIdText record closing the element: the UniqueId reads its 16 bytes from the input's array, as .NET's
        // reader builds it (no copy of them is allocated).
        int recordStart = _state.BytesConsumed;
        if (TryReadAtomicElement<bool, UniqueIdTextRead>(out _)) return new UniqueId(_buffer, _offset + recordStart + 1);
        return base.ReadElementContentAsUniqueId();
    }

    // ---- Element content by name ----------------------------------------------------------------------------------
    // XmlReader checks the names through virtual NodeType, LocalName and NamespaceURI calls (an element's local name
    // atomized to compare it); these compare directly and leave any other case, and its exception, to the base class.

    /// <summary>Whether the reader is on an element with these names, the check XmlReader makes before reading its content.</summary>
    private bool IsElementNamed(string localName, string namespaceUri)
    {
        if (_attributeIndex >= 0 || _nodeType != XmlNodeType.Element || string.IsNullOrEmpty(localName) || namespaceUri is null) return false;
        return ElementNameEquals(localName, namespaceUri);
    }

    /// <inheritdoc/>
    public override string ReadElementContentAsString(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsString() : base.ReadElementContentAsString(localName, namespaceURI);

    /// <inheritdoc/>
    public override int ReadElementContentAsInt(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsInt() : base.ReadElementContentAsInt(localName, namespaceURI);

    /// <inheritdoc/>
    public override long ReadElementContentAsLong(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsLong() : base.ReadElementContentAsLong(localName, namespaceURI);

    /// <inheritdoc/>
    public override bool ReadElementContentAsBoolean(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsBoolean() : base.ReadElementContentAsBoolean(localName, namespaceURI);

    /// <inheritdoc/>
    public override DateTime ReadElementContentAsDateTime(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsDateTime() : base.ReadElementContentAsDateTime(localName, namespaceURI);

    /// <inheritdoc/>
    public override decimal ReadElementContentAsDecimal(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsDecimal() : base.ReadElementContentAsDecimal(localName, namespaceURI);

    /// <inheritdoc/>
    public override double ReadElementContentAsDouble(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsDouble() : base.ReadElementContentAsDouble(localName, namespaceURI);

    /// <inheritdoc/>
    public override float ReadElementContentAsFloat(string localName, string namespaceURI)
        => IsElementNamed(localName, namespaceURI) ? ReadElementContentAsFloat() : base.ReadElementContentAsFloat(localName, namespaceURI);
}
