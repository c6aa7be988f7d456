using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

public sealed partial class DictionaryReaderContractTests
{
    /// <summary>
    /// Each overload of <c>XmlDictionaryReader.CreateBinaryReader</c> and <c>XmlDictionaryWriter.CreateBinaryWriter</c>
    /// has a <c>Create</c> that takes the same arguments (its further parameters optional), so that a call changes its
    /// type's name only; the reader's overloads built so read the document alike, a close callback called once.
    /// </summary>
    [Fact]
    public void Every_in_box_factory_overload_has_a_Create_of_the_same_arguments()
    {
        static void Covered(Type inBox, string factory, Type ours)
        {
            foreach (var method in inBox.GetMethods(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static).Where(m => m.Name == factory))
            {
                Type[] wanted = method.GetParameters().Select(p => p.ParameterType).ToArray();
                bool found = ours.GetMethods(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static).Any(m =>
                {
                    var parameters = m.GetParameters();
                    return m.Name == "Create" && parameters.Length >= wanted.Length
                        && parameters.Take(wanted.Length).Select(p => p.ParameterType).SequenceEqual(wanted)
                        && parameters.Skip(wanted.Length).All(p => p.IsOptional);
                });
                Assert.True(found, $"{factory}({string.Join(", ", wanted.Select(t => t.Name))})");
            }
        }
        Covered(typeof(XmlDictionaryReader), nameof(XmlDictionaryReader.CreateBinaryReader), typeof(BinaryXmlDictionaryReader));
        Covered(typeof(XmlDictionaryWriter), nameof(XmlDictionaryWriter.CreateBinaryWriter), typeof(BinaryXmlDictionaryWriter));

        byte[] doc = RootAround(w => w.WriteElementString("a", "text"));
        byte[] padded = [0, 0, .. doc];
        var quotas = new XmlDictionaryReaderQuotas();
        int closes = 0;
        List<string> expected = NodeStream.FromXmlReader(XmlDictionaryReader.CreateBinaryReader(doc, quotas), exactNodeTypes: true);
        XmlDictionaryReader[] readers =
        [
            BinaryXmlDictionaryReader.Create(doc, quotas),
            BinaryXmlDictionaryReader.Create(padded, 2, doc.Length, quotas),
            BinaryXmlDictionaryReader.Create(padded, 2, doc.Length, null, quotas, null, _ => closes++),
            BinaryXmlDictionaryReader.Create(new MemoryStream(doc), quotas),
            BinaryXmlDictionaryReader.Create(new MemoryStream(doc), null, quotas, null, _ => closes++),
        ];
        foreach (XmlDictionaryReader reader in readers)
        {
            Assert.Equal(expected, NodeStream.FromXmlReader(reader, exactNodeTypes: true));
            reader.Close();
            reader.Close();
        }
        Assert.Equal(2, closes);
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => BinaryXmlDictionaryReader.Create((byte[])null!, quotas)).ParamName);
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => XmlDictionaryReader.CreateBinaryReader((byte[])null!, quotas)).ParamName);
    }

    [Fact]
    public void Buffer_ranges_and_null_names_fail_as_in_box()
    {
        // A null buffer, a negative offset or count, an offset past the buffer and a count past what is left, given to
        // the reads that fill a caller's buffer; null dictionary names given to the array reads: the exception's type,
        // message and parameter name as .NET's reader gives them.
        byte[] data = RootAround(w => { w.WriteElementString("a", "AQID"); w.WriteArray(null, "i", null, [1, 2, 3], 0, 3); });
        var names = new XmlDictionary();
        XmlDictionaryString i = names.Add("i"), empty = names.Add("");
        static void OnText(XmlDictionaryReader r) { r.ReadStartElement("r"); r.ReadStartElement(); }
        static void OnArray(XmlDictionaryReader r) { r.ReadStartElement("r"); r.Skip(); }
        var reads = new (string Name, Func<XmlDictionaryReader, byte[]?, char[]?, int[]?, int, int, int> Read)[]
        {
            ("ReadContentAsBase64", (r, b, _, _, o, c) => { OnText(r); return r.ReadContentAsBase64(b!, o, c); }),
            ("ReadContentAsBinHex", (r, b, _, _, o, c) => { OnText(r); return r.ReadContentAsBinHex(b!, o, c); }),
            ("ReadElementContentAsBase64", (r, b, _, _, o, c) => { r.ReadStartElement("r"); return r.ReadElementContentAsBase64(b!, o, c); }),
            ("ReadElementContentAsBinHex", (r, b, _, _, o, c) => { r.ReadStartElement("r"); return r.ReadElementContentAsBinHex(b!, o, c); }),
            ("ReadValueAsBase64", (r, b, _, _, o, c) => { OnText(r); return r.ReadValueAsBase64(b!, o, c); }),
            ("ReadValueChunk", (r, _, ch, _, o, c) => { OnText(r); return r.ReadValueChunk(ch!, o, c); }),
            ("ReadArray", (r, _, _, a, o, c) => { OnArray(r); return r.ReadArray("i", "", a!, o, c); }),
            ("ReadArray by dictionary names", (r, _, _, a, o, c) => { OnArray(r); return r.ReadArray(i, empty, a!, o, c); }),
        };
        var ranges = new (string Name, bool Null, int Offset, int Count)[]
        {
            ("null", true, 0, 1), ("offset -1", false, -1, 1), ("count -1", false, 0, -1), ("offset past the end", false, 4, 0),
            ("count past the end", false, 2, 2), ("all of it", false, 0, 3),
        };
        var nullNames = new (string Name, Func<XmlDictionaryReader, object> Read)[]
        {
            ("ReadArray, null local name", r => { OnArray(r); return r.ReadArray(null!, empty, new int[3], 0, 3); }),
            ("ReadArray, null namespace", r => { OnArray(r); return r.ReadArray(i, null!, new long[3], 0, 3); }),
            ("ReadInt32Array, null local name", r => { OnArray(r); return r.ReadInt32Array(null!, empty); }),
            ("ReadGuidArray, null namespace", r => { OnArray(r); return r.ReadGuidArray(i, null!); }),
        };
        static string Outcome(Func<object> read)
        {
            try
            {
                return $"{read()}";
            }
            catch (ArgumentException e)
            {
                return $"{e.GetType().Name} {e.ParamName}: {e.Message}";
            }
            catch (XmlException)
            {
                return "not BinHex";
            }
        }
        string Run(string factory)
        {
            var log = new List<string>();
            foreach ((string name, var read) in reads)
            foreach ((string range, bool none, int offset, int count) in ranges)
            {
                using XmlDictionaryReader r = Create(factory, data);
                log.Add($"{name}, {range}: {Outcome(() => read(r, none ? null : new byte[3], none ? null : new char[3], none ? null : new int[3], offset, count))}");
            }
            foreach ((string name, var read) in nullNames)
            {
                using XmlDictionaryReader r = Create(factory, data);
                log.Add($"{name}: {Outcome(() => read(r))}");
            }
            return string.Join(Environment.NewLine, log);
        }
        string expected = AlikeInBox(Run);
        Assert.Contains("ReadValueChunk, null: ArgumentNullException chars:", expected);
        Assert.Contains("ReadArray, offset past the end: ArgumentOutOfRangeException offset: The specified offset exceeds the buffer size (3 bytes).", expected);
        Assert.Contains("ReadInt32Array, null local name: ArgumentNullException localName:", expected);
    }
}
