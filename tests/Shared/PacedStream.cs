namespace BinaryXml.Tests;

/// <summary>
/// A stream that hands out its bytes in reads of at most <paramref name="most"/> bytes, seekable or not; a seekable one
/// may give a length short of what it holds (as one still being written to does), and any may fail after a number
/// of bytes.
/// </summary>
public sealed class PacedStream(byte[] data, int most, bool seekable, long? statedLength = null, int failAfter = -1) : Stream
{
    private int _position;

    public override bool CanRead => true;
    public override bool CanSeek => seekable;
    public override bool CanWrite => false;
    public override long Length => seekable ? statedLength ?? data.Length : throw new NotSupportedException();

    public override long Position
    {
        get => seekable ? _position : throw new NotSupportedException();
        set => _position = seekable ? (int)value : throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        if (failAfter >= 0 && _position >= failAfter) throw new IOException("The connection was reset.");
        int n = Math.Min(Math.Min(count, most), data.Length - _position);
        if (failAfter >= 0) n = Math.Min(n, failAfter - _position);
        data.AsSpan(_position, n).CopyTo(buffer.AsSpan(offset));
        _position += n;
        return n;
    }

    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
