using System.Buffers;

namespace BinaryXml;

/// <summary>An <see cref="IBufferWriter{T}"/> over a <see cref="Stream"/> with one pooled buffer.</summary>
internal sealed class StreamBufferWriter : IBufferWriter<byte>
{
    private const int MinimumSize = 4096;
    private Stream _stream;
    private byte[] _buffer;
    private int _written;

    public StreamBufferWriter(Stream stream)
    {
        _stream = stream;
        _buffer = ArrayPool<byte>.Shared.Rent(MinimumSize);
    }

    public Stream Stream => _stream;

    /// <summary>Whether the writer over this buffer disposes the stream when it closes (kept here, not in the writer, whose size is a budget).</summary>
    public bool OwnsStream { get; set; }

    public void Reset(Stream stream)
    {
        if (!ReferenceEquals(_stream, stream)) _stream = stream;
        _written = 0;
        if (_buffer.Length == 0) _buffer = ArrayPool<byte>.Shared.Rent(MinimumSize);
    }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count > _buffer.Length - _written) throw new InvalidOperationException("Advanced past the end of the buffer.");
        _written += count;
    }

    // Ensure may replace _buffer, so it must run before _buffer is read.
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        int offset = Ensure(sizeHint);
        return _buffer.AsMemory(offset);
    }

    /// <summary>The buffer, with at least <paramref name="sizeHint"/> bytes free from <paramref name="offset"/> on.</summary>
    public byte[] GetArray(int sizeHint, out int offset)
    {
        offset = Ensure(sizeHint);
        return _buffer;
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        int offset = Ensure(sizeHint);
        return _buffer.AsSpan(offset);
    }

    private int Ensure(int sizeHint)
    {
        if (sizeHint <= 0) sizeHint = 1;
        if (_buffer.Length - _written < sizeHint)
        {
            WriteToStream();
            if (_buffer.Length < sizeHint)
            {
                byte[] old = _buffer;
                _buffer = ArrayPool<byte>.Shared.Rent(Math.Max(sizeHint, old.Length * 2));
                ArrayPool<byte>.Shared.Return(old);
            }
        }
        return _written;
    }

    /// <summary>Writes everything advanced so far to the stream.</summary>
    public void WriteToStream()
    {
        if (_written > 0)
        {
            _stream.Write(_buffer, 0, _written);
            _written = 0;
        }
    }

    /// <summary>Writes everything advanced so far to the stream, asynchronously (the buffer is not written to until it completes).</summary>
    public ValueTask WriteToStreamAsync(CancellationToken cancellationToken)
    {
        if (_written == 0) return default;
        int count = _written;
        _written = 0;
        return _stream.WriteAsync(_buffer.AsMemory(0, count), cancellationToken);
    }

    public void Release()
    {
        byte[] old = _buffer;
        _buffer = [];
        _written = 0;
        if (old.Length > 0) ArrayPool<byte>.Shared.Return(old);
    }
}
