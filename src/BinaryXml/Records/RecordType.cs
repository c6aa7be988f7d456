namespace BinaryXml;

/// <summary>
/// The record type byte that starts every MC-NBFX record (MC-NBFX 2.1.1). Names are the specification's;
/// .NET's internal <c>XmlBinaryNodeType</c> uses the same names except for 0xB0 (see <see cref="UuidText"/>).
/// </summary>
/// <remarks>
/// Text records come in pairs: the even byte is the plain record and the odd byte (<c>even + 1</c>) is the same
/// record followed by an implied <see cref="EndElement"/> (MC-NBFX 2.2.3.31). 0x00, 0x78–0x7F, 0xA5, 0xA7 and
/// 0xBE–0xFF are reserved.
/// </remarks>
public enum RecordType : byte
{
    /// <summary>Closes the innermost open element (MC-NBFX 2.3.1).</summary>
    EndElement = 0x01,
    /// <summary>A comment; payload is a String (MC-NBFX 2.3.2).</summary>
    Comment = 0x02,
    /// <summary>An array of fixed-size values sharing one element record (MC-NBFX 2.3.3).</summary>
    Array = 0x03,

    /// <summary>Attribute without prefix: String name, then a text record (MC-NBFX 2.2.2.1).</summary>
    ShortAttribute = 0x04,
    /// <summary>Attribute with prefix: String prefix, String name, then a text record (MC-NBFX 2.2.2.2).</summary>
    Attribute = 0x05,
    /// <summary>Attribute without prefix, dictionary name (MC-NBFX 2.2.2.3).</summary>
    ShortDictionaryAttribute = 0x06,
    /// <summary>Attribute with prefix and dictionary name (MC-NBFX 2.2.2.4).</summary>
    DictionaryAttribute = 0x07,
    /// <summary><c>xmlns="…"</c> with an inline namespace (MC-NBFX 2.2.2.5).</summary>
    ShortXmlnsAttribute = 0x08,
    /// <summary><c>xmlns:p="…"</c> with an inline namespace (MC-NBFX 2.2.2.6).</summary>
    XmlnsAttribute = 0x09,
    /// <summary><c>xmlns="…"</c> with a dictionary namespace (MC-NBFX 2.2.2.7).</summary>
    ShortDictionaryXmlnsAttribute = 0x0A,
    /// <summary><c>xmlns:p="…"</c> with a dictionary namespace (MC-NBFX 2.2.2.8).</summary>
    DictionaryXmlnsAttribute = 0x0B,
#pragma warning disable CS1591 // The 26 letter forms are documented by their first member.
    /// <summary>Attribute with the one-letter prefix <c>a</c> (0x0C) … <c>z</c> (0x25) and a dictionary name (MC-NBFX 2.2.2.9).</summary>
    PrefixDictionaryAttributeA = 0x0C, PrefixDictionaryAttributeB, PrefixDictionaryAttributeC, PrefixDictionaryAttributeD,
    PrefixDictionaryAttributeE, PrefixDictionaryAttributeF, PrefixDictionaryAttributeG, PrefixDictionaryAttributeH,
    PrefixDictionaryAttributeI, PrefixDictionaryAttributeJ, PrefixDictionaryAttributeK, PrefixDictionaryAttributeL,
    PrefixDictionaryAttributeM, PrefixDictionaryAttributeN, PrefixDictionaryAttributeO, PrefixDictionaryAttributeP,
    PrefixDictionaryAttributeQ, PrefixDictionaryAttributeR, PrefixDictionaryAttributeS, PrefixDictionaryAttributeT,
    PrefixDictionaryAttributeU, PrefixDictionaryAttributeV, PrefixDictionaryAttributeW, PrefixDictionaryAttributeX,
    PrefixDictionaryAttributeY, PrefixDictionaryAttributeZ,
    /// <summary>Attribute with the one-letter prefix <c>a</c> (0x26) … <c>z</c> (0x3F) and an inline name (MC-NBFX 2.2.2.10).</summary>
    PrefixAttributeA = 0x26, PrefixAttributeB, PrefixAttributeC, PrefixAttributeD, PrefixAttributeE, PrefixAttributeF,
    PrefixAttributeG, PrefixAttributeH, PrefixAttributeI, PrefixAttributeJ, PrefixAttributeK, PrefixAttributeL,
    PrefixAttributeM, PrefixAttributeN, PrefixAttributeO, PrefixAttributeP, PrefixAttributeQ, PrefixAttributeR,
    PrefixAttributeS, PrefixAttributeT, PrefixAttributeU, PrefixAttributeV, PrefixAttributeW, PrefixAttributeX,
    PrefixAttributeY, PrefixAttributeZ,

    /// <summary>Element without prefix, inline name (MC-NBFX 2.2.1.1).</summary>
    ShortElement = 0x40,
    /// <summary>Element with prefix, inline name (MC-NBFX 2.2.1.2).</summary>
    Element = 0x41,
    /// <summary>Element without prefix, dictionary name (MC-NBFX 2.2.1.3).</summary>
    ShortDictionaryElement = 0x42,
    /// <summary>Element with prefix, dictionary name (MC-NBFX 2.2.1.4).</summary>
    DictionaryElement = 0x43,
    /// <summary>Element with the one-letter prefix <c>a</c> (0x44) … <c>z</c> (0x5D) and a dictionary name (MC-NBFX 2.2.1.5).</summary>
    PrefixDictionaryElementA = 0x44, PrefixDictionaryElementB, PrefixDictionaryElementC, PrefixDictionaryElementD,
    PrefixDictionaryElementE, PrefixDictionaryElementF, PrefixDictionaryElementG, PrefixDictionaryElementH,
    PrefixDictionaryElementI, PrefixDictionaryElementJ, PrefixDictionaryElementK, PrefixDictionaryElementL,
    PrefixDictionaryElementM, PrefixDictionaryElementN, PrefixDictionaryElementO, PrefixDictionaryElementP,
    PrefixDictionaryElementQ, PrefixDictionaryElementR, PrefixDictionaryElementS, PrefixDictionaryElementT,
    PrefixDictionaryElementU, PrefixDictionaryElementV, PrefixDictionaryElementW, PrefixDictionaryElementX,
    PrefixDictionaryElementY, PrefixDictionaryElementZ,
    /// <summary>Element with the one-letter prefix <c>a</c> (0x5E) … <c>z</c> (0x77) and an inline name (MC-NBFX 2.2.1.6).</summary>
    PrefixElementA = 0x5E, PrefixElementB, PrefixElementC, PrefixElementD, PrefixElementE, PrefixElementF,
    PrefixElementG, PrefixElementH, PrefixElementI, PrefixElementJ, PrefixElementK, PrefixElementL,
    PrefixElementM, PrefixElementN, PrefixElementO, PrefixElementP, PrefixElementQ, PrefixElementR,
    PrefixElementS, PrefixElementT, PrefixElementU, PrefixElementV, PrefixElementW, PrefixElementX,
    PrefixElementY, PrefixElementZ,
#pragma warning restore CS1591

    /// <summary>The text <c>0</c> (MC-NBFX 2.2.3.1).</summary>
    ZeroText = 0x80,
    /// <summary><see cref="ZeroText"/> followed by an implied end element.</summary>
    ZeroTextWithEndElement = 0x81,
    /// <summary>The text <c>1</c> (MC-NBFX 2.2.3.2).</summary>
    OneText = 0x82,
    /// <summary><see cref="OneText"/> followed by an implied end element.</summary>
    OneTextWithEndElement = 0x83,
    /// <summary>The text <c>false</c> (MC-NBFX 2.2.3.3).</summary>
    FalseText = 0x84,
    /// <summary><see cref="FalseText"/> followed by an implied end element.</summary>
    FalseTextWithEndElement = 0x85,
    /// <summary>The text <c>true</c> (MC-NBFX 2.2.3.4).</summary>
    TrueText = 0x86,
    /// <summary><see cref="TrueText"/> followed by an implied end element.</summary>
    TrueTextWithEndElement = 0x87,
    /// <summary>A signed 8-bit integer (MC-NBFX 2.2.3.5).</summary>
    Int8Text = 0x88,
    /// <summary><see cref="Int8Text"/> followed by an implied end element.</summary>
    Int8TextWithEndElement = 0x89,
    /// <summary>A signed 16-bit integer, little-endian (MC-NBFX 2.2.3.6).</summary>
    Int16Text = 0x8A,
    /// <summary><see cref="Int16Text"/> followed by an implied end element.</summary>
    Int16TextWithEndElement = 0x8B,
    /// <summary>A signed 32-bit integer, little-endian (MC-NBFX 2.2.3.7).</summary>
    Int32Text = 0x8C,
    /// <summary><see cref="Int32Text"/> followed by an implied end element.</summary>
    Int32TextWithEndElement = 0x8D,
    /// <summary>A signed 64-bit integer, little-endian (MC-NBFX 2.2.3.8).</summary>
    Int64Text = 0x8E,
    /// <summary><see cref="Int64Text"/> followed by an implied end element.</summary>
    Int64TextWithEndElement = 0x8F,
    /// <summary>An IEEE-754 binary32 value (MC-NBFX 2.2.3.9).</summary>
    FloatText = 0x90,
    /// <summary><see cref="FloatText"/> followed by an implied end element.</summary>
    FloatTextWithEndElement = 0x91,
    /// <summary>An IEEE-754 binary64 value (MC-NBFX 2.2.3.10).</summary>
    DoubleText = 0x92,
    /// <summary><see cref="DoubleText"/> followed by an implied end element.</summary>
    DoubleTextWithEndElement = 0x93,
    /// <summary>A 16-byte System.Decimal (MC-NBFX 2.2.3.11).</summary>
    DecimalText = 0x94,
    /// <summary><see cref="DecimalText"/> followed by an implied end element.</summary>
    DecimalTextWithEndElement = 0x95,
    /// <summary>An 8-byte DateTime in <see cref="DateTime.ToBinary"/> form (MC-NBFX 2.2.3.12).</summary>
    DateTimeText = 0x96,
    /// <summary><see cref="DateTimeText"/> followed by an implied end element.</summary>
    DateTimeTextWithEndElement = 0x97,
    /// <summary>UTF-8 text with a 1-byte length (MC-NBFX 2.2.3.13).</summary>
    Chars8Text = 0x98,
    /// <summary><see cref="Chars8Text"/> followed by an implied end element.</summary>
    Chars8TextWithEndElement = 0x99,
    /// <summary>UTF-8 text with a 2-byte length (MC-NBFX 2.2.3.14).</summary>
    Chars16Text = 0x9A,
    /// <summary><see cref="Chars16Text"/> followed by an implied end element.</summary>
    Chars16TextWithEndElement = 0x9B,
    /// <summary>UTF-8 text with a 4-byte length (MC-NBFX 2.2.3.15).</summary>
    Chars32Text = 0x9C,
    /// <summary><see cref="Chars32Text"/> followed by an implied end element.</summary>
    Chars32TextWithEndElement = 0x9D,
    /// <summary>Binary data with a 1-byte length, rendered as base64 (MC-NBFX 2.2.3.16).</summary>
    Bytes8Text = 0x9E,
    /// <summary><see cref="Bytes8Text"/> followed by an implied end element.</summary>
    Bytes8TextWithEndElement = 0x9F,
    /// <summary>Binary data with a 2-byte length (MC-NBFX 2.2.3.17).</summary>
    Bytes16Text = 0xA0,
    /// <summary><see cref="Bytes16Text"/> followed by an implied end element.</summary>
    Bytes16TextWithEndElement = 0xA1,
    /// <summary>Binary data with a 4-byte length (MC-NBFX 2.2.3.18).</summary>
    Bytes32Text = 0xA2,
    /// <summary><see cref="Bytes32Text"/> followed by an implied end element.</summary>
    Bytes32TextWithEndElement = 0xA3,
    /// <summary>Opens a list of text records rendered space-separated (MC-NBFX 2.2.3.19). Has no WithEndElement form.</summary>
    StartListText = 0xA4,
    /// <summary>Closes a list (MC-NBFX 2.2.3.20).</summary>
    EndListText = 0xA6,
    /// <summary>The empty string (MC-NBFX 2.2.3.21).</summary>
    EmptyText = 0xA8,
    /// <summary><see cref="EmptyText"/> followed by an implied end element.</summary>
    EmptyTextWithEndElement = 0xA9,
    /// <summary>A dictionary string as text (MC-NBFX 2.2.3.22).</summary>
    DictionaryText = 0xAA,
    /// <summary><see cref="DictionaryText"/> followed by an implied end element.</summary>
    DictionaryTextWithEndElement = 0xAB,
    /// <summary>A 16-byte GUID rendered as <c>urn:uuid:…</c> (MC-NBFX 2.2.3.23).</summary>
    UniqueIdText = 0xAC,
    /// <summary><see cref="UniqueIdText"/> followed by an implied end element.</summary>
    UniqueIdTextWithEndElement = 0xAD,
    /// <summary>A TimeSpan as signed 64-bit ticks (MC-NBFX 2.2.3.24).</summary>
    TimeSpanText = 0xAE,
    /// <summary><see cref="TimeSpanText"/> followed by an implied end element.</summary>
    TimeSpanTextWithEndElement = 0xAF,
    /// <summary>A 16-byte GUID rendered bare (MC-NBFX 2.2.3.25). .NET names this record <c>GuidText</c>.</summary>
    UuidText = 0xB0,
    /// <summary><see cref="UuidText"/> followed by an implied end element (.NET: <c>GuidTextWithEndElement</c>).</summary>
    UuidTextWithEndElement = 0xB1,
    /// <summary>An unsigned 64-bit integer (MC-NBFX 2.2.3.26).</summary>
    UInt64Text = 0xB2,
    /// <summary><see cref="UInt64Text"/> followed by an implied end element.</summary>
    UInt64TextWithEndElement = 0xB3,
    /// <summary>A one-byte Boolean (MC-NBFX 2.2.3.27).</summary>
    BoolText = 0xB4,
    /// <summary><see cref="BoolText"/> followed by an implied end element.</summary>
    BoolTextWithEndElement = 0xB5,
    /// <summary>UTF-16LE text with a 1-byte byte length (MC-NBFX 2.2.3.28).</summary>
    UnicodeChars8Text = 0xB6,
    /// <summary><see cref="UnicodeChars8Text"/> followed by an implied end element.</summary>
    UnicodeChars8TextWithEndElement = 0xB7,
    /// <summary>UTF-16LE text with a 2-byte byte length (MC-NBFX 2.2.3.29).</summary>
    UnicodeChars16Text = 0xB8,
    /// <summary><see cref="UnicodeChars16Text"/> followed by an implied end element.</summary>
    UnicodeChars16TextWithEndElement = 0xB9,
    /// <summary>UTF-16LE text with a 4-byte byte length (MC-NBFX 2.2.3.30; errata E4: the length is an INT32).</summary>
    UnicodeChars32Text = 0xBA,
    /// <summary><see cref="UnicodeChars32Text"/> followed by an implied end element.</summary>
    UnicodeChars32TextWithEndElement = 0xBB,
    /// <summary>A qualified name: prefix letter index 0–25 and a dictionary local name (MC-NBFX 2.2.3.31).</summary>
    QNameDictionaryText = 0xBC,
    /// <summary><see cref="QNameDictionaryText"/> followed by an implied end element.</summary>
    QNameDictionaryTextWithEndElement = 0xBD,
}
