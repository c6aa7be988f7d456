using System.Buffers;
using System.Text;
using System.Xml;
using BinaryXml.Soap;
using BinaryXml.Soap.Nmf;

namespace BinaryXml.Tests;

/// <summary>
/// The messages in samples/, written by the library as a WCF client would write them: SOAP 1.2 envelopes with
/// WS-Addressing headers from the MC-NBFS dictionary and DataContract-shaped bodies. Deterministic, so that
/// regenerating them (BINARYXML_REGENERATE_SAMPLES=1) changes nothing unless the writer changes.
/// </summary>
internal static class Samples
{
    private static XmlDictionaryString N(string s) => NbfsDictionary.Instance.TryLookup(s, out XmlDictionaryString? d) ? d : throw new ArgumentException(s);

    private static readonly XmlDictionary s_contract = new();
    private static XmlDictionaryString C(string s) => s_contract.Add(s);

    private const string Soap = "http://www.w3.org/2003/05/soap-envelope";
    private const string Wsa = "http://www.w3.org/2005/08/addressing";

    /// <summary>
    /// A request envelope. With <paramref name="contractStrings"/> the action, body names and namespaces are
    /// dictionary strings (a session makes them ids); otherwise plain strings (inline), as over msbin1.
    /// </summary>
    public static void WriteRequest(BinaryXmlWriter w, string operation, int messageNumber, bool contractStrings, Action<BinaryXmlWriter, Func<string, XmlDictionaryString?>> body)
    {
        XmlDictionaryString? Contract(string s) => contractStrings ? C(s) : null;
        w.WriteStartElement("s", N("Envelope"), N(Soap));
        w.WriteXmlnsAttribute("a", N(Wsa));
        w.WriteStartElement("s", N("Header"), N(Soap));
        w.WriteStartElement("a", N("Action"), N(Wsa));
        w.WriteStartAttribute("s", N("mustUnderstand"), N(Soap));
        w.WriteValue(1);
        w.WriteEndAttribute();
        string action = "http://tempuri.org/IOrderService/" + operation;
        if (Contract(action) is XmlDictionaryString a) w.WriteString(a); else w.WriteString(action);
        w.WriteEndElement();
        w.WriteStartElement("a", N("MessageID"), N(Wsa));
        w.WriteValue(new UniqueId(new Guid(0x5F0E2B7C, 0x1A2B, 0x4C3D, 0x9E, 0x8F, 0x70, 0x61, 0x52, 0x43, 0x34, (byte)messageNumber)));
        w.WriteEndElement();
        w.WriteStartElement("a", N("ReplyTo"), N(Wsa));
        w.WriteStartElement("a", N("Address"), N(Wsa));
        w.WriteString(N("http://www.w3.org/2005/08/addressing/anonymous"));
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteStartElement("a", N("To"), N(Wsa));
        w.WriteStartAttribute("s", N("mustUnderstand"), N(Soap));
        w.WriteValue(1);
        w.WriteEndAttribute();
        w.WriteString("net.tcp://localhost:8000/orders");
        w.WriteEndElement();
        w.WriteEndElement();
        w.WriteStartElement("s", N("Body"), N(Soap));
        body(w, Contract);
        w.WriteEndElement();
        w.WriteEndElement();
    }

    private static void Start(BinaryXmlWriter w, Func<string, XmlDictionaryString?> c, string name, string ns)
    {
        if (c(name) is XmlDictionaryString n) w.WriteStartElement(n, c(ns));
        else w.WriteStartElement(name, ns);
    }

    public static void GetOrderBody(BinaryXmlWriter w, Func<string, XmlDictionaryString?> c, int orderId)
    {
        Start(w, c, "GetOrder", "http://tempuri.org/");
        Start(w, c, "orderId", "http://tempuri.org/");
        w.WriteValue(orderId);
        w.WriteEndElement();
        Start(w, c, "includeLines", "http://tempuri.org/");
        w.WriteValue(true);
        w.WriteEndElement();
        Start(w, c, "since", "http://tempuri.org/");
        w.WriteValue(new DateTime(2026, 11, 1, 8, 30, 0, DateTimeKind.Utc));
        w.WriteEndElement();
        w.WriteEndElement();
    }

    public static void UpdateOrderBody(BinaryXmlWriter w, Func<string, XmlDictionaryString?> c)
    {
        const string Dc = "http://schemas.datacontract.org/2004/07/Shop";
        Start(w, c, "UpdateOrder", "http://tempuri.org/");
        Start(w, c, "order", "http://tempuri.org/");
        w.WriteXmlnsAttribute("b", Dc);
        w.WriteXmlnsAttribute("i", "http://www.w3.org/2001/XMLSchema-instance");
        Start(w, c, "Customer", Dc);
        w.WriteString("Zoë Müller — 東京");
        w.WriteEndElement();
        Start(w, c, "Lines", Dc);
        foreach ((string sku, int qty, decimal price) in new[] { ("A-100", 2, 19.95m), ("B-7", 1, 5.00m) })
        {
            Start(w, c, "OrderLine", Dc);
            Start(w, c, "Price", Dc); w.WriteValue(price); w.WriteEndElement();
            Start(w, c, "Quantity", Dc); w.WriteValue(qty); w.WriteEndElement();
            Start(w, c, "Sku", Dc); w.WriteString(sku); w.WriteEndElement();
            w.WriteEndElement();
        }
        w.WriteEndElement();
        Start(w, c, "Note", Dc);
        w.WriteStartAttribute("i", "nil", "http://www.w3.org/2001/XMLSchema-instance");
        w.WriteValue(true);
        w.WriteEndAttribute();
        w.WriteEndElement();
        w.WriteArray("b", "Tags", Dc, new int[] { 3, 1, 4, 1, 5, 9 });
        Start(w, c, "Weight", Dc); w.WriteValue(2.5); w.WriteEndElement();
        w.WriteEndElement();
        w.WriteEndElement();
    }

    public static void PingBody(BinaryXmlWriter w, Func<string, XmlDictionaryString?> c)
    {
        Start(w, c, "Ping", "http://tempuri.org/");
        w.WriteEndElement();
    }

    private static readonly (string Operation, Action<BinaryXmlWriter, Func<string, XmlDictionaryString?>> Body)[] s_conversation =
    [
        ("GetOrder", (w, c) => GetOrderBody(w, c, 1001)),
        ("GetOrder", (w, c) => GetOrderBody(w, c, 1002)),
        ("UpdateOrder", UpdateOrderBody),
        ("Ping", PingBody),
    ];

    /// <summary>Every sample: a relative path and its bytes.</summary>
    public static IEnumerable<(string Path, byte[] Bytes)> Generate()
    {
        yield return ("msbin1-request.bin", new BinaryMessageEncoder().WriteMessage(w => WriteRequest(w, "GetOrder", 1, false, (x, c) => GetOrderBody(x, c, 1001))));

        var session = new BinaryMessageEncoder(session: true);
        var envelopes = new List<byte[]>();
        for (int i = 0; i < s_conversation.Length; i++)
        {
            (string op, var body) = s_conversation[i];
            byte[] message = session.WriteMessage(w => WriteRequest(w, op, i + 1, true, body));
            envelopes.Add(message);
            yield return ($"session/message-{i + 1}.bin", message);
        }

        var stream = new ArrayBufferWriter<byte>();
        var nmf = new NmfWriter(stream);
        nmf.WritePreamble(NmfMode.Duplex, "net.tcp://localhost:8000/orders", NmfKnownEncoding.Soap12BinarySession);
        var nmfSession = new BinaryMessageEncoder(session: true);
        for (int i = 0; i < 3; i++)
        {
            (string op, var body) = s_conversation[i];
            nmf.WriteSizedEnvelope(nmfSession.WriteMessage(w => WriteRequest(w, op, i + 1, true, body)));
        }
        nmf.WriteEnd();
        yield return ("nettcp-stream.bin", stream.WrittenSpan.ToArray());
    }

    public static string Folder => Path.Combine(AppContext.BaseDirectory, "samples");
}
