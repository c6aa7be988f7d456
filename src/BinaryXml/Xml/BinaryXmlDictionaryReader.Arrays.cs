using System.Buffers;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Arrays. An Array record is presented as repeated elements, one per item, as .NET's binary reader presents it;
/// <c>ReadArray</c> and the typed array reads take the items straight from the record.
/// </summary>
public sealed partial class BinaryXmlDictionaryReader
{
    /// <summary>Whether the reader is on an element that stands for the items of an Array record, and their type.</summary>
    public override bool IsStartArray([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out Type? type)
    {
        // The items' CLR type as .NET's reader names it: an item's value type, but short for Int16 items (whose
        // values it reports as int).
        type = _nodeType == XmlNodeType.Element && _attributeIndex < 0 && HasArrayItemsLeft
            ? _arrayItem == RecordType.Int16Text ? typeof(short) : RecordTypes.GetValueType(_arrayItem)
            : null;
        return type is not null;
    }

    /// <inheritdoc/>
    /// <remarks>As .NET's reader: false over a stream, where it does not tell the length (the typed array reads then gather the items as they come).</remarks>
    public override bool TryGetArrayLength(out int count)
    {
        count = !_streamed && IsStartArray(out _) ? ArrayRemaining : 0;
        return count > 0;
    }

    /// <inheritdoc/>
    public override int[] ReadInt32Array(string localName, string namespaceUri)
        => ReadTypedArray<string, int>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override int[] ReadInt32Array(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, int>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override long[] ReadInt64Array(string localName, string namespaceUri)
        => ReadTypedArray<string, long>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override long[] ReadInt64Array(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, long>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override short[] ReadInt16Array(string localName, string namespaceUri)
        => ReadTypedArray<string, short>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override short[] ReadInt16Array(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, short>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override bool[] ReadBooleanArray(string localName, string namespaceUri)
        => ReadTypedArray<string, bool>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override bool[] ReadBooleanArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, bool>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override float[] ReadSingleArray(string localName, string namespaceUri)
        => ReadTypedArray<string, float>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override float[] ReadSingleArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, float>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override double[] ReadDoubleArray(string localName, string namespaceUri)
        => ReadTypedArray<string, double>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override double[] ReadDoubleArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, double>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override decimal[] ReadDecimalArray(string localName, string namespaceUri)
        => ReadTypedArray<string, decimal>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override decimal[] ReadDecimalArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, decimal>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override DateTime[] ReadDateTimeArray(string localName, string namespaceUri)
        => ReadTypedArray<string, DateTime>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override DateTime[] ReadDateTimeArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, DateTime>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override Guid[] ReadGuidArray(string localName, string namespaceUri)
        => ReadTypedArray<string, Guid>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override Guid[] ReadGuidArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, Guid>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override TimeSpan[] ReadTimeSpanArray(string localName, string namespaceUri)
        => ReadTypedArray<string, TimeSpan>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override TimeSpan[] ReadTimeSpanArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri)
        => ReadTypedArray<XmlDictionaryString, TimeSpan>(localName, namespaceUri, static (r, l, n, a, o, c) => r.ReadArray(l, n, a, o, c));

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, bool[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.BoolText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, bool[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.BoolText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, short[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.Int16Text, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, short[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.Int16Text, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, int[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.Int32Text, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, int[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.Int32Text, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, long[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.Int64Text, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, long[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.Int64Text, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, float[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.FloatText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, float[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.FloatText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, double[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.DoubleText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, double[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.DoubleText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, decimal[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.DecimalText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, decimal[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.DecimalText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, DateTime[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.DateTimeText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, DateTime[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.DateTimeText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, Guid[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.UuidText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, Guid[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.UuidText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(string localName, string namespaceUri, TimeSpan[] array, int offset, int count)
        => TryReadArrayItems(localName, namespaceUri, RecordType.TimeSpanText, array, offset, count, out int read) ? read : base.ReadArray(localName, namespaceUri, array, offset, count);

    /// <inheritdoc/>
    public override int ReadArray(XmlDictionaryString localName, XmlDictionaryString namespaceUri, TimeSpan[] array, int offset, int count)
        => TryReadArrayItems(NameOf(localName), NameOf(namespaceUri), RecordType.TimeSpanText, array, offset, count, out int read) ? read : base.ReadArray(localName!, namespaceUri!, array, offset, count);

    /// <summary>A dictionary name given to a read: its string; null is refused, as .NET's reader refuses it.</summary>
    private static string NameOf(XmlDictionaryString name, [System.Runtime.CompilerServices.CallerArgumentExpression(nameof(name))] string? parameter = null)
    {
        ArgumentNullException.ThrowIfNull(name, parameter);
        return name.Value;
    }

    /// <summary>
    /// The fast path of the <c>ReadArray</c> overloads: on an element that stands for the items of an Array record of
    /// <paramref name="item"/> with the given name, converts up to <paramref name="count"/> items straight from the
    /// input (a bulk copy where the layouts agree) and moves past them, as .NET's binary reader does. Anything else
    /// (text content, another name or item type) is left to the base implementation, which reads element by element.
    /// </summary>
    private bool TryReadArrayItems<T>(string? localName, string? namespaceUri, RecordType item, T[] array, int offset, int count, out int read) where T : unmanaged
    {
        read = 0;
        // While canonicalizing, arrays are read node by node (so that every node is canonicalized), as in .NET.
        if (_c14n is not null || _nodeType != XmlNodeType.Element || _attributeIndex >= 0 || !HasArrayItemsLeft || _arrayItem != item
            || localName is null || namespaceUri is null || !ElementNameEquals(localName, namespaceUri))
            return false;
        ThrowHelper.CheckBufferRange(array, offset, count, nameof(array));
        int first = _arrayCount - ArrayRemaining;
        read = Math.Min(count, ArrayRemaining);
        int start = _arrayItemsOffset + first * _arrayItemSize;
        try
        {
            BinaryXmlReader.ConvertArrayItems(Data.Slice(start, read * _arrayItemSize), item | (RecordType)1, array.AsSpan(offset, read), start);
        }
        catch (XmlException)
        {
            _readState = ReadState.Error;
            throw;
        }
        if (first + read < _arrayCount)
        {
            _arrayNodesRead = 3 * (first + read); // on the next item's element
        }
        else
        {
            _arrayNodesRead = ArrayNodes;
            SetElementNode(XmlNodeType.EndElement, _arrayDepth); // so that Read leaves the element's xml:lang/xml:space scope
            Read();
        }
        return true;
    }

    /// <summary>One <c>ReadArray</c> overload of the reader, called by <see cref="ReadTypedArray"/>.</summary>
    private delegate int ArrayChunkReader<TName, T>(BinaryXmlDictionaryReader reader, TName localName, TName namespaceUri, T[] array, int offset, int count);

    /// <summary>
    /// The typed array reads (<c>ReadInt32Array</c>, …): the items of the consecutive elements of the given name, read
    /// as <see cref="XmlDictionaryReader"/>'s own implementation reads them (<c>ReadArray</c> called until it returns
    /// none, the total held to MaxArrayLength, which an Array record's count is checked against before it is read), but
    /// allocating only the result: on an Array record the items go straight into an array of their number; items that
    /// follow (another record of the same name, or elements read one by one) are gathered in a pooled buffer.
    /// </summary>
    private T[] ReadTypedArray<TName, T>(TName localName, TName namespaceUri, ArrayChunkReader<TName, T> readChunk) where T : unmanaged
    {
        // As .NET's reader: dictionary names must be given (a null string name is a name that does not match).
        if (typeof(TName) == typeof(XmlDictionaryString))
        {
            NameOf((XmlDictionaryString)(object)localName!, nameof(localName));
            NameOf((XmlDictionaryString)(object)namespaceUri!, nameof(namespaceUri));
        }
        int quota = _quotas.MaxArrayLength;
        T[] head = [];
        if (TryGetArrayLength(out int count))
        {
            if (count > quota) ThrowArrayQuota();
            head = new T[count];
            int filled = 0;
            while (filled < count && readChunk(this, localName, namespaceUri, head, filled, count - filled) is var read and > 0) filled += read;
            if (filled < count) return head.AsSpan(0, filled).ToArray();
            if (NodeType == XmlNodeType.EndElement) return head; // the common case: nothing of the name can follow
        }

        T[] pooled = ArrayPool<T>.Shared.Rent(32);
        int gathered = 0;
        try
        {
            while (true)
            {
                if (gathered == pooled.Length)
                {
                    T[] larger = ArrayPool<T>.Shared.Rent(2 * pooled.Length);
                    pooled.AsSpan(0, gathered).CopyTo(larger);
                    ArrayPool<T>.Shared.Return(pooled);
                    pooled = larger;
                }
                int read = readChunk(this, localName, namespaceUri, pooled, gathered, pooled.Length - gathered);
                if (read == 0) break;
                if (read > quota - head.Length - gathered) ThrowArrayQuota();
                gathered += read;
            }
            if (gathered == 0) return head;
            T[] array = new T[head.Length + gathered];
            head.CopyTo(array, 0);
            pooled.AsSpan(0, gathered).CopyTo(array.AsSpan(head.Length));
            return array;
        }
        finally
        {
            ArrayPool<T>.Shared.Return(pooled);
        }
    }
}
