using System.Buffers;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Arrays are copied as one block on little-endian hosts and converted element by element on big-endian ones. Both
/// paths are forced here, on this little-endian machine, and must give the same bytes (writer) and the same values
/// (reader) for every array type.
/// </summary>
public sealed class ArrayEndiannessProperties
{
    private static byte[] Write(Array values, bool elementwise)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(buffer, options: new BinaryXmlWriterOptions { ForceElementwiseArrays = elementwise });
        w.WriteStartElement("root");
        WriterScript.ApplyNative(w, new Call("Array", [null, "a", null, values]), new ScriptContext());
        w.WriteEndElement();
        w.Flush();
        return buffer.WrittenSpan.ToArray();
    }

    private static Array ReadBack(byte[] bytes, Array like, bool elementwise)
    {
        var r = new BinaryXmlReader(bytes) { ForceElementwiseArrays = elementwise };
        while (r.Read() && r.TokenType != BinaryXmlTokenType.ArrayData) { }
        Array result = Array.CreateInstance(like.GetType().GetElementType()!, r.ArrayLength);
        switch (result)
        {
            case bool[] a: r.CopyArray(a); break;
            case short[] a: r.CopyArray(a); break;
            case int[] a: r.CopyArray(a); break;
            case long[] a: r.CopyArray(a); break;
            case float[] a: r.CopyArray(a); break;
            case double[] a: r.CopyArray(a); break;
            case decimal[] a: r.CopyArray(a); break;
            case DateTime[] a: r.CopyArray(a); break;
            case TimeSpan[] a: r.CopyArray(a); break;
            case Guid[] a: r.CopyArray(a); break;
        }
        return result;
    }

    [Fact]
    public void Big_endian_path_gives_the_little_endian_bytes_for_every_array_type()
    {
        Gen<Node> arrays = Generators.Arrays;
        PropertyConfig.Verify(Prop.ForAll(Arb.From(arrays), node =>
        {
            Array values = ((ArrayValue)node).Values;
            byte[] block = Write(values, elementwise: false);
            byte[] elementwise = Write(values, elementwise: true);
            Assert.Equal(Hex.Format(block), Hex.Format(elementwise));
            Array a = ReadBack(block, values, elementwise: false);
            Array b = ReadBack(block, values, elementwise: true);
            Assert.Equal(WriterScript.FormatArg(a), WriterScript.FormatArg(b));
            if (values is not DateTime[]) Assert.Equal(WriterScript.FormatArg(values), WriterScript.FormatArg(a));
        }), 1000);
    }

    private delegate void ItemsCopy(ref BinaryXmlReader reader);

    /// <summary>Moves a reader to the document's array items and copies them with <paramref name="copy"/>: how that failed, or null.</summary>
    private static BinaryXmlException? CopyItems(byte[] bytes, bool elementwise, ItemsCopy copy)
    {
        var r = new BinaryXmlReader(bytes) { ForceElementwiseArrays = elementwise };
        try
        {
            while (r.Read() && r.TokenType != BinaryXmlTokenType.ArrayData) { }
            copy(ref r);
            return null;
        }
        catch (BinaryXmlException e)
        {
            return e;
        }
        finally
        {
            r.Dispose();
        }
    }

    /// <summary>The bytes of an Array record of <paramref name="values"/> inside a root element, and where its items start.</summary>
    private static byte[] ArrayDocument(Array values, out int itemsStart)
    {
        byte[] bytes = Write(values, elementwise: false);
        var r = new BinaryXmlReader(bytes);
        while (r.Read() && r.TokenType != BinaryXmlTokenType.ArrayData) { }
        itemsStart = r.TokenStartIndex;
        r.Dispose();
        return bytes;
    }

    /// <summary>
    /// DateTime items as .NET's reader gives them (<see cref="DateTime.FromBinary"/> of each), whatever the path: the
    /// block path copies the items that need no conversion, 16 at a time (four vectors tested together), then 4 at a
    /// time, then one by one, and converts the rest (local ones) or fails on an invalid one. Items are compared bit for
    /// bit (a DateTime's equality ignores its kind): a local item kept as stored would differ even where the local zone
    /// is UTC, as its "ambiguous" flag is dropped.
    /// </summary>
    [Theory]
    [InlineData(false, 11, "-", -1)]
    [InlineData(false, 11, "invalid 1", 1)]
    [InlineData(false, 11, "invalid 9", 9)]
    [InlineData(false, 11, "local 2, invalid 9", 9)]
    [InlineData(false, 11, "local 2, local 9", -1)]
    [InlineData(false, 11, "unspecified 5, local 10", -1)]
    [InlineData(true, 11, "local 2, invalid 9", 9)]
    [InlineData(true, 11, "local 2, local 9", -1)]
    // Forty items: two steps of sixteen, two vectors of four, then items alone; each kind of item in each vector of a step.
    [InlineData(false, 40, "-", -1)]
    [InlineData(false, 40, "invalid 0", 0)]
    [InlineData(false, 40, "invalid 6", 6)]
    [InlineData(false, 40, "invalid 15", 15)]
    [InlineData(false, 40, "invalid 16", 16)]
    [InlineData(false, 40, "invalid 26", 26)]
    [InlineData(false, 40, "invalid 33", 33)]
    [InlineData(false, 40, "invalid 39", 39)]
    [InlineData(false, 40, "local 11", -1)]
    [InlineData(false, 40, "local 20, invalid 29", 29)]
    [InlineData(false, 40, "unspecified 3, local 17, local 38", -1)]
    [InlineData(true, 40, "local 20, invalid 29", 29)]
    public void DateTime_items_read_as_FromBinary_gives_them_and_an_invalid_one_fails_at_its_offset(bool elementwise, int count, string layout, int failsAt)
    {
        DateTime[] values = Enumerable.Range(0, count).Select(i => new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc).AddHours(i * 7)).ToArray();
        byte[] bytes = ArrayDocument(values, out int start);
        Span<long> items = System.Runtime.InteropServices.MemoryMarshal.Cast<byte, long>(bytes.AsSpan(start, 8 * values.Length));
        foreach (string change in layout.Split(", "))
        {
            if (change == "-") continue;
            int i = int.Parse(change.Split(' ')[1]);
            items[i] = change.Split(' ')[0] switch
            {
                "invalid" => 0x7FFF_FFFF_FFFF_FFFF,                              // UTC with ticks past DateTime.MaxValue
                "local" => unchecked((long)0xC000_0000_0000_0000) | (items[i] & 0x3FFF_FFFF_FFFF_FFFF), // local, "ambiguous DST"
                _ => items[i] & 0x3FFF_FFFF_FFFF_FFFF,                           // unspecified
            };
        }
        long[] expected = items.ToArray().Select((d, i) => failsAt >= 0 && i >= failsAt ? 0 : BitsOf(DateTime.FromBinary(d))).ToArray();
        DateTime sentinel = new(1999, 9, 9, 9, 9, 9, DateTimeKind.Utc);
        var read = new DateTime[values.Length];
        Array.Fill(read, sentinel);
        BinaryXmlException? e = CopyItems(bytes, elementwise, (ref BinaryXmlReader r) => r.CopyArray(read));
        if (failsAt < 0)
        {
            Assert.Null(e);
        }
        else
        {
            Assert.NotNull(e);
            Assert.Equal(start + 8 * failsAt, e.Offset);
            Assert.Contains($"Array item {failsAt} ", e.Message);
        }
        for (int i = 0; i < read.Length; i++)
        {
            Assert.Equal(failsAt >= 0 && i >= failsAt ? BitsOf(sentinel) : expected[i], BitsOf(read[i]));
        }

        static long BitsOf(DateTime d) => System.Runtime.CompilerServices.Unsafe.As<DateTime, long>(ref d);
    }

    /// <summary>
    /// Decimal items with invalid flags fail at their offset, the items before read and those after untouched, whatever
    /// the path (the block path checks the flags eight items at a time, then two, then one by one) and wherever the
    /// item is.
    /// </summary>
    [Theory]
    [InlineData(false, 0)]
    [InlineData(false, 1)]
    [InlineData(false, 2)]
    [InlineData(false, 3)]
    [InlineData(false, 4)]
    [InlineData(false, 5)]
    [InlineData(false, 6)]
    [InlineData(false, 7)]
    [InlineData(false, 8)]
    [InlineData(false, 11)]
    [InlineData(false, 15)]
    [InlineData(false, 16)]
    [InlineData(false, 17)]
    [InlineData(false, 18)]
    [InlineData(true, 1)]
    [InlineData(true, 4)]
    [InlineData(true, 12)]
    public void An_invalid_decimal_item_fails_at_its_offset_after_the_items_before_it_on_both_paths(bool elementwise, int invalid)
    {
        // Nineteen items: two steps of eight (four vectors of two), a vector of two, one item alone.
        decimal[] values = [1.5m, -0.25m, 79228162514264337593543950335m, 3m, -0.0000001m, 12.75m, -1m, 0m,
            -79228162514264337593543950335m, 0.5m, 2m, -3.125m, 1e-28m, 100m, -7m, 42m, 9.99m, -0.01m, 6m];
        foreach ((int flags, string what) in new[] { (29 << 16, "scale 29"), (1, "a low flag bit"), (0x0100_0000, "a bit above the scale"), (unchecked((int)0x801D_0000), "negative, scale 29") })
        {
            byte[] bytes = ArrayDocument(values, out int start);
            System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(start + 16 * invalid), flags);
            var read = new decimal[values.Length];
            Array.Fill(read, 7m);
            BinaryXmlException? e = CopyItems(bytes, elementwise, (ref BinaryXmlReader r) => r.CopyArray(read));
            Assert.True(e is not null && start + 16 * invalid == e.Offset, what);
            for (int i = 0; i < values.Length; i++)
            {
                Assert.Equal(decimal.GetBits(i < invalid ? values[i] : 7m), decimal.GetBits(read[i]));
            }
        }
    }
}
