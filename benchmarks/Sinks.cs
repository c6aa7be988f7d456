using System.Buffers;
using System.Runtime.InteropServices;

namespace BinaryXml.Benchmarks;

/// <summary>
/// The timed scenarios' reusable output sinks, each with its first kilobyte within one 4 KB page and pinned there.
/// </summary>
/// <remarks>
/// A scenario writes its document at the start of the same sink in every iteration. Where a sink's memory happens to
/// straddle a page boundary within a short document, every iteration pays for stores that cross the page, which this
/// machine's processor makes slow: W2's 8 ASCII characters natively took 40–44 ns with the sink's data at page offset
/// 4,088 (the text record's eight bytes written across the boundary) against 23–33 ns elsewhere, the same build and
/// machine code. Which offset a process draws follows what it allocated before, so the directory a run starts from
/// (its paths, kept as strings) moved the row from one level to the other (`HISTORY.md`, runs 578–612). A document
/// placed at random crosses a page boundary once in hundreds of places; the suite places each sink where a document of
/// up to a kilobyte crosses none, and pins it so that no collection moves it. Larger documents cross pages wherever
/// they lie, as they do in an application. What this does not place: the buffers the writers keep for themselves (the
/// in-box writer's, the drop-in writer's pooled one) and the readers' input.
/// </remarks>
internal static class Sinks
{
    private const int PageSize = 4096;
    private const int WithinOnePage = 1024;

    // The placed sinks' arrays, pinned for the life of the process (a benchmark process runs one case).
    private static readonly List<GCHandle> s_pinned = [];

    /// <summary>An <see cref="ArrayBufferWriter{T}"/> of <paramref name="capacity"/> bytes, placed and pinned.</summary>
    public static ArrayBufferWriter<byte> BufferWriter(int capacity) => Place(() => new ArrayBufferWriter<byte>(capacity), ArrayOf);

    /// <summary>An expandable <see cref="MemoryStream"/> of <paramref name="capacity"/> bytes, placed and pinned.</summary>
    public static MemoryStream Stream(int capacity) => Place(() => new MemoryStream(capacity), static s => s.GetBuffer());

    private static byte[] ArrayOf(ArrayBufferWriter<byte> writer) =>
        MemoryMarshal.TryGetArray<byte>(writer.GetMemory(), out ArraySegment<byte> segment) ? segment.Array! : throw new InvalidOperationException("ArrayBufferWriter without an array");

    /// <summary>The page offset of the first data byte of the array <paramref name="handle"/> pins.</summary>
    private static long PageOffset(GCHandle handle) => handle.AddrOfPinnedObject().ToInt64() % PageSize;

    private static T Place<T>(Func<T> create, Func<T, byte[]> arrayOf)
    {
        // A sink refused stays pinned until one is placed, and a spacer of most of a page is allocated after it, so
        // that the next sink is allocated elsewhere in the page.
        var refused = new List<GCHandle>();
        var spacers = new List<byte[]>();
        try
        {
            for (int attempt = 0; attempt < 16; attempt++)
            {
                T sink = create();
                GCHandle handle = GCHandle.Alloc(arrayOf(sink), GCHandleType.Pinned);
                long offset = PageOffset(handle);
                if (offset <= PageSize - WithinOnePage)
                {
                    lock (s_pinned) s_pinned.Add(handle);
                    Console.WriteLine($"// {typeof(T).Name} placed at page offset {offset}{(attempt > 0 ? $" after {attempt} refused" : "")}");
                    return sink;
                }
                refused.Add(handle);
                spacers.Add(new byte[PageSize - WithinOnePage]);
            }
            throw new InvalidOperationException("No sink placed within a page in 16 attempts");
        }
        finally
        {
            foreach (GCHandle handle in refused) handle.Free();
        }
    }
}
