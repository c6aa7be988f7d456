using System.Xml;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Typed array reads on the drop-in reader (its bulk fast path) against the in-box reader: the same values from
/// <c>ReadXxxArray</c> and from <c>ReadArray</c> in chunks, across two consecutive Array records of the same name,
/// a partial typed read followed by element-by-element reads, and the reader left on the same node with the same
/// xml:lang afterwards.
/// </summary>
public sealed class DictionaryReaderArrayProperties
{
    private static byte[] Document(ArrayValue array)
    {
        var calls = new List<Call>
        {
            new("StartElement", [null, "root", null]),
            new("AttributeString", ["xml", "lang", null, "en"]),
            new("Array", [array.Prefix, array.Local, array.Ns, array.Values]),
            new("Array", [array.Prefix, array.Local, array.Ns, array.Values]),
            new("ElementString", [null, "after", null, "x"]),
            new("EndElement", []),
        };
        (byte[] bytes, Exception? error) = WriterScript.RunInBox(calls, new ScriptContext());
        Assert.Null(error);
        return bytes;
    }

    private static Array ReadWhole(XmlDictionaryReader r, Type item, string local, string ns) => item switch
    {
        _ when item == typeof(bool) => r.ReadBooleanArray(local, ns),
        _ when item == typeof(short) => r.ReadInt16Array(local, ns),
        _ when item == typeof(int) => r.ReadInt32Array(local, ns),
        _ when item == typeof(long) => r.ReadInt64Array(local, ns),
        _ when item == typeof(float) => r.ReadSingleArray(local, ns),
        _ when item == typeof(double) => r.ReadDoubleArray(local, ns),
        _ when item == typeof(decimal) => r.ReadDecimalArray(local, ns),
        _ when item == typeof(DateTime) => r.ReadDateTimeArray(local, ns),
        _ when item == typeof(TimeSpan) => r.ReadTimeSpanArray(local, ns),
        _ => r.ReadGuidArray(new XmlDictionary().Add(local), new XmlDictionary().Add(ns)),
    };

    private static Array ReadChunked(XmlDictionaryReader r, Type item, string local, string ns, int chunk)
    {
        var all = new List<object>();
        Array buffer = Array.CreateInstance(item, chunk);
        while (true)
        {
            int n = buffer switch
            {
                bool[] a => r.ReadArray(local, ns, a, 0, chunk),
                short[] a => r.ReadArray(local, ns, a, 0, chunk),
                int[] a => r.ReadArray(local, ns, a, 0, chunk),
                long[] a => r.ReadArray(local, ns, a, 0, chunk),
                float[] a => r.ReadArray(local, ns, a, 0, chunk),
                double[] a => r.ReadArray(local, ns, a, 0, chunk),
                decimal[] a => r.ReadArray(local, ns, a, 0, chunk),
                DateTime[] a => r.ReadArray(local, ns, a, 0, chunk),
                TimeSpan[] a => r.ReadArray(local, ns, a, 0, chunk),
                Guid[] a => r.ReadArray(new XmlDictionary().Add(local), new XmlDictionary().Add(ns), a, 0, chunk),
                _ => throw new InvalidOperationException(),
            };
            if (n == 0) break;
            for (int i = 0; i < n; i++) all.Add(buffer.GetValue(i)!);
        }
        Array result = Array.CreateInstance(item, all.Count);
        for (int i = 0; i < all.Count; i++) result.SetValue(all[i], i);
        return result;
    }

    private static string Read(XmlDictionaryReader r, ArrayValue array, int chunk)
    {
        Type item = array.Values.GetType().GetElementType()!;
        string ns = array.Ns ?? "";
        r.ReadStartElement("root");
        string values;
        if (chunk >= 0)
        {
            values = WriterScript.FormatArg(chunk == 0 ? ReadWhole(r, item, array.Local, ns) : ReadChunked(r, item, array.Local, ns, chunk));
        }
        else
        {
            // A partial typed read, then the remaining items node by node.
            Array first = Array.CreateInstance(item, -chunk);
            int n = first switch
            {
                int[] a => r.ReadArray(array.Local, ns, a, 0, a.Length),
                bool[] a => r.ReadArray(array.Local, ns, a, 0, a.Length),
                double[] a => r.ReadArray(array.Local, ns, a, 0, a.Length),
                _ => 0,
            };
            var rest = new List<string>();
            while (r.IsStartElement(array.Local, ns)) rest.Add(r.ReadElementContentAsString());
            values = $"{n} {WriterScript.FormatArg(first)} {string.Join(",", rest)}";
        }
        return $"{values} then {r.NodeType} {r.LocalName} lang={r.XmlLang} depth={r.Depth}";
    }

    [Fact]
    public void Typed_array_reads_match_the_in_box_reader()
    {
        PropertyConfig.Verify(Prop.ForAll(Arb.From(Generators.Arrays), Arb.From(Gen.Choose(-3, 7)), (node, chunk) =>
        {
            var array = (ArrayValue)node;
            byte[] bytes = Document(array);
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, null, XmlDictionaryReaderQuotas.Max);
            using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, null, XmlDictionaryReaderQuotas.Max);
            string expected = Read(inBox, array, chunk);
            Assert.Equal(expected, Read(ours, array, chunk));
            Assert.Contains("then Element after lang=en depth=1", expected);
        }), 1000);
    }

    [Fact]
    public void Array_reads_validate_their_arguments_like_the_in_box_reader()
    {
        byte[] bytes = Document(new ArrayValue(null, "arr", null, new[] { 1, 2, 3 }));
        foreach (XmlDictionaryReader r in new[] { XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, null, XmlDictionaryReaderQuotas.Max), BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, null, XmlDictionaryReaderQuotas.Max) })
        {
            r.ReadStartElement("root");
            Assert.Throws<ArgumentNullException>(() => r.ReadArray("arr", "", (int[])null!, 0, 1));
            Assert.Throws<ArgumentOutOfRangeException>(() => r.ReadArray("arr", "", new int[2], 3, 1));
            Assert.Throws<ArgumentOutOfRangeException>(() => r.ReadArray("arr", "", new int[2], 1, 2));
            Assert.Equal(0, r.ReadArray("other", "", new int[2], 0, 2));
            Assert.Equal(2, r.ReadArray("arr", "", new int[2], 0, 2));
        }
    }

    /// <summary>
    /// What a typed array read gathers past its first Array record (another record of the name, elements of the name
    /// read one by one, across comments, past pooled-buffer sizes) and where it leaves the reader, against the in-box
    /// reader; and MaxArrayLength held over the whole gathering.
    /// </summary>
    [Theory]
    [InlineData("array", int.MaxValue)]
    [InlineData("array other", int.MaxValue)]
    [InlineData("array comment array other", int.MaxValue)]
    [InlineData("array elements40", int.MaxValue)]
    [InlineData("elements100 other", int.MaxValue)]
    [InlineData("elements100 array", int.MaxValue)]
    [InlineData("comment other", int.MaxValue)]
    [InlineData("other", int.MaxValue)]
    [InlineData("array elements40", 60)]
    [InlineData("array elements40", 100)]
    [InlineData("array", 49)]
    [InlineData("elements100", 64)]
    public void Typed_array_reads_gather_items_as_the_in_box_reader_does(string layout, int maxArrayLength)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("r");
            int next = 0;
            foreach (string part in layout.Split(' '))
            {
                if (part == "array")
                {
                    int[] items = Enumerable.Range(next, 50).ToArray();
                    w.WriteArray(null, "a", null, items, 0, items.Length);
                    next += items.Length;
                }
                else if (part.StartsWith("elements", StringComparison.Ordinal))
                {
                    for (int i = 0; i < int.Parse(part["elements".Length..]); i++) { w.WriteStartElement("a"); w.WriteValue(next++); w.WriteEndElement(); }
                }
                else if (part == "comment") w.WriteComment("c");
                else w.WriteElementString("b", "x");
            }
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        var quotas = new XmlDictionaryReaderQuotas { MaxArrayLength = maxArrayLength };

        string Read(XmlDictionaryReader r, bool dictionaryNames)
        {
            try
            {
                r.ReadStartElement("r");
                var names = new XmlDictionary();
                int[] ints = dictionaryNames ? r.ReadInt32Array(names.Add("a"), names.Add("")) : r.ReadInt32Array("a", "");
                return $"{string.Join(",", ints)} then {r.NodeType} {r.LocalName}";
            }
            catch (XmlException e)
            {
                Assert.True(r is not BinaryXmlDictionaryReader || e is BinaryXmlException, $"ours threw {e.GetType()}");
                return "MaxArrayLength exceeded";
            }
        }

        int total = layout.Split(' ').Sum(part => part == "array" ? 50 : part.StartsWith("elements", StringComparison.Ordinal) ? int.Parse(part["elements".Length..]) : 0);
        foreach (bool dictionaryNames in new[] { false, true })
        {
            using XmlDictionaryReader inBox = XmlDictionaryReader.CreateBinaryReader(data, 0, data.Length, null, quotas);
            using XmlDictionaryReader ours = BinaryXmlDictionaryReader.Create(data, 0, data.Length, null, quotas);
            string expected = Read(inBox, dictionaryNames);
            Assert.Equal(total > maxArrayLength, expected == "MaxArrayLength exceeded");
            Assert.Equal(expected, Read(ours, dictionaryNames));
        }
    }
}

