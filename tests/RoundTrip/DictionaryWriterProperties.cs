using System.Runtime.Serialization;
using System.Xml;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// The drop-in <see cref="BinaryXmlDictionaryWriter"/> against <c>XmlDictionaryWriter.CreateBinaryWriter</c>: random
/// call sequences (documents from a few bytes to over 64 KB, with dictionaries, sessions and flushes) give identical
/// bytes; DataContractSerializer writes identical bytes through both.
/// </summary>
public sealed class DictionaryWriterProperties
{
    internal static object PayloadFor(string name) => Payload(name);

    [Fact]
    public void Random_call_sequences_give_identical_bytes()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.MixedSizeDocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            List<Call> calls = doc.Calls(withFlushes: true);
            RecordingWriterSession? a = context.CreateWriterSession(), b = context.CreateWriterSession();
            (byte[] inBox, Exception? e1) = WriterScript.RunInBox(calls, context, a);
            (byte[] ours, Exception? e2) = WriterScript.RunAdapter(calls, context, b);
            Assert.Equal(e1?.GetType(), e2?.GetType());
            Assert.True(inBox.AsSpan().SequenceEqual(ours), $"bytes differ ({inBox.Length} vs {ours.Length})");
            Assert.Equal(a?.Strings, b?.Strings);
        }), 2000);
    }

    /// <summary>
    /// Over a stream, payloads around the lengths where the writer changes how it hands text on (16,384 characters
    /// transcoded before they are counted, 65,536 handed on in pieces, 1,398,099 transcoded into its buffer first) and
    /// DateTime items with local ones, in any order, with short text and flushes between them, give the in-box bytes:
    /// text of ASCII, mixed, CJK and surrogate-pair units, shifted so that a pair may fall on a piece's edge.
    /// </summary>
    [Fact]
    public void Long_payloads_over_a_stream_give_identical_bytes()
    {
        PropertyConfig.Verify(Prop.ForAll(Gen.Choose(0, int.MaxValue).ToArbitrary(), seed =>
        {
            var steps = LongPayloadSteps(new Random(seed));
            byte[] Write(XmlDictionaryWriter w, MemoryStream stream)
            {
                using (w)
                {
                    w.WriteStartElement("r");
                    foreach (Action<XmlDictionaryWriter> step in steps) step(w);
                }
                return stream.ToArray();
            }

            var inBoxStream = new MemoryStream();
            var ourStream = new MemoryStream();
            byte[] inBox = Write(XmlDictionaryWriter.CreateBinaryWriter(inBoxStream), inBoxStream);
            byte[] ours = Write(BinaryXmlDictionaryWriter.Create(ourStream), ourStream);
            Assert.True(inBox.AsSpan().SequenceEqual(ours), $"seed {seed}: bytes differ ({inBox.Length} vs {ours.Length})");
        }), 100);
    }

    private static readonly int[] s_longLengths = [16_385, 65_535, 65_536, 65_537, 131_073, 200_000, 1_398_099, 1_398_100, 1_500_001];
    private static readonly string[] s_units = ["a", "Zoë — naïve \U0001F600 ", "日本語のテキスト", "é\U0001F600", "ab日"];

    /// <summary>One to four writer steps, from <paramref name="random"/>.</summary>
    private static List<Action<XmlDictionaryWriter>> LongPayloadSteps(Random random)
    {
        var steps = new List<Action<XmlDictionaryWriter>>();
        for (int n = random.Next(1, 5); n > 0; n--)
        {
            string text = LongText(random);
            switch (random.Next(7))
            {
                case 0: steps.Add(w => w.WriteElementString("t", text)); break;
                case 1: steps.Add(w => { w.WriteStartElement("c"); w.WriteChars(text.ToCharArray(), 0, text.Length); w.WriteEndElement(); }); break;
                case 2: steps.Add(w => w.WriteComment(text)); break;
                case 3: steps.Add(w => { w.WriteStartElement(text); w.WriteString("x"); w.WriteEndElement(); }); break;
                case 4: steps.Add(w => { w.WriteStartElement("e"); w.WriteAttributeString("v", text); w.WriteString("y"); w.WriteEndElement(); }); break;
                case 5:
                    // None local (one block), one in twenty, or one somewhere (the items before it handed on as they
                    // are, the rest converted a piece at a time).
                    DateTime[] dates = new DateTime[random.Next(1, 80_000)];
                    int locals = random.Next(3), oneLocal = random.Next(dates.Length);
                    for (int i = 0; i < dates.Length; i++)
                    {
                        bool local = locals == 1 ? random.Next(20) == 0 : locals == 2 && i == oneLocal;
                        dates[i] = new DateTime(2026, 1, 1, 0, 0, 0, local ? DateTimeKind.Local : DateTimeKind.Utc).AddMinutes(i);
                    }
                    steps.Add(w => w.WriteArray(null, "d", null, dates, 0, dates.Length));
                    break;
                default:
                    bool flush = random.Next(2) == 0;
                    steps.Add(w => { w.WriteElementString("s", "short"); if (flush) w.Flush(); });
                    break;
            }
        }
        return steps;
    }

    /// <summary>Text of one of <see cref="s_longLengths"/> characters (give or take a pair's half at its end).</summary>
    private static string LongText(Random random)
    {
        int length = s_longLengths[random.Next(s_longLengths.Length)];
        string unit = s_units[random.Next(s_units.Length)];
        var text = new System.Text.StringBuilder(length + unit.Length);
        text.Append('x', random.Next(4));
        while (text.Length < length) text.Append(unit);
        text.Length = length;
        if (char.IsHighSurrogate(text[^1])) text.Length--;
        return text.ToString();
    }

    // ---- DataContractSerializer end to end: payloads shaped like the common benchmark ones ------------------------

    [DataContract(Namespace = "urn:bench")]
    public sealed class LoginForm
    {
        [DataMember] public string UserName { get; set; } = "";
        [DataMember] public string Password { get; set; } = "";
        [DataMember] public bool RememberMe { get; set; }
    }

    [DataContract(Namespace = "urn:bench")]
    public sealed class Location
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string Address1 { get; set; } = "";
        [DataMember] public string Address2 { get; set; } = "";
        [DataMember] public string City { get; set; } = "";
        [DataMember] public string State { get; set; } = "";
        [DataMember] public string PostalCode { get; set; } = "";
        [DataMember] public string Name { get; set; } = "";
        [DataMember] public string PhoneNumber { get; set; } = "";
        [DataMember] public string Country { get; set; } = "";
    }

    [DataContract(Namespace = "urn:bench")]
    public sealed class ActiveOrUpcomingEvent
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string ImageUrl { get; set; } = "";
        [DataMember] public string Name { get; set; } = "";
        [DataMember] public string CampaignManagedOrganizerName { get; set; } = "";
        [DataMember] public string Description { get; set; } = "";
        [DataMember] public DateTimeOffset StartDate { get; set; }
        [DataMember] public DateTimeOffset EndDate { get; set; }
        [DataMember] public double Score { get; set; }
    }

    [DataContract(Namespace = "urn:bench")]
    public sealed class IndexViewModel
    {
        [DataMember] public List<ActiveOrUpcomingEvent> Events { get; set; } = [];
        [DataMember] public bool IsNewAccount { get; set; }
    }

    [DataContract(Namespace = "urn:bench")]
    public sealed class TaskItem
    {
        [DataMember] public int Id { get; set; }
        [DataMember] public string Title { get; set; } = "";
        [DataMember] public decimal Estimate { get; set; }
        [DataMember] public Guid Owner { get; set; }
    }

    [DataContract(Namespace = "urn:bench")]
    public sealed class ListItem
    {
        [DataMember] public string Name { get; set; } = "";
        [DataMember] public TaskItem[] Tasks { get; set; } = [];
    }

    [DataContract(Namespace = "urn:bench")]
    public sealed class Collections
    {
        [DataMember] public byte[] Bytes { get; set; } = [];
        [DataMember] public DateTime[] Dates { get; set; } = [];
        [DataMember] public Dictionary<string, int> Map { get; set; } = [];
        [DataMember] public int[] Ints { get; set; } = [];
        [DataMember] public long[] Longs { get; set; } = [];
        [DataMember] public TimeSpan Elapsed { get; set; }
    }

    public static TheoryData<string> Payloads() => new(["login", "location", "index", "list", "collections"]);

    internal static object Payload(string name)
    {
        var start = new DateTimeOffset(2026, 11, 21, 9, 0, 0, TimeSpan.FromHours(1));
        return name switch
        {
            "login" => new LoginForm { UserName = "user@example.com", Password = "correct horse", RememberMe = true },
            "location" => new Location { Id = 42, Address1 = "1 Main St", Address2 = "Suite 7", City = "Springfield", State = "WA", PostalCode = "98000", Name = "HQ", PhoneNumber = "+1 555 0100", Country = "USA" },
            "index" => new IndexViewModel
            {
                IsNewAccount = false,
                Events = Enumerable.Range(0, 20).Select(i => new ActiveOrUpcomingEvent
                {
                    Id = i, ImageUrl = $"https://img.example.com/{i}.png", Name = $"Event {i}", CampaignManagedOrganizerName = "Organizer é",
                    Description = new string('d', 100 + i), StartDate = start.AddDays(i), EndDate = start.AddDays(i + 1), Score = i / 3.0,
                }).ToList(),
            },
            "list" => Enumerable.Range(0, 60).Select(i => new ListItem
            {
                Name = "Item " + i,
                Tasks = Enumerable.Range(0, 4).Select(t => new TaskItem { Id = t, Title = $"Task {i}.{t}", Estimate = t * 1.25m, Owner = new Guid(i, (short)t, 0, 1, 2, 3, 4, 5, 6, 7, 8) }).ToArray(),
            }).ToArray(),
            "collections" => new Collections
            {
                Bytes = Enumerable.Range(0, 1024).Select(i => (byte)(i * 7)).ToArray(),
                Dates = Enumerable.Range(0, 50).Select(i => new DateTime(2020, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddHours(i * 13)).ToArray(),
                Map = Enumerable.Range(0, 30).ToDictionary(i => "key" + i, i => i * i),
                Ints = Enumerable.Range(0, 500).ToArray(),
                Longs = Enumerable.Range(0, 100).Select(i => (long)i << 40).ToArray(),
                Elapsed = TimeSpan.FromMilliseconds(12345.678),
            },
            _ => throw new ArgumentOutOfRangeException(nameof(name)),
        };
    }

    [Theory]
    [MemberData(nameof(Payloads))]
    public void DataContractSerializer_writes_the_same_bytes_through_both_writers(string payload)
    {
        object graph = Payload(payload);
        var serializer = new DataContractSerializer(graph.GetType());
        byte[] Write(Func<Stream, XmlDictionaryWriter> create)
        {
            var stream = new MemoryStream();
            using (XmlDictionaryWriter w = create(stream)) serializer.WriteObject(w, graph);
            return stream.ToArray();
        }
        byte[] inBox = Write(s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false));
        byte[] ours = Write(s => BinaryXmlDictionaryWriter.Create(s, null, null, false));
        Assert.True(inBox.AsSpan().SequenceEqual(ours), $"bytes differ ({inBox.Length} vs {ours.Length})");

        // The in-box reader reads our bytes back into an equal graph (compared by re-serialising it).
        using XmlDictionaryReader reader = XmlDictionaryReader.CreateBinaryReader(ours, XmlDictionaryReaderQuotas.Max);
        object back = serializer.ReadObject(reader)!;
        Assert.True(inBox.AsSpan().SequenceEqual(Write(s => XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false)) is var again && again.Length > 0 ? again : []));
        var stream2 = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream2, null, null, false)) serializer.WriteObject(w, back);
        Assert.True(inBox.AsSpan().SequenceEqual(stream2.ToArray()), "the graph read back differs");
    }
}
