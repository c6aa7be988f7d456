namespace BinaryXml;

/// <summary>The family a record type byte belongs to (MC-NBFX 2.1.1).</summary>
public enum RecordFamily : byte
{
    /// <summary>A reserved byte: 0x00, 0x78–0x7F, 0xA5, 0xA7, 0xBE–0xFF.</summary>
    Reserved,
    /// <summary>0x01 EndElement.</summary>
    EndElement,
    /// <summary>0x02 Comment.</summary>
    Comment,
    /// <summary>0x03 Array.</summary>
    Array,
    /// <summary>An attribute record with a name and a text value (0x04–0x07, 0x0C–0x3F).</summary>
    Attribute,
    /// <summary>A namespace declaration record (0x08–0x0B).</summary>
    XmlnsAttribute,
    /// <summary>An element record (0x40–0x77).</summary>
    Element,
    /// <summary>A text record (0x80–0xBD, except the reserved 0xA5 and 0xA7).</summary>
    Text,
}

/// <summary>Facts about record type bytes, answered from tables: the one place these rules live.</summary>
public static class RecordTypes
{
    private static readonly RecordFamily[] s_family = BuildFamilies();
    private static readonly sbyte[] s_fixedSize = BuildFixedSizes();
    private static readonly string[] s_names = BuildNames();

    /// <summary>The family of a type byte.</summary>
    public static RecordFamily GetFamily(byte type) => s_family[type];

    /// <summary>Whether the byte is an element record (0x40–0x77): a range test, without the table.</summary>
    public static bool IsElement(byte type) => (uint)(type - FirstElement) <= LastElement - FirstElement;

    // The element records' range, for the family table and IsElement.
    private const byte FirstElement = 0x40, LastElement = 0x77;

    /// <summary>
    /// Whether the byte is an attribute or namespace declaration record (0x04–0x3F, the families
    /// <see cref="RecordFamily.Attribute"/> and <see cref="RecordFamily.XmlnsAttribute"/>): a range test, without the table.
    /// </summary>
    public static bool IsAttributeOrXmlns(byte type) => (uint)(type - FirstAttribute) <= LastAttribute - FirstAttribute;

    // The attribute and namespace declaration records' range, for the family table and IsAttributeOrXmlns.
    private const byte FirstAttribute = 0x04, LastAttribute = 0x3F;

    /// <summary>Whether the byte is an attribute, namespace, element, text or miscellaneous record.</summary>
    public static bool IsDefined(byte type) => s_family[type] != RecordFamily.Reserved;

    /// <summary>Whether a text record carries an implied end element (its type byte is odd).</summary>
    public static bool IsWithEndElement(byte type) => s_family[type] == RecordFamily.Text && (type & 1) != 0;

    /// <summary>
    /// The payload size of a text record whose payload has a fixed size, or -1 for the variable ones
    /// (Chars, Bytes, UnicodeChars, DictionaryText, QNameDictionaryText).
    /// </summary>
    public static int GetFixedPayloadSize(byte type) => s_fixedSize[type];

    /// <summary>The specification's name of the record, or <c>Reserved(0xNN)</c>.</summary>
    public static string GetName(byte type) => s_names[type];

    /// <summary>
    /// The CLR type a text record's value has, as <see cref="System.Xml.XmlReader.ValueType"/> reports it on .NET's
    /// reader: int for Zero/One/Int8/16/32, long, ulong, float, double, decimal, DateTime, TimeSpan, Guid (UuidText),
    /// UniqueId, bool for True/False/Bool, byte[] for Bytes, string for the rest. Takes the plain (even) type.
    /// </summary>
    public static Type GetValueType(RecordType type) => s_valueType[(byte)type];

    private static readonly Type[] s_valueType = BuildValueTypes();

    private static Type[] BuildValueTypes()
    {
        var types = new Type[256];
        for (int b = 0; b < types.Length; b++) types[b] = ValueTypeOf((RecordType)b);
        return types;
    }

    private static Type ValueTypeOf(RecordType type) => type switch
    {
        RecordType.ZeroText or RecordType.OneText or RecordType.Int8Text or RecordType.Int16Text or RecordType.Int32Text => typeof(int),
        RecordType.Int64Text => typeof(long),
        RecordType.UInt64Text => typeof(ulong),
        RecordType.FloatText => typeof(float),
        RecordType.DoubleText => typeof(double),
        RecordType.DecimalText => typeof(decimal),
        RecordType.DateTimeText => typeof(DateTime),
        RecordType.TimeSpanText => typeof(TimeSpan),
        RecordType.UuidText => typeof(Guid),
        RecordType.UniqueIdText => typeof(System.Xml.UniqueId),
        RecordType.TrueText or RecordType.FalseText or RecordType.BoolText => typeof(bool),
        RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text => typeof(byte[]),
        _ => typeof(string),
    };

    /// <summary>The lower-case prefix letter of a one-letter prefix record (0x0C–0x3F, 0x44–0x77), or '\0'.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public static char GetPrefixLetter(byte type) => type switch
    {
        >= 0x0C and <= 0x25 => (char)('a' + (type - 0x0C)),
        >= 0x26 and <= 0x3F => (char)('a' + (type - 0x26)),
        >= 0x44 and <= 0x5D => (char)('a' + (type - 0x44)),
        >= 0x5E and <= 0x77 => (char)('a' + (type - 0x5E)),
        _ => '\0',
    };

    /// <summary>Whether the name of the attribute or element record is a dictionary string.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    public static bool HasDictionaryName(byte type) => type switch
    {
        0x06 or 0x07 or 0x0A or 0x0B or 0x42 or 0x43 => true,
        >= 0x0C and <= 0x25 => true,
        >= 0x44 and <= 0x5D => true,
        _ => false,
    };

    private static RecordFamily[] BuildFamilies()
    {
        var f = new RecordFamily[256];
        f[0x01] = RecordFamily.EndElement;
        f[0x02] = RecordFamily.Comment;
        f[0x03] = RecordFamily.Array;
        for (int i = FirstAttribute; i <= LastAttribute; i++) f[i] = RecordFamily.Attribute;
        for (int i = 0x08; i <= 0x0B; i++) f[i] = RecordFamily.XmlnsAttribute;
        for (int i = FirstElement; i <= LastElement; i++) f[i] = RecordFamily.Element;
        for (int i = 0x80; i <= 0xBD; i++) f[i] = RecordFamily.Text;
        f[0xA5] = RecordFamily.Reserved;
        f[0xA7] = RecordFamily.Reserved;
        return f;
    }

    private static sbyte[] BuildFixedSizes()
    {
        var s = new sbyte[256];
        Array.Fill(s, (sbyte)-1);
        void Pair(RecordType t, int size) { s[(int)t] = (sbyte)size; s[(int)t + 1] = (sbyte)size; }
        Pair(RecordType.ZeroText, 0); Pair(RecordType.OneText, 0); Pair(RecordType.FalseText, 0); Pair(RecordType.TrueText, 0);
        Pair(RecordType.Int8Text, 1); Pair(RecordType.Int16Text, 2); Pair(RecordType.Int32Text, 4); Pair(RecordType.Int64Text, 8);
        Pair(RecordType.FloatText, 4); Pair(RecordType.DoubleText, 8); Pair(RecordType.DecimalText, 16);
        Pair(RecordType.DateTimeText, 8); Pair(RecordType.EmptyText, 0); Pair(RecordType.UniqueIdText, 16);
        Pair(RecordType.TimeSpanText, 8); Pair(RecordType.UuidText, 16); Pair(RecordType.UInt64Text, 8);
        Pair(RecordType.BoolText, 1);
        s[(int)RecordType.StartListText] = 0;
        s[(int)RecordType.EndListText] = 0;
        return s;
    }

    private static string[] BuildNames()
    {
        var n = new string[256];
        for (int i = 0; i < 256; i++)
        {
            n[i] = s_family[i] == RecordFamily.Reserved ? $"Reserved(0x{i:X2})" : ((RecordType)i).ToString();
        }
        return n;
    }
}
