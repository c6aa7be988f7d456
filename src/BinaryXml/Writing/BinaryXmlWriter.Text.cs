using System.Globalization;
using System.Text.Unicode;
using System.Xml;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    private bool _inList;

    /// <summary>
    /// Writes text. Empty text writes nothing (except inside a list, where it is EmptyText); "0" and "1" become
    /// ZeroText and OneText; otherwise Chars or, when shorter, UnicodeChars (dotnet-behaviour 2.5). Inside an
    /// attribute the text is collected into the attribute's value.
    /// </summary>
    public void WriteString(string? value) => WriteString(value.AsSpan(), value);

    /// <summary>Writes text from a span, as <see cref="WriteString(string?)"/>.</summary>
    public void WriteString(ReadOnlySpan<char> value) => WriteString(value, null);

    private void WriteString(ReadOnlySpan<char> value, string? valueString)
    {
        // Inside an element with nothing open, held back or to declare (the common case): the record alone, as a
        // typed value's BeginValue does; the general checks out of line.
        if (InPlainContent && !value.IsEmpty)
        {
            _writeState = WriteState.Content;
            WriteTextNode(value);
            return;
        }
        WriteStringInAnyState(value, valueString);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void WriteStringInAnyState(ReadOnlySpan<char> value, string? valueString)
    {
        ThrowIfClosed();
        if (value.Length > 0 || _inList)
        {
            FlushBase64();
            if (_attributeValue is not null) AppendAttributeText(valueString ?? value.ToString());
            if (!IsXmlnsAttribute)
            {
                StartContent(value);
                // Inside an attribute a string is held, not copied, until the attribute ends (or more text comes).
                if (_inAttribute && valueString is not null) Capture.AddText(valueString);
                else WriteTextOrCapture(value);
            }
        }
    }

    /// <summary>Writes characters from an array, as <see cref="WriteString(string?)"/>.</summary>
    public void WriteChars(char[] buffer, int index, int count)
    {
        ThrowHelper.CheckWriteRange(buffer, index, count, "chars");
        if (count > 0) WriteString(buffer.AsSpan(index, count), null);
    }

    /// <summary>In binary XML raw text is ordinary text: same bytes as <see cref="WriteString(string?)"/>.</summary>
    public void WriteRaw(string? data) => WriteString(data.AsSpan(), data);

    /// <summary>In binary XML raw text is ordinary text.</summary>
    public void WriteRaw(char[] buffer, int index, int count) => WriteChars(buffer, index, count);

    /// <summary>Binary XML has no CDATA sections: the text is written as ordinary text (not allowed in attributes).</summary>
    public void WriteCData(string? text)
    {
        ThrowIfClosed();
        if (_writeState == WriteState.Attribute) ThrowHelper.ThrowWrongState("WriteCData", WriteState.Attribute);
        text ??= string.Empty;
        if (text.Length > 0)
        {
            StartContent();
            FlushBase64();
            WriteTextOrCapture(text);
        }
    }

    /// <summary>Writes whitespace (only space, tab, CR and LF are allowed) as text.</summary>
    public void WriteWhitespace(string? ws)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(ws);
        if (ws.AsSpan().IndexOfAnyExcept(" \t\r\n") >= 0) ThrowHelper.ThrowArgument("Only whitespace characters can be written with this method.", "whitespace");
        WriteString(ws);
    }

    /// <summary>Writes a character as text (binary XML has no character references).</summary>
    public void WriteCharEntity(char ch)
    {
        ThrowIfClosed();
        if (char.IsSurrogate(ch)) ThrowHelper.ThrowArgument("The surrogate pair is invalid. Missing a low surrogate character.", nameof(ch));
        if (_attributeValue is not null) AppendAttributeText(ch.ToString());
        if (!IsXmlnsAttribute)
        {
            StartContent([ch]);
            FlushBase64();
            WriteTextOrCapture([ch]);
        }
    }

    /// <summary>Writes a surrogate pair as text.</summary>
    public void WriteSurrogateCharEntity(char lowChar, char highChar)
    {
        ThrowIfClosed();
        // As .NET's writer: the low surrogate is checked first.
        if (!char.IsLowSurrogate(lowChar))
            ThrowHelper.ThrowArgument("Low surrogate char '0x{0}' not valid. Low surrogate chars range from 0xDC00 to 0xDFFF.", ((int)lowChar).ToString("X", CultureInfo.InvariantCulture), nameof(lowChar));
        if (!char.IsHighSurrogate(highChar))
            ThrowHelper.ThrowArgument("High surrogate char '0x{0}' not valid. High surrogate chars range from 0xD800 to 0xDBFF.", ((int)highChar).ToString("X", CultureInfo.InvariantCulture), nameof(highChar));
        ReadOnlySpan<char> pair = [highChar, lowChar];
        if (_attributeValue is not null) AppendAttributeText(new string(pair));
        if (!IsXmlnsAttribute)
        {
            StartContent();
            FlushBase64();
            WriteTextOrCapture(pair);
        }
    }

    /// <summary>
    /// Writes UTF-8 text as a Chars record without transcoding (.NET's <c>WriteText(byte[])</c>: no "0"/"1" or
    /// UnicodeChars rules). The bytes must be valid UTF-8.
    /// </summary>
    public void WriteUtf8String(ReadOnlySpan<byte> utf8)
    {
        ThrowIfClosed();
        if (!Utf8.IsValid(utf8)) ThrowHelper.ThrowArgument("The text is not valid UTF-8.", nameof(utf8));
        if (utf8.IsEmpty && !_inList) return;
        FlushBase64();
        if (_attributeValue is not null || _inAttribute)
        {
            string text = System.Text.Encoding.UTF8.GetString(utf8);
            if (_attributeValue is not null) AppendAttributeText(text);
            if (!IsXmlnsAttribute)
            {
                StartContent(text);
                WriteTextOrCapture(text);
            }
            return;
        }
        FlushElement();
        if (_nsMgr.Depth == 0 && utf8.IndexOfAnyExcept(" \t\r\n"u8) >= 0) ThrowHelper.ThrowInvalidOperation("Text cannot be written outside the root element.");
        WriteUtf8TextNode(utf8);
    }

    /// <summary>Writes a dictionary string as DictionaryText when it has an id, else as ordinary text.</summary>
    public void WriteString(XmlDictionaryString value)
    {
        // The short path of WriteString(string) (above).
        if (InPlainContent && value is { Value.Length: > 0 })
        {
            _writeState = WriteState.Content;
            WriteDictionaryTextNode(value);
            return;
        }
        WriteStringInAnyState(value);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void WriteStringInAnyState(XmlDictionaryString value)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(value);
        if (value.Value.Length > 0)
        {
            FlushBase64();
            if (_attributeValue is not null) AppendAttributeText(value.Value);
            if (!IsXmlnsAttribute)
            {
                StartContent(value.Value);
                if (_inAttribute) Capture.AddText(value);
                else WriteDictionaryTextNode(value);
            }
        }
    }

    /// <summary>Writes a qualified name as text; the namespace must be in scope (inside an attribute a prefix may be generated).</summary>
    public void WriteQualifiedName(string localName, string? ns)
    {
        ThrowIfClosed();
        ArgumentException.ThrowIfNullOrEmpty(localName);
        ns ??= string.Empty;
        string prefix = GetQualifiedNamePrefix(ns, null);
        if (prefix.Length != 0)
        {
            WriteString(prefix);
            WriteString(":");
        }
        WriteString(localName);
    }

    /// <summary>
    /// Writes a qualified name: QNameDictionaryText when the prefix is one letter a–z and the local name has a
    /// dictionary id (MC-NBFX 2.2.3.31), otherwise prefix, ":" and local name as text.
    /// </summary>
    public void WriteQualifiedName(XmlDictionaryString localName, XmlDictionaryString? ns)
    {
        ThrowIfClosed();
        ArgumentNullException.ThrowIfNull(localName);
        if (localName.Value.Length == 0) ThrowHelper.ThrowArgument("The empty string is not a valid local name.", nameof(localName));
        ns ??= XmlDictionaryString.Empty;
        string prefix = GetQualifiedNamePrefix(ns.Value, ns);
        FlushBase64();
        // .NET records prefix:namespace (not prefix:local) for xml:* attribute tracking; the bytes are unaffected.
        if (_attributeValue is not null) AppendAttributeText(string.Concat(prefix, ":", ns.Value));
        if (IsXmlnsAttribute) return;
        StartContent();
        if (prefix.Length == 0)
        {
            if (_inAttribute) Capture.AddText(localName);
            else WriteDictionaryTextNode(localName);
        }
        else if (prefix.Length == 1 && char.IsAsciiLetterLower(prefix[0]) && TryGetKey(localName, out int key))
        {
            Span<byte> record = BeginTypedTextNode();
            record[1] = (byte)(prefix[0] - 'a');
            EndTypedTextNode(FixedRecord(record, RecordType.QNameDictionaryText, 1));
            WriteMultiByteInt31(key);
        }
        else
        {
            WriteTextOrCapture(prefix);
            WriteTextOrCapture(":");
            if (_inAttribute) Capture.AddText(localName);
            else WriteDictionaryTextNode(localName);
        }
    }

    private string GetQualifiedNamePrefix(string ns, XmlDictionaryString? xNs)
    {
        string? prefix = _nsMgr.LookupPrefix(ns);
        if (prefix is null)
        {
            if (_writeState != WriteState.Attribute) ThrowHelper.ThrowArgument("The namespace '{0}' is not defined.", ns, "namespaceUri");
            prefix = GeneratePrefix(ns, xNs);
        }
        Resolved(prefix);
        return prefix;
    }

    /// <summary>Node-level text: collected inside an attribute, otherwise written (empty text as EmptyText).</summary>
    private void WriteTextOrCapture(ReadOnlySpan<char> text)
    {
        if (_inAttribute) Capture.AddText(text);
        else if (text.IsEmpty) WriteTextNode(RecordType.EmptyText);
        else WriteTextNode(text);
    }

    private void WriteDictionaryTextNode(XmlDictionaryString value)
    {
        if (TryGetKey(value, out int key))
        {
            WriteTextNode(RecordType.DictionaryText);
            WriteMultiByteInt31(key);
        }
        else if (value.Value.Length == 0)
        {
            WriteTextNode(RecordType.EmptyText);
        }
        else
        {
            WriteTextNode(value.Value);
        }
    }

}
