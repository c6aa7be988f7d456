namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    // Bytes held back so that every Bytes record but the last has a length divisible by 3 (dotnet-behaviour 2.6).

    /// <summary>The base64 bytes (at most two) held back until the next call completes a 3-byte group.</summary>
    internal ReadOnlySpan<byte> PendingBase64Bytes => TrailBytes.AsSpan(0, _trailByteCount);
    // A byte (0 to 2), not an int: with the int of the output memory's length the writer would pass 160 bytes, and a
    // writer created per message allocates at most a tenth of the in-box one (W7).
    private byte _trailByteCount;

    /// <summary>Writes binary data as Bytes records (rendered base64), holding back 1–2 bytes between calls as .NET does.</summary>
    public void WriteBase64(byte[] buffer, int index, int count)
    {
        ThrowHelper.CheckWriteRange(buffer, index, count);
        WriteBase64(buffer.AsSpan(index, count));
    }

    /// <summary>Writes binary data as Bytes records.</summary>
    public void WriteBase64(ReadOnlySpan<byte> data)
    {
        ThrowIfClosed();
        ThrowIfInList("WriteBase64");
        if (data.IsEmpty) return;
        bool held = _trailByteCount > 0;
        if (held)
        {
            int take = Math.Min(3 - _trailByteCount, data.Length);
            data[..take].CopyTo(TrailBytes.AsSpan(_trailByteCount));
            _trailByteCount += (byte)take;
            data = data[take..];
        }
        int total = _trailByteCount + data.Length;
        int emit = total - total % 3;
        if (emit >= 3)
        {
            ReadOnlySpan<byte> body = data[..(emit - _trailByteCount)];
            if (_attributeValue is not null)
            {
                AppendAttributeText(Convert.ToBase64String(TrailBytes.AsSpan(0, _trailByteCount)));
                AppendAttributeText(Convert.ToBase64String(body));
            }
            if (!IsXmlnsAttribute)
            {
                StartContent();
                WriteBase64Node(TrailBytes.AsSpan(0, _trailByteCount), body);
            }
            // The bytes held back (at most two) one by one: a block copy's call and span here cost more than the
            // copy (the caller's inlining budget is spent by then).
            _trailByteCount = (byte)(total - emit);
            byte[] kept = TrailBytes;
            for (int i = 0, from = data.Length - _trailByteCount; i < _trailByteCount; i++) kept[i] = data[from + i];
        }
        else
        {
            data.CopyTo(TrailBytes.AsSpan(_trailByteCount));
            _trailByteCount += (byte)data.Length;
        }
        // Bytes held back stop the short paths; once none are, they may take them again.
        if (_trailByteCount != 0) _plain = PlainState.None;
        else if (held) RefreshPlainState();
    }

    /// <summary>Writes binary data as a hex string (BinHex is text in binary XML).</summary>
    public void WriteBinHex(byte[] buffer, int index, int count)
    {
        ThrowIfClosed();
        ThrowHelper.CheckWriteRange(buffer, index, count);
        WriteRaw(Convert.ToHexString(buffer, index, count));
    }

    /// <summary>Writes the base64 bytes held back (fewer than three) before anything else is written.</summary>
    private void FlushBase64()
    {
        if (_trailByteCount != 0) FlushBase64Trail();
    }

    private void FlushBase64Trail()
    {
        if (_attributeValue is not null) AppendAttributeText(Convert.ToBase64String(TrailBytes.AsSpan(0, _trailByteCount)));
        if (!IsXmlnsAttribute)
        {
            StartContent();
            WriteBase64Node(TrailBytes.AsSpan(0, _trailByteCount), []);
        }
        _trailByteCount = 0;
        RefreshPlainState();
    }

    private void WriteBase64Node(ReadOnlySpan<byte> trail, ReadOnlySpan<byte> data)
    {
        if (_inAttribute) Capture.AddBase64(trail, data);
        else WriteBytesNode(trail, data);
    }

    /// <summary>A Bytes8/16/32 record (MC-NBFX 2.2.3.16–2.2.3.18), or EmptyText for no bytes.</summary>
    private void WriteBytesNode(ReadOnlySpan<byte> trail, ReadOnlySpan<byte> data)
    {
        int length = trail.Length + data.Length;
        if (length == 0)
        {
            WriteTextNode(RecordType.EmptyText);
            return;
        }
        WriteTextNodeWithLength(RecordType.Bytes8Text, length);
        if (trail.Length > 0)
        {
            _model.Reserve(_pending, trail.Length);
            trail.CopyTo(GetSpan(trail.Length));
            _pending += trail.Length;
        }
        if (data.Length > 0) WriteBlock(data);
    }
}
