using System.Buffers;
using System.Text;
using System.Xml;
using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Every worked example of MC-NBFX, MC-NBFS and MC-NBFSE (Fixtures/spec-fixtures.tsv, the F, X and S series):
/// the reader decodes the bytes to exactly the listed text, and where .NET's rules can produce the bytes, both our
/// writer and the in-box writer produce exactly them from the listed calls.
/// </summary>
public sealed class SpecFixtureTests
{
    public sealed record Fixture(string Id, string Kind, string Hex, string Expected, string Script, string Note)
    {
        public override string ToString() => Id;
    }

    private static readonly Lazy<Dictionary<string, Fixture>> s_fixtures = new(Load);

    private static Dictionary<string, Fixture> Load()
    {
        string path = Path.Combine(AppContext.BaseDirectory, "Fixtures", "spec-fixtures.tsv");
        var result = new Dictionary<string, Fixture>();
        foreach (string line in File.ReadAllLines(path, Encoding.UTF8))
        {
            if (line.Length == 0 || line.StartsWith('#')) continue;
            string[] c = line.Split('\t');
            result.Add(c[0], new Fixture(c[0], c[1], c[2], c[3], c[4], c[5]));
        }
        return result;
    }

    public static TheoryData<string> AllIds() => new(s_fixtures.Value.Keys);

    public static TheoryData<string> WritableIds() => new(s_fixtures.Value.Values.Where(f => f.Script.Length > 0).Select(f => f.Id));

    [Fact]
    public void The_fixture_table_holds_every_series()
    {
        Dictionary<string, Fixture> all = s_fixtures.Value;
        Assert.Equal(40, all.Keys.Count(k => k.StartsWith('F')));   // F01–F39, F24 split in two
        Assert.Equal(83, all.Keys.Count(k => k.StartsWith('X')));
        Assert.Contains("S1", all.Keys);
        Assert.Contains("S2", all.Keys);
    }

    [Theory]
    [MemberData(nameof(AllIds))]
    public void Reader_decodes_the_fixture(string id)
    {
        Fixture f = s_fixtures.Value[id];
        byte[] bytes = Hex.Parse(f.Hex);
        switch (f.Kind)
        {
            case "mb31":
                Assert.Equal(OperationStatus.Done, MultiByteInt31.Decode(bytes, out int value, out int consumed));
                Assert.Equal(bytes.Length, consumed);
                Assert.Equal(int.Parse(f.Expected, System.Globalization.CultureInfo.InvariantCulture), value);
                break;
            case "string":
                Assert.True(BinaryXmlPrimitives.TryReadString(bytes, out ReadOnlySpan<byte> utf8, out int size));
                Assert.Equal(bytes.Length, size);
                Assert.Equal(f.Expected, Encoding.UTF8.GetString(utf8));
                break;
            case var k when k.StartsWith("payload:", StringComparison.Ordinal):
                RecordType type = Enum.Parse<RecordType>(k["payload:".Length..]);
                Assert.Equal(f.Expected, TextFormatting.Format(type, bytes));
                // The same payload as a complete document, read through the reader.
                byte[] doc = [0x40, 0x01, 0x61, (byte)type, .. bytes, 0x01];
                Assert.Equal($"<a>{f.Expected}</a>", BinaryXmlText.ToXml(doc));
                break;
            case "text":
                Assert.Equal($"<a>{f.Expected}</a>", BinaryXmlText.ToXml([0x40, 0x01, 0x61, .. bytes, 0x01]));
                break;
            case "doc":
                Assert.Equal(f.Expected, BinaryXmlText.ToXml(bytes, StrNDictionary.Instance, StrNDictionary.CreateReaderSession()));
                break;
            case "doc-unbound":
                Assert.Equal(f.Expected, BinaryXmlText.ToXml(bytes, StrNDictionary.Instance, options: new BinaryXmlReaderOptions { RequireBoundPrefixes = false }));
                // By default the reader requires bindings, as .NET's reader does.
                var error = Assert.Throws<BinaryXmlException>(() => BinaryXmlText.ToXml(bytes, StrNDictionary.Instance));
                Assert.Contains("is not defined", error.Message);
                Assert.ThrowsAny<XmlException>(() => NodeStream.FromInBox(bytes, StrNDictionary.Instance));
                break;
            case "nbfs":
                Assert.Equal(f.Expected, BinaryXmlText.ToXml(bytes, NbfsDictionary.Instance));
                break;
            case "nbfse":
            {
                // MC-NBFSE 2.1: MultiByteInt31 size, then that many bytes of Strings, numbered from session id 0.
                Assert.Equal(OperationStatus.Done, MultiByteInt31.Decode(bytes, out int tableSize, out int n));
                var session = new XmlBinaryReaderSession();
                int p = n, sessionId = 0;
                while (p < n + tableSize)
                {
                    Assert.True(BinaryXmlPrimitives.TryReadString(bytes.AsSpan(p), out ReadOnlySpan<byte> s, out int used));
                    session.Add(sessionId++, Encoding.UTF8.GetString(s));
                    p += used;
                }
                Assert.Equal(n + tableSize, p);
                Assert.Equal(f.Expected, BinaryXmlText.ToXml(bytes.AsSpan(p), NbfsDictionary.Instance, session));
                break;
            }
            default:
                Assert.Fail("Unknown fixture kind " + f.Kind);
                break;
        }
    }

    [Theory]
    [MemberData(nameof(WritableIds))]
    public void Writers_produce_the_fixture(string id)
    {
        Fixture f = s_fixtures.Value[id];
        List<Call> calls = WriterScript.Parse(f.Script);
        var context = new ScriptContext(StrNDictionary.CreateWriterDictionary());
        (byte[] ours, Exception? ourError) = WriterScript.RunNative(calls, context);
        (byte[] inBox, Exception? inBoxError) = WriterScript.RunInBox(calls, context);
        Assert.Null(ourError);
        Assert.Null(inBoxError);
        Assert.Equal(f.Hex, Hex.Format(inBox));
        Assert.Equal(f.Hex, Hex.Format(ours));
    }

    [Fact]
    public void MultiByteInt31_writes_the_shortest_form_of_every_fixture_value()
    {
        Span<byte> buffer = stackalloc byte[5];
        foreach (Fixture f in s_fixtures.Value.Values.Where(f => f.Kind == "mb31"))
        {
            int n = MultiByteInt31.Write(buffer, int.Parse(f.Expected, System.Globalization.CultureInfo.InvariantCulture));
            Assert.Equal(f.Hex, Hex.Format(buffer[..n]));
        }
    }
}
