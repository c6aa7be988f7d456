using System.Buffers;
using System.Runtime.InteropServices;
using System.Xml;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// <see cref="BinaryXmlWriter.WriteElementValue(string, int)"/> and its overloads write what
/// <c>WriteStartElement</c>, <c>WriteValue</c> and <c>WriteEndElement</c> write: compared with the in-box writer given
/// those three calls, for a value of every record each type can take, at every position of .NET's 512-byte buffer (the
/// one-call path models its reservations itself), in every state where the one-call path must step aside, and into
/// output memory that is not an array.
/// </summary>
public sealed class ElementValueTests
{
    /// <summary>A value for every record the typed values are written as.</summary>
    private static readonly object[] s_values =
    [
        true, false,
        0, 1, -1, 127, -128, 128, -129, 32767, -32768, 32768, int.MaxValue, int.MinValue,
        5L, 1L << 40, long.MinValue,
        3UL, ulong.MaxValue,
        2f, -0f, 1.5f, 32768f, float.NaN,
        -7d, 0.5d, 0.1d, 1e300,
        0m, -1.50m, decimal.MaxValue,
        new DateTime(2026, 11, 27, 1, 2, 3, DateTimeKind.Utc), new DateTime(2026, 11, 27, 1, 2, 3, DateTimeKind.Unspecified),
        new DateTime(2026, 6, 1, 12, 0, 0, DateTimeKind.Local),
        TimeSpan.Zero, TimeSpan.FromTicks(-123456789),
        Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"),
    ];

    [Fact]
    public void Every_value_at_every_buffer_position_is_written_as_in_box()
    {
        // Short names: their records leave a few bytes of their reservation for the value's, so that the value's own
        // reservation empties the buffer now and then (longer names, reserving three bytes a character, leave room).
        string[] names = ["v", "é"];
        for (int pad = 0; pad < 600; pad++)
        {
            var calls = new List<Call>
            {
                new("StartElement", [null, "r", null]),
                new("Xmlns", ["s", new DictRef(true, "urn:sweep")]),
                new("ElementString", [null, "pad", null, new string('x', pad % 80) + new string('y', pad / 80)]),
            };
            for (int i = 0; i < 2 * s_values.Length; i++)
            {
                object value = s_values[i % s_values.Length];
                calls.Add(new Call("ElementValue", [null, names[i % names.Length], null, value]));
                calls.Add(new Call("ElementValue", [null, new DictRef(true, "item"), new DictRef(true, "urn:sweep"), value]));
                calls.Add(new Call("ElementValue", [null, new DictRef(false, "other" + (i % 3)), null, value]));
                // The three calls, whose value's record is modelled by WriteValue.
                calls.Add(new Call("StartElement", [null, names[i % names.Length], null]));
                calls.Add(new Call("Value", [value]));
                calls.Add(new Call("EndElement", []));
                // Text of 86 to 170 characters reserves its header and its payload apart: whether its end folds
                // depends on where the writes before it left the buffer (a reservation modelled wrong shows there).
                // Seldom: its reservation empties the buffer, and the values must reach the buffer's end too.
                if (i % 24 == 23) calls.Add(new Call("ElementString", [null, "t", null, new string('t', 86 + (pad + i) * 7 % 85)]));
            }
            calls.Add(new Call("EndElement", []));
            AssertSameAsInBox($"padding {pad}", calls);
        }
    }

    [Fact]
    public void A_value_whose_reservation_empties_the_buffer_leaves_it_where_in_box_does()
    {
        // Elements of 8 bytes (a one-letter name and an Int32Text) cross the buffer's end at each of their bytes as
        // the padding grows; the text after them folds or not by where that left the buffer, for each length whose
        // header and payload are reserved apart.
        for (int pad = 0; pad < 24; pad++)
        {
            for (int length = 86; length <= 170; length++)
            {
                var calls = new List<Call>
                {
                    new("StartElement", [null, "r", null]),
                    new("ElementString", [null, "pad", null, new string('x', pad)]),
                };
                for (int i = 0; i < 70; i++) calls.Add(new Call("ElementValue", [null, "v", null, 70_000 + i]));
                calls.Add(new Call("ElementString", [null, "t", null, new string('t', length)]));
                calls.Add(new Call("EndElement", []));
                AssertSameAsInBox($"padding {pad}, text of {length}", calls);
            }
        }
    }

    [Fact]
    public void The_compact_mode_gets_the_bytes_of_the_three_calls()
    {
        // With AlwaysFoldEndElements (no in-box counterpart) the one call writes what the three calls write there.
        var options = new BinaryXmlWriterOptions { AlwaysFoldEndElements = true };
        var oneCall = new List<Call> { new("StartElement", [null, "r", null]) };
        var threeCalls = new List<Call> { new("StartElement", [null, "r", null]) };
        for (int i = 0; i < 3 * s_values.Length; i++)
        {
            object value = s_values[i % s_values.Length];
            object name = i % 2 == 0 ? "v" : new DictRef(true, "item");
            oneCall.Add(new Call("ElementValue", [null, name, null, value]));
            threeCalls.AddRange([new Call("StartElement", [null, name, null]), new Call("Value", [value]), new Call("EndElement", [])]);
            if (i % 5 == 4)
            {
                Call text = new("ElementString", [null, "t", null, new string('t', 86 + i)]);
                oneCall.Add(text);
                threeCalls.Add(text);
            }
        }
        oneCall.Add(new Call("EndElement", []));
        threeCalls.Add(new Call("EndElement", []));
        var context = new ScriptContext();
        (byte[] expected, Exception? expectedError) = WriterScript.RunNative(threeCalls, context, options);
        (byte[] actual, Exception? actualError) = WriterScript.RunNative(oneCall, context, options);
        Assert.Null(expectedError);
        Assert.Null(actualError);
        Assert.Equal(Hex.Format(expected), Hex.Format(actual));
    }

    [Fact]
    public void Names_of_every_length_are_written_as_in_box()
    {
        // One character, one of three bytes, the longest short name (41 characters) in ASCII and not, the first
        // name too long for the one-call path, and a name over 128 bytes (a two-byte length).
        string[] names = ["v", "é", new string('n', 41), "ü" + new string('n', 40), new string('n', 42), "日" + new string('n', 60)];
        for (int pad = 0; pad < 120; pad++)
        {
            var calls = new List<Call>
            {
                new("StartElement", [null, "r", null]),
                new("ElementString", [null, "pad", null, new string('x', pad)]),
            };
            for (int i = 0; i < 4 * names.Length; i++) calls.Add(new Call("ElementValue", [null, names[i % names.Length], null, s_values[(pad + i) % s_values.Length]]));
            calls.Add(new Call("EndElement", []));
            AssertSameAsInBox($"padding {pad}", calls);
        }
    }

    public static TheoryData<string> States() => new(
    [
        // The whole document, before and after WriteStartDocument (a second root is refused).
        "ElementValue(null, \"a\", null, 5)",
        "ElementValue(null, d\"item\", null, 1.5M)",
        "StartDocument(); ElementValue(null, \"a\", null, 5); ElementValue(null, \"b\", null, 6)",
        "StartDocument(); ElementValue(null, d\"item\", d\"urn:x\", true); ElementValue(null, d\"item\", d\"urn:x\", 7)",
        // An open start tag with attributes (nothing left to declare) and with a declaration still to write.
        "StartElement(null, \"r\", null); AttributeString(null, \"x\", null, \"1\"); ElementValue(null, \"a\", null, f64:4004000000000000)",
        "StartElement(\"p\", \"r\", \"urn:p\"); ElementValue(null, \"a\", null, 5); ElementValue(null, d\"item\", d\"urn:p\", 6); EndElement()",
        "StartElement(null, \"r\", null); Xmlns(\"q\", \"urn:q\"); ElementValue(null, \"a\", null, 5L); EndElement()",
        // Inside a default namespace, and a dictionary name whose namespace is declared by the element itself.
        "StartElement(null, \"r\", \"urn:d\"); ElementValue(null, \"a\", null, 5); ElementValue(null, d\"item\", d\"urn:d\", 6); ElementValue(null, d\"item\", d\"urn:new\", 7); EndElement()",
        // Inside an attribute; after base64 whose last bytes are held back; after text, which does not fold.
        "StartElement(null, \"r\", null); StartAttribute(null, \"x\", null); ElementValue(null, \"a\", null, 5)",
        "StartElement(null, \"r\", null); Base64(hex:0102); ElementValue(null, \"a\", null, 5); EndElement()",
        "StartElement(null, \"r\", null); String(\"t\"); ElementValue(null, \"a\", null, 0); String(\"u\"); EndElement()",
        // Names the one-call path does not take, and ones it refuses.
        "StartElement(null, \"r\", null); ElementValue(null, \"" + new string('n', 300) + "\", null, 1); EndElement()",
        "StartElement(null, \"r\", null); ElementValue(null, \"\", null, 1)",
        "StartElement(null, \"r\", null); ElementValue(null, d\"\", null, 1)",
        // After the root, and after a flush between elements.
        "ElementValue(null, \"a\", null, 1); ElementValue(null, \"b\", null, 2)",
        "StartElement(null, \"r\", null); ElementValue(null, \"a\", null, 1); Flush(); ElementValue(null, \"b\", null, 2); EndElement()",
        "StartElement(null, \"r\", null); EndElement(); ElementValue(null, d\"item\", null, 3)",
    ]);

    [Theory]
    [MemberData(nameof(States))]
    public void Each_state_gives_the_in_box_bytes_or_failure(string script)
    {
        AssertSameAsInBox(script, WriterScript.Parse(script));
        AssertSameAsInBox(script + " (session)", WriterScript.Parse(script.Replace("d\"", "o\"", StringComparison.Ordinal)), useSession: true);
    }

    [Fact]
    public void Output_memory_that_is_not_an_array_gets_the_same_bytes()
    {
        var calls = new List<Call> { new("StartElement", [null, "r", null]) };
        for (int i = 0; i < 200; i++) calls.Add(new Call("ElementValue", [null, i % 2 == 0 ? "v" : new DictRef(true, "item"), null, s_values[i % s_values.Length]]));
        calls.Add(new Call("EndElement", []));
        var context = new ScriptContext();
        (byte[] expected, Exception? error) = WriterScript.RunInBox(calls, context);
        Assert.Null(error);

        var output = new NotAnArrayBufferWriter();
        var writer = new BinaryXmlWriter(output, context.Dictionary);
        foreach (Call c in calls) WriterScript.ApplyNative(writer, c, context);
        writer.Flush();
        Assert.Equal(Hex.Format(expected), Hex.Format(output.Written));
    }

    [Fact]
    public void A_DateTimeOffset_is_written_as_WriteValue_writes_it()
    {
        DateTimeOffset[] values = [new(2026, 11, 27, 1, 2, 3, TimeSpan.Zero), new(2026, 11, 27, 1, 2, 3, TimeSpan.FromHours(5.5))];
        var dictionary = new XmlDictionary();
        XmlDictionaryString item = dictionary.Add("item");
        var expected = new MemoryStream();
        using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(expected, dictionary, null, false))
        {
            inBox.WriteStartElement("r");
            foreach (DateTimeOffset value in values)
            {
                inBox.WriteStartElement("a");
                inBox.WriteValue(value);
                inBox.WriteEndElement();
                inBox.WriteStartElement(item, null);
                inBox.WriteValue(value);
                inBox.WriteEndElement();
            }
            inBox.WriteEndElement();
        }
        var output = new ArrayBufferWriter<byte>();
        var ours = new BinaryXmlWriter(output, dictionary);
        ours.WriteStartElement("r");
        foreach (DateTimeOffset value in values)
        {
            ours.WriteElementValue("a", value);
            ours.WriteElementValue(item, null, value);
        }
        ours.WriteEndElement();
        ours.Flush();
        Assert.Equal(Hex.Format(expected.ToArray()), Hex.Format(output.WrittenSpan));
    }

    [Fact]
    public void Misuse_fails_as_the_three_calls_fail()
    {
        // What XmlDictionaryWriter cannot be asked (a null name, a list open, a closed writer): the one call fails
        // with the exception the first of its three calls throws, and writes nothing.
        var dictionary = new XmlDictionary();
        XmlDictionaryString item = dictionary.Add("item");
        Action<BinaryXmlWriter>[] setups =
        [
            w => w.WriteStartElement("r"),
            w => { w.WriteStartElement("r"); w.WriteStartList(); },
            w => { w.WriteStartElement("r"); w.Close(); },
        ];
        for (int setupIndex = 0; setupIndex < setups.Length; setupIndex++)
        {
            Action<BinaryXmlWriter> setup = setups[setupIndex];
            (string, Action<BinaryXmlWriter>, Action<BinaryXmlWriter>)[] cases =
            [
                ("a null name", w => w.WriteElementValue((string)null!, 1), w => { w.WriteStartElement((string)null!); w.WriteValue(1); w.WriteEndElement(); }),
                ("a null dictionary name", w => w.WriteElementValue((XmlDictionaryString)null!, null, 1), w => { w.WriteStartElement((XmlDictionaryString)null!, null); w.WriteValue(1); w.WriteEndElement(); }),
                ("a name", w => w.WriteElementValue("a", 1.5), w => { w.WriteStartElement("a"); w.WriteValue(1.5); w.WriteEndElement(); }),
                ("a dictionary name", w => w.WriteElementValue(item, null, 1.5), w => { w.WriteStartElement(item, null); w.WriteValue(1.5); w.WriteEndElement(); }),
            ];
            foreach ((string what, Action<BinaryXmlWriter> oneCall, Action<BinaryXmlWriter> threeCalls) in cases)
            {
                (string bytes, Type? error) expected = Run(dictionary, setup, threeCalls);
                Assert.Equal(expected, Run(dictionary, setup, oneCall));
                // Null names and a closed writer fail (so the comparison above compares failures).
                if (what.StartsWith("a null", StringComparison.Ordinal) || setupIndex == 2) Assert.NotNull(expected.error);
            }
        }

        static (string, Type?) Run(XmlDictionary dictionary, Action<BinaryXmlWriter> setup, Action<BinaryXmlWriter> calls)
        {
            var output = new ArrayBufferWriter<byte>();
            var w = new BinaryXmlWriter(output, dictionary);
            setup(w);
            try
            {
                calls(w);
                if (w.WriteState != WriteState.Closed) w.Flush();
                return (Hex.Format(output.WrittenSpan), null);
            }
            catch (Exception e)
            {
                return (Hex.Format(output.WrittenSpan), e.GetType());
            }
        }
    }

    private static void AssertSameAsInBox(string what, List<Call> calls, bool useSession = false)
    {
        var context = new ScriptContext(useSession: useSession);
        RecordingWriterSession? inBoxSession = context.CreateWriterSession(), ourSession = context.CreateWriterSession();
        (byte[] expected, Exception? expectedError) = WriterScript.RunInBox(calls, context, inBoxSession);
        (byte[] actual, Exception? actualError) = WriterScript.RunNative(calls, context, ourSession);
        Assert.True(expectedError?.GetType() == actualError?.GetType(), $"{what}: in-box {expectedError?.GetType().Name ?? "no error"}, ours {actualError?.GetType().Name ?? "no error"} ({actualError?.Message})");
        Assert.True(Hex.Format(expected) == Hex.Format(actual), $"{what}:\n in-box {Hex.Format(expected)}\n ours   {Hex.Format(actual)}");
        Assert.Equal(inBoxSession?.Strings, ourSession?.Strings);
    }

    /// <summary>An <see cref="IBufferWriter{T}"/> whose memory is not an array (as a pipe's native memory can be).</summary>
    private sealed class NotAnArrayBufferWriter : IBufferWriter<byte>
    {
        private readonly List<byte> _written = [];
        private NonArrayMemory? _block;

        public byte[] Written => [.. _written];

        public void Advance(int count)
        {
            _written.AddRange(_block!.Memory.Span[..count].ToArray());
            _block = null;
        }

        public Memory<byte> GetMemory(int sizeHint = 0)
        {
            _block = new NonArrayMemory(Math.Max(sizeHint, 64));
            Assert.False(MemoryMarshal.TryGetArray<byte>(_block.Memory, out _));
            return _block.Memory;
        }

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }
}
