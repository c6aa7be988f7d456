using System.Globalization;
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
    private static bool IsAtomicType(RecordType type) => type is RecordType.ZeroText or RecordType.OneText
        or RecordType.Int8Text or RecordType.Int16Text or RecordType.Int32Text or RecordType.Int64Text or RecordType.UInt64Text
        or RecordType.FloatText or RecordType.DoubleText or RecordType.DecimalText or RecordType.DateTimeText
        or RecordType.TimeSpanText or RecordType.UuidText or RecordType.UniqueIdText
        or RecordType.TrueText or RecordType.FalseText or RecordType.BoolText;

    /// <summary>The typed record of the current attribute, or of the current text node when it closes its element.</summary>
    private RecordType CurrentAtomic => _attributeIndex >= 0 ? _attributes[_attributeIndex].Atomic : _nodeType == XmlNodeType.Text ? _atomic : 0;

    private BinaryXmlReader AtomicReader() => new(Data, _attributeIndex >= 0 ? _attributes[_attributeIndex].AtomicState : _atomicState);

    private bool OnAtomicValue => CurrentAtomic != 0;

    private bool IsInt32Record => CurrentAtomic is RecordType.ZeroText or RecordType.OneText or RecordType.Int8Text or RecordType.Int16Text or RecordType.Int32Text;

    /// <summary>Reads the atomic value with <paramref name="convert"/>; a text node is then moved past, as .NET does.</summary>
    private T ReadAtomic<T>(Func<BinaryXmlReader, T> convert)
    {
        T value = convert(AtomicReader());
        if (_attributeIndex < 0) Read();
        return value;
    }

    /// <summary>Reads the content as a string and converts it; a failure is a <see cref="BinaryXmlException"/>.</summary>
    private T ReadConverted<T>(Func<string, T> convert, string typeName)
    {
        long offset = _state.BytesConsumed;
        string s = ReadContentAsString();
        try
        {
            return convert(s);
        }
        catch (Exception e) when (e is FormatException or OverflowException or ArgumentException)
        {
            throw new BinaryXmlException($"The value '{s}' cannot be parsed as the type '{typeName}'", offset, e);
        }
    }

    /// <inheritdoc/>
    public override int ReadContentAsInt()
    {
        if (OnAtomicValue)
        {
            if (IsInt32Record) return ReadAtomic(r => r.GetInt32());
            if (CurrentAtomic == RecordType.Int64Text && AtomicReader().GetInt64() is >= int.MinValue and <= int.MaxValue) return ReadAtomic(r => (int)r.GetInt64());
            if (CurrentAtomic == RecordType.UInt64Text && AtomicReader().GetUInt64() <= int.MaxValue) return ReadAtomic(r => (int)r.GetUInt64());
        }
        return ReadConverted(XmlConvert.ToInt32, "Int32");
    }

    /// <inheritdoc/>
    public override long ReadContentAsLong()
    {
        if (OnAtomicValue)
        {
            if (IsInt32Record) return ReadAtomic(r => (long)r.GetInt32());
            if (CurrentAtomic == RecordType.Int64Text) return ReadAtomic(r => r.GetInt64());
            if (CurrentAtomic == RecordType.UInt64Text && AtomicReader().GetUInt64() <= long.MaxValue) return ReadAtomic(r => (long)r.GetUInt64());
        }
        return ReadConverted(XmlConvert.ToInt64, "Int64");
    }

    /// <inheritdoc/>
    public override double ReadContentAsDouble()
    {
        if (OnAtomicValue)
        {
            switch (CurrentAtomic)
            {
                case RecordType.DoubleText: return ReadAtomic(r => r.GetDouble());
                case RecordType.FloatText: return ReadAtomic(r => (double)r.GetSingle());
                case RecordType.Int64Text: return ReadAtomic(r => (double)r.GetInt64());
                case RecordType.UInt64Text: return ReadAtomic(r => (double)r.GetUInt64());
                case var _ when IsInt32Record: return ReadAtomic(r => (double)r.GetInt32());
            }
        }
        return ReadConverted(XmlConvert.ToDouble, "Double");
    }

    /// <inheritdoc/>
    public override float ReadContentAsFloat()
    {
        if (OnAtomicValue)
        {
            switch (CurrentAtomic)
            {
                case RecordType.FloatText: return ReadAtomic(r => r.GetSingle());
                case RecordType.DoubleText when AtomicReader().GetDouble() is var d && (!double.IsFinite(d) || d is >= float.MinValue and <= float.MaxValue):
                    return ReadAtomic(r => (float)r.GetDouble());
                case RecordType.Int64Text: return ReadAtomic(r => (float)r.GetInt64());
                case RecordType.UInt64Text: return ReadAtomic(r => (float)r.GetUInt64());
                case var _ when IsInt32Record: return ReadAtomic(r => (float)r.GetInt32());
            }
        }
        return ReadConverted(XmlConvert.ToSingle, "Single");
    }

    /// <inheritdoc/>
    public override decimal ReadContentAsDecimal()
    {
        if (OnAtomicValue)
        {
            switch (CurrentAtomic)
            {
                case RecordType.DecimalText: return ReadAtomic(r => r.GetDecimal());
                case RecordType.Int64Text: return ReadAtomic(r => (decimal)r.GetInt64());
                case RecordType.UInt64Text: return ReadAtomic(r => (decimal)r.GetUInt64());
                case var _ when IsInt32Record: return ReadAtomic(r => (decimal)r.GetInt32());
            }
        }
        return ReadConverted(XmlConvert.ToDecimal, "Decimal");
    }

    /// <inheritdoc/>
    public override bool ReadContentAsBoolean()
    {
        if (OnAtomicValue && CurrentAtomic is RecordType.TrueText or RecordType.FalseText or RecordType.BoolText) return ReadAtomic(r => r.GetBoolean());
        return ReadConverted(XmlConvert.ToBoolean, "Boolean");
    }

    /// <inheritdoc/>
    public override DateTime ReadContentAsDateTime()
    {
        if (OnAtomicValue && CurrentAtomic == RecordType.DateTimeText) return ReadAtomic(r => r.GetDateTime());
        return ReadConverted(s => XmlConvert.ToDateTime(s, XmlDateTimeSerializationMode.RoundtripKind), "DateTime");
    }

    /// <inheritdoc/>
    public override TimeSpan ReadContentAsTimeSpan()
    {
        if (OnAtomicValue && CurrentAtomic == RecordType.TimeSpanText) return ReadAtomic(r => r.GetTimeSpan());
        return ReadConverted(XmlConvert.ToTimeSpan, "TimeSpan");
    }

    /// <inheritdoc/>
    public override Guid ReadContentAsGuid()
    {
        if (OnAtomicValue && CurrentAtomic == RecordType.UuidText) return ReadAtomic(r => r.GetGuid());
        return ReadConverted(s => Guid.Parse(s.Trim()), "Guid");
    }

    /// <inheritdoc/>
    public override UniqueId ReadContentAsUniqueId()
    {
        if (OnAtomicValue && CurrentAtomic is RecordType.UniqueIdText or RecordType.UuidText) return ReadAtomic(r => r.GetUniqueId());
        return ReadConverted(s => new UniqueId(s.Trim()), "UniqueId");
    }

    /// <inheritdoc/>
    public override object ReadContentAsObject()
    {
        if (OnAtomicValue)
        {
            return CurrentAtomic switch
            {
                RecordType.Int64Text => ReadAtomic(r => (object)r.GetInt64()),
                RecordType.UInt64Text => ReadAtomic(r => (object)r.GetUInt64()),
                RecordType.FloatText => ReadAtomic(r => (object)r.GetSingle()),
                RecordType.DoubleText => ReadAtomic(r => (object)r.GetDouble()),
                RecordType.DecimalText => ReadAtomic(r => (object)r.GetDecimal()),
                RecordType.DateTimeText => ReadAtomic(r => (object)r.GetDateTime()),
                RecordType.TimeSpanText => ReadAtomic(r => (object)r.GetTimeSpan()),
                RecordType.UuidText => ReadAtomic(r => (object)r.GetGuid()),
                RecordType.UniqueIdText => ReadAtomic(r => (object)r.GetUniqueId()),
                RecordType.TrueText or RecordType.FalseText or RecordType.BoolText => ReadAtomic(r => (object)r.GetBoolean()),
                _ => ReadAtomic(r => (object)r.GetInt32()),
            };
        }
        return ReadContentAsString();
    }
}
