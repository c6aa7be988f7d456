namespace BinaryXml.Soap.Nmf;

/// <summary>MC-NMF record types (MC-NMF 2.2.3).</summary>
public enum NmfRecordType : byte
{
    /// <summary>Version: major and minor byte (1.0).</summary>
    Version = 0x00,
    /// <summary>Mode: one byte, see <see cref="NmfMode"/>.</summary>
    Mode = 0x01,
    /// <summary>Via: MultiByteInt31 length and a UTF-8 URI.</summary>
    Via = 0x02,
    /// <summary>Known encoding: one byte, see <see cref="NmfKnownEncoding"/>.</summary>
    KnownEncoding = 0x03,
    /// <summary>Extensible encoding: MultiByteInt31 length and a UTF-8 content type.</summary>
    ExtensibleEncoding = 0x04,
    /// <summary>An envelope sent in chunks (MultiByteInt31 size, data), ended by a zero-size chunk.</summary>
    UnsizedEnvelope = 0x05,
    /// <summary>An envelope: MultiByteInt31 size, then the encoded message.</summary>
    SizedEnvelope = 0x06,
    /// <summary>End of the session.</summary>
    End = 0x07,
    /// <summary>Fault: MultiByteInt31 length and a UTF-8 fault string.</summary>
    Fault = 0x08,
    /// <summary>Upgrade request: MultiByteInt31 length and a UTF-8 protocol name.</summary>
    UpgradeRequest = 0x09,
    /// <summary>Upgrade response.</summary>
    UpgradeResponse = 0x0A,
    /// <summary>The receiver accepts the preamble.</summary>
    PreambleAck = 0x0B,
    /// <summary>End of the preamble; envelopes follow.</summary>
    PreambleEnd = 0x0C,
}

/// <summary>MC-NMF modes (MC-NMF 2.2.3.2).</summary>
public enum NmfMode : byte
{
    /// <summary>One message, or one request and reply, sent unsized (streamed net.tcp).</summary>
    SingletonUnsized = 0x01,
    /// <summary>Many messages in both directions (buffered net.tcp).</summary>
    Duplex = 0x02,
    /// <summary>Many one-way messages.</summary>
    Simplex = 0x03,
    /// <summary>One sized message.</summary>
    SingletonSized = 0x04,
}

/// <summary>MC-NMF known encodings (MC-NMF 2.2.3.4.1).</summary>
public enum NmfKnownEncoding : byte
{
    /// <summary>SOAP 1.1, UTF-8 text.</summary>
    Soap11Utf8 = 0x00,
    /// <summary>SOAP 1.1, UTF-16 text.</summary>
    Soap11Utf16 = 0x01,
    /// <summary>SOAP 1.1, UTF-16LE text.</summary>
    Soap11UnicodeLittleEndian = 0x02,
    /// <summary>SOAP 1.2, UTF-8 text.</summary>
    Soap12Utf8 = 0x03,
    /// <summary>SOAP 1.2, UTF-16 text.</summary>
    Soap12Utf16 = 0x04,
    /// <summary>SOAP 1.2, UTF-16LE text.</summary>
    Soap12UnicodeLittleEndian = 0x05,
    /// <summary>SOAP 1.2, MTOM.</summary>
    Soap12Mtom = 0x06,
    /// <summary>SOAP 1.2, binary (MC-NBFS, msbin1).</summary>
    Soap12Binary = 0x07,
    /// <summary>SOAP 1.2, binary with in-band dictionary (MC-NBFSE, msbinsession1).</summary>
    Soap12BinarySession = 0x08,
}
