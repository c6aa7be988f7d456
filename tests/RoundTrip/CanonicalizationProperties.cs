using System.Xml;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Canonicalization differential properties: random call sequences with canonicalization started and ended at random
/// points give the same binary and canonical bytes through the drop-in writer as through .NET's; random documents
/// canonicalized from a random node to another through both readers give the same canonical bytes.
/// </summary>
public sealed class CanonicalizationProperties
{
    private static readonly (bool Comments, string[]? Inclusive)[] Options =
        [(false, null), (true, null), (false, ["a", "b"]), (true, [""]), (false, ["", "s", "p1"])];

    private static Gen<(Doc Doc, int Start, int Length, int Option)> Cases =>
        from doc in Gen.Frequency((19, Generators.Documents), (1, Generators.LargeDocuments))
        from start in Gen.Choose(0, 1 << 20)
        from length in Gen.Choose(0, 1 << 20)
        from option in Gen.Choose(0, Options.Length - 1)
        select (doc, start, length, option);

    private sealed record Outcome(byte[] Binary, byte[] Canonical, Exception? Error, bool StartedInAttribute = false);

    /// <summary>
    /// .NET's canonical writer fails with these when an element open before canonicalization started is closed during
    /// it; ours refuses that with an InvalidOperationException (pinned in the contract tests).
    /// </summary>
    private static bool IsInBoxCrash(Exception? e) => e is IndexOutOfRangeException or NullReferenceException;

    [Fact]
    public void Random_call_sequences_canonicalized_between_random_calls_give_identical_bytes()
    {
        PropertyConfig.Verify(Prop.ForAll(Arb.From(Cases), c =>
        {
            var context = new ScriptContext(useSession: c.Doc.UseSession);
            List<Call> calls = c.Doc.Calls(withFlushes: true);
            int start = c.Start % (calls.Count + 1);
            int end = start + c.Length % (calls.Count - start + 1);
            (bool comments, string[]? inclusive) = Options[c.Option];

            Outcome Run(Func<Stream, XmlDictionaryWriter> create)
            {
                var stream = new MemoryStream();
                var canonical = new MemoryStream();
                XmlDictionaryWriter w = create(stream);
                bool inAttribute = false;
                try
                {
                    for (int i = 0; i <= calls.Count; i++)
                    {
                        if (i == start)
                        {
                            inAttribute = w.WriteState == WriteState.Attribute;
                            w.StartCanonicalization(canonical, comments, inclusive);
                        }
                        if (i == end) w.EndCanonicalization();
                        if (i < calls.Count) WriterScript.ApplyInBox(w, calls[i], context);
                    }
                    if (w.WriteState != WriteState.Closed) w.Flush();
                    return new Outcome(stream.ToArray(), canonical.ToArray(), null, inAttribute);
                }
                catch (Exception e)
                {
                    return new Outcome(stream.ToArray(), canonical.ToArray(), e, inAttribute);
                }
            }

            XmlBinaryWriterSession? a = context.CreateWriterSession(), b = context.CreateWriterSession();
            Outcome inBox = Run(s => XmlDictionaryWriter.CreateBinaryWriter(s, context.Dictionary, a, false));
            Outcome ours = Run(s => BinaryXmlDictionaryWriter.Create(s, context.Dictionary, b, false));
            if (IsInBoxCrash(inBox.Error) || ours.StartedInAttribute)
            {
                // Pinned differences: see the contract tests.
                Assert.IsType<InvalidOperationException>(ours.Error);
                return;
            }
            Assert.True(inBox.Error?.GetType() == ours.Error?.GetType(), $"in-box: {inBox.Error}\nours: {ours.Error}");
            // After a failure, how much each writer had flushed to its stream is not compared (buffering differs).
            if (inBox.Error is not null) return;
            Assert.True(inBox.Binary.AsSpan().SequenceEqual(ours.Binary), $"binary bytes differ ({inBox.Binary.Length} vs {ours.Binary.Length}); start {start} end {end} of {calls.Count}");
            Assert.Equal(System.Text.Encoding.UTF8.GetString(inBox.Canonical), System.Text.Encoding.UTF8.GetString(ours.Canonical));
        }), 2000);
    }

    /// <summary>The document as text XML (its first 2,000 characters), for failure messages.</summary>
    private static string AsText(byte[] bytes, ScriptContext context, RecordingWriterSession? session)
    {
        using XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, context.Dictionary, XmlDictionaryReaderQuotas.Max, session?.ToReaderSession());
        var text = new StringWriter();
        using (var w = XmlWriter.Create(text, new XmlWriterSettings { ConformanceLevel = ConformanceLevel.Fragment, CheckCharacters = false })) w.WriteNode(r, true);
        string s = text.ToString();
        return s.Length <= 2000 ? s : s[..2000];
    }

    /// <summary>The canonical text around the first difference from <paramref name="other"/>, for failure messages.</summary>
    private static string Around(byte[] utf8, byte[] other)
    {
        int at = utf8.AsSpan().CommonPrefixLength(other);
        int from = Math.Max(0, at - 150);
        return System.Text.Encoding.UTF8.GetString(utf8.AsSpan(from, Math.Min(300, utf8.Length - from)));
    }

    [Fact]
    public void Random_documents_canonicalized_between_random_nodes_read_alike()
    {
        PropertyConfig.Verify(Prop.ForAll(Arb.From(Cases), c =>
        {
            var context = new ScriptContext(useSession: c.Doc.UseSession);
            RecordingWriterSession? session = context.CreateWriterSession();
            (byte[] bytes, Exception? error) = WriterScript.RunInBox(c.Doc.Calls(withFlushes: false), context, session);
            if (error is not null) return;
            (bool comments, string[]? inclusive) = Options[c.Option];

            string trace = "";
            Outcome Run(XmlDictionaryReader r)
            {
                var canonical = new MemoryStream();
                int nodes = 0, start = -1, end = -1;
                trace = "";
                try
                {
                    // Count the nodes first (through .NET's reader, so both runs pick the same positions).
                    using (XmlDictionaryReader counter = XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, context.Dictionary, XmlDictionaryReaderQuotas.Max, session?.ToReaderSession()))
                    {
                        while (counter.Read()) nodes++;
                    }
                    start = c.Start % (nodes + 1);
                    end = start + c.Length % (nodes - start + 2);
                    for (int i = 0; ; i++)
                    {
                        if (i == start) { trace += $"start {i}/{nodes} on {r.NodeType} {r.Name} {r.Depth};"; r.StartCanonicalization(canonical, comments, inclusive); }
                        if (i == end) { trace += $"end {i} on {r.NodeType} {r.Name} {r.Depth};"; r.EndCanonicalization(); }
                        if (!r.Read()) break;
                    }
                    if (end > nodes) r.EndCanonicalization();
                    return new Outcome([], canonical.ToArray(), null);
                }
                catch (Exception e)
                {
                    return new Outcome([], canonical.ToArray(), e);
                }
            }

            Outcome inBox = Run(XmlDictionaryReader.CreateBinaryReader(bytes, 0, bytes.Length, context.Dictionary, XmlDictionaryReaderQuotas.Max, session?.ToReaderSession()));
            string inBoxTrace = trace;
            Outcome ours = Run(BinaryXmlDictionaryReader.Create(bytes, 0, bytes.Length, context.Dictionary, XmlDictionaryReaderQuotas.Max, session?.ToReaderSession()));
            if (IsInBoxCrash(inBox.Error))
            {
                Assert.IsType<InvalidOperationException>(ours.Error);
                return;
            }
            Assert.True(inBox.Error?.GetType() == ours.Error?.GetType(), $"in-box: {inBox.Error}\nours: {ours.Error}");
            if (inBox.Error is null) Assert.True(inBox.Canonical.AsSpan().SequenceEqual(ours.Canonical), inBoxTrace + "\n" + trace + "\n" + AsText(bytes, context, session) + "\n" + Around(inBox.Canonical, ours.Canonical) + "\n" + Around(ours.Canonical, inBox.Canonical));
        }), 2000);
    }
}
