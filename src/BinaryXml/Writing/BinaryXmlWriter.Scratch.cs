namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    private Scratch? _scratch;

    /// <summary>
    /// What a writer reuses from one document to the next (namespace scopes, per-depth prefix counters, the
    /// attribute capture, the session keys found, small buffers). A closed writer gives it to the next writer created
    /// on its thread, so that a writer per message allocates little more than itself; a writer that is never closed
    /// simply keeps it.
    /// </summary>
    private sealed class Scratch
    {
        private const int MaxRetainedDepth = 256;

        [ThreadStatic]
        private static Scratch? t_cached;

        public readonly NamespaceManager Namespaces = new();
        public int[] PrefixIds = new int[8];
        public readonly byte[] TrailBytes = new byte[3];
        public readonly byte[] UniqueIdBytes = new byte[16];
        public AttributeCapture Capture;
        public string LastResolvedPrefix = string.Empty;
        public SessionKeyCache SessionKeys;

        public static Scratch Rent()
        {
            Scratch scratch = t_cached ?? new Scratch();
            t_cached = null;
            return scratch;
        }

        public static void Return(Scratch scratch)
        {
            if (scratch.PrefixIds.Length > MaxRetainedDepth || !scratch.Namespaces.IsSmall) return;
            scratch.LastResolvedPrefix = string.Empty;
            t_cached = scratch;
        }
    }

    /// <summary>Takes this thread's spare scratch (or a new one) for a new or re-opened writer.</summary>
    [System.Diagnostics.CodeAnalysis.MemberNotNull(nameof(_nsMgr), nameof(_scratch))]
    private void TakeScratch()
    {
        Scratch scratch = Scratch.Rent();
        _scratch = scratch;
        _nsMgr = scratch.Namespaces;
    }

    /// <summary>The attribute value being captured (in the scratch: most writers never need its buffers).</summary>
    private ref AttributeCapture Capture => ref _scratch!.Capture;

    /// <summary>The base64 bytes held back (fewer than three) between WriteBase64 calls.</summary>
    private byte[] TrailBytes => _scratch!.TrailBytes;

    /// <summary>
    /// Gives the scratch back when the writer closes. The closed writer keeps no reference to it: every member that
    /// would use it throws for a closed writer, and <see cref="Reset()"/> takes a scratch again.
    /// </summary>
    private void ReturnScratch()
    {
        Scratch? scratch = _scratch;
        if (scratch is null) return;
        _scratch = null;
        _nsMgr = null!;
        Scratch.Return(scratch);
    }
}
