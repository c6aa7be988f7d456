using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Exclusive XML canonicalization (C14N) for the drop-in writer and reader, done by .NET's own canonical writer:
/// the node-level calls made while canonicalizing are replayed, with their prefixes already resolved, into a text
/// <see cref="XmlDictionaryWriter"/> that canonicalizes to the caller's stream and writes its own text nowhere.
/// </summary>
/// <remarks>
/// .NET's binary writer and reader hand their canonical writer the namespace declarations in scope when
/// canonicalization starts (newest binding per prefix), so prefixes declared above the canonicalized subtree are
/// known to it (inclusive prefixes, prefixes used but declared by an ancestor). The replay writer gets the same
/// declarations from an enclosing element it writes to <see cref="Stream.Null"/> before starting to canonicalize.
/// </remarks>
internal sealed class CanonicalizationTee
{
    private const string ScopeElement = "c14n-scope";
    private readonly XmlDictionaryWriter _writer = XmlDictionaryWriter.CreateTextWriter(Stream.Null, Encoding.UTF8, ownsStream: false);
    private readonly List<KeyValuePair<string, string>> _inScope = [];

    /// <summary>The writer to replay node-level calls into.</summary>
    public XmlDictionaryWriter Writer => _writer;

    /// <summary>The in-scope declarations to seed, filled by the caller before <see cref="Start"/>.</summary>
    public List<KeyValuePair<string, string>> InScope => _inScope;

    /// <summary>The depth of the document (open elements) when canonicalization started.</summary>
    public int StartDepth { get; private set; }

    /// <summary>
    /// Starts canonicalizing to <paramref name="stream"/>. With <paramref name="enclose"/> false the replay writer is
    /// at the document level (a writer at depth 0); otherwise it is inside one element that declares the
    /// <see cref="InScope"/> namespaces. <paramref name="depth"/> is the depth of the canonicalized document then.
    /// </summary>
    public void Start(Stream stream, bool includeComments, string[]? inclusivePrefixes, int depth, bool enclose)
    {
        ((IXmlTextWriterInitializer)_writer).SetOutput(Stream.Null, Encoding.UTF8, ownsStream: false);
        StartDepth = depth;
        if (enclose)
        {
            string? defaultNs = null;
            foreach (KeyValuePair<string, string> d in _inScope)
            {
                if (d.Key.Length == 0) defaultNs = d.Value;
            }
            // An explicit xmlns="" is only recorded when it overrides another default namespace.
            if (defaultNs is { Length: 0 }) _writer.WriteStartElement(string.Empty, ScopeElement, "urn:c14n-scope");
            _writer.WriteStartElement(string.Empty, ScopeElement, defaultNs ?? string.Empty);
            foreach (KeyValuePair<string, string> d in _inScope)
            {
                if (d.Key.Length != 0) _writer.WriteXmlnsAttribute(d.Key, d.Value);
            }
        }
        _inScope.Clear();
        _writer.StartCanonicalization(stream, includeComments, inclusivePrefixes);
    }

    /// <summary>Ends canonicalization; the canonical bytes written so far are flushed to the caller's stream.</summary>
    public void End() => _writer.EndCanonicalization();

    /// <summary>
    /// Ends a replayed start tag now, as a reader's canonicalization does for every element it reads: an empty list
    /// is the one call that closes the start tag and writes no text.
    /// </summary>
    public void CloseStartTag() => _writer.WriteValue(Array.Empty<object>());
}
