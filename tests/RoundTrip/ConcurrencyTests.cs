using System.Buffers;
using System.Xml;
using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Several threads encoding and decoding many messages at once, sharing the static dictionary and each with its
/// own sessions, give exactly the single-threaded results.
/// </summary>
public sealed class ConcurrencyTests
{
    private static readonly XmlDictionary s_names = new();
    private static readonly XmlDictionaryString s_item = s_names.Add("Item"), s_value = s_names.Add("Value"), s_ns = s_names.Add("urn:concurrent");

    private static void Write(BinaryXmlWriter w, int thread, int message)
    {
        NbfsDictionary.Instance.TryLookup("Envelope", out XmlDictionaryString? envelope);
        NbfsDictionary.Instance.TryLookup("http://www.w3.org/2003/05/soap-envelope", out XmlDictionaryString? soap);
        w.WriteStartElement("s", envelope!, soap);
        for (int i = 0; i < 1 + message % 5; i++)
        {
            w.WriteStartElement(s_item, s_ns);
            w.WriteStartElement(s_value, s_ns);
            w.WriteValue(thread * 1000 + message + i * 0.5);
            w.WriteEndElement();
            w.WriteString("text " + message);
            w.WriteEndElement();
        }
        w.WriteEndElement();
    }

    private static List<(byte[] Bytes, string Xml)> Conversation(int thread)
    {
        var encoder = new BinaryMessageEncoder(session: true);
        var decoder = new BinaryMessageDecoder(session: true);
        var results = new List<(byte[], string)>();
        for (int m = 0; m < 200; m++)
        {
            byte[] bytes = encoder.WriteMessage(w => Write(w, thread, m));
            results.Add((bytes, decoder.ToXml(bytes)));
        }
        return results;
    }

    [Fact]
    public void Threads_give_the_single_threaded_results()
    {
        const int threads = 8;
        var expected = Enumerable.Range(0, threads).Select(Conversation).ToArray();
        var actual = new List<(byte[] Bytes, string Xml)>[threads];
        Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, t => actual[t] = Conversation(t));
        for (int t = 0; t < threads; t++)
        {
            Assert.Equal(expected[t].Count, actual[t].Count);
            for (int m = 0; m < expected[t].Count; m++)
            {
                Assert.True(expected[t][m].Bytes.AsSpan().SequenceEqual(actual[t][m].Bytes), $"thread {t} message {m}");
                Assert.Equal(expected[t][m].Xml, actual[t][m].Xml);
            }
        }
    }

    [Fact]
    public void Readers_share_a_static_dictionary_across_threads()
    {
        var output = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(output, NbfsDictionary.Instance);
        Write(w, 1, 3);
        w.Flush();
        byte[] data = output.WrittenSpan.ToArray();
        string expected = BinaryXmlText.ToXml(data, NbfsDictionary.Instance, null, null);
        string[] results = new string[16];
        Parallel.For(0, results.Length, i =>
        {
            string xml = "";
            for (int k = 0; k < 200; k++) xml = BinaryXmlText.ToXml(data, NbfsDictionary.Instance);
            results[i] = xml;
        });
        Assert.All(results, r => Assert.Equal(expected, r));
    }
}
