using System.Xml;
using BenchmarkDotNet.Attributes;
using BinaryXml.Soap;

namespace BinaryXml.Benchmarks;

/// <summary>A reader scenario's input and reusable readers (SetInput per operation, as dotnet/performance does).</summary>
public abstract class ReaderScenario
{
    private protected byte[] Data = [];
    private protected IXmlDictionary? Dictionary;
    private XmlDictionaryReader? _inBox, _adapter;

    private protected XmlDictionaryReader InBoxReader()
    {
        _inBox ??= XmlDictionaryReader.CreateBinaryReader(Data, 0, Data.Length, Dictionary, XmlDictionaryReaderQuotas.Max);
        ((IXmlBinaryReaderInitializer)_inBox).SetInput(Data, 0, Data.Length, Dictionary, XmlDictionaryReaderQuotas.Max, null, null);
        return _inBox;
    }

    /// <summary>The native reader's tokens, every one read (quotas lifted: a scan of trusted input).</summary>
    private protected int NativeTokenCount()
    {
        var r = new BinaryXmlReader(Data, null, null, BinaryXmlReaderOptions.Trusted);
        int n = 0;
        while (r.Read()) n++;
        r.Dispose();
        return n;
    }

    /// <summary>Every node read with <c>Read</c>, nothing asked of it (compiled for one reader type, see <see cref="CodeFor"/>).</summary>
    private protected static int CountNodes<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        int n = 0;
        while (r.Read()) n++;
        return n;
    }

    private protected XmlDictionaryReader AdapterReader()
    {
        _adapter ??= BinaryXmlDictionaryReader.Create(Data, 0, Data.Length, Dictionary, XmlDictionaryReaderQuotas.Max);
        ((IXmlBinaryReaderInitializer)_adapter).SetInput(Data, 0, Data.Length, Dictionary, XmlDictionaryReaderQuotas.Max, null, null);
        return _adapter;
    }
}

/// <summary>R1: 1,000 primitive elements read with ReadStartElement, ReadContentAsX, ReadEndElement; ns per element.</summary>
[MemoryDiagnoser]
public class R1_PrimitiveElements : ReaderScenario
{
    private const int Count = 1000;

    [GlobalSetup]
    public void Setup()
    {
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r");
            for (int i = 0; i < Count; i++) { w.WriteStartElement("a"); w.WriteValue(i * 70L); w.WriteEndElement(); }
            w.WriteEndElement();
        });
        Support.GuardNodes("R1", Data);
        if (Native() != InBox() || NativeElementContent() != InBox()) throw new InvalidOperationException("R1: the readers disagree");
    }

    private static long Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        long sum = 0;
        r.ReadStartElement("r");
        for (int i = 0; i < Count; i++) sum += r.ReadElementContentAsLong("a", "");
        r.ReadEndElement();
        return sum;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public long InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public long Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public long Native()
    {
        long sum = 0;
        var r = new BinaryXmlReader(Data);
        while (r.Read())
        {
            if (r.TokenType == BinaryXmlTokenType.Text) sum += r.GetInt64();
        }
        r.Dispose();
        return sum;
    }

    /// <summary>The native reader with <see cref="BinaryXmlReader.ReadElementContentAsInt64"/>: one call per element after its start tag.</summary>
    [Benchmark(OperationsPerInvoke = Count)]
    public long NativeElementContent()
    {
        long sum = 0;
        var r = new BinaryXmlReader(Data);
        r.Read();
        while (r.Read() && r.TokenType == BinaryXmlTokenType.StartElement) sum += r.ReadElementContentAsInt64();
        r.Dispose();
        return sum;
    }
}

/// <summary>R2: a full node scan of a ~10 MB document (text, typed values, attributes, namespaces); MB/s = size / mean.</summary>
[MemoryDiagnoser]
public class R2_Scan : ReaderScenario
{
    [GlobalSetup]
    public void Setup()
    {
        Data = Document();
        Support.GuardNodes("R2", Data);
    }

    /// <summary>The length of <see cref="Document"/> in bytes (the MB/s of the native row's target).</summary>
    internal static long DocumentLength => s_documentLength.Value;

    private static readonly Lazy<long> s_documentLength = new(() => Document().Length);

    /// <summary>The document scanned: 150,000 items of an attribute and three elements (10,714,664 bytes).</summary>
    internal static byte[] Document() => Support.WriteInBox(w =>
    {
        w.WriteStartElement("p", "root", "urn:scan");
        for (int i = 0; i < 150_000; i++)
        {
            w.WriteStartElement("p", "item", "urn:scan");
            w.WriteAttributeString("id", "x" + i);
            w.WriteElementString("name", "Item number " + i);
            w.WriteStartElement("price"); w.WriteValue(i * 1.25); w.WriteEndElement();
            w.WriteStartElement("when"); w.WriteValue(new DateTime(2026, 1, 1).AddMinutes(i)); w.WriteEndElement();
            w.WriteEndElement();
        }
        w.WriteEndElement();
    });

    [Benchmark(Baseline = true)]
    public int InBox() => CountNodes<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int Adapter() => CountNodes<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int Native() => NativeTokenCount();
}

/// <summary>
/// R2, wide: a document of one element with many attributes, scanned. "local": each a distinct name without a prefix;
/// "prefixed": each one local name ("x") in its own namespace, declared on the element. Found by a survey of inputs no
/// scenario had: the native reader compared each attribute with every one before it.
/// </summary>
[MemoryDiagnoser]
public class R2_WideStartTag : ReaderScenario
{
    [Params(16, 256, 2048)]
    public int Attributes { get; set; }

    [Params("local", "prefixed")]
    public string Names { get; set; } = "local";

    [GlobalSetup]
    public void Setup()
    {
        Data = Document(Attributes, Names);
        Support.GuardNodes("R2 wide", Data);
        if (Native() != InBox()) throw new InvalidOperationException("R2 wide: the readers disagree");
    }

    /// <summary>The document: one element of <paramref name="attributes"/> attributes, "local" or "prefixed".</summary>
    internal static byte[] Document(int attributes, string names) => Support.WriteInBox(w =>
    {
        w.WriteStartElement("a");
        for (int i = 0; i < attributes; i++)
        {
            if (names == "local") w.WriteAttributeString("a" + i, "v");
            else w.WriteAttributeString("p" + i, "x", "urn:" + i, "v");
        }
        w.WriteEndElement();
    });

    [Benchmark(Baseline = true)]
    public int InBox()
    {
        XmlDictionaryReader r = InBoxReader();
        int n = 0;
        while (r.Read()) n += 1 + r.AttributeCount;
        return n;
    }

    [Benchmark]
    public int Adapter()
    {
        XmlDictionaryReader r = AdapterReader();
        int n = 0;
        while (r.Read()) n += 1 + r.AttributeCount;
        return n;
    }

    /// <summary>The element, each attribute and declaration, and the end: one token each, as many as the other two count.</summary>
    [Benchmark]
    public int Native() => NativeTokenCount();
}

/// <summary>
/// R2, wide, looked up: the last attribute of R2_WideStartTag's "local" element found by its name with
/// <c>GetAttribute(localName, namespaceUri)</c> (DataContractSerializer's call for i:type and i:nil).
/// </summary>
[MemoryDiagnoser]
public class R2_WideStartTagLookup : ReaderScenario
{
    private string _last = "";

    [Params(16, 256, 2048)]
    public int Attributes { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        Data = R2_WideStartTag.Document(Attributes, "local");
        _last = "a" + (Attributes - 1);
        if (InBox() != Adapter() || InBox() != 1) throw new InvalidOperationException("R2 wide lookup: the readers disagree");
    }

    private int Lookup<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.MoveToContent();
        return r.GetAttribute(_last, "")?.Length ?? -1;
    }

    [Benchmark(Baseline = true)]
    public int InBox() => Lookup<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int Adapter() => Lookup<CodeFor.Adapter>(AdapterReader());
}

/// <summary>
/// R2, looked up element by element: 200 elements <c>&lt;s i:nil="true"/&gt;</c> (the value as text or as a boolean
/// record), each asked with <c>GetAttribute(localName, namespaceUri)</c> for xsi's nil (found) or type (not there), as
/// a serializer asks; ns per element.
/// </summary>
[MemoryDiagnoser]
public class R2_AttributeLookup : ReaderScenario
{
    private const int Count = 200;
    private const string Xsi = "http://www.w3.org/2001/XMLSchema-instance";

    [Params("text", "bool")]
    public string Value { get; set; } = "text";

    [Params("nil", "type")]
    public string Name { get; set; } = "nil";

    [GlobalSetup]
    public void Setup()
    {
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r", "urn:r");
            w.WriteXmlnsAttribute("i", Xsi);
            for (int i = 0; i < Count; i++)
            {
                w.WriteStartElement("s", "urn:r");
                w.WriteStartAttribute("i", "nil", Xsi);
                if (Value == "bool") w.WriteValue(true);
                else w.WriteString("true");
                w.WriteEndAttribute();
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        Support.GuardNodes("R2 lookup", Data);
        if (Adapter() != InBox() || InBox() != (Name == "nil" ? 4 * Count : 0)) throw new InvalidOperationException("R2 lookup: the readers disagree");
    }

    private int Lookup<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        int n = 0;
        while (r.Read())
        {
            if (r.NodeType == XmlNodeType.Element) n += r.GetAttribute(Name, Xsi)?.Length ?? 0;
        }
        return n;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public int InBox() => Lookup<CodeFor.InBox>(InBoxReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public int Adapter() => Lookup<CodeFor.Adapter>(AdapterReader());
}

/// <summary>
/// R2, every attribute of each element visited, as DataContractSerializer reads an object's attributes (its
/// <c>Attributes.Read</c>): 200 elements <c>&lt;Child z:Ref="i1" i:nil="true"/&gt;</c> (shared references, the nil a
/// boolean record as the serializer writes it), or <c>i:nil</c> alone; each attribute found by
/// <c>IndexOfLocalName</c> among the serializer's names, then its value read; ns per element.
/// </summary>
[MemoryDiagnoser]
public class R2_AttributeWalk : ReaderScenario
{
    private const int Count = 200;
    private const string Xsi = "http://www.w3.org/2001/XMLSchema-instance";
    private const string Ser = "http://schemas.microsoft.com/2003/10/Serialization/";

    [Params("ref nil", "nil")]
    public string Attributes { get; set; } = "ref nil";

    private XmlDictionaryString _serNamespace = null!, _xsiNamespace = null!, _xmlnsNamespace = null!;
    private XmlDictionaryString[] _serNames = [], _xsiNames = [];

    [GlobalSetup]
    public void Setup()
    {
        var names = new XmlDictionary();
        _serNamespace = names.Add(Ser);
        _xsiNamespace = names.Add(Xsi);
        _xmlnsNamespace = names.Add("http://www.w3.org/2000/xmlns/");
        _serNames = [names.Add("Id"), names.Add("Size"), names.Add("Ref"), names.Add("Type"), names.Add("Assembly"), names.Add("FactoryType")];
        _xsiNames = [names.Add("nil"), names.Add("type")];
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("Bag", "urn:b");
            w.WriteXmlnsAttribute("i", Xsi);
            w.WriteXmlnsAttribute("z", Ser);
            for (int i = 0; i < Count; i++)
            {
                w.WriteStartElement("Child", "urn:b");
                if (Attributes == "ref nil") w.WriteAttributeString("z", "Ref", Ser, "i1");
                w.WriteStartAttribute("i", "nil", Xsi);
                w.WriteValue(true);
                w.WriteEndAttribute();
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        Support.GuardNodes("R2 walk", Data);
        // Each element's "i1" and true; the root's three declarations (its own namespace, xsi's, the serializer's).
        int expected = Count * (Attributes == "ref nil" ? 3 : 1) + 3 * 100;
        if (Adapter() != InBox() || InBox() != expected) throw new InvalidOperationException($"R2 walk: the readers disagree ({InBox()}, {Adapter()}, {expected} expected)");
    }

    private int Walk<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        int n = 0;
        while (r.Read())
        {
            if (r.NodeType != XmlNodeType.Element) continue;
            while (r.MoveToNextAttribute())
            {
                switch (r.IndexOfLocalName(_serNames, _serNamespace))
                {
                    case 2: n += r.ReadContentAsString().Length; break;
                    case -1:
                        switch (r.IndexOfLocalName(_xsiNames, _xsiNamespace))
                        {
                            case 0: n += r.ReadContentAsBoolean() ? 1 : 0; break;
                            case -1: n += r.IsNamespaceUri(_xmlnsNamespace) ? 100 : 10_000; break;
                            default: n += 1_000_000; break;
                        }
                        break;
                    default: n += 1_000_000; break;
                }
            }
            r.MoveToElement();
        }
        return n;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public int InBox() => Walk<CodeFor.InBox>(InBoxReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public int Adapter() => Walk<CodeFor.Adapter>(AdapterReader());
}

/// <summary>R4: an array of each item type read into a preallocated array; Limit is a span copy of its items.</summary>
[MemoryDiagnoser]
public class R4_Arrays : ReaderScenario
{
    [ParamsSource(nameof(Counts))]
    public int Items { get; set; } = 1024;

    public static IEnumerable<int> Counts => ArrayItems.Counts;

    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = "double";

    public static IEnumerable<string> Types => ArrayItems.Types;

    private ArrayItems _items = null!;
    private int _itemsStart;

    [GlobalSetup]
    public void Setup()
    {
        _items = ArrayItems.Create(Type, Items);
        Data = Support.WriteInBox(w => { w.WriteStartElement("r"); _items.Write(w); w.WriteEndElement(); });
        if (Items <= 1024) Support.GuardNodes($"R4 {Type} {Items}", Data);
        _itemsStart = ArrayItemsStart(Data);
        foreach ((string name, Func<int> read) in new (string, Func<int>)[] { ("in-box", InBox), ("drop-in", Adapter), ("native", Native) })
        {
            if (read() != Items || !_items.TakeTarget()) throw new InvalidOperationException($"R4 {Type} {Items}: the {name} reader does not return the items written");
        }
    }

    /// <summary>Where the first item of the document's Array record is.</summary>
    internal static int ArrayItemsStart(byte[] data)
    {
        var r = new BinaryXmlReader(data, null, null, BinaryXmlReaderOptions.Trusted);
        while (r.Read() && r.TokenType != BinaryXmlTokenType.ArrayData) { }
        int start = r.TokenStartIndex;
        r.Dispose();
        return start;
    }

    private int Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("r");
        return _items.Read(r);
    }

    [Benchmark(Baseline = true)]
    public int InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int Native()
    {
        var r = new BinaryXmlReader(Data, null, null, BinaryXmlReaderOptions.Trusted);
        int n = 0;
        while (r.Read())
        {
            if (r.TokenType == BinaryXmlTokenType.ArrayData) n = _items.Copy(ref r);
        }
        r.Dispose();
        return n;
    }

    [Benchmark]
    public void Limit() => Data.AsSpan(_itemsStart, Items * _items.ItemSize).CopyTo(_items.TargetBytes);
}

/// <summary>
/// R4 (typed): an array of each item type read into a new array with its typed read (<c>ReadDoubleArray</c> and the
/// like), followed by another element (so that the read must look past the Array record); Native copies the items into
/// a new array of their count, Limit is a new array and a span copy.
/// </summary>
[MemoryDiagnoser]
public class R4_TypedArrays : ReaderScenario
{
    [ParamsSource(nameof(Counts))]
    public int Items { get; set; } = 1024;

    public static IEnumerable<int> Counts => ArrayItems.Counts;

    [ParamsSource(nameof(Types))]
    public string Type { get; set; } = "double";

    public static IEnumerable<string> Types => ArrayItems.Types;

    private ArrayItems _items = null!;
    private int _itemsStart;

    [GlobalSetup]
    public void Setup()
    {
        _items = ArrayItems.Create(Type, Items);
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r");
            _items.Write(w);
            w.WriteElementString("b", "");
            w.WriteEndElement();
        });
        if (Items <= 1024) Support.GuardNodes($"R4 typed {Type} {Items}", Data);
        _itemsStart = R4_Arrays.ArrayItemsStart(Data);
        foreach ((string name, Func<Array> read) in new (string, Func<Array>)[] { ("in-box", InBox), ("drop-in", Adapter), ("native", Native), ("limit", Limit) })
        {
            if (!_items.AreValues(read())) throw new InvalidOperationException($"R4 typed {Type} {Items}: the {name} read does not return the items written");
        }
    }

    private Array Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        r.ReadStartElement("r");
        return _items.ReadNew(r);
    }

    [Benchmark(Baseline = true)]
    public Array InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public Array Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public Array Native()
    {
        var r = new BinaryXmlReader(Data, null, null, BinaryXmlReaderOptions.Trusted);
        Array items = Array.Empty<object>();
        while (r.Read())
        {
            if (r.TokenType != BinaryXmlTokenType.ArrayData) continue;
            items = _items.CopyNew(ref r);
            break;
        }
        r.Dispose();
        return items;
    }

    [Benchmark]
    public Array Limit() => _items.NewFrom(Data.AsSpan(_itemsStart, Items * _items.ItemSize));
}

/// <summary>R5 (i): read the Action, MessageID and To headers of a SOAP message, skip the body.</summary>
[MemoryDiagnoser]
public class R5_SoapHeaders : ReaderScenario
{
    [GlobalSetup]
    public void Setup()
    {
        Dictionary = NbfsDictionary.Instance;
        Data = Support.WriteInBox(Soap.Write<CodeFor.InBox>, NbfsDictionary.Instance);
        Support.GuardNodes("R5", Data, NbfsDictionary.Instance);
        if (Native() != InBox() || Adapter() != InBox()) throw new InvalidOperationException($"R5: the readers disagree ({InBox()}, {Adapter()}, {Native()})");
    }

    private static int Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        int found = 0;
        r.ReadStartElement("Envelope", "http://www.w3.org/2003/05/soap-envelope");
        r.ReadStartElement("Header", "http://www.w3.org/2003/05/soap-envelope");
        while (r.IsStartElement())
        {
            if (r.LocalName is "Action" or "MessageID" or "To") { found += r.ReadElementContentAsString().Length; }
            else r.Skip();
        }
        return found;
    }

    [Benchmark(Baseline = true)]
    public int InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int Native()
    {
        // Envelope (depth 0), Header (1), header blocks (2): read three blocks' text, skip the others, stop at Body.
        var r = new BinaryXmlReader(Data, NbfsDictionary.Instance);
        int found = 0;
        while (r.Read())
        {
            if (r.TokenType == BinaryXmlTokenType.EndElement && r.CurrentDepth == 1) break;
            if (r.TokenType != BinaryXmlTokenType.StartElement || r.CurrentDepth != 2) continue;
            BinaryXmlName name = r.LocalName;
            if (name.ValueEquals("Action"u8) || name.ValueEquals("MessageID"u8) || name.ValueEquals("To"u8))
            {
                while (r.Read() && r.TokenType != BinaryXmlTokenType.EndElement)
                {
                    if (r.TokenType == BinaryXmlTokenType.Text) found += r.GetString().Length;
                }
            }
            else
            {
                r.Skip();
            }
        }
        r.Dispose();
        return found;
    }
}

/// <summary>
/// R1, strings: 1,000 elements of short text read with <c>ReadElementContentAsString()</c> or
/// <c>ReadElementString()</c> (the call of hand-written readers and of older serializers), each after
/// <c>IsStartElement(name, ns)</c>. Found by a survey: the drop-in reader read <c>ReadElementString</c> node by node.
/// </summary>
[MemoryDiagnoser]
public class R1_ElementStrings : ReaderScenario
{
    private const int Count = 1000;

    [Params("ReadElementContentAsString", "ReadElementString")]
    public string Call { get; set; } = "ReadElementString";

    [GlobalSetup]
    public void Setup()
    {
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r");
            for (int i = 0; i < Count; i++) w.WriteElementString("a", "item " + i);
            w.WriteEndElement();
        });
        Support.GuardNodes("R1 strings", Data);
        if (InBox() != Adapter()) throw new InvalidOperationException("R1 strings: the readers disagree");
    }

    private long Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        long length = 0;
        bool elementString = Call == "ReadElementString";
        r.ReadStartElement("r");
        while (r.IsStartElement("a", ""))
        {
            length += (elementString ? r.ReadElementString() : r.ReadElementContentAsString()).Length;
        }
        r.ReadEndElement();
        return length;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public long InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public long Adapter() => Read<CodeFor.Adapter>(AdapterReader());
}

/// <summary>
/// R2, a large node passed over: a document holding one comment, or one text node, of 1 MB (ASCII), read node by node
/// without asking for the value. Found by a survey: the drop-in reader decoded a comment's text as it read the node.
/// Both of ours check the UTF-8 of what they pass over; .NET's reader does not look at it.
/// </summary>
[MemoryDiagnoser]
public class R2_LargeNode : ReaderScenario
{
    [Params("comment", "text")]
    public string Node { get; set; } = "comment";

    [GlobalSetup]
    public void Setup()
    {
        string big = new('x', 1 << 20);
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r");
            if (Node == "comment") w.WriteComment(big);
            else w.WriteString(big);
            w.WriteEndElement();
        });
        Support.GuardNodes("R2 large node", Data);
        if (InBox() != Adapter() || InBox() != Native()) throw new InvalidOperationException("R2 large node: the readers disagree");
    }

    [Benchmark(Baseline = true)]
    public int InBox() => CountNodes<CodeFor.InBox>(InBoxReader());

    [Benchmark]
    public int Adapter() => CountNodes<CodeFor.Adapter>(AdapterReader());

    [Benchmark]
    public int Native() => NativeTokenCount();
}

/// <summary>
/// R2, session names: a document of <see cref="Names"/> elements, each named by a string of the session (MC-NBFSE),
/// read node by node with each element's <c>LocalName</c>. A net.tcp session carries such a table; .NET's binary
/// message encoder bounds it at 2,048 bytes by default (MaxSessionSize), about 100 such names. Found by a survey: the
/// drop-in reader kept the atoms of session names in 32 shared slots.
/// </summary>
[MemoryDiagnoser]
public class R2_SessionNames
{
    private byte[] _data = [];
    private XmlBinaryReaderSession _session = null!;
    private XmlDictionaryReader? _inBox, _adapter;

    [Params(100, 1000)]
    public int Names { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        XmlDictionaryString[] names = [.. Enumerable.Range(0, Names).Select(i => new XmlDictionary().Add("name" + i))];
        XmlDictionaryString ns = new XmlDictionary().Add("urn:names");
        var session = new RecordingWriterSession();
        _data = Support.WriteInBox(w =>
        {
            w.WriteStartElement(names[0], ns);
            foreach (XmlDictionaryString name in names)
            {
                w.WriteStartElement(name, ns);
                w.WriteEndElement();
            }
            w.WriteEndElement();
        }, null, session);
        _session = session.ReaderSession;
        Support.GuardNodes("R2 session names", _data, null, _session);
        if (InBox() != Adapter() || InBox() != Native()) throw new InvalidOperationException("R2 session names: the readers disagree");
    }

    private XmlDictionaryReader Reset(XmlDictionaryReader r)
    {
        ((IXmlBinaryReaderInitializer)r).SetInput(_data, 0, _data.Length, null, XmlDictionaryReaderQuotas.Max, _session, null);
        return r;
    }

    private static int Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        int n = 0;
        while (r.Read())
        {
            if (r.NodeType == XmlNodeType.Element) n += r.LocalName.Length;
        }
        return n;
    }

    [Benchmark(Baseline = true)]
    public int InBox() => Read<CodeFor.InBox>(Reset(_inBox ??= XmlDictionaryReader.CreateBinaryReader(_data, XmlDictionaryReaderQuotas.Max)));

    [Benchmark]
    public int Adapter() => Read<CodeFor.Adapter>(Reset(_adapter ??= BinaryXmlDictionaryReader.Create(_data, 0, _data.Length, null, XmlDictionaryReaderQuotas.Max)));

    [Benchmark]
    public int Native()
    {
        var r = new BinaryXmlReader(_data, null, _session, BinaryXmlReaderOptions.Trusted);
        int n = 0;
        while (r.Read())
        {
            // A session name is its dictionary string: ToString gives that string, without allocating.
            if (r.TokenType == BinaryXmlTokenType.StartElement) n += r.LocalName.ToString().Length;
        }
        r.Dispose();
        return n;
    }
}

/// <summary>
/// R1, typed: 1,000 elements each holding one value, read with the typed <c>ReadElementContentAs…()</c> after
/// <c>IsStartElement()</c>: a UniqueId (WS-Addressing's MessageID and RelatesTo), a TimeSpan and a float written as
/// typed records, and an int and a double written as text (as XmlSerializer writes them). Found by a survey: the
/// drop-in reader read these node by node, and text through a string (in-box reads text without one). <c>Native</c>
/// reads each element with the native reader's <c>ReadElementContentAs…()</c> (a UniqueId with <c>GetUniqueId</c>
/// on its value token, the native reader having no element read of one).
/// </summary>
[MemoryDiagnoser]
public class R1_TypedElements : ReaderScenario
{
    private const int Count = 1000;

    [Params("UniqueId", "TimeSpan", "float", "int text", "double text")]
    public string Value { get; set; } = "UniqueId";

    [GlobalSetup]
    public void Setup()
    {
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("r");
            for (int i = 0; i < Count; i++)
            {
                w.WriteStartElement("a");
                switch (Value)
                {
                    case "UniqueId": w.WriteValue(new UniqueId(new Guid(i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))); break;
                    case "TimeSpan": w.WriteValue(TimeSpan.FromSeconds(i * 7.5)); break;
                    case "float": w.WriteValue(i * 0.37f); break;
                    case "int text": w.WriteString(XmlConvert.ToString(i * 1237)); break;
                    default: w.WriteString(XmlConvert.ToString(i * 0.37)); break;
                }
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        Support.GuardNodes($"R1 typed {Value}", Data);
        if (InBox() != Adapter() || InBox() != Native()) throw new InvalidOperationException("R1 typed: the readers disagree");
    }

    private double Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        double sum = 0;
        r.ReadStartElement("r");
        switch (Value)
        {
            case "UniqueId": while (r.IsStartElement()) sum += r.ReadElementContentAsUniqueId().TryGetGuid(out Guid g) ? g.GetHashCode() & 1 : 0; break;
            case "TimeSpan": while (r.IsStartElement()) sum += r.ReadElementContentAsTimeSpan().TotalSeconds; break;
            case "float": while (r.IsStartElement()) sum += r.ReadElementContentAsFloat(); break;
            case "int text": while (r.IsStartElement()) sum += r.ReadElementContentAsInt(); break;
            default: while (r.IsStartElement()) sum += r.ReadElementContentAsDouble(); break;
        }
        r.ReadEndElement();
        return sum;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public double InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public double Adapter() => Read<CodeFor.Adapter>(AdapterReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public double Native()
    {
        double sum = 0;
        var r = new BinaryXmlReader(Data);
        r.Read();
        r.Read();
        while (r.TokenType == BinaryXmlTokenType.StartElement)
        {
            switch (Value)
            {
                case "UniqueId":
                    r.Read();
                    sum += r.GetUniqueId().TryGetGuid(out Guid g) ? g.GetHashCode() & 1 : 0;
                    r.Read();
                    break;
                case "TimeSpan": sum += r.ReadElementContentAsTimeSpan().TotalSeconds; break;
                case "float": sum += r.ReadElementContentAsSingle(); break;
                case "int text": sum += r.ReadElementContentAsInt32(); break;
                default: sum += r.ReadElementContentAsDouble(); break;
            }
            r.Read();
        }
        r.Dispose();
        return sum;
    }
}

/// <summary>
/// R1 as DataContractSerializer reads a <c>List&lt;int&gt;</c>: 1,000 int elements, each found with
/// <c>IsStartElement(XmlDictionaryString, XmlDictionaryString)</c>, its attributes asked for (none), then read with
/// <c>ReadElementContentAsInt()</c>; the items <c>a:int</c> in the serializer's arrays namespace (declared on the list
/// element, as it writes them) or <c>a</c> in no namespace (the list too). ns per element; in-box and drop-in only.
/// </summary>
[MemoryDiagnoser]
public class R1_SerializerElements : ReaderScenario
{
    private const int Count = 1000;
    private const string Arrays = "http://schemas.microsoft.com/2003/10/Serialization/Arrays";

    [Params("a:int", "a")]
    public string Element { get; set; } = "a:int";

    private XmlDictionaryString _name = null!, _namespace = null!;

    [GlobalSetup]
    public void Setup()
    {
        // The serializer's own dictionary strings, not the reader's.
        var names = new XmlDictionary();
        bool prefixed = Element == "a:int";
        _name = names.Add(prefixed ? "int" : "a");
        _namespace = names.Add(prefixed ? Arrays : "");
        Data = Support.WriteInBox(w =>
        {
            w.WriteStartElement("List", prefixed ? "urn:b" : "");
            if (prefixed) w.WriteXmlnsAttribute("a", Arrays);
            for (int i = 0; i < Count; i++)
            {
                w.WriteStartElement(_name.Value, _namespace.Value);
                w.WriteValue(i * 70);
                w.WriteEndElement();
            }
            w.WriteEndElement();
        });
        Support.GuardNodes($"R1 serializer {Element}", Data);
        if (InBox() != Adapter() || InBox() != 70L * Count * (Count - 1) / 2) throw new InvalidOperationException("R1 serializer: the readers disagree");
    }

    private long Read<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        long sum = 0;
        r.ReadStartElement();
        while (r.IsStartElement(_name, _namespace))
        {
            while (r.MoveToNextAttribute()) sum += 1_000_000_000;
            r.MoveToElement();
            sum += r.ReadElementContentAsInt();
        }
        r.ReadEndElement();
        return sum;
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Count)]
    public long InBox() => Read<CodeFor.InBox>(InBoxReader());

    [Benchmark(OperationsPerInvoke = Count)]
    public long Adapter() => Read<CodeFor.Adapter>(AdapterReader());
}
