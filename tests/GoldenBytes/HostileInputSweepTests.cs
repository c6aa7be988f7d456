using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Every truncation point of every spec fixture document and every in-box golden file, and every single-byte
/// substitution of the spec fixture documents: reading either succeeds or throws <see cref="BinaryXmlException"/>,
/// never anything else.
/// </summary>
public sealed class HostileInputSweepTests
{
    private static IEnumerable<byte[]> Documents()
    {
        string fixtures = Path.Combine(AppContext.BaseDirectory, "Fixtures", "spec-fixtures.tsv");
        foreach (string line in File.ReadAllLines(fixtures))
        {
            if (line.StartsWith('#')) continue;
            string[] c = line.Split('\t');
            if (c[1] is "doc" or "doc-unbound" or "nbfs") yield return Hex.Parse(c[2]);
        }
        foreach (string line in File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "InBox", "golden.txt")))
        {
            if (line.StartsWith("-> ", StringComparison.Ordinal)) yield return Hex.Parse(line[3..]);
        }
    }

    private static void ReadEverything(ReadOnlySpan<byte> data)
    {
        var r = new BinaryXmlReader(data, StrNDictionary.Instance, null);
        try
        {
            while (r.Read())
            {
                if (r.HasValue && r.TokenType != BinaryXmlTokenType.ArrayData) _ = r.GetString();
                if (r.TokenType is BinaryXmlTokenType.StartElement or BinaryXmlTokenType.Attribute or BinaryXmlTokenType.EndElement)
                {
                    _ = r.LocalName.ToString();
                    _ = r.NamespaceUri.ToString();
                }
            }
        }
        finally
        {
            r.Dispose();
        }
    }

    private static Exception? Outcome(ReadOnlySpan<byte> data)
    {
        try
        {
            ReadEverything(data);
            return null;
        }
        catch (Exception e)
        {
            return e;
        }
    }

    [Fact]
    public void Every_truncation_point_fails_cleanly()
    {
        int documents = 0, cuts = 0;
        foreach (byte[] doc in Documents())
        {
            documents++;
            for (int length = 0; length < doc.Length; length++)
            {
                Exception? e = Outcome(doc.AsSpan(0, length));
                Assert.True(e is null or BinaryXmlException, $"Cut at {length} of {Hex.Format(doc)}: {e}");
                cuts++;
            }
        }
        Assert.True(documents > 150 && cuts > 5000);
    }

    [Fact]
    public void Every_single_byte_substitution_of_the_spec_fixtures_fails_cleanly()
    {
        byte[] values = [0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x0B, 0x40, 0x41, 0x43, 0x7F, 0x80, 0x81, 0x98, 0x99, 0x9C, 0xA4, 0xA6, 0xAA, 0xB6, 0xBC, 0xBE, 0xFF];
        int runs = 0;
        foreach (byte[] doc in Documents().Take(130))
        {
            byte[] copy = (byte[])doc.Clone();
            for (int i = 0; i < copy.Length; i++)
            {
                byte original = copy[i];
                foreach (byte v in values)
                {
                    copy[i] = v;
                    Exception? e = Outcome(copy);
                    Assert.True(e is null or BinaryXmlException, $"Byte {i} = {v:X2} in {Hex.Format(doc)}: {e}");
                    runs++;
                }
                copy[i] = original;
            }
        }
        Assert.True(runs > 10000);
    }
}
