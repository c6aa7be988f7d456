using System.Buffers;
using System.Xml;
using BinaryXml.Soap;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>The public surface of the writer, reader and primitives beyond what the byte-level tests reach.</summary>
public sealed class ApiTests
{
    [Fact]
    public void Stream_output_equals_buffer_output_across_many_internal_flushes()
    {
        string calls = "StartElement(null, \"r\", null); " + string.Concat(Enumerable.Range(0, 3000).Select(i => $"StartElement(null, \"e\", null); String(\"value {i}\"); EndElement(); ")) + "Array(null, \"a\", null, long[1, 2, 3]); EndElement()";
        List<Call> script = WriterScript.Parse(calls);
        (byte[] expected, _) = WriterScript.RunInBox(script, new ScriptContext());

        var stream = new MemoryStream();
        var w = new BinaryXmlWriter(stream, ownsStream: false);
        foreach (Call c in script) WriterScript.ApplyNative(w, c, new ScriptContext());
        Assert.True(w.BytesCommitted > 0 || w.BytesPending > 0);
        w.Close();
        Assert.Equal(expected.Length, stream.Length);
        Assert.True(expected.AsSpan().SequenceEqual(stream.ToArray()));
        Assert.True(stream.CanWrite); // not owned, so not disposed
    }

    [Fact]
    public void A_list_valued_attribute_reads_as_its_items_in_the_native_reader()
    {
        // The in-box writer's list (WriteValue of an object[] inside an attribute), ending in one-byte records: the
        // attribute's value is its items' bytes, between StartListText and EndListText, whatever comes after it.
        var stream = new MemoryStream();
        using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
        {
            w.WriteStartElement("e");
            w.WriteStartAttribute("l");
            w.WriteValue(new object[] { 7, 2.5, true });
            w.WriteEndAttribute();
            w.WriteAttributeString("b", "v");
            w.WriteEndElement();
        }
        byte[] data = stream.ToArray();
        int start = Array.IndexOf(data, (byte)0xA4), end = Array.IndexOf(data, (byte)0xA6);
        Assert.True(start > 0 && end > start);

        var r = new BinaryXmlReader(data);
        Assert.True(r.Read());
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.Attribute, r.TokenType);
        Assert.Equal("l", r.LocalName.ToString());
        Assert.Equal(Convert.ToHexString(data, start + 1, end - start - 1), Convert.ToHexString(r.ValueSpan));
        Assert.Equal("7 2.5 true", r.GetString());
        var items = new List<string>();
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.Text, r.TokenType);
        items.Add(r.GetString());
        while (r.Read() && r.TokenType == BinaryXmlTokenType.Text) items.Add(r.GetString());
        Assert.Equal(["7", "2.5", "true"], items);
        Assert.Equal(BinaryXmlTokenType.EndList, r.TokenType);
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.Attribute, r.TokenType);
        Assert.Equal("v", r.GetString());
    }

    [Fact]
    public void Stream_output_grows_for_records_larger_than_its_buffer()
    {
        // Regression: growing the stream buffer for one large record returned memory from the old, smaller buffer.
        List<Call> script = WriterScript.Parse("StartElement(null, \"r\", null); String(\"a\"*100); Array(null, \"big\", null, long[" + string.Join(", ", Enumerable.Range(0, 17000)) + "]); String(\"x\"*70000); Base64(hex:01*90000); EndElement()");
        (byte[] expected, _) = WriterScript.RunInBox(script, new ScriptContext());
        var stream = new MemoryStream();
        var w = new BinaryXmlWriter(stream);
        foreach (Call c in script) WriterScript.ApplyNative(w, c, new ScriptContext());
        w.Flush();
        Assert.True(expected.AsSpan().SequenceEqual(stream.ToArray()));
    }

    [Fact]
    public void Owned_stream_is_disposed_on_close_and_writing_after_close_throws()
    {
        var stream = new MemoryStream();
        var w = new BinaryXmlWriter(stream, ownsStream: true);
        w.WriteElementString("a", "b");
        w.Dispose();
        Assert.False(stream.CanWrite);
        Assert.Equal(WriteState.Closed, w.WriteState);
        Assert.Throws<InvalidOperationException>(() => w.WriteStartElement("x"));
    }

    [Fact]
    public void A_closed_writer_hands_its_scratch_to_the_next_and_both_stay_correct()
    {
        // A closed writer gives its namespace scopes, attribute capture and buffers to the next writer created on the
        // thread; the closed one must neither see nor disturb the new one's, and Reset re-opens it with its own.
        string calls = "StartElement(\"s\", \"Envelope\", \"urn:s\"); Xmlns(\"b\", \"urn:b\"); AttributeString(\"xml\", \"lang\", null, \"en\"); "
            + "StartElement(\"b\", \"x\", null); AttributeString(null, \"a\", null, \"v\"); Base64(hex:0102030405); EndElement(); "
            + "StartElement(null, \"y\", \"urn:y\"); AttributeString(\"q\", \"t\", \"urn:q\", \"w\"); Value(uid:\"urn:uuid:5f0e2b7c-1a2b-4c3d-9e8f-706152433401\"); EndElement(); EndElement()";
        List<Call> script = WriterScript.Parse(calls);
        (byte[] expected, _) = WriterScript.RunInBox(script, new ScriptContext());

        var first = new ArrayBufferWriter<byte>();
        var closed = new BinaryXmlWriter(first);
        foreach (Call c in script) WriterScript.ApplyNative(closed, c, new ScriptContext());
        closed.Close();
        Assert.Equal(Hex.Format(expected), Hex.Format(first.WrittenSpan));
        Assert.Null(closed.XmlLang);
        Assert.Equal(XmlSpace.None, closed.XmlSpace);
        Assert.Throws<InvalidOperationException>(() => closed.WriteStartElement("x"));
        Assert.Throws<InvalidOperationException>(() => closed.LookupPrefix("urn:b"));

        // The next writer starts clean (no scope, xml:lang or capture left over), interleaved with the re-opened one.
        var second = new ArrayBufferWriter<byte>();
        var next = new BinaryXmlWriter(second);
        Assert.Null(next.XmlLang);
        Assert.Null(next.LookupPrefix("urn:b"));
        var third = new ArrayBufferWriter<byte>();
        closed.Reset(third);
        for (int i = 0; i < script.Count; i++)
        {
            WriterScript.ApplyNative(next, script[i], new ScriptContext());
            WriterScript.ApplyNative(closed, script[i], new ScriptContext());
        }
        next.Close();
        closed.Close();
        Assert.Equal(Hex.Format(expected), Hex.Format(second.WrittenSpan));
        Assert.Equal(Hex.Format(expected), Hex.Format(third.WrittenSpan));
    }

    [Fact]
    public void Bytes_pending_become_committed_on_flush()
    {
        var buffer = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(buffer);
        w.WriteStartElement("a");
        Assert.Equal(3, w.BytesPending);
        Assert.Equal(0, w.BytesCommitted);
        Assert.Equal(0, buffer.WrittenCount);
        w.Flush();
        Assert.Equal(0, w.BytesPending);
        Assert.Equal(3, w.BytesCommitted);
        Assert.Equal("40 01 61", Hex.Format(buffer.WrittenSpan));
        w.Reset();
        Assert.Equal(0, w.BytesCommitted);
        Assert.Equal(WriteState.Start, w.WriteState);
    }

    [Fact]
    public void Array_item_types_are_the_ten_of_the_spec_with_their_sizes()
    {
        // MC-NBFX 2.3.3: the value types an Array record may hold, each in its …WithEndElement form.
        var expected = new Dictionary<RecordType, int>
        {
            [RecordType.BoolTextWithEndElement] = 1, [RecordType.Int16TextWithEndElement] = 2,
            [RecordType.Int32TextWithEndElement] = 4, [RecordType.Int64TextWithEndElement] = 8,
            [RecordType.FloatTextWithEndElement] = 4, [RecordType.DoubleTextWithEndElement] = 8,
            [RecordType.DecimalTextWithEndElement] = 16, [RecordType.DateTimeTextWithEndElement] = 8,
            [RecordType.TimeSpanTextWithEndElement] = 8, [RecordType.UuidTextWithEndElement] = 16,
        };
        for (int b = 0; b < 256; b++)
        {
            bool isItem = BinaryXmlPrimitives.IsArrayItemType((RecordType)b, out int size);
            Assert.Equal(expected.ContainsKey((RecordType)b), isItem);
            Assert.Equal(expected.GetValueOrDefault((RecordType)b), size);
        }
    }

    [Fact]
    public void Element_records_are_the_range_of_the_spec_in_the_range_test_and_the_family_table()
    {
        // MC-NBFX 2.2.1: Element … PrefixElementZ are 0x40–0x77; the reader tests the range before the table.
        for (int b = 0; b < 256; b++)
        {
            bool element = b is >= 0x40 and <= 0x77;
            Assert.Equal(element, RecordTypes.IsElement((byte)b));
            Assert.Equal(element, RecordTypes.GetFamily((byte)b) == RecordFamily.Element);
        }
    }

    [Fact]
    public void Attribute_and_xmlns_records_are_the_range_of_the_spec_in_the_range_test_and_the_family_table()
    {
        // MC-NBFX 2.2.2: ShortAttribute … PrefixAttributeZ are 0x04–0x3F, the declarations 0x08–0x0B among them; a start
        // tag's attributes are found by the range test.
        for (int b = 0; b < 256; b++)
        {
            bool attribute = b is >= 0x04 and <= 0x3F;
            Assert.Equal(attribute, RecordTypes.IsAttributeOrXmlns((byte)b));
            Assert.Equal(attribute && b is not (>= 0x08 and <= 0x0B), RecordTypes.GetFamily((byte)b) == RecordFamily.Attribute);
            Assert.Equal(b is >= 0x08 and <= 0x0B, RecordTypes.GetFamily((byte)b) == RecordFamily.XmlnsAttribute);
        }
    }

    [Fact]
    public void Only_text_records_have_a_fixed_payload_size()
    {
        // The one-call reads take a record of fixed payload size as text, without the family table; the fixed sizes of
        // MC-NBFX 2.2.3 (the typed records and EmptyText, both forms; the list records, which have no end-element
        // form), every other byte none.
        var sizes = new Dictionary<RecordType, int>
        {
            [RecordType.ZeroText] = 0, [RecordType.OneText] = 0, [RecordType.FalseText] = 0, [RecordType.TrueText] = 0,
            [RecordType.Int8Text] = 1, [RecordType.Int16Text] = 2, [RecordType.Int32Text] = 4, [RecordType.Int64Text] = 8,
            [RecordType.FloatText] = 4, [RecordType.DoubleText] = 8, [RecordType.DecimalText] = 16,
            [RecordType.DateTimeText] = 8, [RecordType.TimeSpanText] = 8, [RecordType.UuidText] = 16,
            [RecordType.UniqueIdText] = 16, [RecordType.BoolText] = 1, [RecordType.UInt64Text] = 8, [RecordType.EmptyText] = 0,
        };
        for (int b = 0; b < 256; b++)
        {
            int expected = sizes.TryGetValue((RecordType)(b & 0xFE), out int size) ? size
                : b is (int)RecordType.StartListText or (int)RecordType.EndListText ? 0 : -1;
            Assert.True(expected == RecordTypes.GetFixedPayloadSize((byte)b), $"0x{b:X2}: {RecordTypes.GetFixedPayloadSize((byte)b)}, expected {expected}");
            if (expected >= 0) Assert.Equal(RecordFamily.Text, RecordTypes.GetFamily((byte)b));
        }
    }

    [Fact]
    public void Reset_keeps_a_stream_output_and_its_ownership()
    {
        var stream = new MemoryStream();
        var w = new BinaryXmlWriter(stream, ownsStream: true);
        w.WriteStartElement("a");
        w.Reset();
        w.WriteStartElement("b");
        w.WriteEndElement();
        w.Flush();
        // The first document's pending bytes are dropped; the second reaches the stream on Flush.
        Assert.Equal("40 01 62 01", Hex.Format(stream.ToArray()));
        w.Close();
        Assert.False(stream.CanWrite);
    }

    [Fact]
    public void A_reused_writer_writes_each_document_into_the_memory_its_output_gives()
    {
        // Outputs that give the same memory for every document (the writer then takes only its length, its array
        // known), an array's at an offset and one that is not an array, each reused in turn with the others between.
        byte[] array = new byte[300];   // the writer asks for 256 bytes at least
        var atOffset = new OneMemoryBufferWriter(array.AsMemory(7, 280));
        Memory<byte> notArrayMemory = new NonArrayMemory(280).Memory;
        Assert.False(System.Runtime.InteropServices.MemoryMarshal.TryGetArray<byte>(notArrayMemory, out _));
        var notArray = new OneMemoryBufferWriter(notArrayMemory);
        var growing = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(growing);
        OneMemoryBufferWriter[] order = [atOffset, atOffset, notArray, notArray, atOffset, notArray];
        for (int i = 0; i < order.Length; i++)
        {
            // Two documents in a row into each (the second given the memory the first was), then one into an array
            // writer's memory after every other.
            for (int repeat = 0; repeat < 2; repeat++)
            {
                string text = new('x', 2 * i + repeat + 1);
                var stream = new MemoryStream();
                using (XmlDictionaryWriter inBox = XmlDictionaryWriter.CreateBinaryWriter(stream))
                {
                    inBox.WriteElementString("a", text);
                }
                string expected = Hex.Format(stream.ToArray());
                w.Reset(order[i]);
                w.WriteElementString("a", text);
                w.Flush();
                Assert.Equal(expected, Hex.Format(order[i].Written));
                if (order[i] == atOffset) Assert.Equal(expected, Hex.Format(array.AsSpan(7, order[i].Written.Length)));
            }
            if (i % 2 == 1)
            {
                growing.ResetWrittenCount();
                w.Reset(growing);
                w.WriteElementString("b", "y");
                w.Flush();
                Assert.Equal("40 01 62 99 01 79", Hex.Format(growing.WrittenSpan));
            }
        }
        // Nothing written before the offset.
        Assert.All(array.AsSpan(0, 7).ToArray(), b => Assert.Equal(0, b));
    }

    /// <summary>An output that gives the same memory every time, the bytes of each document recorded at its advance.</summary>
    private sealed class OneMemoryBufferWriter(Memory<byte> memory) : IBufferWriter<byte>
    {
        public byte[] Written { get; private set; } = [];

        public void Advance(int count) => Written = memory.Span[..count].ToArray();

        public Memory<byte> GetMemory(int sizeHint = 0) => sizeHint <= memory.Length ? memory : throw new InvalidOperationException("too small");

        public Span<byte> GetSpan(int sizeHint = 0) => GetMemory(sizeHint).Span;
    }

    [Fact]
    public void Compact_mode_folds_where_the_in_box_rule_does_not()
    {
        // .NET cannot fold after 600 bytes of base64 or a 300-char string (both pass through its 512-byte buffer).
        List<Call> script = WriterScript.Parse("StartElement(null, \"r\", null); StartElement(null, \"a\", null); Base64(hex:AB*600); EndElement(); StartElement(null, \"b\", null); String(\"x\"*300); EndElement(); EndElement()");
        (byte[] inBox, _) = WriterScript.RunInBox(script, new ScriptContext());
        (byte[] compact, _) = WriterScript.RunNative(script, new ScriptContext(), new BinaryXmlWriterOptions { AlwaysFoldEndElements = true });
        Assert.Equal(inBox.Length - 2, compact.Length);
        Assert.Equal(NodeStream.FromInBox(inBox), NodeStream.FromInBox(compact));
    }

    [Fact]
    public void Names_compare_by_value_inline_or_dictionary_ascii_or_not_and_allocate_nothing()
    {
        string longName = new('\u00e9', 200);   // 400 UTF-8 bytes: past the stack buffer
        string[] values = ["Envelope", "envelope", "Envelop", "Envelopes", "\u00e9t\u00e9", "\u00e9t\u00e8", "et\u00e9", "\ud83d\ude00", "\ud83d", longName, longName[..199] + "e", "", "ab", "\u00e9"];
        var dictionary = new XmlDictionary();
        foreach (string a in values)
        {
            BinaryXmlName inline = new(System.Text.Encoding.UTF8.GetBytes(a));
            BinaryXmlName fromDictionary = new(0, dictionary.Add(a));
            foreach (string b in values)
            {
                // The lone surrogate "\ud83d" is not valid UTF-16: it equals only itself as a string, no UTF-8 name.
                bool expected = a == b && a != "\ud83d";
                byte[] bBytes = System.Text.Encoding.UTF8.GetBytes(b);
                Assert.True(expected == inline.ValueEquals(b), $"inline '{a}' vs string '{b}'");
                Assert.True(expected == inline.ValueEquals(new BinaryXmlName(1, dictionary.Add(b))), $"inline '{a}' vs dictionary '{b}'");
                Assert.True((a == b) == fromDictionary.ValueEquals(b), $"dictionary '{a}' vs string '{b}'");
                if (b != "\ud83d") Assert.True((a == b) == fromDictionary.ValueEquals(bBytes), $"dictionary '{a}' vs bytes of '{b}'");
            }
        }
        BinaryXmlName name = new("Envelope"u8);
        XmlDictionaryString other = dictionary.Add("Envelope");
        long before = GC.GetAllocatedBytesForCurrentThread();
        bool all = true;
        for (int i = 0; i < 100; i++) all &= name.ValueEquals("Envelope") && name.ValueEquals(new BinaryXmlName(2, other)) && !name.ValueEquals(longName);
        Assert.True(all);
        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    [Fact]
    public void Reader_exposes_names_namespaces_and_dictionary_ids()
    {
        // <s:Envelope xmlns:s="…soap-envelope"><s:Body a:x="1" xmlns:a="urn:a">text</s:Body></s:Envelope>
        byte[] data = Hex.Parse("56 02 0B 01 73 04 56 0E 26 01 78 82 09 01 61 05 75 72 6E 3A 61 99 04 74 65 78 74 01");
        var r = new BinaryXmlReader(data, NbfsDictionary.Instance);
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.StartElement, r.TokenType);
        Assert.True(r.LocalName.IsDictionaryString);
        Assert.Equal(2, r.LocalName.DictionaryId);
        Assert.Equal("Envelope", r.LocalName.ToString());
        Assert.True(r.LocalName.ValueEquals("Envelope"));
        Assert.True(r.LocalName.ValueEquals("Envelope"u8));
        Assert.Equal("s", r.Prefix.ToString());
        Assert.Equal("http://www.w3.org/2003/05/soap-envelope", r.NamespaceUri.ToString());
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.NamespaceDeclaration, r.TokenType);
        Assert.True(r.TryGetDictionaryString(out XmlDictionaryString? ns));
        Assert.Equal(4, ns!.Key * 2);
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.StartElement, r.TokenType);
        Assert.Equal("Body", r.LocalName.ToString());
        Assert.Equal(1, r.CurrentDepth);
        Assert.True(r.Read());
        Assert.Equal(BinaryXmlTokenType.Attribute, r.TokenType);
        Assert.Equal("urn:a", r.NamespaceUri.ToString());
        Assert.Equal(1, r.GetInt32());
        Assert.True(r.TryLookupNamespace("s"u8, out BinaryXmlName s));
        Assert.Equal("http://www.w3.org/2003/05/soap-envelope", s.ToString());
        Assert.True(r.TryLookupNamespace("xml"u8, out _));
        Assert.False(r.TryLookupNamespace("zz"u8, out _));
        r.Dispose();
    }

    [Fact]
    public void Every_token_reports_only_its_own_names_and_value()
    {
        // Each token follows one with a value or names of its own: a start tag after text, text after an attribute,
        // an end tag after typed text that closes its element, a comment after text, a list, array items, and text
        // after them. The reader does not clear the token's fields between tokens (see ClearToken): a name or value
        // a token does not have must not show the previous token's.
        NbfsDictionary.Instance.TryLookup("Envelope", out XmlDictionaryString? envelope);
        NbfsDictionary.Instance.TryLookup("Action", out XmlDictionaryString? action);
        var buffer = new ArrayBufferWriter<byte>();
        var w = new BinaryXmlWriter(buffer, NbfsDictionary.Instance);
        w.WriteStartElement("p", "r", "urn:p");
        w.WriteAttributeString("p", "a", "urn:p", "12");
        w.WriteValue(123);
        w.WriteStartElement("e");
        w.WriteEndElement();
        w.WriteString("abc");
        w.WriteComment("c");
        w.WriteStartElement("n");
        w.WriteValue(7L);
        w.WriteEndElement();
        w.WriteStartElement("p", "x", "urn:p");
        w.WriteString("x");
        w.WriteEndElement();
        w.WriteStartElement(null, envelope!, null);
        w.WriteString(action!);
        w.WriteEndElement();
        w.WriteStartElement("l");
        w.WriteAttributeString("b", "x y");
        w.WriteStartList();
        w.WriteValue(1);
        w.WriteValue(true);
        w.WriteEndList();
        w.WriteEndElement();
        w.WriteArray(null, "d", null, new double[] { 1.5, 2.5 });
        w.WriteValue(Guid.Empty);
        w.WriteString("é");
        w.WriteEndElement();
        w.Flush();

        var seen = new HashSet<BinaryXmlTokenType>();
        var r = new BinaryXmlReader(buffer.WrittenSpan, NbfsDictionary.Instance);
        do
        {
            seen.Add(r.TokenType);
            // Every token but the first and array items points at its record (an end tag at its EndElement record or
            // at the text record that closes the element).
            if (r.TokenType is not (BinaryXmlTokenType.None or BinaryXmlTokenType.ArrayData))
                Assert.Equal((byte)r.RecordType, buffer.WrittenSpan[r.TokenStartIndex]);
            bool named = r.TokenType is BinaryXmlTokenType.StartElement or BinaryXmlTokenType.EndElement or BinaryXmlTokenType.Attribute
                or BinaryXmlTokenType.NamespaceDeclaration or BinaryXmlTokenType.ArrayData;
            if (!named)
            {
                Assert.True(r.Prefix.IsEmpty, $"{r.TokenType} at {r.TokenStartIndex} has a prefix");
                Assert.True(r.LocalName.IsEmpty, $"{r.TokenType} at {r.TokenStartIndex} has a local name");
                Assert.True(r.NamespaceUri.IsEmpty, $"{r.TokenType} at {r.TokenStartIndex} has a namespace");
            }
            else
            {
                Assert.False(r.LocalName.IsEmpty && r.TokenType != BinaryXmlTokenType.NamespaceDeclaration, $"{r.TokenType} at {r.TokenStartIndex} has no local name");
            }
            if (!r.HasValue)
            {
                Assert.True(r.ValueSpan.IsEmpty, $"{r.TokenType} at {r.TokenStartIndex} has a value");
                Assert.Equal(0, (int)r.ValueType);
                Assert.False(r.TryGetDictionaryString(out _), $"{r.TokenType} at {r.TokenStartIndex} has a dictionary string");
                bool typed = true;
                try { r.TryGetInt64(out _); }
                catch (InvalidOperationException) { typed = false; }
                Assert.False(typed, $"{r.TokenType} at {r.TokenStartIndex} has a typed value");
            }
        }
        while (r.Read());
        r.Dispose();
        Assert.Equal(Enum.GetValues<BinaryXmlTokenType>().Length, seen.Count);
    }

    [Fact]
    public void Skip_moves_past_the_element_and_CopyString_copies_text()
    {
        byte[] data = Hex.Parse("40 01 72 40 01 61 04 01 78 A8 40 01 62 98 01 79 01 01 40 01 63 B7 04 E5 65 2C 67 01");
        var r = new BinaryXmlReader(data);
        r.Read();               // <r>
        r.Read();               // <a>
        r.Read();               // @x
        Assert.Equal(BinaryXmlTokenType.Attribute, r.TokenType);
        r.Skip();
        Assert.Equal(BinaryXmlTokenType.EndElement, r.TokenType);
        Assert.Equal("a", r.LocalName.ToString());
        r.Read();               // <c>
        Assert.Equal("c", r.LocalName.ToString());
        r.Read();               // 日本 as UnicodeChars
        Span<char> chars = stackalloc char[8];
        Assert.Equal("日本", chars[..r.CopyString(chars)].ToString());
        bool threw = false;
        try { r.CopyString(new char[1]); }
        catch (ArgumentException) { threw = true; }
        Assert.True(threw);
        r.Dispose();
    }

    /// <summary>A reader on the value of <c>&lt;a&gt;</c> followed by the record <paramref name="hex"/>.</summary>
    private static BinaryXmlReader At(string hex)
    {
        var r = new BinaryXmlReader(Hex.Parse("40 01 61 " + hex));
        r.Read(); r.Read();
        return r;
    }

    [Fact]
    public void Typed_accessors_convert_like_the_in_box_reader_and_refuse_what_does_not_fit()
    {
        Assert.Equal(256.0, At("8B 00 01").GetDouble());                   // Int16Text read as double
        Assert.Equal((double)1.23456788f, At("91 52 06 9E 3F").GetDouble());  // FloatText read as double
        Assert.Equal(long.MaxValue, At("8F FF FF FF FF FF FF FF 7F").GetInt64());
        Assert.Throws<OverflowException>(() => At("8F FF FF FF FF FF FF FF 7F").GetInt32());
        Assert.False(At("8F FF FF FF FF FF FF FF 7F").TryGetInt32(out _));
        Assert.Equal(42, At("99 04 20 34 32 20").GetInt32());                // text " 42 "
        Assert.Equal(double.NegativeInfinity, At("99 04 2D 49 4E 46").GetDouble());
        Assert.Throws<FormatException>(() => At("99 01 78").GetInt32());
        Assert.Equal(new DateTime(2022, 8, 26, 12, 34, 56, DateTimeKind.Utc), At("97 00 18 DF 61 5F 87 DA 48").GetDateTime());
        Assert.Equal(DateTimeKind.Utc, At("97 00 18 DF 61 5F 87 DA 48").GetDateTime().Kind);
        Assert.Throws<InvalidOperationException>(() => new BinaryXmlReader(Hex.Parse("40 01 61 01")).GetInt32());
    }

    [Fact]
    public void Typed_records_convert_by_each_getters_rule()
    {
        // Zero and One are Booleans too; Bool's payload is any byte but 0.
        Assert.False(At("81").GetBoolean());
        Assert.True(At("83").GetBoolean());
        Assert.True(At("87").GetBoolean());
        Assert.False(At("85").GetBoolean());
        Assert.True(At("B5 01").GetBoolean());
        // Any other record by its text, as .NET's reader reads it: an Int8 1 is "1", a Boolean; an Int8 2 is not.
        Assert.True(At("89 01").GetBoolean());
        Assert.False(At("89 02").TryGetBoolean(out _));
        // UInt64 above long.MaxValue: an unsigned value, an overflow as long; negative integers are not unsigned.
        Assert.Equal(ulong.MaxValue, At("B3 FF FF FF FF FF FF FF FF").GetUInt64());
        Assert.Throws<OverflowException>(() => At("B3 FF FF FF FF FF FF FF FF").GetInt64());
        Assert.Equal((double)ulong.MaxValue, At("B3 FF FF FF FF FF FF FF FF").GetDouble());
        Assert.Equal((decimal)ulong.MaxValue, At("B3 FF FF FF FF FF FF FF FF").GetDecimal());
        Assert.False(At("89 FF").TryGetUInt64(out _));
        Assert.Equal(-1L, At("89 FF").GetInt64());
        // A double to float directly within its range (infinities and NaN pass), past it by its text "1E+300", an
        // infinity; to decimal by its text, which takes no exponent and no NaN.
        Assert.Equal(1e300, At("93 " + Hex.Format(BitConverter.GetBytes(1e300))).GetDouble());
        Assert.Equal(float.PositiveInfinity, At("93 " + Hex.Format(BitConverter.GetBytes(1e300))).GetSingle());
        Assert.Equal(float.NegativeInfinity, At("93 " + Hex.Format(BitConverter.GetBytes(double.NegativeInfinity))).GetSingle());
        Assert.False(At("93 " + Hex.Format(BitConverter.GetBytes(1e300))).TryGetDecimal(out _));
        Assert.False(At("93 " + Hex.Format(BitConverter.GetBytes(double.NaN))).TryGetDecimal(out _));
        Assert.Equal(2.5m, At("93 " + Hex.Format(BitConverter.GetBytes(2.5))).GetDecimal());
        // A float to decimal by its shortest text: 0.1, not the double nearest the float (0.100000001490116).
        Assert.Equal(0.1m, At("91 " + Hex.Format(BitConverter.GetBytes(0.1f))).GetDecimal());
        // Decimal to double by its text, rounded once (a cast gives 1.0000000000000001E-28); integers to float.
        Assert.Equal(12.5, At("95 00 00 01 00 00 00 00 00 7D 00 00 00 00 00 00 00").GetDouble());
        Assert.Equal(1e-28, At("95 00 00 1C 00 00 00 00 00 01 00 00 00 00 00 00 00").GetDouble());
        Assert.Equal(-32768f, At("8B 00 80").GetSingle());
        // A decimal to an integer by its text: 15 with no point is 15; 1.5 is not an integer.
        Assert.Equal(15L, At("95 00 00 00 00 00 00 00 00 0F 00 00 00 00 00 00 00").GetInt64());
        Assert.False(At("95 00 00 01 00 00 00 00 00 0F 00 00 00 00 00 00 00").TryGetInt64(out _));
        // Uuid and UniqueId records are both GUIDs; other records are neither.
        Guid g = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
        Assert.Equal(g, At("B1 " + Hex.Format(g.ToByteArray())).GetGuid());
        Assert.Equal(g, At("AD " + Hex.Format(g.ToByteArray())).GetGuid());
        Assert.False(At("83").TryGetGuid(out _));
        Assert.False(At("83").TryGetDateTime(out _));
        Assert.False(At("83").TryGetTimeSpan(out _));
        Assert.Equal(TimeSpan.FromTicks(-5), At("AF FB FF FF FF FF FF FF FF").GetTimeSpan());
    }

    [Fact]
    public void Primitives_encode_and_decode_every_payload()
    {
        Span<byte> b = stackalloc byte[32];
        decimal m = new(0x20212223, 0x10111213, 0x01020304, true, 27);
        Assert.Equal(16, BinaryXmlPrimitives.WriteDecimal(b, m));
        Assert.Equal("00 00 1B 80 04 03 02 01 23 22 21 20 13 12 11 10", Hex.Format(b[..16]));
        Assert.True(BinaryXmlPrimitives.TryReadDecimal(b, out decimal back));
        Assert.Equal(decimal.GetBits(m), decimal.GetBits(back));
        b[0] = 1; // reserved flag bits
        Assert.False(BinaryXmlPrimitives.TryReadDecimal(b, out _));

        var local = new DateTime(2020, 6, 1, 12, 0, 0, DateTimeKind.Local);
        BinaryXmlPrimitives.WriteDateTime(b, local);
        Assert.Equal(0x80, b[7] & 0xC0);
        Assert.True(BinaryXmlPrimitives.TryReadDateTime(b, out DateTime localBack));
        Assert.Equal(local, localBack);
        Assert.Equal(DateTimeKind.Local, localBack.Kind);
        Assert.False(BinaryXmlPrimitives.TryReadDateTime(Hex.Parse("FF FF FF FF FF FF FF 3F"), out _)); // ticks beyond MaxValue

        var g = new Guid("33221100-5544-7766-8899-aabbccddeeff");
        BinaryXmlPrimitives.WriteGuid(b, g);
        Assert.Equal("00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF", Hex.Format(b[..16]));

        Assert.Equal(2, BinaryXmlPrimitives.WriteSizedTextHeader(b, RecordType.Chars8Text, 255));
        Assert.Equal(3, BinaryXmlPrimitives.WriteSizedTextHeader(b, BinaryXmlPrimitives.GetSizedTextType(RecordType.Chars8Text, 256), 256));
        Assert.Equal("9A 00 01", Hex.Format(b[..3]));
        Assert.Equal(RecordType.Bytes32Text, BinaryXmlPrimitives.GetSizedTextType(RecordType.Bytes8Text, 65536));

        Assert.Equal(3, BinaryXmlPrimitives.WriteQNameDictionary(b, 'i', 910));
        Assert.Equal("08 8E 07", Hex.Format(b[..3]));
        Assert.True(BinaryXmlPrimitives.TryReadQNameDictionary(b, out char letter, out int id, out int used));
        Assert.Equal(('i', 910, 3), (letter, id, used));

        Assert.Equal(4, BinaryXmlPrimitives.WriteArrayHeader(b, RecordType.Int32TextWithEndElement, 128));
        Assert.Equal("01 8D 80 01", Hex.Format(b[..4]));
        Assert.Throws<ArgumentOutOfRangeException>(() => BinaryXmlPrimitives.WriteArrayHeader(new byte[8], RecordType.Int32Text, 1));
    }

    [Fact]
    public void MultiByteInt31_edges()
    {
        Assert.Equal(System.Buffers.OperationStatus.NeedMoreData, MultiByteInt31.Decode(Hex.Parse("80 80"), out _, out _));
        Assert.Equal(System.Buffers.OperationStatus.InvalidData, MultiByteInt31.Decode(Hex.Parse("FF FF FF FF 08"), out _, out _));
        Assert.Equal(System.Buffers.OperationStatus.InvalidData, MultiByteInt31.Decode(Hex.Parse("80 80 80 80 80 01"), out _, out _));
        Assert.Equal(System.Buffers.OperationStatus.Done, MultiByteInt31.Decode(Hex.Parse("80 00"), out int zero, out int n));
        Assert.Equal((0, 2), (zero, n));
        foreach (int v in new[] { 0, 127, 128, 16383, 16384, 2097151, 2097152, 268435455, 268435456, int.MaxValue })
        {
            byte[] buffer = new byte[5];
            int written = MultiByteInt31.Write(buffer, v);
            Assert.Equal(MultiByteInt31.GetByteCount(v), written);
            Assert.Equal(System.Buffers.OperationStatus.Done, MultiByteInt31.Decode(buffer.AsSpan(0, written), out int back, out int consumed));
            Assert.Equal((v, written), (back, consumed));
        }
        Assert.Throws<ArgumentOutOfRangeException>(() => MultiByteInt31.Write(new byte[5], -1));
        // Too short a destination is an ArgumentException on the one-byte path too.
        Assert.Throws<ArgumentException>(() => MultiByteInt31.Write([], 0));
        Assert.Throws<ArgumentException>(() => MultiByteInt31.Write(new byte[1], 128));
        Assert.False(MultiByteInt31.TryWrite(new byte[2], 16384, out _));
    }

    [Fact]
    public void Nbfs_dictionary_pins_its_size_and_odd_entries()
    {
        Assert.Equal(487, NbfsDictionary.Count);
        Assert.Equal("mustUnderstand", NbfsDictionary.Instance.GetByWireId(0x00).Value);
        Assert.Equal("Envelope", NbfsDictionary.Instance.GetByWireId(0x02).Value);
        Assert.Equal("", NbfsDictionary.Instance.GetByWireId(0xA2).Value);
        Assert.Equal(" http://schemas.xmlsoap.org/ws/2005/02/trust/tlsnego", NbfsDictionary.Instance.GetByWireId(0x1A8).Value);
        Assert.Equal("detail", NbfsDictionary.Instance.GetByWireId(0x3CC).Value);
        // Ids after 0x28, where hand-copied tables tend to slip by one.
        Assert.Equal("Address", NbfsDictionary.Instance.GetByWireId(0x2A).Value);
        Assert.Equal("http://www.w3.org/2000/09/xmldsig#enveloped-signature", NbfsDictionary.Instance.GetByWireId(0x44).Value);
        Assert.Equal("CanonicalizationMethod", NbfsDictionary.Instance.GetByWireId(0x56).Value);
        Assert.Equal("http://schemas.xmlsoap.org/ws/2005/02/trust#BinarySecret", NbfsDictionary.Instance.GetByWireId(0x80).Value);
        Assert.Equal("BadContextToken", NbfsDictionary.Instance.GetByWireId(0x100).Value);
        Assert.Equal("Attribute", NbfsDictionary.Instance.GetByWireId(0x200).Value);
        Assert.Equal("FaultCode", NbfsDictionary.Instance.GetByWireId(0x2A2).Value);
        Assert.True(NbfsDictionary.Instance.TryLookup("Envelope", out XmlDictionaryString? envelope));
        Assert.Equal(1, envelope!.Key);
        Assert.False(NbfsDictionary.Instance.TryLookup(487, out _));
    }

    [Fact]
    public void UniqueIds_are_written_as_the_in_box_writer_writes_them_and_read_back_without_allocating()
    {
        Guid guid = new("01234567-89ab-cdef-0123-456789abcdef");
        foreach (Guid value in new[] { guid, Guid.Empty })
        {
            // In content and as an attribute's value; Guid.Empty is not a GUID to UniqueId, so it is written as text.
            var stream = new MemoryStream();
            using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(stream))
            {
                w.WriteStartElement("a");
                w.WriteStartAttribute("id");
                w.WriteValue(new UniqueId(value));
                w.WriteEndAttribute();
                w.WriteValue(new UniqueId(value));
                w.WriteEndElement();
            }
            var output = new ArrayBufferWriter<byte>();
            using (var w = new BinaryXmlWriter(output))
            {
                w.WriteStartElement("a");
                w.WriteStartAttribute("id");
                w.WriteUniqueId(value);
                w.WriteEndAttribute();
                w.WriteUniqueId(value);
                w.WriteEndElement();
            }
            Assert.Equal(Convert.ToHexString(stream.ToArray()), Convert.ToHexString(output.WrittenSpan));
        }

        // Written and read back over and over: neither side allocates more than the UniqueId read (40 B).
        var buffer = new ArrayBufferWriter<byte>();
        var writer = new BinaryXmlWriter(buffer);
        UniqueId? read = null;
        void RoundTrip()
        {
            buffer.ResetWrittenCount();
            writer.Reset(buffer);
            writer.WriteStartElement("a");
            writer.WriteUniqueId(guid);
            writer.WriteEndElement();
            writer.Flush();
            var r = new BinaryXmlReader(buffer.WrittenSpan);
            while (r.Read())
            {
                if (r.TokenType == BinaryXmlTokenType.Text) read = r.GetUniqueId();
            }
            r.Dispose();
        }
        RoundTrip();
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 100; i++) RoundTrip();
        long perRound = (GC.GetAllocatedBytesForCurrentThread() - before) / 100;
        Assert.True(read!.TryGetGuid(out Guid back));
        Assert.Equal(guid, back);
        Assert.True(perRound <= 40, $"a UniqueId written and read back allocated {perRound} B");
    }
}

