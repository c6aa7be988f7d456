using System.Buffers;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Arrays are copied as one block on little-endian hosts and converted element by element on big-endian ones. Both
/// paths are forced here, on this little-endian machine, and must give the same bytes (writer) and the same values
/// (reader) for every array type.
/// </summary>
public sealed class ArrayEndiannessProperties
{
    private static byte[] Write(Array values, bool elementwise)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(buffer, options: new BinaryXmlWriterOptions { ForceElementwiseArrays = elementwise });
        w.WriteStartElement("root");
        WriterScript.ApplyNative(w, new Call("Array", [null, "a", null, values]), new ScriptContext());
        w.WriteEndElement();
        w.Flush();
        return buffer.WrittenSpan.ToArray();
    }

    private static Array ReadBack(byte[] bytes, Array like, bool elementwise)
    {
        var r = new BinaryXmlReader(bytes) { ForceElementwiseArrays = elementwise };
        while (r.Read() && r.TokenType != BinaryXmlTokenType.ArrayData) { }
        Array result = Array.CreateInstance(like.GetType().GetElementType()!, r.ArrayLength);
        switch (result)
        {
            case bool[] a: r.CopyArray(a); break;
            case short[] a: r.CopyArray(a); break;
            case int[] a: r.CopyArray(a); break;
            case long[] a: r.CopyArray(a); break;
            case float[] a: r.CopyArray(a); break;
            case double[] a: r.CopyArray(a); break;
            case decimal[] a: r.CopyArray(a); break;
            case DateTime[] a: r.CopyArray(a); break;
            case TimeSpan[] a: r.CopyArray(a); break;
            case Guid[] a: r.CopyArray(a); break;
        }
        return result;
    }

    [Fact]
    public void Big_endian_path_gives_the_little_endian_bytes_for_every_array_type()
    {
        Gen<Node> arrays = Generators.Arrays;
        PropertyConfig.Verify(Prop.ForAll(Arb.From(arrays), node =>
        {
            Array values = ((ArrayValue)node).Values;
            byte[] block = Write(values, elementwise: false);
            byte[] elementwise = Write(values, elementwise: true);
            Assert.Equal(Hex.Format(block), Hex.Format(elementwise));
            Array a = ReadBack(block, values, elementwise: false);
            Array b = ReadBack(block, values, elementwise: true);
            Assert.Equal(WriterScript.FormatArg(a), WriterScript.FormatArg(b));
            if (values is not DateTime[]) Assert.Equal(WriterScript.FormatArg(values), WriterScript.FormatArg(a));
        }), 1000);
    }
}
