using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    internal const string XmlnsNamespace = "http://www.w3.org/2000/xmlns/";
    internal const string XmlNamespace = "http://www.w3.org/XML/1998/namespace";

    /// <summary>
    /// Namespace scopes exactly as .NET's writer keeps them, because they decide which prefix an element or
    /// attribute gets, which xmlns records are written and in what order: a flat list of declarations (index 0 is
    /// the default binding of "" to ""), searched newest first, with a one-entry cache of the last lookup, and
    /// xml:lang / xml:space scopes. Arrays grow by doubling and are reused, so steady state does not allocate; a
    /// declaration's slot past the open scopes keeps the references of the last declaration made in it (the next
    /// declaration there stores only those that change).
    /// </summary>
    /// <remarks>
    /// It keeps the element depth and the depth of the newest declaration or xml: scope, so that an element that
    /// declares nothing costs one compare when it opens its content and when it ends. (Held inline in the writer as a
    /// struct it was faster still on W3 with dictionary names, but made every writer 40 bytes larger: over the
    /// design's allocation limit for a writer created per message.)
    /// </remarks>
    private sealed class NamespaceManager
    {
        private static readonly string[] s_letters =
            ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"];

        private Declaration[] _ns = new Declaration[8];
        private int _count;

        /// <summary>
        /// The declaration the last lookup found (its index, or -1), and its namespace and prefix: a loop of elements in
        /// one namespace reads two fields, where a declaration read through its array and index was a chain of five
        /// loads before the element's record could be chosen (W3's names 4–10 % faster, benchmarks/HISTORY.md, runs
        /// 1028–1031). Set by <see cref="Remember"/> and <see cref="Forget"/> only.
        /// </summary>
        private int _last = -1;
        private string? _lastUri;
        private string? _lastPrefix;

        /// <summary>
        /// The prefix and namespace (the caller's references) of the last <see cref="IsBound"/> that held: a loop of
        /// prefixed elements in one namespace compares two references, where the search of the declarations was a
        /// call. Apart from the cache above, whose answers must stay .NET's (its cache compares namespaces by value):
        /// this one answers only for the same two references. Cleared by <see cref="Forget"/> (a declaration added, a
        /// document started) and when any declaration's scope ends: the prefix only, as no prefix matches a null one
        /// (one store less on the reset path that a one-element document inlines).
        /// </summary>
        private string? _boundPrefix, _boundUri;

        /// <summary>
        /// Once an element declares more than this many namespaces (or a prefix is made up among more than this many
        /// declarations), each prefix and each namespace leads to its newest declaration through a table, and each
        /// declaration to the one before it of the same prefix or namespace, where .NET's writer passes over them all:
        /// a start tag of thousands of declarations costs their number, not its square. The tables are kept while more
        /// than half this many declarations are in scope. They cost a few lookups a declaration, more than the short
        /// passes of nested elements that each declare a prefix they use, which are left to pass over the declarations
        /// as .NET's writer does.
        /// </summary>
        private const int IndexedFrom = 32;
        private bool _indexed;
        private Dictionary<string, int>? _newestByPrefix, _newestByUri;

        /// <summary>
        /// While indexed, for each declaration: the declaration before it of the same prefix, and of the same namespace
        /// (-1: none). Beside the list rather than in it, which keeps a declaration at 32 bytes.
        /// </summary>
        private (int SamePrefix, int SameUri)[] _before = [];

        /// <summary>The number of open elements (the writer's depth).</summary>
        public int Depth;

        /// <summary>The depth of the newest namespace declaration or xml:lang / xml:space scope (0: none).</summary>
        private int _topDepth;
        private XmlScope[] _xmlScopes = new XmlScope[2];
        private int _xmlScopeCount;

        private struct Declaration
        {
            public string Prefix;
            /// <summary><see cref="KeyOf"/> the prefix.</summary>
            public int PrefixKey;
            public string Uri;
            public XmlDictionaryString? UriDictionaryString;
            public int Depth;
        }

        private struct XmlScope
        {
            public string? Lang;
            public XmlSpace Space;
            public int Depth;
        }

        public NamespaceManager() => Clear();

        /// <summary>
        /// A prefix's length and last character: the same for equal prefixes, and the same for prefixes of one character
        /// or none only when they are equal. Declarations are passed over by their keys, the strings compared only where
        /// the keys are equal (a string comparison of equal lengths is a call; prefixes numbered as <c>p1</c>,
        /// <c>p2</c>… or <c>d1p1</c>, <c>d1p2</c>… share their length and first characters).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static int KeyOf(string prefix) => prefix.Length == 0 ? 0 : (prefix.Length << 16) | prefix[^1];

        /// <summary>Whether the arrays are small enough to keep for another writer.</summary>
        public bool IsSmall => _ns.Length <= 64 && _xmlScopes.Length <= 64;

        public string? XmlLang { get; private set; }

        public XmlSpace XmlSpace { get; private set; }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Clear()
        {
            // A document whose elements were all closed leaves only the default binding and no xml: scope.
            if (_count == 1 && _xmlScopeCount == 0 && Depth == 0)
            {
                Forget();
                _topDepth = 0;
                XmlLang = null;
                XmlSpace = XmlSpace.None;
                return;
            }
            ClearAll();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ClearAll()
        {
            // The declarations' slots keep their references for the next declarations made in them, as when their
            // scopes end (see AddNamespace); nothing reads a slot past _count.
            _ns[0] = new Declaration { Prefix = string.Empty, Uri = string.Empty, Depth = 0 };
            _count = 1;
            _indexed = false;
            Depth = 0;
            _topDepth = 0;
            Forget();
            Array.Clear(_xmlScopes, 0, _xmlScopeCount);
            _xmlScopeCount = 0;
            XmlLang = null;
            XmlSpace = XmlSpace.None;
        }

        public void EnterScope() => Depth++;

        /// <summary>
        /// Whether the current element declared a namespace or set xml:lang / xml:space (its xmlns records are still
        /// to write while its start tag is open; its scope has something to undo when it ends).
        /// </summary>
        public bool HasScopeWork
        {
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get => _topDepth == Depth;
        }

        /// <summary>Makes the end of the current element take the declaring path (it has a prefix counter to reset).</summary>
        public void MarkScopeWork() => _topDepth = Depth;

        /// <summary>Ends the current element's scope when <see cref="HasScopeWork"/>: its declarations and xml: scopes go.</summary>
        public void ExitDeclaringScope()
        {
            while (_count > 1 && _ns[_count - 1].Depth == Depth)
            {
                if (_last == _count - 1) Forget();
                _boundPrefix = null;
                if (_indexed) Unindex(_count - 1);
                // The slot keeps its references for the next declaration made in it (see AddNamespace).
                _count--;
            }
            if (_indexed && _count <= IndexedFrom / 2) _indexed = false;
            while (_xmlScopeCount > 0 && _xmlScopes[_xmlScopeCount - 1].Depth == Depth)
            {
                ref XmlScope scope = ref _xmlScopes[--_xmlScopeCount];
                XmlSpace = scope.Space;
                XmlLang = scope.Lang;
                scope = default;
            }
            _topDepth = Math.Max(_ns[_count - 1].Depth, _xmlScopeCount > 0 ? _xmlScopes[_xmlScopeCount - 1].Depth : 0);
            Depth--;
        }

        /// <summary>Writes an xmlns record for every declaration made on the current element, in declaration order.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void DeclareNamespaces(BinaryXmlWriter writer)
        {
            // Most elements declare nothing.
            if (HasScopeWork) WriteDeclarations(writer);
        }

        private void WriteDeclarations(BinaryXmlWriter writer)
        {
            int i = _count;
            while (i > 0 && _ns[i - 1].Depth == Depth) i--;
            for (; i < _count; i++)
            {
                ref Declaration d = ref _ns[i];
                if (d.UriDictionaryString is not null) writer.WriteXmlnsNode(d.Prefix, d.UriDictionaryString);
                else writer.WriteXmlnsNode(d.Prefix, d.Uri);
            }
        }

        public void AddLangAttribute(string lang)
        {
            PushXmlScope();
            XmlLang = lang;
        }

        public void AddSpaceAttribute(XmlSpace space)
        {
            PushXmlScope();
            XmlSpace = space;
        }

        private void PushXmlScope()
        {
            if (_xmlScopeCount == _xmlScopes.Length) Array.Resize(ref _xmlScopes, _xmlScopeCount * 2);
            _xmlScopes[_xmlScopeCount++] = new XmlScope { Lang = XmlLang, Space = XmlSpace, Depth = Depth };
            _topDepth = Depth;
        }

        /// <summary>Binds a generated prefix: the first of a–z that no declaration in scope uses; null when all are taken.</summary>
        public string? AddGeneratedNamespace(string uri, XmlDictionaryString? uriDictionaryString)
        {
            if (uri.Length == 0)
            {
                AddNamespaceIfNotDeclared(string.Empty, uri, uriDictionaryString);
                return string.Empty;
            }
            // The first letter no declaration in scope has taken as its prefix: .NET's writer looks for each letter in turn
            // among all the declarations; one pass over them marks the letters taken.
            if (!_indexed && _count > IndexedFrom) IndexAll();
            int taken = 0;
            if (_indexed)
            {
                for (int letter = 0; letter < s_letters.Length; letter++)
                {
                    if (_newestByPrefix!.ContainsKey(s_letters[letter])) taken |= 1 << letter;
                    else break;
                }
            }
            else
            {
                for (int j = 0; j < _count; j++)
                {
                    // A one-letter prefix is known by its key.
                    int key = _ns[j].PrefixKey, letter = (key & 0xFFFF) - 'a';
                    if (key >> 16 == 1 && (uint)letter < 26) taken |= 1 << letter;
                }
            }
            int free = BitOperations.TrailingZeroCount(~taken);
            if (free >= s_letters.Length) return null;
            string prefix = s_letters[free];
            AddNamespace(prefix, uri, uriDictionaryString);
            return prefix;
        }

        public void AddNamespaceIfNotDeclared(string prefix, string uri, XmlDictionaryString? uriDictionaryString)
        {
            if (!IsBound(prefix, uri)) AddNamespace(prefix, uri, uriDictionaryString);
        }

        /// <summary>Whether <paramref name="prefix"/> is bound to <paramref name="ns"/> (by value): the last answer that held first.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public bool IsBound(string prefix, string ns) =>
            (ReferenceEquals(prefix, _boundPrefix) && ReferenceEquals(ns, _boundUri)) || IsBoundAfterSearch(prefix, ns);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private bool IsBoundAfterSearch(string prefix, string ns)
        {
            if (LookupNamespace(prefix) != ns) return false;
            _boundPrefix = prefix;
            _boundUri = ns;
            return true;
        }

        public void AddNamespace(string prefix, string uri, XmlDictionaryString? uriDictionaryString)
        {
            if (prefix.Length >= 3 && (prefix[0] & ~32) == 'X' && (prefix[1] & ~32) == 'M' && (prefix[2] & ~32) == 'L')
            {
                if (prefix == "xml" && uri == XmlNamespace) return;
                if (prefix == "xmlns" && uri == XmlnsNamespace) return;
                throw new ArgumentException("Prefixes beginning with 'xml' (regardless of casing) are reserved for use by XML.", nameof(prefix));
            }
            // A prefix declared on this element is the newest declaration of it: the declarations of the element are the
            // newest of all.
            int i = _count - 1;
            if (_indexed) i = _newestByPrefix!.TryGetValue(prefix, out int newest) ? newest : -1;
            int passed = _count - 1 - i;
            int key = KeyOf(prefix);
            for (; i >= 0 && _ns[i].Depth == Depth; i--, passed++)
            {
                if (_ns[i].PrefixKey == key && _ns[i].Prefix == prefix)
                {
                    if (_ns[i].Uri == uri) return;
                    ThrowHelper.ThrowArgument("The prefix '{0}' is bound to the namespace '{1}' and cannot be changed to '{2}'.", prefix, _ns[i].Uri, uri, nameof(prefix));
                }
            }
            if (prefix.Length != 0 && uri.Length == 0)
                throw new ArgumentException("The empty namespace requires a null or empty prefix.", nameof(prefix));
            if (uri == XmlnsNamespace)
                ThrowHelper.ThrowArgument("The namespace '{0}' can only be bound to the prefix 'xmlns'.", uri, null);
            if (uri == XmlNamespace)
                ThrowHelper.ThrowArgument("The namespace '{0}' can only be bound to the prefix 'xml'.", uri, null);
            if (_count == _ns.Length) Array.Resize(ref _ns, _count * 2);
            // A writer reused per message declares the same namespaces in the same places: a slot left as the scope
            // that used it last ended keeps its references, which are stored only when they change (a store of a
            // reference into the heap costs a write barrier call, a compare does not).
            ref Declaration d = ref _ns[_count++];
            if (!ReferenceEquals(d.Prefix, prefix)) d.Prefix = prefix;
            d.PrefixKey = key;
            if (!ReferenceEquals(d.Uri, uri)) d.Uri = uri;
            if (!ReferenceEquals(d.UriDictionaryString, uriDictionaryString)) d.UriDictionaryString = uriDictionaryString;
            d.Depth = Depth;
            _topDepth = Depth;
            Forget();
            if (_indexed) Index(_count - 1);
            else if (passed > IndexedFrom) IndexAll();
        }

        /// <summary>
        /// Whether two namespaces are equal (ordinal): namespaces of one length told apart by their last character first,
        /// without a call (numbered namespaces, <c>urn:1</c>, <c>urn:2</c>…, differ there).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static bool SameUri(string a, string b)
            => a.Length == b.Length && (a.Length == 0 || (a[^1] == b[^1] && string.Equals(a, b)));

        /// <summary>Builds the tables of the declarations in scope (see <see cref="IndexedFrom"/>).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void IndexAll()
        {
            (_newestByPrefix ??= new Dictionary<string, int>(StringComparer.Ordinal)).Clear();
            (_newestByUri ??= new Dictionary<string, int>(StringComparer.Ordinal)).Clear();
            for (int i = 0; i < _count; i++) Index(i);
            _indexed = true;
        }

        /// <summary>Makes declaration <paramref name="i"/>, the newest, the one its prefix and its namespace lead to.</summary>
        private void Index(int i)
        {
            ref Declaration d = ref _ns[i];
            if (i >= _before.Length) Array.Resize(ref _before, _ns.Length);
            ref (int SamePrefix, int SameUri) before = ref _before[i];
            ref int byPrefix = ref CollectionsMarshal.GetValueRefOrAddDefault(_newestByPrefix!, d.Prefix, out bool prefixSeen);
            before.SamePrefix = prefixSeen ? byPrefix : -1;
            byPrefix = i;
            ref int byUri = ref CollectionsMarshal.GetValueRefOrAddDefault(_newestByUri!, d.Uri, out bool uriSeen);
            before.SameUri = uriSeen ? byUri : -1;
            byUri = i;
        }

        /// <summary>Takes declaration <paramref name="i"/>, the newest, out of the tables as its scope ends.</summary>
        private void Unindex(int i)
        {
            ref Declaration d = ref _ns[i];
            (int samePrefix, int sameUri) = _before[i];
            if (samePrefix >= 0) _newestByPrefix![d.Prefix] = samePrefix;
            else _newestByPrefix!.Remove(d.Prefix);
            if (sameUri >= 0) _newestByUri![d.Uri] = sameUri;
            else _newestByUri!.Remove(d.Uri);
        }

        /// <summary>
        /// The declarations in scope, newest binding per prefix, in declaration order, without the implicit default
        /// binding: what .NET's writer hands its canonical writer when canonicalization starts.
        /// </summary>
        public void CopyInScopeDeclarations(List<KeyValuePair<string, string>> into)
        {
            for (int i = 1; i < _count; i++)
            {
                if (!IsRedeclaredAfter(i, _ns[i].Prefix)) into.Add(new(_ns[i].Prefix, _ns[i].Uri));
            }
        }

        private bool IsRedeclaredAfter(int index, string prefix)
        {
            int key = _ns[index].PrefixKey;
            for (int j = index + 1; j < _count; j++)
            {
                if (_ns[j].PrefixKey == key && _ns[j].Prefix == prefix) return true;
            }
            return false;
        }

        private void Remember(int found)
        {
            ref Declaration d = ref _ns[found];
            _last = found;
            _lastUri = d.Uri;
            _lastPrefix = d.Prefix;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void Forget()
        {
            _last = -1;
            _lastUri = null;
            _lastPrefix = null;
            _boundPrefix = null;
        }

        /// <summary>
        /// The prefix in scope for <paramref name="ns"/>, or null. Like .NET: the cached last answer first, then a
        /// search by reference, then by value, newest declaration first.
        /// </summary>
        public string? LookupPrefix(string ns)
        {
            if (_lastUri == ns) return _lastPrefix;
            int found = FindDeclaration(ns, prefixedOnly: false);
            if (found >= 0)
            {
                Remember(found);
                return _lastPrefix;
            }
            // The default binding at index 0 always answers for "" unless "" was redeclared.
            if (ns == XmlnsNamespace) return "xmlns";
            if (ns == XmlNamespace) return "xml";
            return null;
        }

        /// <summary>The non-empty prefix in scope for <paramref name="ns"/> (attributes cannot use the default namespace).</summary>
        public string? LookupAttributePrefix(string ns)
        {
            if (_lastUri == ns && _lastPrefix!.Length != 0) return _lastPrefix;
            int found = FindDeclaration(ns, prefixedOnly: true);
            if (found >= 0)
            {
                Remember(found);
                return _lastPrefix;
            }
            return ns.Length == 0 ? string.Empty : null;
        }

        /// <summary>
        /// The declaration in scope that .NET's two searches find for <paramref name="ns"/>, newest first and passing
        /// over prefixes declared again since: the first by reference, else the first by value. One pass answers both
        /// (a declaration by reference passed on the way was redeclared, so the search by value passes it too); -1 when
        /// none. Attributes take only prefixed declarations.
        /// </summary>
        // Out of line: the lookups' cached declaration answers most calls, and inlined into a caller's loop the
        // search took the budget that loop's other short paths needed.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private int FindDeclaration(string ns, bool prefixedOnly)
        {
            if (_indexed) return FindIndexedDeclaration(ns, prefixedOnly);
            int byValue = -1;
            for (int i = _count - 1; i >= 0; i--)
            {
                ref Declaration d = ref _ns[i];
                if (prefixedOnly && d.Prefix.Length == 0) continue;
                if (ReferenceEquals(d.Uri, ns))
                {
                    if (!IsRedeclaredAfter(i, d.Prefix)) return i;
                }
                else if (byValue < 0 && SameUri(d.Uri, ns) && !IsRedeclaredAfter(i, d.Prefix))
                {
                    byValue = i;
                }
            }
            return byValue;
        }

        /// <summary><see cref="FindDeclaration"/> through the tables: the declarations of the namespace by value, newest first.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private int FindIndexedDeclaration(string ns, bool prefixedOnly)
        {
            int byValue = -1;
            for (int i = _newestByUri!.TryGetValue(ns, out int newest) ? newest : -1; i >= 0; i = _before[i].SameUri)
            {
                ref Declaration d = ref _ns[i];
                if ((prefixedOnly && d.Prefix.Length == 0) || _newestByPrefix![d.Prefix] != i) continue;
                if (ReferenceEquals(d.Uri, ns)) return i;
                if (byValue < 0) byValue = i;
            }
            return byValue;
        }

        /// <summary>The namespace bound to <paramref name="prefix"/>, or null.</summary>
        public string? LookupNamespace(string prefix)
        {
            if (_indexed) return LookupIndexedNamespace(prefix);
            // A prefix of one character or none is known by its key alone.
            int key = KeyOf(prefix);
            Declaration[] declarations = _ns;
            for (int i = _count - 1; i >= 0; i--)
            {
                ref Declaration d = ref declarations[i];
                if (d.PrefixKey == key && (prefix.Length <= 1 || d.Prefix == prefix)) return d.Uri;
            }
            if (prefix.Length == 0) return string.Empty;
            if (prefix.Length == 1) return null;
            if (prefix == "xmlns") return XmlnsNamespace;
            if (prefix == "xml") return XmlNamespace;
            return null;
        }

        /// <summary><see cref="LookupNamespace"/> through the tables.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private string? LookupIndexedNamespace(string prefix)
        {
            if (_newestByPrefix!.TryGetValue(prefix, out int newest)) return _ns[newest].Uri;
            if (prefix.Length == 0) return string.Empty;
            if (prefix.Length == 1) return null;
            if (prefix == "xmlns") return XmlnsNamespace;
            if (prefix == "xml") return XmlNamespace;
            return null;
        }
    }
}
