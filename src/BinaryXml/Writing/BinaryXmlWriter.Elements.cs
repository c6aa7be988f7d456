using System.Runtime.CompilerServices;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    private enum DocumentState : byte { None, Document, Epilog, End }

    private NamespaceManager _nsMgr;
    private WriteState _writeState;
    private DocumentState _documentState;

    /// <summary>
    /// Where the short paths may go (<see cref="InPlainContent"/>, <see cref="CanStartPlainElement"/>): kept by every
    /// change of the state it is made of, so that they test one field. A value lower than the state's is always safe
    /// (the general paths check everything): a change that can lower it lowers it before it happens, and it is raised
    /// where the state is known or recomputed (<see cref="RefreshPlainState"/>).
    /// </summary>
    private PlainState _plain;

    private enum PlainState : byte
    {
        /// <summary>Something is open or pending, or resolved prefixes are reported: only the general paths.</summary>
        None,

        /// <summary>Where a root element may start: a start tag without prefix or namespace needs no state work.</summary>
        TopLevel,

        /// <summary>
        /// Inside an element's content or its open start tag, with no attribute open, no base64 bytes held back, no
        /// list open and no xmlns records to write: a start tag, a value or an end tag needs no state work.
        /// </summary>
        Content,
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private void ResetXmlState()
    {
        _writeState = WriteState.Start;
        _documentState = DocumentState.None;
        // Prefix counters go back to 0 as their elements end: only a document left with open elements has any set.
        if (_nsMgr.Depth != 0) ClearPrefixIds();
        _nsMgr.Clear();
        _inList = false;
        ResetAttributeState();
        _trailByteCount = 0;
        // Before the root, with nothing open or pending.
        _plain = _reportResolvedPrefixes ? PlainState.None : PlainState.TopLevel;
    }

    // Out of line (a document left with open elements): see LeaveStreamOutput.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ClearPrefixIds() => Array.Clear(_scratch!.PrefixIds);

    /// <summary>The xml:lang in scope, as <see cref="XmlWriter.XmlLang"/>.</summary>
    public string? XmlLang => _scratch is null ? null : _nsMgr.XmlLang;

    /// <summary>The xml:space in scope, as <see cref="XmlWriter.XmlSpace"/>.</summary>
    public XmlSpace XmlSpace => _scratch is null ? XmlSpace.None : _nsMgr.XmlSpace;

    /// <summary>The number of open elements.</summary>
    public int CurrentDepth => _scratch is null ? 0 : _nsMgr.Depth;

    /// <summary>
    /// The prefix the last element, attribute, xmlns declaration or qualified name was written with, after
    /// resolution (found in scope or generated). Canonicalization replays calls with it.
    /// </summary>
    internal string LastResolvedPrefix => _scratch?.LastResolvedPrefix ?? string.Empty;

    /// <summary>Whether <see cref="LastResolvedPrefix"/> is kept (while a caller replays calls): off, it costs nothing.</summary>
    internal bool ReportResolvedPrefixes
    {
        get => _reportResolvedPrefixes;
        set
        {
            // The drop-in writer turns it off at every SetOutput: the state is recomputed only when it changes.
            if (_reportResolvedPrefixes == value) return;
            _reportResolvedPrefixes = value;
            RefreshPlainState();
        }
    }

    private bool _reportResolvedPrefixes;

    private void Resolved(string prefix)
    {
        if (ReportResolvedPrefixes) _scratch!.LastResolvedPrefix = prefix;
    }

    /// <summary>Adds the namespace declarations in scope (newest per prefix) to <paramref name="into"/>.</summary>
    internal void CopyInScopeDeclarations(List<KeyValuePair<string, string>> into) => _nsMgr.CopyInScopeDeclarations(into);

    /// <summary>Closes a pending start tag (its xmlns records are written), as .NET does before canonicalizing.</summary>
    internal void CloseStartTag()
    {
        ThrowIfClosed();
        FlushElement();
    }

    /// <summary>The prefix bound to a namespace in the current scope, or null.</summary>
    public string? LookupPrefix(string ns)
    {
        ArgumentNullException.ThrowIfNull(ns);
        ThrowIfClosed();
        return _nsMgr.LookupPrefix(ns);
    }

    /// <summary>Marks the start of a document: afterwards only one root element is allowed. Writes nothing.</summary>
    public void WriteStartDocument()
    {
        ThrowIfClosed();
        if (_writeState != WriteState.Start)
            ThrowHelper.ThrowWrongState("WriteStartDocument", _writeState);
        _writeState = WriteState.Prolog;
        _documentState = DocumentState.Document;
        RefreshPlainState();
    }

    /// <summary>Closes all open elements and ends the document.</summary>
    public void WriteEndDocument()
    {
        ThrowIfClosed();
        if (_writeState is WriteState.Start or WriteState.Prolog)
            ThrowHelper.ThrowInvalidOperation("The document does not have a root element.");
        FinishDocument();
        _writeState = WriteState.Start;
        _documentState = DocumentState.End;
        RefreshPlainState();
    }

    private void FinishDocument()
    {
        if (_inList) WriteEndList();
        if (_writeState == WriteState.Attribute) WriteEndAttribute();
        while (_nsMgr.Depth > 0) WriteEndElement();
    }

    /// <summary>Starts an element with no prefix in the current default namespace.</summary>
    public void WriteStartElement(string localName)
    {
        // The common case (inside an element, nothing pending) needs no checks beyond the name's; the root (tested only
        // when that fails, to keep the common test short) neither.
        if (CanStartPlainElement && !string.IsNullOrEmpty(localName))
        {
            _writeState = WriteState.Element;
            _plain = PlainState.Content;
            _nsMgr.EnterScope();
            WriteNodeWithName(RecordType.ShortElement, localName);
            return;
        }
        WriteStartElement(null, localName, null);
    }

    /// <summary>Starts an element in a namespace, declaring it on the element when it is not in scope.</summary>
    public void WriteStartElement(string localName, string? ns) => WriteStartElement(null, localName, ns);

    /// <summary>
    /// Starts an element. With a null <paramref name="ns"/> the prefix must be bound; with a null
    /// <paramref name="prefix"/> the prefix in scope for the namespace is used, or the namespace becomes the default
    /// namespace of the element (MC-NBFX 2.2.1; record choice as in dotnet-behaviour 2.2).
    /// </summary>
    public void WriteStartElement(string? prefix, string localName, string? ns)
    {
        WriteElementNode(TryStartBoundElement(prefix, localName, ns, out string? bound) ? bound : StartElement(prefix, localName, ns, null), localName);
    }

    /// <summary>
    /// The short way of <see cref="StartElement"/>: inside content with nothing pending, an element whose namespace is
    /// already bound (to its prefix, or to some prefix when it has none) declares nothing and needs no checks beyond
    /// its names'. Starts it and returns the prefix it is written with; false (nothing done) in any other case.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private bool TryStartBoundElement(string? prefix, string? localName, string? ns, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? bound)
    {
        bound = null;
        if (!InPlainContent || ns is null || string.IsNullOrEmpty(localName)) return false;
        bound = prefix is null ? _nsMgr.LookupPrefix(ns) : _nsMgr.IsBound(prefix, ns) ? prefix : null;
        if (bound is null) return false;
        // In plain content before, in a start tag that declares nothing now: still plain.
        _writeState = WriteState.Element;
        _nsMgr.EnterScope();
        return true;
    }

    /// <summary>Starts an element whose name and namespace may be written as dictionary ids.</summary>
    public void WriteStartElement(XmlDictionaryString localName, XmlDictionaryString? ns) => WriteStartElement(null, localName, ns);

    /// <summary>
    /// Starts an element whose local name is written as a dictionary id when the static dictionary or the session
    /// has it, and whose namespace declaration (if one is needed) uses a dictionary id likewise.
    /// </summary>
    public void WriteStartElement(string? prefix, XmlDictionaryString localName, XmlDictionaryString? ns)
    {
        ArgumentNullException.ThrowIfNull(localName);
        prefix = TryStartBoundElement(prefix, localName.Value, ns?.Value, out string? bound) ? bound : StartElement(prefix, localName.Value, ns?.Value, ns);
        if (!TryGetKey(localName, out int key))
        {
            WriteElementNode(prefix, localName.Value);
        }
        else if (TryGetShortFormRecord(prefix, RecordType.ShortDictionaryElement, RecordType.PrefixDictionaryElementA, out RecordType type))
        {
            WriteNodeWithId(type, key);
        }
        else
        {
            WriteDictionaryElementNode(prefix, key);
        }
    }

    private void WriteElementNode(string prefix, string localName)
    {
        if (TryGetShortFormRecord(prefix, RecordType.ShortElement, RecordType.PrefixElementA, out RecordType type)) WriteNodeWithName(type, localName);
        else WriteElementNodeWithPrefix(prefix, localName);
    }

    // The general forms (a prefix other than one letter), out of line: inlined, they took the inlining budget of
    // callers' loops that the short forms and the end tag's path need.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteElementNodeWithPrefix(string prefix, string localName)
    {
        WriteNodeWithName(RecordType.Element, prefix);
        WriteName(localName);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteDictionaryElementNode(string prefix, int key)
    {
        WriteNodeWithName(RecordType.DictionaryElement, prefix);
        WriteMultiByteInt31(key);
    }

    /// <summary>Checks and starts an element; returns its prefix, resolved (a local, not a ref: kept in a register).</summary>
    // The general path, out of line as Grow is: inlined into a caller's loop beside a short path (W3's), it took the
    // budget the short path's own helpers needed.
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private string StartElement(string? prefix, string localName, string? ns, XmlDictionaryString? xNs)
    {
        ThrowIfClosed();
        ThrowIfInList("WriteStartElement");
        if (_documentState == DocumentState.Epilog) ThrowHelper.ThrowInvalidOperation("Only one root element is permitted per document.");
        ArgumentNullException.ThrowIfNull(localName);
        if (localName.Length == 0) ThrowHelper.ThrowArgument("The empty string is not a valid local name.", nameof(localName));
        if (_writeState == WriteState.Attribute)
            ThrowHelper.ThrowWrongState("WriteStartElement", WriteState.Attribute);

        FlushBase64();
        AutoComplete(WriteState.Element);
        _plain = PlainState.None;
        _nsMgr.EnterScope();
        if (ns is null)
        {
            prefix ??= string.Empty;
            // The empty prefix is always bound.
            if (prefix.Length != 0 && _nsMgr.LookupNamespace(prefix) is null) ThrowHelper.ThrowArgument("The prefix '{0}' is not defined.", prefix, nameof(prefix));
        }
        else if (prefix is null)
        {
            prefix = _nsMgr.LookupPrefix(ns);
            if (prefix is null)
            {
                prefix = string.Empty;
                _nsMgr.AddNamespace(string.Empty, ns, xNs);
            }
        }
        else
        {
            _nsMgr.AddNamespaceIfNotDeclared(prefix, ns, xNs);
        }
        Resolved(prefix);
        // A start tag, after every check: plain unless it declared something or its prefix is reported.
        _plain = _nsMgr.HasScopeWork || _reportResolvedPrefixes ? PlainState.None : PlainState.Content;
        return prefix;
    }

    private void ExitScope()
    {
        // Most elements declare nothing and set no xml:lang or xml:space.
        if (_nsMgr.HasScopeWork) ExitDeclaringScope();
        else _nsMgr.Depth--;
        if (_nsMgr.Depth == 0) EndRoot();
    }

    private void ExitDeclaringScope()
    {
        // Generated prefixes (dNpM) are always declared, so only a declaring element has a prefix counter to reset.
        int[] prefixIds = _scratch!.PrefixIds;
        if (_nsMgr.Depth < prefixIds.Length) prefixIds[_nsMgr.Depth] = 0;
        _nsMgr.ExitDeclaringScope();
    }

    /// <summary>
    /// Closes the innermost element: folded into the text record just written when the fold rule allows
    /// (<c>…WithEndElement</c>), otherwise an EndElement record.
    /// </summary>
    // Inlined by attribute, with the steps of its common end (WriteEndElementNode, FoldEndElement), into callers' loops
    // also where no profile guides the JIT (dynamic PGO off, code compiled ahead of time): there the three were calls
    // (benchmarks/HISTORY.md, "R1's two levels traced to the benchmark's loop…").
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteEndElement()
    {
        // The common end: inside content or an open start tag with nothing pending, an element that declared
        // nothing (the root too: every message ends one). The general path below does the same in this case.
        if (InPlainContent && !_nsMgr.HasScopeWork)
        {
            WriteEndElementNode();
            _writeState = WriteState.Content;
            if (--_nsMgr.Depth == 0) EndRoot();
            return;
        }
        WriteEndElementInAnyState();
    }

    /// <summary>
    /// Leaves the scope of an element that declared nothing (the end of <see cref="ExitScope"/> for it). Its callers
    /// started the element with nothing pending and no prefix to report, so what follows is plain as well (a caller
    /// for which that does not hold recomputes <see cref="_plain"/> after this).
    /// </summary>
    private void ExitPlainScope()
    {
        // EndRoot's rule inlined, not called: the one-call paths that end with this are inlined into callers' loops,
        // and a call to EndRoot left W2's one-element documents 2–5 ns slower (runs 239–241).
        _writeState = WriteState.Content;
        if (--_nsMgr.Depth != 0) _plain = PlainState.Content;
        else AfterRoot();
    }

    /// <summary>
    /// After the root's end: in a document, only comments may follow; outside one, another root may start plainly
    /// (nothing is pending after an end tag: the general path recomputes <see cref="_plain"/> after this anyway). Out of
    /// line (once per document), so that <see cref="WriteEndElement"/>'s short path stays short.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void EndRoot() => AfterRoot();

    /// <summary><see cref="EndRoot"/>'s rule, for the paths that write it inline.</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private void AfterRoot()
    {
        if (_documentState == DocumentState.Document)
        {
            _documentState = DocumentState.Epilog;
            _plain = PlainState.None;
        }
        else
        {
            _plain = PlainState.TopLevel;
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void WriteEndElementInAnyState()
    {
        ThrowIfClosed();
        ThrowIfInList("WriteEndElement");
        if (_nsMgr.Depth == 0) ThrowHelper.ThrowInvalidOperation("Cannot call 'WriteEndElement' while Depth is '0'.");
        if (_writeState == WriteState.Attribute) WriteEndAttribute();
        FlushBase64();
        if (_writeState == WriteState.Element) _nsMgr.DeclareNamespaces(this);
        WriteEndElementNode();
        ExitScope();
        _writeState = WriteState.Content;
        RefreshPlainState();
    }

    /// <summary>Same as <see cref="WriteEndElement"/>: binary XML has no empty-element form.</summary>
    public void WriteFullEndElement()
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute) WriteEndAttribute();
        if (_writeState is not (WriteState.Element or WriteState.Content))
            ThrowHelper.ThrowWrongState("WriteFullEndElement", _writeState);
        AutoComplete(WriteState.Content);
        WriteEndElement();
    }

    /// <summary>Writes a complete element with string content (no record for empty content).</summary>
    public void WriteElementString(string localName, string? value)
    {
        // The common case as one step: what the three calls below do when nothing is pending and nothing is declared.
        if (CanStartPlainElement && !string.IsNullOrEmpty(localName))
        {
            _nsMgr.EnterScope();
            if (value is null || !TryWriteShortElementString(localName, value))
            {
                WriteNodeWithName(RecordType.ShortElement, localName);
                if (!string.IsNullOrEmpty(value)) WriteTextNode(value.AsSpan());
            }
            WriteEndElementNode();
            ExitPlainScope();
            return;
        }
        WriteElementString(null, localName, null, value);
    }

    /// <summary>
    /// <see cref="WriteElementString(string, string?)"/>'s element and text records in one buffer request
    /// (<see cref="TryTakeRoom"/>): a short name, and text of one to <see cref="ShortTextChars"/> characters other than
    /// "0" and "1" (written as records of their own), each record reserving its worst case as .NET does. Leaves the
    /// text record the one the end tag folds into. False, writing nothing, where any of this does not hold.
    /// </summary>
    // Out of line, as the small arrays' path: left to the JIT, it was inlined into a harness's document (Reset,
    // WriteElementString, Flush) and the document took up to 0.7 ns more in two processes of three.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryWriteShortElementString(string localName, string value)
    {
        int n = value.Length;
        if (!IsShortName(localName.Length) || (uint)(n - 1) >= ShortTextChars || (n == 1 && value[0] is '0' or '1')) return false;
        int nameReservation = 1 + localName.Length * MaxBytesPerChar;
        if (!TryTakeRoom(1 + nameReservation + 2 + n * MaxBytesPerChar, out Span<byte> span)) return false;
        span[0] = (byte)RecordType.ShortElement;
        int nameLength = TranscodeName(localName, span.Slice(2, nameReservation - 1));
        span[1] = (byte)nameLength;
        int textStart = 2 + nameLength;
        int textSize = WriteShortTextRecord(value, span[textStart..]);
        SetTextNode(_pending + textStart);
        _pending += textStart + textSize;
        return true;
    }

    /// <summary>Writes a complete element with string content.</summary>
    public void WriteElementString(string? prefix, string localName, string? ns, string? value)
    {
        WriteStartElement(prefix, localName, ns);
        if (!string.IsNullOrEmpty(value)) WriteString(value);
        WriteEndElement();
    }

    /// <summary>Writes a complete element with dictionary name and string content.</summary>
    public void WriteElementString(XmlDictionaryString localName, XmlDictionaryString? ns, string? value)
    {
        WriteStartElement(null, localName, ns);
        WriteString(value);
        WriteEndElement();
    }

    /// <summary>Writes a comment record (MC-NBFX 2.3.2). Comments may appear outside the root element.</summary>
    public void WriteComment(string? text)
    {
        ThrowIfClosed();
        ThrowIfInList("WriteComment");
        if (_writeState == WriteState.Attribute) ThrowHelper.ThrowWrongState("WriteComment", WriteState.Attribute);
        text ??= string.Empty;
        if (text.Contains("--", StringComparison.Ordinal) || text.EndsWith('-'))
            ThrowHelper.ThrowArgument("XML comments cannot contain '--' or end with '-'.", nameof(text));
        FlushElement();
        FlushBase64();
        WriteNode(RecordType.Comment);
        WriteName(text);
    }

    private void FlushElement()
    {
        if (_writeState == WriteState.Element)
        {
            AutoComplete(WriteState.Content);
            // A start tag that declared something was not plain; its content may be.
            if (_plain != PlainState.Content) RefreshPlainState();
        }
    }

    /// <summary>
    /// Closes an open start tag (its xmlns records are written) and moves to <paramref name="writeState"/>. Leaves
    /// <see cref="_plain"/> as it was: from a start tag to content it can only rise (the caller raises it where that
    /// matters), and a start tag or a close sets it themselves.
    /// </summary>
    private void AutoComplete(WriteState writeState)
    {
        if (_writeState == WriteState.Element) _nsMgr.DeclareNamespaces(this);
        _writeState = writeState;
    }

    /// <summary>
    /// Where a start tag without prefix or namespace needs no state work before its record: inside content, an open
    /// start tag with nothing to declare, or before the root (not after it once <see cref="WriteStartDocument"/> was
    /// called), with no base64 bytes held back, no list open and no resolved prefixes to report.
    /// </summary>
    private bool CanStartPlainElement
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        get
        {
            System.Diagnostics.Debug.Assert(PlainStateIsSafe, "The writer's plain state is stale.");
            return _plain != PlainState.None;
        }
    }

    /// <summary>
    /// Inside an element's content or its open start tag, with no attribute open, no base64 bytes held back, no list
    /// open, no xmlns records to write and no resolved prefixes to report: where a start tag, a value or an end tag
    /// needs no state work before its record.
    /// </summary>
    private bool InPlainContent
    {
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        get
        {
            System.Diagnostics.Debug.Assert(PlainStateIsSafe, "The writer's plain state is stale.");
            return _plain == PlainState.Content;
        }
    }

    /// <summary>The <see cref="PlainState"/> of the writer's state, computed from it.</summary>
    private PlainState ComputePlainState()
    {
        // The write state first: a closed writer has no namespace scopes.
        if (_writeState == WriteState.Closed || _trailByteCount != 0 || _inList || _reportResolvedPrefixes) return PlainState.None;
        if (_nsMgr.Depth != 0)
            return _writeState == WriteState.Content || (_writeState == WriteState.Element && !_nsMgr.HasScopeWork) ? PlainState.Content : PlainState.None;
        return _writeState is WriteState.Start or WriteState.Prolog or WriteState.Content && _documentState != DocumentState.Epilog
            ? PlainState.TopLevel
            : PlainState.None;
    }

    /// <summary>Whether <see cref="_plain"/> is at most what the state allows (for tests: a higher value would skip checks).</summary>
    internal bool PlainStateIsSafe => _plain <= ComputePlainState();

    /// <summary>Whether <see cref="_plain"/> is the state's own, as it is after a recompute (for tests).</summary>
    internal bool PlainStateIsExact => _plain == ComputePlainState();

    /// <summary>Sets <see cref="_plain"/> from the state, after a general path changed it.</summary>
    private void RefreshPlainState() => _plain = ComputePlainState();

    private void StartContent()
    {
        FlushElement();
        if (_nsMgr.Depth == 0) ThrowHelper.ThrowInvalidOperation("Text cannot be written outside the root element.");
    }

    private void StartContent(ReadOnlySpan<char> text)
    {
        FlushElement();
        if (_nsMgr.Depth == 0 && text.IndexOfAnyExcept(" \t\r\n") >= 0) ThrowHelper.ThrowInvalidOperation("Text cannot be written outside the root element.");
    }
}
