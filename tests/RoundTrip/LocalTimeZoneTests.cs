using System.Buffers;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Tests that change the process's local time zone run alone: every other test that writes or reads a local DateTime
/// compares with .NET's writer or reader in the zone of the moment.
/// </summary>
[CollectionDefinition(nameof(LocalTimeZoneCollection), DisableParallelization = true)]
public sealed class LocalTimeZoneCollection;

/// <summary>
/// Local DateTimes in a zone away from UTC. A local DateTime is written as its UTC instant with the local flag
/// (<see cref="DateTime.ToBinary"/>), and read back converted to the reader's zone; in UTC (as on the build machines)
/// that conversion changes nothing, so a writer or reader that skipped it would pass every other test. Array items are
/// written and read as blocks where no conversion is needed: here the local ones must still be converted one by one.
/// </summary>
[Collection(nameof(LocalTimeZoneCollection))]
public sealed class LocalTimeZoneTests
{
    /// <summary>Runs <paramref name="test"/> with New York as the local zone (5 hours behind UTC in winter).</summary>
    private static void InNewYork(Action test)
    {
        string? before = Environment.GetEnvironmentVariable("TZ");
        Environment.SetEnvironmentVariable("TZ", "America/New_York");
        TimeZoneInfo.ClearCachedData();
        try
        {
            Assert.Equal(TimeSpan.FromHours(-5), TimeZoneInfo.Local.BaseUtcOffset);
            test();
        }
        finally
        {
            Environment.SetEnvironmentVariable("TZ", before);
            TimeZoneInfo.ClearCachedData();
        }
    }

    /// <summary>
    /// UTC, unspecified and local items, the local ones among them in winter, in summer and in the hour that is
    /// repeated when summer time ends (2026-11-01 01:30 in New York, "ambiguous").
    /// </summary>
    private static DateTime[] Items(int count, params int[] local)
    {
        var items = new DateTime[count];
        for (int i = 0; i < count; i++) items[i] = new DateTime(2026, 1, 1, 0, 0, 0, i % 3 == 0 ? DateTimeKind.Unspecified : DateTimeKind.Utc).AddHours(i * 5);
        DateTime[] locals = [new(2026, 1, 15, 9, 30, 0, DateTimeKind.Local), new(2026, 7, 4, 12, 0, 0, DateTimeKind.Local), new(2026, 11, 1, 1, 30, 0, DateTimeKind.Local)];
        for (int i = 0; i < local.Length; i++) items[local[i]] = locals[i % locals.Length];
        return items;
    }

    private static byte[] Write(Func<Stream, XmlDictionaryWriter> create, DateTime[] items)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = create(stream))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("one");
            w.WriteValue(items[^1]);
            w.WriteEndElement();
            w.WriteArray(null, "a", null, items, 0, items.Length);
            w.WriteEndElement();
        }
        return stream.ToArray();
    }

    private static byte[] WriteNative(DateTime[] items, bool elementwise)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var w = new BinaryXmlWriter(buffer, options: new BinaryXmlWriterOptions { ForceElementwiseArrays = elementwise }))
        {
            w.WriteStartElement("r");
            w.WriteStartElement("one");
            w.WriteValue(items[^1]);
            w.WriteEndElement();
            w.WriteArray(null, "a", null, (ReadOnlySpan<DateTime>)items);
            w.WriteEndElement();
        }
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>A DateTime's bits: its ticks, kind and "ambiguous" flag (its equality compares the ticks alone).</summary>
    private static long Bits(DateTime d) => System.Runtime.CompilerServices.Unsafe.As<DateTime, long>(ref d);

    /// <summary>The array's items read with <c>ReadArray</c>, as their bits.</summary>
    private static long[] ReadItems(XmlDictionaryReader r, int count)
    {
        r.ReadStartElement("r");
        r.ReadElementContentAsDateTime();
        var items = new DateTime[count];
        Assert.Equal(count, r.ReadArray("a", "", items, 0, count));
        return [.. items.Select(Bits)];
    }

    [Fact]
    public void Local_DateTime_items_are_written_and_read_converted_as_in_box_in_a_zone_away_from_UTC() => InNewYork(() =>
    {
        foreach ((int count, int[] local) in new (int, int[])[] { (3, [1]), (16, [0, 9, 15]), (40, [5, 6, 7]), (700, [350]), (700, [3, 699]), (9, []), (13, [10]), (13, [12]), (2100, [2099]),
            // Arrays of 32 to 320 KB, which the drop-in writer hands to its stream as one block when no item is local
            // (local items around multiples of 4,096 and 16,384 as well).
            (4097, [4096]), (8193, [4095]), (8193, [0, 4096]), (12289, [8192, 12288]), (16385, [16384]), (32769, [16383]),
            (40961, [16384, 40960]), (40961, [32767, 32768]),
            // Arrays the drop-in writer converts over its stream 24,576 items (192 KB) at a time from the first local
            // item on, those before it handed on as they are: local items in the first, a later and the last piece,
            // at a piece's edges, and none.
            (100_000, [5, 40_000, 99_999]), (100_000, [99_000]), (60_000, [24_575]), (60_000, [24_576]), (73_729, [49_152, 73_728]), (50_000, []) })
        {
            DateTime[] items = Items(count, local);
            string what = $"{count} items, local at {string.Join(' ', local)}";
            byte[] inBox = Write(s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false), items);
            Assert.True(inBox.AsSpan().SequenceEqual(Write(s => BinaryXmlDictionaryWriter.Create(s, null, null, false), items)), what);
            Assert.True(inBox.AsSpan().SequenceEqual(WriteNative(items, elementwise: false)), what);
            Assert.True(inBox.AsSpan().SequenceEqual(WriteNative(items, elementwise: true)), what);

            long[] expected = ReadItems(XmlDictionaryReader.CreateBinaryReader(inBox, XmlDictionaryReaderQuotas.Max), count);
            Assert.Equal(expected, ReadItems(BinaryXmlDictionaryReader.Create(inBox, 0, inBox.Length, null, XmlDictionaryReaderQuotas.Max), count));
            foreach (bool elementwise in new[] { false, true })
            {
                var r = new BinaryXmlReader(inBox, options: BinaryXmlReaderOptions.Trusted) { ForceElementwiseArrays = elementwise };
                var read = new DateTime[count];
                while (r.Read() && r.TokenType != BinaryXmlTokenType.ArrayData) { }
                r.CopyArray(read);
                r.Dispose();
                Assert.Equal(expected, read.Select(Bits));
            }
            // The same instants, each of its kind (a local one as a local time of this zone).
            DateTime[] back = new DateTime[count];
            System.Runtime.InteropServices.MemoryMarshal.Cast<long, DateTime>(expected).CopyTo(back);
            Assert.Equal(items.Select(d => (d.Kind, d.ToUniversalTime())), back.Select(d => (d.Kind, d.ToUniversalTime())));
        }
    });
}
