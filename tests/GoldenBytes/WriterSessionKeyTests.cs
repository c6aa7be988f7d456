using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Session strings used again: the writer keeps the keys its session's lookups found for the rest of a document
/// (<c>SessionKeyCache</c>). Each test runs the same steps through the in-box writer and the drop-in writer (which
/// writes through <see cref="BinaryXmlWriter"/>), each with a session of its own, and compares every document's bytes
/// and the strings each session added, in order: whatever a session went through (a reset, another writer's adds, a
/// caller's <c>TryAdd</c>), a key written is the key .NET's writer writes.
/// </summary>
public sealed class WriterSessionKeyTests
{
    // More strings than the kept keys' 256 slots: keys 0 and 256, 1 and 257… share a slot.
    private static readonly XmlDictionary s_names = Names("name", 300);
    // A second dictionary whose strings have the keys of the first's.
    private static readonly XmlDictionary s_otherNames = Names("other", 40);
    private static readonly XmlDictionaryString s_ns = new XmlDictionary().Add("urn:session-keys");

    private static XmlDictionary Names(string stem, int count)
    {
        var d = new XmlDictionary();
        for (int i = 0; i < count; i++) d.Add(stem + i);
        return d;
    }

    private static XmlDictionaryString Name(int key) => s_names.TryLookup(key, out XmlDictionaryString? s) ? s : throw new ArgumentOutOfRangeException(nameof(key));

    private static XmlDictionaryString OtherName(int key) => s_otherNames.TryLookup(key, out XmlDictionaryString? s) ? s : throw new ArgumentOutOfRangeException(nameof(key));

    /// <summary>One step: writes to the current document, or does something to the session between writes.</summary>
    private delegate void Step(Run run);

    /// <summary>
    /// What a step acts on: the writer of the current document and the session, for one of the two writers. The
    /// writer is either reused from document to document (<see cref="IXmlBinaryWriterInitializer.SetOutput"/>, as WCF
    /// does) or created for each document and closed after it (the drop-in writer's scratch, kept keys included, then
    /// goes to the next writer created on the thread).
    /// </summary>
    private sealed class Run(Func<Stream, XmlBinaryWriterSession, XmlDictionaryWriter> create, XmlBinaryWriterSession session, bool reuse)
    {
        private readonly MemoryStream _stream = new();

        public XmlBinaryWriterSession Session { get; } = session;

        public XmlDictionaryWriter? Writer { get; private set; }

        public List<string> Documents { get; } = [];

        public void Start()
        {
            _stream.SetLength(0);
            if (reuse && Writer is not null) ((IXmlBinaryWriterInitializer)Writer).SetOutput(_stream, null, Session, false);
            else Writer = create(_stream, Session);
            Writer.WriteStartElement("r", s_ns.Value);
        }

        public void End()
        {
            Writer!.WriteEndElement();
            Writer.Flush();
            Documents.Add(Convert.ToHexString(_stream.ToArray()));
            if (!reuse)
            {
                Writer.Dispose();
                Writer = null;
            }
        }
    }

    private static void AssertSameAsInBox(Func<XmlBinaryWriterSession> session, params Step[] steps)
    {
        foreach (bool reuse in new[] { true, false })
        {
            Run inBox = Execute(new Run((s, ws) => XmlDictionaryWriter.CreateBinaryWriter(s, null, ws, false), session(), reuse), steps);
            Run ours = Execute(new Run((s, ws) => BinaryXmlDictionaryWriter.Create(s, null, ws, false), session(), reuse), steps);
            Assert.Equal(inBox.Documents.Count, ours.Documents.Count);
            for (int i = 0; i < inBox.Documents.Count; i++)
                Assert.True(inBox.Documents[i] == ours.Documents[i], $"{(reuse ? "reused writer" : "writer per document")}, document {i}: in-box {inBox.Documents[i]}, ours {ours.Documents[i]}");
            if (inBox.Session is CountingSession a && ours.Session is CountingSession b)
            {
                Assert.Equal(a.Added, b.Added);
                Assert.Equal(a.AddCalls, b.AddCalls);
            }
        }
    }

    private static Run Execute(Run run, Step[] steps)
    {
        foreach (Step step in steps) step(run);
        return run;
    }

    private static Step Document(IEnumerable<XmlDictionaryString> names) => run =>
    {
        run.Start();
        Elements(names)(run);
        run.End();
    };

    private static Step Elements(IEnumerable<XmlDictionaryString> names) => run =>
    {
        foreach (XmlDictionaryString name in names)
        {
            run.Writer!.WriteStartElement(name, s_ns);
            run.Writer.WriteEndElement();
        }
    };

    private static IEnumerable<XmlDictionaryString> Repeated(int distinct, int count, int first = 0) => Enumerable.Range(0, count).Select(i => Name(first + i % distinct));

    /// <summary>A session that records its adds (the MC-NBFSE StringTable a peer is sent) and counts the calls.</summary>
    private class CountingSession : XmlBinaryWriterSession
    {
        public List<string> Added { get; } = [];

        public int AddCalls { get; private set; }

        public override bool TryAdd(XmlDictionaryString value, out int key)
        {
            AddCalls++;
            if (!Accept(value, out key)) return false;
            Added.Add(value.Value + "=" + key);
            return true;
        }

        protected virtual bool Accept(XmlDictionaryString value, out int key) => AddToBase(value, out key);

        /// <summary>The session's own add.</summary>
        protected bool AddToBase(XmlDictionaryString value, out int key) => base.TryAdd(value, out key);
    }

    [Theory]
    [InlineData(1, 1)]
    [InlineData(5, 16)]
    [InlineData(5, 17)]
    [InlineData(16, 40)]
    [InlineData(40, 400)]
    [InlineData(300, 900)]
    public void Strings_used_again_in_a_session_are_written_as_in_box(int distinct, int count)
    {
        // Three documents on one session: the first adds the strings, the others find them.
        Step document = Document(Repeated(distinct, count));
        AssertSameAsInBox(() => new CountingSession(), document, document, document);
    }

    [Fact]
    public void Strings_sharing_a_slot_and_strings_of_another_dictionary_with_the_same_keys_are_told_apart()
    {
        XmlDictionaryString[] names = [.. Enumerable.Range(0, 40).SelectMany(i => new[] { Name(i), Name(i + 256), OtherName(i) })];
        Step document = Document(names.Concat(names).Concat(names.Reverse()));
        AssertSameAsInBox(() => new CountingSession(), document, document);
    }

    [Fact]
    public void A_string_with_the_value_of_one_in_the_session_is_found_by_value_as_in_box()
    {
        // Another dictionary's string with the value of a string already added: the session's lookup finds it by value.
        var twins = new XmlDictionary();
        XmlDictionaryString[] sameValues = [.. Enumerable.Range(0, 20).Select(i => twins.Add("name" + i))];
        AssertSameAsInBox(() => new CountingSession(), Document(Repeated(20, 60)), Document(sameValues.Concat(Repeated(20, 40)).Concat(sameValues)));
    }

    [Fact]
    public void A_session_reset_in_the_middle_of_a_document_is_seen()
    {
        AssertSameAsInBox(() => new CountingSession(),
            run => run.Start(),
            Elements(Repeated(10, 60)),
            run => run.Session.Reset(),
            // Old strings are added again, in another order, with new strings between them.
            Elements(Repeated(10, 60, first: 5)),
            run => run.Session.Reset(),
            Elements(Repeated(10, 60)),
            run => run.End());
    }

    [Fact]
    public void A_session_reset_before_each_document_is_written_as_in_box()
    {
        // Each document adds its strings again, and keeping starts at the seventeenth string asked, an add: the adds
        // after it move the session's count on in step with the writer's, and the keys its lookups find are kept.
        Step document = Document(Repeated(20, 80));
        Step reset = run => run.Session.Reset();
        AssertSameAsInBox(() => new CountingSession(), document, reset, document, reset, document);
    }

    [Fact]
    public void A_session_reset_and_filled_again_by_another_writer_between_documents_is_seen()
    {
        // After the reset, another writer adds as many strings as the session held, in another order: the counts
        // match, the keys do not.
        Step anotherWriter = run =>
        {
            var stream = new MemoryStream();
            using XmlDictionaryWriter other = XmlDictionaryWriter.CreateBinaryWriter(stream, null, run.Session, false);
            Elements(Enumerable.Range(0, 20).Select(i => Name(19 - i)))(RunOn(other));
            other.WriteEndElement();
        };
        Step document = Document(Repeated(20, 80));
        AssertSameAsInBox(() => new CountingSession(), document, run => run.Session.Reset(), anotherWriter, document, document);
    }

    [Fact]
    public void Another_writers_adds_in_the_middle_of_a_document_are_seen()
    {
        Step anotherWriterAdds = run =>
        {
            var stream = new MemoryStream();
            using XmlDictionaryWriter other = XmlDictionaryWriter.CreateBinaryWriter(stream, null, run.Session, false);
            Elements(Enumerable.Range(100, 5).Select(Name))(RunOn(other));
            other.WriteEndElement();
        };
        AssertSameAsInBox(() => new CountingSession(),
            run => run.Start(), Elements(Repeated(10, 40)), anotherWriterAdds, Elements(Repeated(10, 40, first: 98)), run => run.End());
    }

    /// <summary>A run on a writer other than the run's own (a writer sharing the session), its root started.</summary>
    private static Run RunOn(XmlDictionaryWriter writer)
    {
        var run = new Run((_, _) => writer, new XmlBinaryWriterSession(), reuse: false);
        run.Start();
        return run;
    }

    /// <summary>A caller's session that gives keys of its own and never lets the base session hold a string.</summary>
    private sealed class KeysOfItsOwn : CountingSession
    {
        private int _next = 1000;

        protected override bool Accept(XmlDictionaryString value, out int key)
        {
            key = _next++;
            return true;
        }
    }

    /// <summary>A caller's session that starts again when it holds eight strings.</summary>
    private sealed class ResetWhenFull : CountingSession
    {
        private int _held;

        protected override bool Accept(XmlDictionaryString value, out int key)
        {
            if (_held == 8)
            {
                Reset();
                _held = 0;
            }
            _held++;
            return AddToBase(value, out key);
        }
    }

    /// <summary>A caller's session that adds nothing after its fourth string, as WCF's does once its quota is used.</summary>
    private sealed class QuotaOfFour : CountingSession
    {
        protected override bool Accept(XmlDictionaryString value, out int key)
        {
            key = -1;
            return Added.Count < 4 && AddToBase(value, out key);
        }
    }

    public static TheoryData<string> CallerSessions => ["keys of its own", "reset when full", "quota of four"];

    [Theory]
    [MemberData(nameof(CallerSessions))]
    public void A_callers_session_is_asked_as_in_box(string kind)
    {
        Func<XmlBinaryWriterSession> session = kind switch
        {
            "keys of its own" => () => new KeysOfItsOwn(),
            "reset when full" => () => new ResetWhenFull(),
            _ => () => new QuotaOfFour(),
        };
        // Strings found and kept, then added (a reset when full, keys of its own), then used again at once.
        IEnumerable<XmlDictionaryString> names = Repeated(6, 30).Concat(Enumerable.Range(6, 4).Select(Name)).Concat(Repeated(6, 30))
            .Concat([Name(10), Name(10), Name(11), Name(11)]);
        Step document = Document(names);
        AssertSameAsInBox(session, document, document);
    }
}
