using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// The session keys a writer has found for dictionary strings in the document it is writing, so that a string used
/// again takes its key from here instead of the session's lookups (its map of dictionaries, then that dictionary's
/// key array, each lookup stamping its entry as recently used).
/// </summary>
/// <remarks>
/// <para>
/// The key a session has for a dictionary string never changes until the session is reset: an add gives a new string
/// a new key and leaves the others alone. What is kept here is therefore what the session's internal
/// <c>TryLookup</c> would answer again, as long as nothing but this writer has used the session since:
/// </para>
/// <list type="bullet">
/// <item>entries are of one document: the writer's reset starts another (a writer reused per message, or another
/// writer sharing the session, may have found the session reset in between);</item>
/// <item>entries are of one count of the session's keys, seen at every lookup once keeping has started: when it is not
/// the count they were kept at (a reset, or another's add), they are dropped and kept again as they are found; this
/// writer's own add moves the count on with it. A reset followed by exactly as many adds, all between two of this
/// writer's lookups in one document, is the one change not seen: two writers interleaving their documents on one
/// session write nothing a reader session could follow.</item>
/// </list>
/// <para>
/// Only keys <c>TryLookup</c> found are kept. A string's first use goes to <see cref="XmlBinaryWriterSession.TryAdd"/>,
/// which a session of the caller's may override and answer differently each time; .NET's writer asks it until
/// <c>TryLookup</c> finds the string, and so does this one.
/// </para>
/// <para>
/// Keeping a key costs about what a lookup does, and a document of one small object asks for each string once: keys
/// are kept only from the seventeenth string a document asks the session for (found or added).
/// </para>
/// </remarks>
internal struct SessionKeyCache
{
    // Direct-mapped by the string's key in its dictionary: a dictionary's keys are consecutive from 0.
    private const int Size = 256;

    // A document that asks the session for few strings loses more in keeping them than it gains: most are asked for
    // once (a message of one small object). Keys are kept once the session has been asked for this many, found or
    // added; until then the writer asks the session as .NET's writer does, with nothing read or kept beside it. Adds
    // count: a session reset per message adds each string once, and counting only finds kept the second use of each
    // as a lookup as well (W3's session names reset per message; benchmarks/HISTORY.md, runs 1043 on).
    private const int AskedNotKept = 16;

    private Entry[]? _entries;
    private Entry[]? _kept;         // the entries while keys are kept in this document, else null (Keeping)
    private int _document;          // the entries' stamp: Forget moves it on
    private int _sessionKeyCount;   // the session's count of keys the entries were kept at
    private int _asked;             // strings asked of the session since Forget, counted until keeping starts

    private struct Entry
    {
        public XmlDictionaryString? String;
        public int Key;
        public int Document;
    }

    // Out of line (once in 2^32 documents): Forget is inlined into the writer's reset, whose callers' inlining budget
    // a one-element document needs for its flush.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ClearEntries()
    {
        if (_entries is not null) Array.Clear(_entries);
    }

    /// <summary>Drops every entry: a new document, or a session changed since they were kept.</summary>
    public void Forget()
    {
        // After 2^32 documents, entries stamped with this number long ago would be taken as current.
        if (++_document == 0) ClearEntries();
        _asked = 0;
        _kept = null;
    }

    /// <summary>
    /// A string's key in the session, as .NET's writer finds it: the session's lookup (its key kept for the rest of
    /// the document once keeping has started), else an add.
    /// </summary>
    // Only the kept key's read is in line; the rest is a call that answers by value. An out parameter passed on to a
    // call (the session's lookup, the add) put the caller's key in memory: every kept key was stored and loaded again
    // on its way to its record, and the code in line kept more values live than registers (W3's session names,
    // 0.3–0.5 ns an element; benchmarks/HISTORY.md, runs 1034–1039).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGetKey(XmlBinaryWriterSession session, XmlDictionaryString s, out int key)
    {
        if (_kept is { } kept && TryGetKept(kept, s, WriterSessionAccess.NextKey(session), out key)) return true;
        long found = Find(session, s);
        key = (int)found;
        return found != NotFound;
    }

    // Find's answer when the session has no key for the string (every key is an int; this long is none of them).
    private const long NotFound = long.MinValue;

    /// <summary>
    /// A string's key when none is kept for it: the session's lookup, else an add. A count of the session's keys other
    /// than the one the entries were kept at (a reset, or another's add) drops them first, and keeping starts again
    /// after <see cref="AskedNotKept"/> more strings asked.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private long Find(XmlBinaryWriterSession session, XmlDictionaryString s)
    {
        if (Keeping)
        {
            int count = WriterSessionAccess.NextKey(session);
            if (count != _sessionKeyCount) CountChanged(count);
        }
        else if (++_asked > AskedNotKept)
        {
            StartKeeping(session);
        }
        if (WriterSessionAccess.TryLookup(session, s, out int key))
        {
            if (Keeping) Keep(s, key);
            return key;
        }
        return Add(session, s, out key) ? key : NotFound;
    }

    /// <summary>
    /// Whether keys are being kept in this document: until the session has been asked for <see cref="AskedNotKept"/>
    /// strings, nothing is kept, looked for, or checked (the session's count of keys is first read when keeping starts).
    /// </summary>
    private readonly bool Keeping => _kept is not null;

    /// <summary>The key kept for <paramref name="s"/> earlier in the document, if the session's count of keys is still <paramref name="count"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private readonly bool TryGetKept(Entry[] entries, XmlDictionaryString s, int count, out int key)
    {
        if (count == _sessionKeyCount)
        {
            // The entries are always Size long (StartKeeping makes them): an index below Size needs no range check,
            // whose load of the length waited on the load of the array in every kept key's read.
            ref Entry entry = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(entries), s.Key & (Size - 1));
            if (ReferenceEquals(entry.String, s) && entry.Document == _document)
            {
                key = entry.Key;
                return true;
            }
        }
        key = 0;
        return false;
    }

    private void CountChanged(int count)
    {
        Forget();
        _sessionKeyCount = count;
    }

    private void StartKeeping(XmlBinaryWriterSession session)
    {
        // No entry is of this document (none was kept since Forget moved the stamp on): the count is the one the
        // entries kept from here on are kept at.
        _sessionKeyCount = WriterSessionAccess.NextKey(session);
        _kept = _entries ??= new Entry[Size];
    }

    /// <summary>Keeps the key the session's <c>TryLookup</c> found for <paramref name="s"/>.</summary>
    private void Keep(XmlDictionaryString s, int key)
    {
        ref Entry entry = ref _kept![s.Key & (Size - 1)];
        // Documents of one kind find the same strings in the same slots: the reference is stored only when it
        // changes (a store of a reference into the heap costs a write barrier call, a compare does not).
        if (!ReferenceEquals(entry.String, s)) entry.String = s;
        entry.Key = key;
        entry.Document = _document;
    }

    /// <summary>
    /// A string's first use in the session (<see cref="XmlBinaryWriterSession.TryAdd"/>): an add of one key while keys
    /// are kept leaves them as they are, and the count moves on with it; any other change drops them.
    /// </summary>
    private bool Add(XmlBinaryWriterSession session, XmlDictionaryString s, out int key)
    {
        if (!session.TryAdd(s, out key)) return false;
        if (Keeping)
        {
            int countAfter = WriterSessionAccess.NextKey(session);
            if (countAfter != _sessionKeyCount + 1) Forget();
            _sessionKeyCount = countAfter;
        }
        return true;
    }
}
