using System.Xml;

namespace BinaryXml;

/// <summary>
/// Everything a <see cref="BinaryXmlReader"/> knows besides its input: position, current token, scopes and limits.
/// Take it with <see cref="BinaryXmlReader.CurrentState"/> and resume over the same input, so that a class can keep
/// reading across calls (the reader itself is a ref struct). Copies share the reader's pooled scope arrays: resume
/// from one copy only.
/// </summary>
public struct BinaryXmlReaderState
{
    // The dictionary, the session and the scratch arrays, in one object so that a state is copied (resumed,
    // saved) with one reference to track instead of five.
    internal ReaderResources _res;
    internal int _maxDepth;
    internal int _maxStringContentLength;
    internal int _maxArrayLength;
    internal int _maxBytesPerRead;
    internal bool _requireBoundPrefixes;
    internal int _pos;

    // The current token.
    internal BinaryXmlTokenType _tokenType;
    internal int _tokenStart;
    internal int _tokenDepth;
    internal byte _recordType;
    internal NameRef _prefix;
    internal NameRef _localName;
    internal NameRef _nsValue;          // NamespaceDeclaration: the declared namespace
    internal byte _valueType;           // the value's text record type (even form), 0 when none
    internal int _valueStart;
    internal int _valueLength;
    internal int _valueEnd;
    internal bool _isArray;
    internal int _arrayLength;

    // Document state.
    internal ReaderPhase _phase;
    internal int _depth;                 // open elements
    internal bool _rootClosed;
    internal bool _pendingEndElement;
    internal bool _popOnRead;            // the EndElement token keeps its element's scope until the next Read
    internal int _attrIndex;
    internal int _attrCount;
    internal int _listPos;
    internal byte _arrayItemType;
    internal int _arrayCount;
    internal int _arrayDataStart;
    internal bool _forceElementwiseArrays;

    internal int _namespaceCount;

    /// <summary>The bytes consumed so far.</summary>
    public readonly int BytesConsumed => _pos;
}

internal enum ReaderPhase : byte { Content, Attributes, AttributeList, ContentList, ArrayEnd }

internal enum NameKind : byte { None, Inline, Letter, Dictionary, Xml }

/// <summary>Where a name lives: inline bytes in the input, a prefix letter, or a dictionary id.</summary>
internal readonly struct NameRef
{
    public readonly NameKind Kind;
    public readonly int Offset;
    public readonly int Length;
    public readonly int Id;

    private NameRef(NameKind kind, int offset, int length, int id)
    {
        Kind = kind; Offset = offset; Length = length; Id = id;
    }

    public static NameRef Inline(int offset, int length) => new(length == 0 ? NameKind.None : NameKind.Inline, offset, length, -1);
    public static NameRef Letter(int index) => new(NameKind.Letter, index, 1, -1);
    public static NameRef Dictionary(int id, int offset) => new(NameKind.Dictionary, offset, 0, id);
    public static NameRef XmlNamespace => new(NameKind.Xml, 0, 0, -1);
}

/// <summary>
/// What a reader holds by reference: the dictionary, the session and its scratch arrays (per depth the element record
/// offset and namespace count; xmlns record offsets; attribute record offsets). One instance per thread is kept for
/// the next reader when a reader is disposed, with its arrays, so that steady-state reading allocates nothing.
/// </summary>
internal sealed class ReaderResources
{
    private const int MaxRetainedLength = 4096;

    [ThreadStatic]
    private static ReaderResources? t_cached;

    public IXmlDictionary? Dictionary;
    public XmlBinaryReaderSession? Session;
    public int[]? Scopes;
    public int[]? Namespaces;
    public int[]? Attributes;

    public static ReaderResources Rent(IXmlDictionary? dictionary, XmlBinaryReaderSession? session)
    {
        ReaderResources resources = t_cached ?? new ReaderResources();
        t_cached = null;
        resources.Dictionary = dictionary;
        resources.Session = session;
        return resources;
    }

    public static void Return(ReaderResources resources)
    {
        resources.Dictionary = null;
        resources.Session = null;
        Trim(ref resources.Scopes);
        Trim(ref resources.Namespaces);
        Trim(ref resources.Attributes);
        t_cached = resources;

        static void Trim(ref int[]? array)
        {
            if (array is null || array.Length <= MaxRetainedLength) return;
            System.Buffers.ArrayPool<int>.Shared.Return(array);
            array = null;
        }
    }
}

/// <summary>The location of a token's value in the input: what reading a typed value again needs.</summary>
internal readonly record struct ValueLocation(BinaryXmlTokenType TokenType, byte ValueType, int Start, int Length);
