using System.Runtime.InteropServices;
using System.Xml;

namespace BinaryXml.Benchmarks;

/// <summary>
/// The calls a serializer makes on its reader, recorded once and replayed on any reader without the serializer:
/// R5 (iii), the reader's share of a DataContractSerializer read. The script holds the fourteen members that
/// DataContractSerializer calls for the W6/R5 payloads (found with a recorder of every member); a call to any other
/// member fails the recording. Each call's result is folded into a checksum, so that a replay that takes another path
/// than the recorded one is seen.
/// </summary>
internal sealed class ReaderCallScript
{
    private enum Op : byte
    {
        MoveToElement,
        MoveToContent,
        MoveToNextAttribute,
        Read,
        NodeType,
        IsEmptyElement,
        IsStartElement,
        IsNamespaceUri,
        IndexOfLocalName,
        ReadElementContentAsString,
        ReadElementContentAsBoolean,
        ReadElementContentAsInt,
        ReadElementContentAsDateTime,
        ReadEndElement,
    }

    private readonly record struct Call(Op Op, XmlDictionaryString? Name, XmlDictionaryString? Namespace, XmlDictionaryString[]? Names);

    private readonly List<Call> _calls = [];

    /// <summary>The number of calls recorded.</summary>
    public int Count => _calls.Count;

    /// <summary>The checksum of the recorded calls' results; a replay returns the same.</summary>
    public long Checksum { get; private set; }

    /// <summary>Records the calls <paramref name="read"/> makes on <paramref name="reader"/> (which answers them).</summary>
    public static ReaderCallScript Record(XmlDictionaryReader reader, Action<XmlDictionaryReader> read)
    {
        var recorder = new Recorder(reader);
        read(recorder);
        return recorder.Script;
    }

    /// <summary>
    /// Makes the recorded calls on <paramref name="r"/>, in order, and returns the checksum of their results.
    /// <typeparamref name="TCode"/> gives each reader its own copy of this loop (<see cref="CodeFor"/>).
    /// </summary>
    public long Replay<TCode>(XmlDictionaryReader r) where TCode : struct
    {
        long sum = 0;
        foreach (ref readonly Call c in CollectionsMarshal.AsSpan(_calls))
        {
            sum += c.Op switch
            {
                Op.MoveToElement => Result(r.MoveToElement()),
                Op.MoveToContent => (long)r.MoveToContent(),
                Op.MoveToNextAttribute => Result(r.MoveToNextAttribute()),
                Op.Read => Result(r.Read()),
                Op.NodeType => (long)r.NodeType,
                Op.IsEmptyElement => Result(r.IsEmptyElement),
                Op.IsStartElement => Result(r.IsStartElement(c.Name!, c.Namespace!)),
                Op.IsNamespaceUri => Result(r.IsNamespaceUri(c.Namespace!)),
                Op.IndexOfLocalName => r.IndexOfLocalName(c.Names!, c.Namespace!),
                Op.ReadElementContentAsString => r.ReadElementContentAsString().Length,
                Op.ReadElementContentAsBoolean => Result(r.ReadElementContentAsBoolean()),
                Op.ReadElementContentAsInt => r.ReadElementContentAsInt(),
                Op.ReadElementContentAsDateTime => r.ReadElementContentAsDateTime().Ticks,
                _ => ReadEndElement(r),
            };
        }
        return sum;
    }

    private static long Result(bool value) => value ? 1 : 0;

    private static long ReadEndElement(XmlDictionaryReader r)
    {
        r.ReadEndElement();
        return 0;
    }

    private long Add(Op op, long result, XmlDictionaryString? name = null, XmlDictionaryString? ns = null, XmlDictionaryString[]? names = null)
    {
        _calls.Add(new Call(op, name, ns, names));
        Checksum += result;
        return result;
    }

    /// <summary>Answers the serializer from the reader it wraps and records each call with its result.</summary>
    private sealed class Recorder(XmlDictionaryReader inner) : XmlDictionaryReader
    {
        public ReaderCallScript Script { get; } = new();

        public override bool MoveToElement() => Script.Add(Op.MoveToElement, Result(inner.MoveToElement())) != 0;
        public override XmlNodeType MoveToContent() => (XmlNodeType)Script.Add(Op.MoveToContent, (long)inner.MoveToContent());
        public override bool MoveToNextAttribute() => Script.Add(Op.MoveToNextAttribute, Result(inner.MoveToNextAttribute())) != 0;
        public override bool Read() => Script.Add(Op.Read, Result(inner.Read())) != 0;
        public override XmlNodeType NodeType => (XmlNodeType)Script.Add(Op.NodeType, (long)inner.NodeType);
        public override bool IsEmptyElement => Script.Add(Op.IsEmptyElement, Result(inner.IsEmptyElement)) != 0;

        public override bool IsStartElement(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
            => Script.Add(Op.IsStartElement, Result(inner.IsStartElement(localName, namespaceUri)), localName, namespaceUri) != 0;

        public override bool IsNamespaceUri(XmlDictionaryString namespaceUri)
            => Script.Add(Op.IsNamespaceUri, Result(inner.IsNamespaceUri(namespaceUri)), ns: namespaceUri) != 0;

        public override int IndexOfLocalName(XmlDictionaryString[] localNames, XmlDictionaryString namespaceUri)
            => (int)Script.Add(Op.IndexOfLocalName, inner.IndexOfLocalName(localNames, namespaceUri), ns: namespaceUri, names: localNames);

        public override string ReadElementContentAsString()
        {
            string value = inner.ReadElementContentAsString();
            Script.Add(Op.ReadElementContentAsString, value.Length);
            return value;
        }

        public override bool ReadElementContentAsBoolean() => Script.Add(Op.ReadElementContentAsBoolean, Result(inner.ReadElementContentAsBoolean())) != 0;
        public override int ReadElementContentAsInt() => (int)Script.Add(Op.ReadElementContentAsInt, inner.ReadElementContentAsInt());

        public override DateTime ReadElementContentAsDateTime()
        {
            DateTime value = inner.ReadElementContentAsDateTime();
            Script.Add(Op.ReadElementContentAsDateTime, value.Ticks);
            return value;
        }

        public override void ReadEndElement()
        {
            inner.ReadEndElement();
            Script.Add(Op.ReadEndElement, 0);
        }

        // Members the script does not hold: a serializer that calls one cannot be replayed.
        public override int AttributeCount => throw Unsupported();
        public override string BaseURI => throw Unsupported();
        public override int Depth => throw Unsupported();
        public override bool EOF => throw Unsupported();
        public override string LocalName => throw Unsupported();
        public override string NamespaceURI => throw Unsupported();
        public override XmlNameTable NameTable => throw Unsupported();
        public override string Prefix => throw Unsupported();
        public override ReadState ReadState => throw Unsupported();
        public override string Value => throw Unsupported();
        public override string GetAttribute(int i) => throw Unsupported();
        public override string? GetAttribute(string name) => throw Unsupported();
        public override string? GetAttribute(string name, string? namespaceURI) => throw Unsupported();
        public override string? LookupNamespace(string prefix) => throw Unsupported();
        public override bool MoveToAttribute(string name) => throw Unsupported();
        public override bool MoveToAttribute(string name, string? ns) => throw Unsupported();
        public override bool MoveToFirstAttribute() => throw Unsupported();
        public override bool ReadAttributeValue() => throw Unsupported();
        public override void ResolveEntity() => throw Unsupported();

        private static NotSupportedException Unsupported([System.Runtime.CompilerServices.CallerMemberName] string member = "")
            => new($"The reader call script has no {member}: add it to ReaderCallScript to replay this serializer.");
    }
}
