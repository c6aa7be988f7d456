namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    /// <summary>
    /// Starts a list (MC-NBFX 2.2.3.19): the values written until <see cref="WriteEndList"/> are rendered
    /// space-separated. This is what .NET's <c>WriteValue(object[])</c> writes; lists do not nest, and inside a list
    /// an empty string is written as EmptyText.
    /// </summary>
    public void WriteStartList()
    {
        ThrowIfClosed();
        if (_inList) ThrowHelper.ThrowInvalidOperation("Lists cannot be nested.");
        FlushBase64();
        StartContent();
        WriteNode(RecordType.StartListText);
        _inList = true;
        _plain = PlainState.None;
    }

    /// <summary>
    /// Refuses a call that cannot come inside an open list: a list holds text records only (MC-NBFX 2.2.3.19), so
    /// elements, their ends, comments, arrays, the end of the attribute holding it and (as .NET refuses a byte array
    /// among a list's values) base64 wait for <see cref="WriteEndList"/>.
    /// </summary>
    private void ThrowIfInList(string call)
    {
        if (_inList) ThrowHelper.ThrowInvalidOperation("{0} cannot be called while a list is open: call WriteEndList first.", call);
    }

    /// <summary>Ends a list with EndListText. The element end after a list is never folded.</summary>
    public void WriteEndList()
    {
        ThrowIfClosed();
        if (!_inList) ThrowHelper.ThrowInvalidOperation("No list is open.");
        _inList = false;
        _wroteAttributeValue = true;
        WriteNode(RecordType.EndListText);
        RefreshPlainState();
    }
}
