using System.Buffers;
using System.Xml;

namespace BinaryXml.Soap;

/// <summary>
/// Encodes messages for WCF's binary message encoding, one sending direction: <c>application/soap+msbin1</c>
/// (MC-NBFS documents) or, with a session, <c>application/soap+msbinsession1</c> (MC-NBFSE: each message starts
/// with a StringTable of the strings it adds to the session), optionally compressed.
/// </summary>
/// <remarks>
/// The callback writes the envelope with a <see cref="BinaryXmlWriter"/> whose static dictionary is the MC-NBFS
/// dictionary (or the one given). <see cref="XmlDictionaryString"/> names, namespaces and text that the static
/// dictionary does not have become session strings (ids 1, 3, 5… across the session) until MaxSessionSize is used up,
/// exactly as WCF does; plain strings are always written inline. Not thread-safe: one encoder per direction.
/// </remarks>
public sealed class BinaryMessageEncoder
{
    private readonly IXmlDictionary _dictionary;
    private readonly QuotaWriterSession? _session;
    private readonly BinaryXmlWriterOptions? _writerOptions;
    private readonly ArrayBufferWriter<byte> _document = new();
    private BinaryXmlWriter? _writer;

    /// <summary>Creates an encoder.</summary>
    /// <param name="session">Whether messages carry MC-NBFSE StringTables (msbinsession1).</param>
    /// <param name="compression">Compression of each whole message.</param>
    /// <param name="maxSessionSize">The session quota in bytes (length prefixes plus UTF-8); WCF's default is 2048.</param>
    /// <param name="dictionary">The static dictionary; null for <see cref="NbfsDictionary"/>.</param>
    /// <param name="writerOptions">Writer options; null for output identical to .NET's.</param>
    public BinaryMessageEncoder(bool session = false, MessageCompression compression = MessageCompression.None, int maxSessionSize = 2048, IXmlDictionary? dictionary = null, BinaryXmlWriterOptions? writerOptions = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSessionSize);
        IsSession = session;
        Compression = compression;
        MaxSessionSize = maxSessionSize;
        _dictionary = dictionary ?? NbfsDictionary.Instance;
        _session = session ? new QuotaWriterSession(maxSessionSize) : null;
        _writerOptions = writerOptions;
    }

    /// <summary>Whether this is an msbinsession1 encoder.</summary>
    public bool IsSession { get; }

    /// <summary>The compression applied to each message.</summary>
    public MessageCompression Compression { get; }

    /// <summary>The session quota in bytes.</summary>
    public int MaxSessionSize { get; }

    /// <summary>The media type of the messages.</summary>
    public string ContentType => BinaryMessageContentType.Get(IsSession, Compression);

    /// <summary>Every session string sent so far; string <c>k</c> is written as id <c>2k + 1</c>.</summary>
    public IReadOnlyList<string> SessionStrings => (IReadOnlyList<string>?)_session?.AllStrings ?? [];

    /// <summary>What is left of the session quota (0 once a string did not fit).</summary>
    public int SessionBytesRemaining => _session?.BytesRemaining ?? 0;

    /// <summary>Encodes one message into <paramref name="output"/>. Elements the callback leaves open are closed.</summary>
    public void WriteMessage(IBufferWriter<byte> output, Action<BinaryXmlWriter> writeEnvelope)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(writeEnvelope);
        bool direct = _session is null && Compression == MessageCompression.None;
        _document.ResetWrittenCount();
        IBufferWriter<byte> target = direct ? output : _document;
        _session?.NewStrings.Clear();
        if (_writer is null) _writer = new BinaryXmlWriter(target, _dictionary, _session, _writerOptions);
        else _writer.Reset(target, _dictionary, _session);
        writeEnvelope(_writer);
        _writer.Close();
        if (direct) return;

        if (Compression == MessageCompression.None)
        {
            SessionStringTable.Write(output, _session!.NewStrings);
            output.Write(_document.WrittenSpan);
            return;
        }
        var plain = new ArrayBufferWriter<byte>(_document.WrittenCount + 64);
        if (_session is not null) SessionStringTable.Write(plain, _session.NewStrings);
        plain.Write(_document.WrittenSpan);
        output.Write(MessageCompressor.Compress(plain.WrittenSpan, Compression));
    }

    /// <summary>Encodes one message and returns its bytes.</summary>
    public byte[] WriteMessage(Action<BinaryXmlWriter> writeEnvelope)
    {
        var output = new ArrayBufferWriter<byte>();
        WriteMessage(output, writeEnvelope);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>Starts a new session: ids restart at 1 and the quota is full again.</summary>
    public void ResetSession() => _session?.ResetSession();
}
