using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Soap.Nmf;

namespace BinaryXml.Tool;

/// <summary>The wire format of an input.</summary>
internal enum MessageFormat { Auto, Nbfx, Msbin1, Msbinsession1, Nmf }

/// <summary>One decoded message: where it starts in the input and its XML.</summary>
internal sealed record DecodedMessage(int Offset, string Xml);

/// <summary>
/// Decodes inputs in one format, or detects it: gzip/deflate, MC-NMF framing, an MC-NBFSE StringTable prefix, or a
/// plain document. Several inputs are consecutive messages of one direction: msbinsession1 inputs share one session.
/// </summary>
/// <param name="format">The format, or <see cref="MessageFormat.Auto"/>.</param>
/// <param name="dictionary">A private dictionary, or null for the MC-NBFS one (none for plain MC-NBFX).</param>
/// <param name="markValueTypes">Whether the XML marks the values' record types (<see cref="ValueTypeMarks"/>).</param>
/// <param name="maxSessionSize">The session quota in bytes.</param>
internal sealed class Decoding(MessageFormat format, DictionaryFile? dictionary, bool markValueTypes = false, int maxSessionSize = 2048)
{
    /// <summary>A debugging tool reads captures whole: no content quotas (lengths are still checked against the input).</summary>
    internal static readonly BinaryXmlReaderOptions Options = BinaryXmlReaderOptions.Trusted;

    private BinaryMessageDecoder? _session;

    public string? Detected { get; private set; }

    /// <summary>Whether the last input was an MC-NMF stream.</summary>
    public bool IsNmf { get; private set; }

    /// <summary>Whether the last input was an MC-NMF stream without a preamble: a reply direction (what <c>encode --reply</c> writes).</summary>
    public bool IsReply => IsNmf && Mode is null;

    /// <summary>The Via of the last input, when it was an MC-NMF stream that has one (what <c>encode --via</c> takes).</summary>
    public string? Via { get; private set; }

    /// <summary>The mode of the last input, when it was an MC-NMF stream with a preamble (what <c>encode --mode</c> takes).</summary>
    public NmfMode? Mode { get; private set; }

    /// <summary>
    /// The size of the data chunks of the last input's unsized envelopes, when every chunk but an envelope's last has it
    /// (what <c>encode --chunk-size</c> takes); -1 when they differ; 0 when encode's default writes them as they were
    /// (envelopes of one chunk each, none larger than it); null for an input without unsized envelopes.
    /// </summary>
    public int? ChunkSize { get; private set; }

    /// <summary>The bytes of the last input as they were decoded (decompressed), to which a failure's offset refers.</summary>
    public byte[] Input { get; private set; } = [];

    /// <summary>The compression the last input was decoded from.</summary>
    public MessageCompression Compression { get; private set; }

    /// <summary>
    /// Decodes an input into <paramref name="messages"/>, each added as it is decoded: when the input is malformed, the
    /// messages before the failure are there when the exception is thrown.
    /// </summary>
    public void Decode(byte[] data, List<DecodedMessage> messages)
    {
        Detected = null;
        IsNmf = false;
        Via = null;
        Mode = null;
        ChunkSize = null;
        // Until it is decompressed, a failure (of the decompression itself) is the input's as given.
        Input = data;
        Compression = MessageCompression.None;
        MessageFormat f = format;
        MessageCompression compression = MessageCompression.None;
        if (f == MessageFormat.Auto)
        {
            (f, compression, data) = Detect(data);
            Detected = f.ToString().ToLowerInvariant() + (compression == MessageCompression.None ? "" : " (" + compression.ToString().ToLowerInvariant() + ")");
        }
        else if (MessageCompressor.LooksLikeGZip(data))
        {
            data = MessageCompressor.Decompress(data, MessageCompression.GZip, 64 << 20);
            compression = MessageCompression.GZip;
        }
        Input = data;
        Compression = compression;
        DecodeAs(f, data, messages);
    }

    private void DecodeAs(MessageFormat f, byte[] data, List<DecodedMessage> messages)
    {
        switch (f)
        {
            case MessageFormat.Nbfx:
                messages.Add(new DecodedMessage(0, BinaryXmlText.ToXml(data, dictionary, dictionary?.Session, Options, markValueTypes)));
                break;
            case MessageFormat.Msbin1:
                messages.Add(new DecodedMessage(0, BinaryXmlText.ToXml(data, StaticDictionary, options: Options, markValueTypes: markValueTypes)));
                break;
            case MessageFormat.Msbinsession1:
                messages.Add(new DecodedMessage(0, SessionDecoder.ToXml(data, markValueTypes)));
                break;
            case MessageFormat.Nmf:
                var envelopes = new List<NmfEnvelope>();
                try
                {
                    NmfDecoder.Decode(data, envelopes, out _, out string? via, maxSessionSize, Options, markValueTypes);
                    Via = via;
                    (Mode, ChunkSize) = FramingOf(data);
                    IsNmf = true;
                }
                finally
                {
                    messages.AddRange(envelopes.Select(e => new DecodedMessage(e.Offset, e.Xml)));
                }
                break;
            default:
                throw new InvalidOperationException();
        }
    }

    /// <summary>
    /// The framing of a stream the decoder read: its Mode record (null for a reply direction, which has no preamble),
    /// and the size of its unsized envelopes' chunks (see <see cref="ChunkSize"/>).
    /// </summary>
    private static (NmfMode? Mode, int? ChunkSize) FramingOf(byte[] stream)
    {
        var reader = new NmfReader(stream);
        NmfMode? mode = null;
        bool unsized = false, varying = false;
        // The size of the chunks of envelopes of several (all but the last have it), and the largest envelope of one
        // chunk (which only says the size is at least that).
        int known = 0, atLeast = 0;
        while (reader.Read())
        {
            if (reader.RecordType == NmfRecordType.Mode) mode = reader.Mode;
            if (reader.RecordType != NmfRecordType.UnsizedEnvelope) continue;
            unsized = true;
            int[] sizes = reader.ChunkSizes();
            // (An envelope of no chunk, the terminator alone, says nothing of their size.)
            if (sizes.Length == 0) continue;
            if (sizes.Length == 1)
            {
                atLeast = Math.Max(atLeast, sizes[0]);
                continue;
            }
            int? full = ChunkSizeOf(sizes);
            if (full is null || (known != 0 && known != full)) varying = true;
            known = sizes[0];
        }
        // Envelopes of one chunk alone are written as they were by any chunk size at least as large (encode's default
        // unless one is larger: 0).
        int? chunkSize = !unsized ? null
            : varying || (known != 0 && atLeast > known) ? -1
            : known != 0 ? known
            : atLeast > NmfWriter.DefaultMaxChunkSize ? atLeast : 0;
        return (mode, chunkSize);
    }

    /// <summary>
    /// The size an envelope's chunks were written in, when every chunk but the last has it and the last is no larger
    /// (what a writer of one chunk size gives); null when they differ. An envelope of one chunk has its size.
    /// </summary>
    internal static int? ChunkSizeOf(int[] sizes)
        => sizes.Length > 0 && sizes[..^1].All(size => size == sizes[0]) && sizes[^1] <= sizes[0] ? sizes[0] : null;

    private IXmlDictionary StaticDictionary => (IXmlDictionary?)dictionary ?? NbfsDictionary.Instance;

    /// <summary>One session for all inputs (decompression happens before).</summary>
    private BinaryMessageDecoder SessionDecoder => _session ??= new BinaryMessageDecoder(session: true, maxSessionSize: maxSessionSize, dictionary: StaticDictionary, readerOptions: Options);

    /// <summary>Works out the format of an input, decompressing it if it is compressed.</summary>
    public (MessageFormat Format, MessageCompression Compression, byte[] Data) Detect(byte[] data)
    {
        MessageCompression compression = MessageCompression.None;
        if (MessageCompressor.LooksLikeGZip(data))
        {
            data = MessageCompressor.Decompress(data, MessageCompression.GZip, 64 << 20);
            compression = MessageCompression.GZip;
        }
        MessageFormat? plain = DetectPlain(data);
        if (plain is not null) return (plain.Value, compression, data);
        if (compression == MessageCompression.None)
        {
            try
            {
                byte[] inflated = MessageCompressor.Decompress(data, MessageCompression.Deflate, 64 << 20);
                if (inflated.Length > 0 && DetectPlain(inflated) is MessageFormat f) return (f, MessageCompression.Deflate, inflated);
            }
            catch (BinaryXmlException)
            {
            }
        }
        return (LooksLikeStringTable(data) ? MessageFormat.Msbinsession1 : MessageFormat.Msbin1, compression, data);
    }

    private MessageFormat? DetectPlain(byte[] data)
    {
        if (NmfDecoder.LooksLikeNmf(data)) return MessageFormat.Nmf;
        if (LooksLikeStringTable(data) && DecodesAsSession(data)) return MessageFormat.Msbinsession1;
        if (Decodes(data)) return MessageFormat.Msbin1;
        return null;
    }

    /// <summary>Whether the input starts with a well-formed StringTable followed by something that can start a document.</summary>
    public static bool LooksLikeStringTable(ReadOnlySpan<byte> data)
    {
        try
        {
            SessionStringTable.Read(data, out int size);
            return size < data.Length && RecordTypes.GetFamily(data[size]) is RecordFamily.Element or RecordFamily.Comment or RecordFamily.Array;
        }
        catch (BinaryXmlException)
        {
            return false;
        }
    }

    /// <summary>Trial-decodes as a session message against a throwaway copy of the session, so a wrong guess changes nothing.</summary>
    private bool DecodesAsSession(byte[] data)
    {
        try
        {
            List<string> added = SessionStringTable.Read(data, out int size);
            var trial = new XmlBinaryReaderSession();
            int id = 0;
            foreach (string s in (_session?.SessionStrings ?? []).Concat(added)) trial.Add(id++, s);
            BinaryXmlText.ToXml(data.AsSpan(size), StaticDictionary, trial, Options);
            return true;
        }
        catch (BinaryXmlException)
        {
            return false;
        }
    }

    private bool Decodes(byte[] data)
    {
        try
        {
            BinaryXmlText.ToXml(data, StaticDictionary, options: Options);
            return true;
        }
        catch (BinaryXmlException)
        {
            return false;
        }
    }

    /// <summary>A hint for an input that failed in the format it was given: what it looks like instead.</summary>
    public static string? Hint(byte[] data, MessageFormat given)
    {
        if (given != MessageFormat.Nmf && NmfDecoder.LooksLikeNmf(data)) return "it looks like an MC-NMF (net.tcp) stream: try --format nmf";
        if (given != MessageFormat.Msbinsession1 && LooksLikeStringTable(data)) return "it starts with what looks like an MC-NBFSE StringTable: try --format msbinsession1";
        if (MessageCompressor.LooksLikeGZip(data)) return "it looks gzip-compressed: try --format auto";
        return null;
    }
}
