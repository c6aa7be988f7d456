using System.Runtime.Serialization;
using System.Xml;
using BenchmarkDotNet.Attributes;
using BinaryXml.Soap;

namespace BinaryXml.Benchmarks;

/// <summary>
/// The dictionary variants of W6/R5: none (dotnet/performance), the MC-NBFS static dictionary (HTTP binary encoding),
/// and the static dictionary plus a session over 100 consecutive messages (net.tcp).
/// </summary>
internal sealed class MessageSetup
{
    public const int SessionMessages = 100;

    public MessageSetup(string dictionary, string payload)
    {
        Dictionary = dictionary == "none" ? null : NbfsDictionary.Instance;
        UseSession = dictionary == "session";
        Payload = Payloads.Create(payload);
        Serializer = new DataContractSerializer(Payload.GetType());
    }

    public IXmlDictionary? Dictionary { get; }
    public bool UseSession { get; }
    public object Payload { get; }
    public DataContractSerializer Serializer { get; }

    /// <summary>Messages per operation: 100 with a session (the session's strings are written once), otherwise 1.</summary>
    public int Messages => UseSession ? SessionMessages : 1;

    /// <summary>
    /// The message R5 reads: the last of one operation's messages as the in-box writer writes it, and with a session
    /// the reader's session holding every string the writer's session added.
    /// </summary>
    public (byte[] Data, XmlBinaryReaderSession? Session) WriteLastMessage()
    {
        var stream = new MemoryStream();
        var writerSession = UseSession ? new RecordingWriterSession() : null;
        WriteMessages<CodeFor.InBox>(stream, s => XmlDictionaryWriter.CreateBinaryWriter(stream, Dictionary, s, false), writerSession);
        return (stream.ToArray().AsSpan(0, (int)stream.Position).ToArray(), writerSession?.ReaderSession);
    }

    /// <summary>
    /// Moves a reader of the message to the body's content: the envelope's start tag, the header skipped, the body's
    /// start tag. <typeparamref name="TCode"/> gives each reader its own copy of these calls (see
    /// <see cref="CodeFor"/>).
    /// </summary>
    public static void EnterBody<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("Envelope", "http://www.w3.org/2003/05/soap-envelope");
        r.Skip();
        r.ReadStartElement("Body", "http://www.w3.org/2003/05/soap-envelope");
    }

    /// <summary>
    /// Writes one operation's messages (a fresh session when there is one, or <paramref name="session"/>) through
    /// writers made by <paramref name="setOutput"/>.
    /// </summary>
    public void WriteMessages<TCode>(Stream stream, Func<XmlBinaryWriterSession?, XmlDictionaryWriter> setOutput, XmlBinaryWriterSession? session = null)
        where TCode : struct
    {
        session ??= UseSession ? new XmlBinaryWriterSession() : null;
        for (int i = 0; i < Messages; i++)
        {
            stream.Position = 0;
            XmlDictionaryWriter w = setOutput(session);
            Soap.WriteStart<TCode>(w);
            Serializer.WriteObject(w, Payload);
            Soap.WriteEnd<TCode>(w);
            w.Flush();
        }
    }
}

/// <summary>
/// A writer session that keeps what it added: the strings a net.tcp peer sends ahead of the messages (MC-NBFSE
/// StringTable), from which the reading side builds its <see cref="XmlBinaryReaderSession"/>.
/// </summary>
internal sealed class RecordingWriterSession : XmlBinaryWriterSession
{
    private readonly XmlBinaryReaderSession _readerSession = new();

    /// <summary>The reader's session: every string added so far, under its key.</summary>
    public XmlBinaryReaderSession ReaderSession => _readerSession;

    public override bool TryAdd(XmlDictionaryString value, out int key)
    {
        if (!base.TryAdd(value, out key)) return false;
        _readerSession.Add(key, value.Value);
        return true;
    }
}

/// <summary>W6 (i): a SOAP message around a DataContractSerializer payload, end to end (WriteObject included).</summary>
[MemoryDiagnoser]
public class W6_EndToEnd
{
    private readonly MemoryStream _stream = Sinks.Stream(1 << 16);
    private MessageSetup _setup = null!;
    private XmlDictionaryWriter _inBox = null!, _adapter = null!;

    [Params("none", "nbfs", "session")]
    public string Dictionary { get; set; } = "nbfs";

    [Params("login", "location", "index")]
    public string Payload { get; set; } = "index";

    [GlobalSetup]
    public void Setup()
    {
        _setup = new MessageSetup(Dictionary, Payload);
        _inBox = XmlDictionaryWriter.CreateBinaryWriter(_stream, _setup.Dictionary, null, false);
        _adapter = BinaryXmlDictionaryWriter.Create(_stream, _setup.Dictionary, null, false);
        byte[] a = Last(InBox), b = Last(Adapter);
        if (!a.AsSpan().SequenceEqual(b)) throw new InvalidOperationException($"W6 e2e {Dictionary} {Payload}: adapter bytes differ from in-box");
        Console.WriteLine($"// W6 e2e {Dictionary} {Payload}: {a.Length} bytes (last message), identical");
    }

    private byte[] Last(Action write)
    {
        write();
        return _stream.ToArray().AsSpan(0, (int)_stream.Position).ToArray();
    }

    private XmlDictionaryWriter Reset(XmlDictionaryWriter w, XmlBinaryWriterSession? session)
    {
        ((IXmlBinaryWriterInitializer)w).SetOutput(_stream, _setup.Dictionary, session, false);
        return w;
    }

    [Benchmark(Baseline = true)]
    public void InBox() => _setup.WriteMessages<CodeFor.InBox>(_stream, s => Reset(_inBox, s));

    [Benchmark]
    public void Adapter() => _setup.WriteMessages<CodeFor.Adapter>(_stream, s => Reset(_adapter, s));
}

/// <summary>
/// The message R5 (ii) and (iii) read (the last of W6's messages of an operation), and a reused in-box and drop-in
/// reader set to it.
/// </summary>
public abstract class DataContractReadScenario
{
    private protected MessageSetup Setup = null!;
    private protected byte[] Data = [];
    private protected XmlBinaryReaderSession? Session;
    private XmlDictionaryReader? _inBox, _adapter;

    /// <summary>The dictionaries: none, MC-NBFS, or MC-NBFS and a session.</summary>
    [Params("none", "nbfs", "session")]
    public string Dictionary { get; set; } = "nbfs";

    /// <summary>The DataContractSerializer payload of the body.</summary>
    [Params("login", "location", "index")]
    public string Payload { get; set; } = "index";

    /// <summary>Writes the message and checks that both readers see the same nodes.</summary>
    private protected void WriteMessage(string scenario)
    {
        Setup = new MessageSetup(Dictionary, Payload);
        (Data, Session) = Setup.WriteLastMessage();
        Support.GuardNodes($"{scenario} {Dictionary} {Payload}", Data, Setup.Dictionary, Session);
    }

    private protected XmlDictionaryReader Reset(XmlDictionaryReader r)
    {
        ((IXmlBinaryReaderInitializer)r).SetInput(Data, 0, Data.Length, Setup.Dictionary, XmlDictionaryReaderQuotas.Max, Session, null);
        return r;
    }

    private protected XmlDictionaryReader InBoxReader() => Reset(_inBox ??= XmlDictionaryReader.CreateBinaryReader(Data, XmlDictionaryReaderQuotas.Max));

    private protected XmlDictionaryReader AdapterReader() => Reset(_adapter ??= BinaryXmlDictionaryReader.Create(Data, 0, Data.Length, null, XmlDictionaryReaderQuotas.Max));
}

/// <summary>
/// R5 (ii): DataContractSerializer.ReadObject of the body of a SOAP message (headers skipped). With "session", the
/// last of W6's 100 messages of a session, read with a reader session holding the strings the writer's session added.
/// </summary>
[MemoryDiagnoser]
public class R5_DataContractBody : DataContractReadScenario
{
    [GlobalSetup]
    public void GlobalSetup()
    {
        WriteMessage("R5 DCS");
        string Graph(object o)
        {
            var s = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(s)) Setup.Serializer.WriteObject(w, o);
            return Convert.ToHexString(s.ToArray());
        }
        if (Graph(InBox()) != Graph(Adapter())) throw new InvalidOperationException("R5 DCS: the readers return different graphs");
    }

    private object Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        MessageSetup.EnterBody<TCode>(r);
        return Setup.Serializer.ReadObject(r)!;
    }

    [Benchmark(Baseline = true)]
    public object InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public object Adapter() => Read<CodeFor.Adapter>(AdapterReader());
}

/// <summary>
/// R5 (iii): the reader's share of R5 (ii), as W6 (ii) is the writer's share of W6 (i). The message of R5 (ii) read with
/// the calls DataContractSerializer.ReadObject makes on its reader, recorded once through the in-box reader and
/// replayed without the serializer (<see cref="ReaderCallScript"/>).
/// </summary>
[MemoryDiagnoser]
public class R5_DataContractCalls : DataContractReadScenario
{
    private ReaderCallScript _script = null!;

    [GlobalSetup]
    public void GlobalSetup()
    {
        WriteMessage("R5 calls");
        XmlDictionaryReader recorded = Reset(XmlDictionaryReader.CreateBinaryReader(Data, XmlDictionaryReaderQuotas.Max));
        MessageSetup.EnterBody<CodeFor.InBox>(recorded);
        _script = ReaderCallScript.Record(recorded, r => Setup.Serializer.ReadObject(r));
        long inBox = InBox(), adapter = Adapter();
        if (inBox != _script.Checksum || adapter != _script.Checksum)
            throw new InvalidOperationException($"R5 calls {Dictionary} {Payload}: replayed results differ (recorded {_script.Checksum}, in-box {inBox}, adapter {adapter})");
        Console.WriteLine($"// R5 calls {Dictionary} {Payload}: {_script.Count} calls replayed, results identical");
    }

    private long Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        MessageSetup.EnterBody<TCode>(r);
        return _script.Replay<TCode>(r);
    }

    [Benchmark(Baseline = true)]
    public long InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public long Adapter() => Read<CodeFor.Adapter>(AdapterReader());
}

/// <summary>
/// W6 (iii): a received message's body written into a new message by <see cref="XmlDictionaryWriter.WriteNode(XmlDictionaryReader, bool)"/>,
/// as WCF writes the body of a buffered message it forwards or copies. The message of R5 (ii) is read by each side's
/// reader, and its body's content is copied by that side's writer into W6's envelope: reader and writer together, as
/// an application pairs them. Payload "attributes" is a body of attributes with string values, as XmlSerializer
/// writes [XmlAttribute] members: 100 elements of W3_Attributes' four (DataContractSerializer writes none).
/// </summary>
[MemoryDiagnoser]
public class W6_CopyBody
{
    private readonly MemoryStream _stream = Sinks.Stream(1 << 16);
    private MessageSetup _setup = null!;
    private byte[] _data = [];
    private XmlDictionaryReader _inBoxReader = null!, _adapterReader = null!;
    private XmlDictionaryWriter _inBoxWriter = null!, _adapterWriter = null!;

    /// <summary>The dictionaries of the message read and of the one written: none, or MC-NBFS.</summary>
    [Params("none", "nbfs")]
    public string Dictionary { get; set; } = "nbfs";

    /// <summary>The DataContractSerializer payload of the body, or "attributes".</summary>
    [Params("login", "location", "index", "attributes")]
    public string Payload { get; set; } = "index";

    [GlobalSetup]
    public void Setup()
    {
        _setup = new MessageSetup(Dictionary, Payload == "attributes" ? "login" : Payload);
        (_data, _) = Payload == "attributes" ? (WriteAttributesMessage(_setup.Dictionary), null) : _setup.WriteLastMessage();
        _inBoxReader = XmlDictionaryReader.CreateBinaryReader(_data, XmlDictionaryReaderQuotas.Max);
        _adapterReader = BinaryXmlDictionaryReader.Create(_data, 0, _data.Length, null, XmlDictionaryReaderQuotas.Max);
        _inBoxWriter = XmlDictionaryWriter.CreateBinaryWriter(_stream, _setup.Dictionary, null, false);
        _adapterWriter = BinaryXmlDictionaryWriter.Create(_stream, _setup.Dictionary, null, false);
        InBox();
        byte[] inBox = _stream.ToArray().AsSpan(0, (int)_stream.Position).ToArray();
        Adapter();
        byte[] adapter = _stream.ToArray().AsSpan(0, (int)_stream.Position).ToArray();
        if (!inBox.AsSpan().SequenceEqual(adapter)) throw new InvalidOperationException($"W6 copy {Dictionary} {Payload}: adapter bytes differ from in-box");
        Console.WriteLine($"// W6 copy {Dictionary} {Payload}: {_data.Length} bytes read, {inBox.Length} written, identical");
    }

    private static byte[] WriteAttributesMessage(IXmlDictionary? dictionary)
    {
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream, dictionary, null, false))
        {
            Soap.WriteStart<CodeFor.InBox>(w);
            w.WriteStartElement("GetOrdersResponse", "http://tempuri.org/");
            for (int i = 0; i < 100; i++)
            {
                w.WriteStartElement("Order");
                w.WriteAttributeString("id", "x17");
                w.WriteAttributeString("name", "Contoso");
                w.WriteAttributeString("type", "Order");
                w.WriteAttributeString("version", "1.0");
                w.WriteEndElement();
            }
            w.WriteEndElement();
            Soap.WriteEnd<CodeFor.InBox>(w);
        }
        return stream.ToArray();
    }

    private void Copy<TCode>(XmlDictionaryReader r, XmlDictionaryWriter w) where TCode : struct
    {
        ((IXmlBinaryReaderInitializer)r).SetInput(_data, 0, _data.Length, _setup.Dictionary, XmlDictionaryReaderQuotas.Max, null, null);
        _stream.Position = 0;
        ((IXmlBinaryWriterInitializer)w).SetOutput(_stream, _setup.Dictionary, null, false);
        MessageSetup.EnterBody<TCode>(r);
        Soap.WriteStart<TCode>(w);
        while (r.NodeType != XmlNodeType.EndElement) w.WriteNode(r, false);
        Soap.WriteEnd<TCode>(w);
        w.Flush();
    }

    [Benchmark(Baseline = true)]
    public void InBox() => Copy<CodeFor.InBox>(_inBoxReader, _inBoxWriter);

    [Benchmark]
    public void Adapter() => Copy<CodeFor.Adapter>(_adapterReader, _adapterWriter);
}
