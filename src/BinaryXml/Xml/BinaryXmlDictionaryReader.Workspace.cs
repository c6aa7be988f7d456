using System.Diagnostics.CodeAnalysis;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlDictionaryReader
{
    private Workspace _workspace;

    /// <summary>
    /// The arrays a reader works in from one node to the next: the open elements' names, the characters of names being
    /// decoded, the namespace and recent-name atoms, the dictionary strings' atoms. A closed reader leaves them, cleared,
    /// to the next reader created on its thread, so that a reader created per message allocates little more than itself
    /// and its name table (984 B for a message of one element, where .NET's reader allocates 1,640 B); a reader never
    /// closed keeps them. What they hold is of one name table and one document, so nothing is kept across: every entry
    /// is cleared when they are left.
    /// </summary>
    private sealed class Workspace
    {
        private const int MaxRetainedDepth = 256;
        private const int MaxRetainedChars = 4096;

        [ThreadStatic]
        private static Workspace? t_spare;

        /// <summary>
        /// What a closed reader holds in place of its workspace: never cleared, never left, written only by members a
        /// closed reader still answers (which read no document). No reader in use shares it.
        /// </summary>
        public static readonly Workspace Closed = new();

        public ElementName[] OpenElements = new ElementName[8];
        public char[] Chars = new char[256];
        public readonly NamespaceAtom[] NamespaceAtoms = new NamespaceAtom[NamespaceAtomCount];
        public readonly string?[] RecentInlineNames = new string?[RecentNames];
        public readonly XmlDictionaryString?[] RecentDictionaryKeys = new XmlDictionaryString?[RecentNames];
        public readonly string?[] RecentDictionaryNames = new string?[RecentNames];
        public DictionaryAtom[]? DictionaryAtoms;
        public DictionaryAtom[]? SessionAtoms;

        /// <summary>Whether this is <see cref="Closed"/>: the reader left its own.</summary>
        public bool IsLeft => ReferenceEquals(this, Closed);

        /// <summary>This thread's spare workspace, or a new one.</summary>
        public static Workspace Take()
        {
            Workspace workspace = t_spare ?? new Workspace();
            t_spare = null;
            return workspace;
        }

        /// <summary>
        /// Keeps a cleared workspace for the next reader created on this thread, unless it grew large (the atoms'
        /// arrays are bounded by <see cref="MaxDictionaryAtoms"/>).
        /// </summary>
        public static void Leave(Workspace workspace)
        {
            if (workspace.OpenElements.Length > MaxRetainedDepth || workspace.Chars.Length > MaxRetainedChars) return;
            t_spare = workspace;
        }
    }

    /// <summary>Takes this thread's spare workspace (or a new one) for a new reader, or one reused after it was closed.</summary>
    [MemberNotNull(nameof(_workspace), nameof(_openElements), nameof(_chars), nameof(_namespaceAtoms), nameof(_recentInlineNames),
        nameof(_recentDictionaryKeys), nameof(_recentDictionaryNames))]
    private void TakeWorkspace() => Use(Workspace.Take());

    /// <summary>
    /// Leaves the workspace (with the arrays grown since it was taken) to the next reader created on this thread, as the
    /// reader closes; the reader holds <see cref="Workspace.Closed"/>'s until it is given input again.
    /// </summary>
    private void LeaveWorkspace()
    {
        Workspace workspace = _workspace;
        if (workspace.IsLeft) return;
        // What the arrays hold is of this reader's name table and documents (entries stamped with document numbers that
        // the next reader counts again from 0): nothing of it is handed on.
        ClearRecentNames();
        Array.Clear(_openElements);
        Array.Clear(_namespaceAtoms);
        workspace.OpenElements = _openElements;
        workspace.Chars = _chars;
        workspace.DictionaryAtoms = _dictionaryAtoms;
        workspace.SessionAtoms = _sessionAtoms;
        Workspace.Leave(workspace);
        Use(Workspace.Closed);
    }

    /// <summary>Works in <paramref name="workspace"/>'s arrays from now on (its atoms cleared: they belong to no dictionary).</summary>
    [MemberNotNull(nameof(_workspace), nameof(_openElements), nameof(_chars), nameof(_namespaceAtoms), nameof(_recentInlineNames),
        nameof(_recentDictionaryKeys), nameof(_recentDictionaryNames))]
    private void Use(Workspace workspace)
    {
        _workspace = workspace;
        _openElements = workspace.OpenElements;
        _chars = workspace.Chars;
        _namespaceAtoms = workspace.NamespaceAtoms;
        _recentInlineNames = workspace.RecentInlineNames;
        _recentDictionaryKeys = workspace.RecentDictionaryKeys;
        _recentDictionaryNames = workspace.RecentDictionaryNames;
        _dictionaryAtoms = workspace.DictionaryAtoms;
        _sessionAtoms = workspace.SessionAtoms;
        _dictionaryAtomsOf = null;
    }
}
