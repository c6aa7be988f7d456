using System.Xml;

namespace BinaryXml.Soap;

/// <summary>
/// Decodes messages of WCF's binary message encoding, one receiving direction: msbin1, or msbinsession1 with a
/// session that accumulates the strings of every message's StringTable (MC-NBFSE), optionally compressed.
/// </summary>
/// <remarks>
/// Every table is checked before use: its size against the message, each string against the table, the whole
/// session against MaxSessionSize (as WCF's reader does). A malformed table poisons the session, like WCF's: later
/// messages are refused because their ids can no longer be trusted. Not thread-safe.
/// </remarks>
public sealed class BinaryMessageDecoder
{
    private readonly IXmlDictionary _dictionary;
    private readonly BinaryXmlReaderOptions? _readerOptions;
    private readonly List<string> _strings = [];
    private XmlBinaryReaderSession? _session;
    private int _sessionBytes;
    private bool _poisoned;
    private byte[]? _decompressed;

    /// <summary>Creates a decoder.</summary>
    /// <param name="session">Whether messages start with MC-NBFSE StringTables (msbinsession1).</param>
    /// <param name="compression">Compression of each whole message.</param>
    /// <param name="maxSessionSize">The session quota in bytes (length prefixes plus UTF-8); WCF's default is 2048.</param>
    /// <param name="dictionary">The static dictionary; null for <see cref="NbfsDictionary"/>.</param>
    /// <param name="readerOptions">Reader limits.</param>
    /// <param name="maxMessageSize">The largest message accepted after decompression (default 16 MiB).</param>
    public BinaryMessageDecoder(bool session = false, MessageCompression compression = MessageCompression.None, int maxSessionSize = 2048, IXmlDictionary? dictionary = null, BinaryXmlReaderOptions? readerOptions = null, int maxMessageSize = 16 << 20)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSessionSize);
        ArgumentOutOfRangeException.ThrowIfNegative(maxMessageSize);
        IsSession = session;
        Compression = compression;
        MaxSessionSize = maxSessionSize;
        MaxMessageSize = maxMessageSize;
        _dictionary = dictionary ?? NbfsDictionary.Instance;
        _readerOptions = readerOptions;
        if (session) _session = new XmlBinaryReaderSession();
    }

    /// <summary>Whether this is an msbinsession1 decoder.</summary>
    public bool IsSession { get; }

    /// <summary>The compression of each message.</summary>
    public MessageCompression Compression { get; }

    /// <summary>The session quota in bytes.</summary>
    public int MaxSessionSize { get; }

    /// <summary>The largest message accepted after decompression.</summary>
    public int MaxMessageSize { get; }

    /// <summary>The static dictionary.</summary>
    public IXmlDictionary Dictionary => _dictionary;

    /// <summary>The session strings received so far (string <c>k</c> is id <c>2k + 1</c>); empty without a session.</summary>
    public IReadOnlyList<string> SessionStrings => _strings;

    /// <summary>The reader session, or null for msbin1.</summary>
    public XmlBinaryReaderSession? Session => _session;

    /// <summary>The StringTable of the last message: its size in bytes and the strings it added.</summary>
    public (int Size, IReadOnlyList<string> Strings) LastStringTable { get; private set; } = (0, []);

    /// <summary>
    /// Prepares one message: decompresses it, reads its StringTable into the session, and returns the MC-NBFX
    /// document (valid until the next call).
    /// </summary>
    /// <exception cref="BinaryXmlException">The message or its StringTable is malformed, or a quota is exceeded.</exception>
    public ReadOnlySpan<byte> ReadDocument(ReadOnlySpan<byte> message)
    {
        if (_poisoned) throw new BinaryXmlException("An earlier StringTable of this session was invalid; the session cannot be used", 0);
        if (Compression != MessageCompression.None)
        {
            _decompressed = MessageCompressor.Decompress(message, Compression, MaxMessageSize);
            message = _decompressed;
        }
        else if (message.Length > MaxMessageSize)
        {
            throw new BinaryXmlException($"The message of {message.Length} bytes exceeds the limit of {MaxMessageSize}", 0);
        }
        if (!IsSession) return message;
        try
        {
            List<string> added = SessionStringTable.Read(message, out int tableSize);
            foreach (string s in added)
            {
                _sessionBytes += SessionStringTable.GetCost(s);
                if (_sessionBytes > MaxSessionSize)
                    throw new BinaryXmlException($"The session strings exceed MaxSessionSize ({MaxSessionSize} bytes)", 0);
                _session!.Add(_strings.Count, s);
                _strings.Add(s);
            }
            LastStringTable = (tableSize, added);
            return message[tableSize..];
        }
        catch (BinaryXmlException)
        {
            _poisoned = true;
            throw;
        }
    }

    /// <summary>Prepares a message and returns a reader over its document.</summary>
    public BinaryXmlReader CreateReader(ReadOnlySpan<byte> message) => new(ReadDocument(message), _dictionary, _session, _readerOptions);

    /// <summary>Decodes a message to XML text (MC-NBFX section 2 rendering).</summary>
    /// <param name="message">The message.</param>
    /// <param name="markValueTypes">Whether to mark the values' record types (<see cref="ValueTypeMarks"/>).</param>
    /// <remarks>Offsets in a thrown <see cref="BinaryXmlException"/> are offsets in the (decompressed) message.</remarks>
    public string ToXml(ReadOnlySpan<byte> message, bool markValueTypes = false)
    {
        ReadOnlySpan<byte> document = ReadDocument(message);
        try
        {
            return BinaryXmlText.ToXml(document, _dictionary, _session, _readerOptions, markValueTypes);
        }
        catch (BinaryXmlException e) when (IsSession)
        {
            throw e.InLargerInput(LastStringTable.Size);
        }
    }

    /// <summary>Forgets the session.</summary>
    public void ResetSession()
    {
        _strings.Clear();
        _sessionBytes = 0;
        _poisoned = false;
        if (IsSession) _session = new XmlBinaryReaderSession();
    }
}
