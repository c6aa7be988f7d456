namespace BinaryXml;

/// <summary>
/// The marks with which <see cref="BinaryXmlText"/> records, when asked, which text records a document's values were
/// (MC-NBFX 2.2.3), so that XML text written back with the same calls gives the same records: attributes in the
/// namespace <see cref="Namespace"/>, declared on every top-level element.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><c>t:type="int"</c> on an element whose content is one text record of that type (the text is the value), or
/// base64 records (their texts separated by a space: .NET's writer writes one record for each call's whole groups of
/// three bytes, the rest with the next call's or at the end);</item>
/// <item><c>t:attributeTypes="i:nil=bool z:Id=int"</c> on an element with attributes of those types, each named as
/// it is written;</item>
/// <item><c>t:type="int[]"</c> on every element rendered from one Array record (MC-NBFX 2.3.3);</item>
/// <item><c>t:inline="b:Note @i:nil xmlns:b"</c> on an element whose names (its own, an attribute's, a declared
/// namespace) were written inline where a writer would have used a dictionary string (see <see cref="Inline"/>);</item>
/// <item><c>t:session="xmlns:i"</c> likewise for session strings that the static dictionary holds (see
/// <see cref="Session"/>);</item>
/// <item>beside other content (text, elements, comments), where a record's text would join the text next to it or
/// could be taken for indentation, a processing instruction whose target is the prefix before the record's text:
/// <c>&lt;?t int?&gt;5</c> for a typed record (base64 records next to each other as one value, their texts
/// separated by a space), <c>&lt;?t?&gt;</c> for a Chars or UnicodeChars record that follows another text record
/// (.NET's writer writes a qualified name whose local name is not a dictionary string as three: <c>a&lt;?t?&gt;:&lt;?t?&gt;Denied</c>)
/// or is white space only. Binary XML has no processing instructions, so such an instruction is always a mark.</item>
/// </list>
/// The types: <c>int</c> (Int8Text, Int16Text, Int32Text), <c>long</c>, <c>ulong</c>, <c>bool</c>, <c>float</c>,
/// <c>double</c>, <c>decimal</c>, <c>dateTime</c>, <c>timeSpan</c>, <c>guid</c> (UuidText), <c>uniqueId</c>,
/// <c>base64</c> (Bytes8Text–Bytes32Text), <c>dictionary</c> (DictionaryText), <c>qname</c> (QNameDictionaryText),
/// <c>sessionDictionary</c> and <c>sessionQname</c> (the same, of a session string the static dictionary holds);
/// arrays also <c>short[]</c>. Chars and UnicodeChars text is not marked, nor are ZeroText and OneText (what the text
/// <c>0</c> and <c>1</c> are written as anyway) or EmptyText (what an empty attribute value is written as; no writer
/// call writes it as content). A list (.NET's <c>WriteValue</c> of an array: its items' records, rendered separated
/// by spaces) is marked <c>list:int,text,double</c>, its items' marks (<see cref="ListText"/> for an item that needs
/// none), in <c>t:attributeTypes</c> or by a processing instruction before it, unless an item is empty or holds a
/// space (its items could not be told apart) or base64, or an attribute's list holds text or a dictionary string (which
/// .NET's writer keeps out of one). What no mark says: how many bytes each base64 call left for the next (records show
/// where each call's whole groups ended), which moves .NET's 512-byte buffer and so where a later end tag is folded.
/// The prefix is
/// <c>t</c> unless the document uses it; then the first of <c>t1</c>, <c>t2</c>, … it does not use.
/// <c>binxml encode</c> reads these marks.
/// </remarks>
public static class ValueTypeMarks
{
    /// <summary>The namespace of the marks.</summary>
    public const string Namespace = "urn:binaryxml:types";

    /// <summary>The local name of the mark of an element's content type (or of an array's item type, with <c>[]</c>).</summary>
    public const string Type = "type";

    /// <summary>The local name of the mark listing an element's typed attributes as <c>name=type</c> pairs.</summary>
    public const string AttributeTypes = "attributeTypes";

    /// <summary>
    /// The local name of the mark listing the names of a start tag written inline where a writer would have used a
    /// dictionary string (the static dictionary holds it, or there is a session): the element's qualified name,
    /// <c>@</c> and an attribute's, <c>xmlns</c> or <c>xmlns:p</c> for a declaration's namespace.
    /// </summary>
    public const string Inline = "inline";

    /// <summary>
    /// The local name of the mark listing, as <see cref="Inline"/> does, the names of a start tag that were session
    /// strings although the static dictionary holds them (a writer given a dictionary string of another dictionary
    /// adds it to the session: DataContractSerializer's namespaces, for example).
    /// </summary>
    public const string Session = "session";

    /// <summary>
    /// What the mark of a list starts with (MC-NBFX 2.2.3.19): <c>list:</c>, then its items' marks separated by commas,
    /// <see cref="ListText"/> for an item that needs none (<c>list:int,text,double</c>).
    /// </summary>
    public const string ListPrefix = "list:";

    /// <summary>The mark of a list item that needs none (a Chars, UnicodeChars, ZeroText or OneText record).</summary>
    public const string ListText = "text";

    /// <summary>
    /// The mark of a text record type (plain or WithEndElement), or null for text that needs none: Chars,
    /// UnicodeChars, ZeroText, OneText and list records.
    /// </summary>
    public static string? Of(RecordType type) => (RecordType)((byte)type & 0xFE) switch
    {
        RecordType.Int8Text or RecordType.Int16Text or RecordType.Int32Text => "int",
        RecordType.Int64Text => "long",
        RecordType.UInt64Text => "ulong",
        RecordType.FalseText or RecordType.TrueText => "bool",
        RecordType.FloatText => "float",
        RecordType.DoubleText => "double",
        RecordType.DecimalText => "decimal",
        RecordType.DateTimeText => "dateTime",
        RecordType.TimeSpanText => "timeSpan",
        RecordType.UuidText => "guid",
        RecordType.UniqueIdText => "uniqueId",
        RecordType.Bytes8Text or RecordType.Bytes16Text or RecordType.Bytes32Text => "base64",
        RecordType.DictionaryText => "dictionary",
        RecordType.QNameDictionaryText => "qname",
        _ => null,
    };

    /// <summary>The mark of an Array record's item type (<c>int[]</c>, <c>short[]</c>, …), or null for a type that is not one.</summary>
    public static string? OfArray(RecordType itemType) => (RecordType)((byte)itemType & 0xFE) switch
    {
        RecordType.BoolText => "bool[]",
        RecordType.Int16Text => "short[]",
        RecordType.Int32Text => "int[]",
        RecordType.Int64Text => "long[]",
        RecordType.FloatText => "float[]",
        RecordType.DoubleText => "double[]",
        RecordType.DecimalText => "decimal[]",
        RecordType.DateTimeText => "dateTime[]",
        RecordType.TimeSpanText => "timeSpan[]",
        RecordType.UuidText => "guid[]",
        _ => null,
    };
}
