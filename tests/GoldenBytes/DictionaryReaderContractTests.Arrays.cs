using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    [Fact]
    public void IsStartArray_names_the_item_type_as_in_box()
    {
        // On each element an Array record's items are presented as: the type IsStartArray gives (.NET's names Int16
        // items short, though it reports their values as int) and the items TryGetArrayLength counts.
        var arrays = new (string Name, Action<XmlDictionaryWriter> Write)[]
        {
            ("Boolean", w => w.WriteArray(null, "a", null, [true, false], 0, 2)),
            ("Int16", w => w.WriteArray(null, "a", null, new short[] { 1, 2 }, 0, 2)),
            ("Int32", w => w.WriteArray(null, "a", null, [1, 2], 0, 2)),
            ("Int64", w => w.WriteArray(null, "a", null, [1L, 2L], 0, 2)),
            ("Single", w => w.WriteArray(null, "a", null, [1.5f, 2f], 0, 2)),
            ("Double", w => w.WriteArray(null, "a", null, [1.5, 2.5], 0, 2)),
            ("Decimal", w => w.WriteArray(null, "a", null, [1.5m, 2m], 0, 2)),
            ("DateTime", w => w.WriteArray(null, "a", null, [DateTime.UnixEpoch, DateTime.UnixEpoch], 0, 2)),
            ("TimeSpan", w => w.WriteArray(null, "a", null, [TimeSpan.Zero, TimeSpan.FromHours(1)], 0, 2)),
            ("Guid", w => w.WriteArray(null, "a", null, [Guid.Empty, Guid.Empty], 0, 2)),
        };
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, Action<XmlDictionaryWriter> write) in arrays)
            {
                using XmlDictionaryReader r = Create(factory, RootAround(write));
                var nodes = new List<string>();
                while (r.Read())
                {
                    bool array = r.IsStartArray(out Type? type);
                    bool counted = r.TryGetArrayLength(out int count);
                    nodes.Add($"{r.NodeType} {r.Name} {array} {type?.Name} {counted} {count} {r.ValueType.Name}");
                }
                log.Add($"{name}: {string.Join("; ", nodes)}");
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("Int16: Element r False  False 0 String; Element a True Int16 True 2 String; Text  False  False 0 Int32;", expected);
    }

    [Fact]
    public void Decimal_items_with_invalid_flags_are_refused_where_in_box_copies_them()
    {
        // Pinned difference: .NET's reader copies an Array record's decimals as they are, so that an item whose flags
        // are no decimal's (here scale 29) becomes a decimal no operation handles; ours fails on it, at its offset, as
        // it fails on a single DecimalText with such flags. The items before it are read.
        byte[] data = RootAround(w => w.WriteArray(null, "a", null, [1.5m, 2.5m, 3m], 0, 3));
        var native = new BinaryXmlReader(data);
        while (native.Read() && native.TokenType != BinaryXmlTokenType.ArrayData) { }
        int second = native.TokenStartIndex + 16;
        native.Dispose();
        data.AsSpan(second, 4).Fill(0);
        data[second + 2] = 29;
        var inBox = new decimal[3];
        using (XmlDictionaryReader r = Create("in-box", data))
        {
            r.ReadStartElement("r");
            Assert.Equal(3, r.ReadArray("a", "", inBox, 0, 3));
        }
        Assert.Equal(29 << 16, decimal.GetBits(inBox[1])[3]);
        var ours = new decimal[3];
        using (XmlDictionaryReader r = Create("ours", data))
        {
            r.ReadStartElement("r");
            var e = Assert.Throws<BinaryXmlException>(() => r.ReadArray("a", "", ours, 0, 3));
            Assert.Equal(second, e.Offset);
        }
        Assert.Equal([1.5m, 0m, 0m], ours);
    }
}
