using System.Buffers;

namespace BinaryXml.Tests;

/// <summary>
/// Memory of <paramref name="size"/> bytes that is not an array's, as a pipe's native memory can be:
/// <c>MemoryMarshal.TryGetArray</c> gives nothing for its <see cref="MemoryManager{T}.Memory"/>.
/// </summary>
/// <param name="size">The number of bytes.</param>
public sealed class NonArrayMemory(int size) : MemoryManager<byte>
{
    private readonly byte[] _data = new byte[size];

    public override Span<byte> GetSpan() => _data;

    public override MemoryHandle Pin(int elementIndex = 0) => throw new NotSupportedException();

    public override void Unpin()
    {
    }

    protected override void Dispose(bool disposing)
    {
    }
}
