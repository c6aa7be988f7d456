using System.Runtime.InteropServices;
using System.Xml;

namespace BinaryXml.Benchmarks;

/// <summary>
/// The items of W4 and R4 for one array type: the values written, a preallocated target read into, and the calls of
/// each API for that type (XmlDictionaryWriter and XmlDictionaryReader have one overload per type). Every benchmark
/// method of a case makes the same one virtual call into this class, so the ratios compare the readers and writers.
/// </summary>
internal abstract class ArrayItems
{
    /// <summary>Every item type of an Array record (MC-NBFX 2.2.3.31) that XmlDictionaryWriter.WriteArray takes.</summary>
    public static readonly string[] AllTypes = ["bool", "short", "int", "long", "float", "double", "decimal", "DateTime", "TimeSpan", "Guid"];

    /// <summary>
    /// The types W4 and R4 run: all of them, or those named in the BINARYXML_ARRAY_TYPES environment variable
    /// (comma-separated, e.g. <c>DateTime,decimal</c>) to time a few of the 30 cases per class.
    /// </summary>
    public static IEnumerable<string> Types => Support.Selected("BINARYXML_ARRAY_TYPES", AllTypes);

    /// <summary>The item counts W4 and R4 run (16, 1,024 and 1,048,576).</summary>
    public static readonly int[] AllCounts = [16, 1024, 1 << 20];

    /// <summary>
    /// The item counts W4 and R4 run: all of them, or those named in the BINARYXML_ARRAY_ITEMS environment variable
    /// (comma-separated, e.g. <c>16</c>).
    /// </summary>
    public static IEnumerable<int> Counts => Support.Selected("BINARYXML_ARRAY_ITEMS", AllCounts);

    public static ArrayItems Create(string type, int count) => type switch
    {
        "bool" => new BooleanItems(count),
        "short" => new Int16Items(count),
        "int" => new Int32Items(count),
        "long" => new Int64Items(count),
        "float" => new SingleItems(count),
        "double" => new DoubleItems(count),
        "decimal" => new DecimalItems(count),
        "DateTime" => new DateTimeItems(count),
        "TimeSpan" => new TimeSpanItems(count),
        "Guid" => new GuidItems(count),
        _ => throw new ArgumentException($"No array of {type}"),
    };

    public abstract int Count { get; }

    /// <summary>Bytes of one item in the record (and in memory).</summary>
    public abstract int ItemSize { get; }

    /// <summary>The values as bytes: what Limit copies.</summary>
    public abstract ReadOnlySpan<byte> ValueBytes { get; }

    /// <summary>The preallocated target as bytes: where the read Limit copies the record's items.</summary>
    public abstract Span<byte> TargetBytes { get; }

    /// <summary><c>WriteArray(null, "a", null, values, 0, Count)</c>.</summary>
    public abstract void Write(XmlDictionaryWriter w);

    /// <summary>The native <c>WriteArray(null, "a", null, values)</c>.</summary>
    public abstract void Write(BinaryXmlWriter w);

    /// <summary><c>ReadArray("a", "", target, 0, Count)</c> into the preallocated target.</summary>
    public abstract int Read(XmlDictionaryReader r);

    /// <summary>The native reader, on the items (ArrayData), copies them into the preallocated target.</summary>
    public abstract int Copy(ref BinaryXmlReader r);

    /// <summary>The allocating read of the type (<c>ReadDoubleArray("a", "")</c> and the like).</summary>
    public abstract Array ReadNew(XmlDictionaryReader r);

    /// <summary>The native reader, on the items, copies them into a new array of their count.</summary>
    public abstract Array CopyNew(ref BinaryXmlReader r);

    /// <summary>A new array holding <paramref name="items"/> (the record's payload) as they are: the allocating Limit.</summary>
    public abstract Array NewFrom(ReadOnlySpan<byte> items);

    /// <summary>Whether the preallocated target holds the values written, then clears it (a guard).</summary>
    public abstract bool TakeTarget();

    /// <summary>Whether <paramref name="items"/> are the values written (a guard).</summary>
    public abstract bool AreValues(Array items);
}

/// <summary>The values of one item type and the target they are read into.</summary>
internal abstract class ArrayItems<T>(int count, Func<int, T> value) : ArrayItems where T : unmanaged, IEquatable<T>
{
    protected readonly T[] Values = Enumerable.Range(0, count).Select(value).ToArray();
    protected readonly T[] Target = new T[count];

    public sealed override int Count => Values.Length;
    public sealed override int ItemSize => System.Runtime.CompilerServices.Unsafe.SizeOf<T>();
    public sealed override ReadOnlySpan<byte> ValueBytes => MemoryMarshal.AsBytes(Values.AsSpan());
    public sealed override Span<byte> TargetBytes => MemoryMarshal.AsBytes(Target.AsSpan());

    public sealed override Array NewFrom(ReadOnlySpan<byte> items)
    {
        var array = new T[items.Length / ItemSize];
        items.CopyTo(MemoryMarshal.AsBytes(array.AsSpan()));
        return array;
    }

    public sealed override bool TakeTarget()
    {
        bool same = Target.AsSpan().SequenceEqual(Values);
        Array.Clear(Target);
        return same;
    }

    public sealed override bool AreValues(Array items) => items is T[] array && array.AsSpan().SequenceEqual(Values);

    protected T[] NewCopy(ref BinaryXmlReader r) => new T[r.ArrayLength];
}

internal sealed class BooleanItems(int count) : ArrayItems<bool>(count, i => i % 3 == 0)
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<bool>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadBooleanArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { bool[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class Int16Items(int count) : ArrayItems<short>(count, i => (short)(i * 7))
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<short>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadInt16Array("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { short[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class Int32Items(int count) : ArrayItems<int>(count, i => i * 70_001)
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<int>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadInt32Array("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { int[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class Int64Items(int count) : ArrayItems<long>(count, i => i * 1_000_000_007L)
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<long>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadInt64Array("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { long[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class SingleItems(int count) : ArrayItems<float>(count, i => i * 0.5f)
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<float>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadSingleArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { float[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class DoubleItems(int count) : ArrayItems<double>(count, i => i * 1.5)
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<double>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadDoubleArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { double[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class DecimalItems(int count) : ArrayItems<decimal>(count, i => i * 1.25m)
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<decimal>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadDecimalArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { decimal[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

/// <summary>UTC values: in-box writes each item with <c>ToBinary</c>, which keeps the kind, and reads it back the same.</summary>
internal sealed class DateTimeItems(int count) : ArrayItems<DateTime>(count, i => new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddSeconds(i))
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<DateTime>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadDateTimeArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { DateTime[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class TimeSpanItems(int count) : ArrayItems<TimeSpan>(count, i => TimeSpan.FromMilliseconds(i * 3))
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<TimeSpan>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadTimeSpanArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { TimeSpan[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}

internal sealed class GuidItems(int count) : ArrayItems<Guid>(count, i => new Guid(i, (short)i, (short)(i >> 16), 1, 2, 3, 4, 5, 6, 7, 8))
{
    public override void Write(XmlDictionaryWriter w) => w.WriteArray(null, "a", null, Values, 0, Values.Length);
    public override void Write(BinaryXmlWriter w) => w.WriteArray(null, "a", null, (ReadOnlySpan<Guid>)Values);
    public override int Read(XmlDictionaryReader r) => r.ReadArray("a", "", Target, 0, Target.Length);
    public override int Copy(ref BinaryXmlReader r) => r.CopyArray(Target.AsSpan());
    public override Array ReadNew(XmlDictionaryReader r) => r.ReadGuidArray("a", "");
    public override Array CopyNew(ref BinaryXmlReader r) { Guid[] a = NewCopy(ref r); r.CopyArray(a.AsSpan()); return a; }
}
