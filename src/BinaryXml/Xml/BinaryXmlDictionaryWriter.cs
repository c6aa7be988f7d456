using System.Xml;

namespace BinaryXml;

/// <summary>
/// A drop-in replacement for <see cref="XmlDictionaryWriter.CreateBinaryWriter(Stream, IXmlDictionary?, XmlBinaryWriterSession?, bool)"/>:
/// the same members, the same bytes, the same exceptions, built on <see cref="BinaryXmlWriter"/>.
/// </summary>
/// <remarks>
/// Members that .NET's binary writer inherits from <see cref="XmlDictionaryWriter"/> or <see cref="XmlWriter"/>
/// (the <see cref="XmlDictionaryString"/> array overloads, <c>WriteNode</c>, <c>WriteValue(DateTimeOffset)</c>,
/// <c>WriteValue(IStreamProvider)</c>, …) are inherited here too, so they behave identically.
/// <see cref="StartCanonicalization"/> canonicalizes what is written next (exclusive C14N, as .NET does, through .NET's
/// own canonical writer); while it is on, arrays are written as repeated elements, as .NET's writer does.
/// Reuse an instance across messages with <see cref="SetOutput"/>.
/// </remarks>
public sealed class BinaryXmlDictionaryWriter : XmlDictionaryWriter, IXmlBinaryWriterInitializer
{
    private readonly BinaryXmlWriter _writer;
    private char[]? _chars;
    private byte[]? _bytes;
    private CanonicalizationTee? _tee;

    /// <summary>While canonicalizing: the writer each node-level call is replayed into, with resolved prefixes.</summary>
    private XmlDictionaryWriter? _c14n;

    private BinaryXmlDictionaryWriter(Stream stream, IXmlDictionary? dictionary, XmlBinaryWriterSession? session, bool ownsStream)
    {
        _writer = new BinaryXmlWriter(stream, dictionary, session, ownsStream);
    }

    /// <summary>The native writer this one writes with (for tests of its state).</summary>
    internal BinaryXmlWriter NativeWriter => _writer;

    /// <summary>Creates a writer, as <c>XmlDictionaryWriter.CreateBinaryWriter</c>.</summary>
    public static BinaryXmlDictionaryWriter Create(Stream stream, IXmlDictionary? dictionary = null, XmlBinaryWriterSession? session = null, bool ownsStream = true)
    {
        ArgumentNullException.ThrowIfNull(stream);
        return new BinaryXmlDictionaryWriter(stream, dictionary, session, ownsStream);
    }

    /// <summary>Starts writing a new document to another stream, reusing this instance.</summary>
    public void SetOutput(Stream stream, IXmlDictionary? dictionary, XmlBinaryWriterSession? session, bool ownsStream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        _writer.Reset(stream, dictionary, session, ownsStream);
        StopReplay();
    }

    // ---- Canonicalization ----------------------------------------------------------------------------------------

    /// <summary>Always true: exclusive canonicalization is supported.</summary>
    public override bool CanCanonicalize => true;

    /// <summary>
    /// Starts writing the exclusive canonical form (C14N, with or without comments, with optional inclusive
    /// prefixes) of everything written next to <paramref name="stream"/>, as .NET's binary writer does: the
    /// namespace declarations in scope are known to the canonicalizer, and arrays are written as repeated elements
    /// until <see cref="EndCanonicalization"/>.
    /// </summary>
    public override void StartCanonicalization(Stream stream, bool includeComments, string[]? inclusivePrefixes)
    {
        ThrowIfClosed();
        if (_c14n is not null) throw new InvalidOperationException("Canonicalization already started.");
        // .NET's writer starts anyway and fails later (NullReferenceException) or canonicalizes the rest of the
        // attribute outside any element; the canonical form would not be well-formed.
        if (_writer.WriteState == WriteState.Attribute) throw new InvalidOperationException("Canonicalization cannot start inside an attribute.");
        _writer.CloseStartTag();
        _tee ??= new CanonicalizationTee();
        _writer.CopyInScopeDeclarations(_tee.InScope);
        _tee.Start(stream, includeComments, inclusivePrefixes, _writer.CurrentDepth, enclose: _writer.CurrentDepth > 0);
        _c14n = _tee.Writer;
        _writer.ReportResolvedPrefixes = true;
        // Base64 bytes held back before canonicalization started are written during it, so canonicalized (as in .NET).
        ReadOnlySpan<byte> pending = _writer.PendingBase64Bytes;
        if (!pending.IsEmpty) _c14n.WriteBase64(pending.ToArray(), 0, pending.Length);
    }

    /// <summary>
    /// Stops canonicalizing; the canonical bytes are flushed to the stream given to <see cref="StartCanonicalization"/>
    /// and, as in .NET, the binary bytes to the output.
    /// </summary>
    public override void EndCanonicalization()
    {
        ThrowIfClosed();
        if (_c14n is null) throw new InvalidOperationException("Canonicalization not started.");
        StopReplay();
        // .NET flushes its binary output here too (the flush decides later end-element folding like any Flush).
        _writer.Flush();
        _tee!.End();
    }

    private void StopReplay()
    {
        _c14n = null;
        _writer.ReportResolvedPrefixes = false;
    }

    /// <summary>
    /// Refuses to close an element that was open before canonicalization started: the canonical form would not be
    /// well-formed (.NET's writer fails there with an IndexOutOfRangeException or a NullReferenceException).
    /// </summary>
    private void CheckCanonicalEnd(int depth)
    {
        if (_c14n is not null && depth <= _tee!.StartDepth)
            throw new InvalidOperationException("An element that was open when canonicalization started cannot be closed before EndCanonicalization.");
    }

    /// <inheritdoc/>
    public override WriteState WriteState => _writer.WriteState;

    /// <inheritdoc/>
    public override string? XmlLang => _writer.XmlLang;

    /// <inheritdoc/>
    public override XmlSpace XmlSpace => _writer.XmlSpace;

    /// <inheritdoc/>
    public override string? LookupPrefix(string ns) => _writer.LookupPrefix(ns);

    /// <inheritdoc/>
    public override void Flush()
    {
        _writer.Flush();
        _c14n?.Flush();
    }

    /// <inheritdoc/>
    /// <remarks>As .NET's binary writer: the bytes written so far go to the stream, which is then flushed, asynchronously.</remarks>
    public override async Task FlushAsync()
    {
        await _writer.FlushAsync().ConfigureAwait(false);
        _c14n?.Flush();
    }

    /// <summary>Closes the writer; while canonicalizing, the canonical form is completed and flushed first.</summary>
    public override void Close()
    {
        if (_c14n is not null && _writer.WriteState != WriteState.Closed)
        {
            while (_writer.CurrentDepth > _tee!.StartDepth) WriteEndElement();
            StopReplay();
            _tee.End();
        }
        _writer.Close();
    }

    /// <inheritdoc/>
    public override void WriteStartDocument()
    {
        _writer.WriteStartDocument();
        _c14n?.WriteStartDocument();
    }

    /// <inheritdoc/>
    public override void WriteStartDocument(bool standalone)
    {
        ThrowIfClosed();
        _writer.WriteStartDocument();
        _c14n?.WriteStartDocument(standalone);
    }

    /// <inheritdoc/>
    public override void WriteEndDocument()
    {
        CheckCanonicalEnd(1);
        _writer.WriteEndDocument();
        _c14n?.WriteEndDocument();
    }

    /// <inheritdoc/>
    public override void WriteDocType(string name, string? pubid, string? sysid, string? subset)
        => throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteDocType' method.");

    /// <inheritdoc/>
    public override void WriteEntityRef(string name)
        => throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteEntityRef' method.");

    /// <inheritdoc/>
    public override void WriteNmToken(string name)
        => throw new NotSupportedException("This XmlWriter implementation does not support the 'WriteNmToken' method.");

    /// <inheritdoc/>
    public override void WriteName(string name)
    {
        ThrowIfClosed();
        _writer.WriteString(name);
        _c14n?.WriteName(name);
    }

    /// <summary>Only the XML declaration is accepted (it writes nothing), as in .NET's binary writer.</summary>
    public override void WriteProcessingInstruction(string name, string? text)
    {
        ThrowIfClosed();
        if (name != "xml") throw new ArgumentException("Processing instructions (other than the XML declaration) and DTDs are not supported.", nameof(name));
        if (_writer.WriteState != WriteState.Start) throw new InvalidOperationException("XML declaration can only be written at the beginning of the document.");
        _c14n?.WriteProcessingInstruction(name, text);
    }

    /// <inheritdoc/>
    public override void WriteStartElement(string? prefix, string localName, string? ns)
    {
        // XmlWriter's WriteStartElement(localName) and WriteElementString(localName, value) come here with no prefix
        // and no namespace: the native writer's one-name overload has the short path for them.
        if (prefix is null && ns is null) _writer.WriteStartElement(localName);
        else WriteStartElementOutOfLine(prefix, localName, ns);
        _c14n?.WriteStartElement(_writer.LastResolvedPrefix, localName, ns);
    }

    // The native writer's start tag with a namespace, compiled as a method of its own: inlined with this override into a
    // caller's loop, it left its own helpers as calls there for want of inlining budget (W3 inline names 1.3× slower).
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void WriteStartElementOutOfLine(string? prefix, string localName, string? ns) => _writer.WriteStartElement(prefix, localName, ns);

    /// <inheritdoc/>
    public override void WriteStartElement(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        _writer.WriteStartElement(prefix, localName, namespaceUri);
        _c14n?.WriteStartElement(_writer.LastResolvedPrefix, localName.Value, namespaceUri?.Value);
    }

    /// <inheritdoc/>
    public override void WriteEndElement()
    {
        if (_c14n is not null) CheckCanonicalEnd(_writer.CurrentDepth);
        _writer.WriteEndElement();
        _c14n?.WriteEndElement();
    }

    /// <inheritdoc/>
    public override void WriteFullEndElement()
    {
        if (_c14n is not null) CheckCanonicalEnd(_writer.CurrentDepth);
        _writer.WriteFullEndElement();
        _c14n?.WriteFullEndElement();
    }

    /// <inheritdoc/>
    public override void WriteStartAttribute(string? prefix, string localName, string? ns)
    {
        _writer.WriteStartAttribute(prefix, localName, ns);
        _c14n?.WriteStartAttribute(ReplayPrefix(prefix), localName, ns);
    }

    /// <inheritdoc/>
    public override void WriteStartAttribute(string? prefix, XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        _writer.WriteStartAttribute(prefix, localName, namespaceUri);
        _c14n?.WriteStartAttribute(ReplayPrefix(prefix), localName.Value, namespaceUri?.Value);
    }

    /// <summary>The attribute prefix to replay: as resolved, except xml/xmlns attributes, which are replayed as given.</summary>
    private string? ReplayPrefix(string? prefix)
        => _writer.LastResolvedPrefix is "xml" or "xmlns" ? prefix : _writer.LastResolvedPrefix;

    /// <inheritdoc/>
    public override void WriteEndAttribute()
    {
        _writer.WriteEndAttribute();
        _c14n?.WriteEndAttribute();
    }

    /// <inheritdoc/>
    public override void WriteXmlnsAttribute(string? prefix, string namespaceUri)
    {
        _writer.WriteXmlnsAttribute(prefix, namespaceUri);
        _c14n?.WriteXmlnsAttribute(_writer.LastResolvedPrefix, namespaceUri);
    }

    /// <inheritdoc/>
    public override void WriteXmlnsAttribute(string? prefix, XmlDictionaryString namespaceUri)
    {
        _writer.WriteXmlnsAttribute(prefix, namespaceUri);
        _c14n?.WriteXmlnsAttribute(_writer.LastResolvedPrefix, namespaceUri.Value);
    }

    /// <inheritdoc/>
    public override void WriteComment(string? text)
    {
        _writer.WriteComment(text);
        _c14n?.WriteComment(text);
    }

    /// <inheritdoc/>
    public override void WriteCData(string? text)
    {
        _writer.WriteCData(text);
        _c14n?.WriteCData(text);
    }

    /// <inheritdoc/>
    public override void WriteWhitespace(string? ws)
    {
        _writer.WriteWhitespace(ws);
        _c14n?.WriteWhitespace(ws);
    }

    /// <inheritdoc/>
    public override void WriteString(string? text)
    {
        _writer.WriteString(text);
        _c14n?.WriteString(text);
    }

    /// <inheritdoc/>
    public override void WriteString(XmlDictionaryString? value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        _writer.WriteString(value);
        _c14n?.WriteString(value.Value);
    }

    /// <inheritdoc/>
    public override void WriteChars(char[] buffer, int index, int count)
    {
        _writer.WriteChars(buffer, index, count);
        _c14n?.WriteChars(buffer, index, count);
    }

    /// <inheritdoc/>
    public override void WriteRaw(string data)
    {
        _writer.WriteRaw(data);
        _c14n?.WriteRaw(data);
    }

    /// <inheritdoc/>
    public override void WriteRaw(char[] buffer, int index, int count)
    {
        _writer.WriteRaw(buffer, index, count);
        _c14n?.WriteRaw(buffer, index, count);
    }

    /// <inheritdoc/>
    public override void WriteCharEntity(char ch)
    {
        _writer.WriteCharEntity(ch);
        _c14n?.WriteCharEntity(ch);
    }

    /// <inheritdoc/>
    public override void WriteSurrogateCharEntity(char lowChar, char highChar)
    {
        _writer.WriteSurrogateCharEntity(lowChar, highChar);
        _c14n?.WriteSurrogateCharEntity(lowChar, highChar);
    }

    /// <inheritdoc/>
    public override void WriteBase64(byte[] buffer, int index, int count)
    {
        _writer.WriteBase64(buffer, index, count);
        _c14n?.WriteBase64(buffer, index, count);
    }

    /// <inheritdoc/>
    public override void WriteBinHex(byte[] buffer, int index, int count)
    {
        _writer.WriteBinHex(buffer, index, count);
        _c14n?.WriteBinHex(buffer, index, count);
    }

    /// <inheritdoc/>
    public override void WriteQualifiedName(string localName, string? ns)
    {
        _writer.WriteQualifiedName(localName, ns);
        if (_c14n is not null) ReplayQualifiedName(localName, ns);
    }

    /// <inheritdoc/>
    public override void WriteQualifiedName(XmlDictionaryString localName, XmlDictionaryString? namespaceUri)
    {
        _writer.WriteQualifiedName(localName, namespaceUri);
        if (_c14n is not null) ReplayQualifiedName(localName.Value, namespaceUri?.Value);
    }

    /// <summary>
    /// Replays a qualified name as the text it stands for, with the prefix this writer chose; when that prefix was
    /// generated (inside an attribute), the replay writer generates the same one from the same scope.
    /// </summary>
    private void ReplayQualifiedName(string localName, string? ns)
    {
        if (_c14n!.LookupPrefix(ns ?? string.Empty) is null)
        {
            _c14n.WriteQualifiedName(localName, ns);
            return;
        }
        string prefix = _writer.LastResolvedPrefix;
        _c14n.WriteString(prefix.Length == 0 ? localName : string.Concat(prefix, ":", localName));
    }

    // ---- Typed values ------------------------------------------------------------------------------------------

    /// <inheritdoc/>
    public override void WriteValue(bool value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(int value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(long value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(float value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(double value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(decimal value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(DateTime value)
    {
        _writer.WriteValue(value);
        // .NET's binary writer canonicalizes a DateTime as formatted characters, kept even outside the root; its text
        // writer (the replay writer) as text to escape, dropped there. Replayed raw, as the binary writer does.
        _c14n?.WriteRaw(XmlConvert.ToString(value, XmlDateTimeSerializationMode.RoundtripKind));
    }

    /// <inheritdoc/>
    public override void WriteValue(string? value)
    {
        ThrowIfClosed();
        _writer.WriteString(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(Guid value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(TimeSpan value)
    {
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(UniqueId value)
    {
        ThrowIfClosed();
        _writer.WriteValue(value);
        _c14n?.WriteValue(value);
    }

    /// <inheritdoc/>
    public override void WriteValue(XmlDictionaryString? value) => WriteString(value);

    /// <summary>
    /// Writes a value as .NET's writer does: an <c>object[]</c> or other array as a list (StartListText …
    /// EndListText), an <see cref="IStreamProvider"/> as base64, primitives with their own records, anything else as
    /// its string form.
    /// </summary>
    public override void WriteValue(object value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        switch (value)
        {
            case Array array:
            {
                // The items are replayed as one list, not through the members WriteList may call.
                XmlDictionaryWriter? c14n = _c14n;
                _c14n = null;
                try
                {
                    WriteList(array);
                }
                finally
                {
                    _c14n = c14n;
                }
                c14n?.WriteValue(value);
                break;
            }
            case IStreamProvider provider: base.WriteValue(provider); break;
            default:
                if (WritePrimitiveValue(value)) _c14n?.WriteValue(value);
                break;
        }
    }

    private void WriteList(Array items)
    {
        _writer.WriteStartList();
        try
        {
            for (int i = 0; i < items.Length; i++) WritePrimitiveValue(items.GetValue(i)!);
        }
        finally
        {
            // An item that fails (a nested array, a null) ends the list after the items before it. .NET's writer leaves
            // its list open and writes what follows into it, a document no reader accepts; pinned by WriterListTests.
            _writer.WriteEndList();
        }
    }

    /// <summary>
    /// Writes one primitive value; false when it went through another overridable member (which replays it for
    /// canonicalization itself).
    /// </summary>
    private bool WritePrimitiveValue(object value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        switch (value)
        {
            case ulong v: _writer.WriteValue(v); break;
            case string v: _writer.WriteString(v); break;
            case int v: _writer.WriteValue(v); break;
            case long v: _writer.WriteValue(v); break;
            case bool v: _writer.WriteValue(v); break;
            case double v: _writer.WriteValue(v); break;
            case DateTime v: _writer.WriteValue(v); break;
            case float v: _writer.WriteValue(v); break;
            case decimal v: _writer.WriteValue(v); break;
            case XmlDictionaryString v: WriteString(v); return false;
            case UniqueId v: _writer.WriteValue(v); break;
            case Guid v: _writer.WriteValue(v); break;
            case TimeSpan v: _writer.WriteValue(v); break;
            default:
                if (value.GetType().IsArray) throw new ArgumentException("Nested arrays are not supported.", nameof(value));
                base.WriteValue(value);
                return false;
        }
        return true;
    }

    // ---- Arrays: the string-named overloads, as .NET's binary writer overrides them ------------------------------

    private static void CheckArray(Array array, int offset, int count) => ThrowHelper.CheckBufferRange(array, offset, count, nameof(array));

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, bool[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, short[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, int[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, long[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, float[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, double[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, decimal[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, DateTime[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, Guid[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    /// <inheritdoc/>
    public override void WriteArray(string? prefix, string localName, string? namespaceUri, TimeSpan[] array, int offset, int count)
    {
        if (_c14n is not null)
        {
            base.WriteArray(prefix, localName, namespaceUri, array, offset, count);
            return;
        }
        CheckArray(array, offset, count);
        _writer.WriteArray(prefix, localName, namespaceUri, array.AsSpan(offset, count));
    }

    // ---- Copying from a reader ---------------------------------------------------------------------------------

    /// <summary>
    /// How <see cref="XmlDictionaryWriter.WriteNode(XmlDictionaryReader, bool)"/> copies a text node, as .NET's binary
    /// writer does it: dictionary strings as such, other text in 256-char chunks, bytes in 384-byte chunks, typed
    /// values with their types (a DateTime through DateTimeOffset, losing its kind).
    /// </summary>
    protected override void WriteTextNode(XmlDictionaryReader reader, bool isAttribute)
    {
        Type type = reader.ValueType;
        if (type == typeof(string))
        {
            if (reader.TryGetValueAsDictionaryString(out XmlDictionaryString? value))
            {
                WriteString(value);
            }
            else if (reader.CanReadValueChunk)
            {
                _chars ??= new char[256];
                int count;
                while ((count = reader.ReadValueChunk(_chars, 0, _chars.Length)) > 0) WriteChars(_chars, 0, count);
            }
            else
            {
                WriteString(reader.Value);
            }
            if (!isAttribute) reader.Read();
        }
        else if (type == typeof(byte[]))
        {
            if (reader.CanReadBinaryContent)
            {
                _bytes ??= new byte[384];
                int count;
                while ((count = reader.ReadValueAsBase64(_bytes, 0, _bytes.Length)) > 0) WriteBase64(_bytes, 0, count);
            }
            else
            {
                WriteString(reader.Value);
            }
            if (!isAttribute) reader.Read();
        }
        else if (type == typeof(int)) WriteValue(reader.ReadContentAsInt());
        else if (type == typeof(long)) WriteValue(reader.ReadContentAsLong());
        else if (type == typeof(bool)) WriteValue(reader.ReadContentAsBoolean());
        else if (type == typeof(double)) WriteValue(reader.ReadContentAsDouble());
        else if (type == typeof(DateTime)) WriteValue(reader.ReadContentAsDateTimeOffset().DateTime);
        else if (type == typeof(float)) WriteValue(reader.ReadContentAsFloat());
        else if (type == typeof(decimal)) WriteValue(reader.ReadContentAsDecimal());
        else if (type == typeof(UniqueId)) WriteValue(reader.ReadContentAsUniqueId());
        else if (type == typeof(Guid)) WriteValue(reader.ReadContentAsGuid());
        else if (type == typeof(TimeSpan)) WriteValue(reader.ReadContentAsTimeSpan());
        else WriteValue(reader.ReadContentAsObject());
    }

    private void ThrowIfClosed()
    {
        if (_writer.WriteState == WriteState.Closed) ThrowHelper.ThrowWriterClosed();
    }
}
