using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using System.Text.Unicode;

namespace BinaryXml;

public sealed partial class BinaryXmlWriter
{
    private const int MaxBytesPerChar = 3;
    // .NET transcodes long strings in chunks that each reserve their worst case in the 512-byte buffer.
    private const int Utf8ChunkChars = InBoxBufferModel.BufferLength / MaxBytesPerChar; // 170
    private const int Utf16ChunkChars = InBoxBufferModel.BufferLength / 2;              // 256
    private const int ShortNameChars = 128 / MaxBytesPerChar;                          // names under 42 chars
    private const int ShortTextChars = byte.MaxValue / MaxBytesPerChar;                 // text up to 85 chars
    private const int UncountedTextChars = 16 * 1024;                                   // text transcoded before it is counted
    private const int LongestTextHeader = 5;                                            // Chars32Text and its length
    // Over a stream, text whose worst case fits the writer's own pooled buffer at 4 MB is transcoded before it is
    // counted too (1,398,099 chars); an IBufferWriter the caller gave is asked only for what the text takes, and longer
    // text is transcoded into the memory it has given already (TryWriteUtf8TextNodeInFreeMemory).
    private const int UncountedStreamTextChars = (4 * 1024 * 1024 - LongestTextHeader) / MaxBytesPerChar;
    // Over a stream, longer UTF-8 text (counted first) is transcoded and handed to the stream a piece of this many
    // characters at a time (WriteUtf8PayloadInPieces).
    private const int StreamTextPieceChars = StreamPieceSize / MaxBytesPerChar;
    private const int Utf16ProbeChars = 1024;                                           // what tells long UTF-16 text, at its start or after ASCII
    private const int Utf16TextProbeChars = 32;                                         // the same after shorter text's ASCII start
    private const int CountedUtf8 = 0;                                                  // ModelChunks: count each chunk's UTF-8

    /// <summary>Writes a String (MC-NBFX 2.1.3) for a name, prefix, namespace or comment.</summary>
    private void WriteName(ReadOnlySpan<char> s)
    {
        int n = s.Length;
        if (n == 0)
        {
            _model.WriteByte(_pending);
            GetSpan(1)[0] = 0;
            _pending++;
            return;
        }
        if (n < ShortNameChars)
        {
            int reservation = 1 + n * MaxBytesPerChar;
            _model.Reserve(_pending, reservation);
            Span<byte> span = GetSpan(reservation);
            int length = TranscodeName(s, span[1..]);
            span[0] = (byte)length;
            _pending += 1 + length;
            return;
        }
        if (n <= UncountedTextChars)
        {
            WriteUncountedName(s);
            return;
        }
        int byteCount = GetUtf8ByteCount(s);
        WriteMultiByteInt31(byteCount);
        WriteUtf8Payload(s, byteCount);
    }

    /// <summary>
    /// Writes a name of <see cref="ShortNameChars"/> to <see cref="UncountedTextChars"/> characters (a data contract's
    /// namespace in its xmlns record, most often) without counting its bytes first: transcoded behind room for the
    /// length an ASCII name of as many characters takes, then its length written in front of it, one pass over the
    /// name instead of two. Only a name whose bytes take a longer length is moved on (an overlapping move is a call into
    /// the C runtime). .NET counts, then writes: the model reserves what it does, in its order.
    /// </summary>
    private void WriteUncountedName(ReadOnlySpan<char> s)
    {
        Span<byte> span = GetSpan(MultiByteInt31.MaxLength + s.Length * MaxBytesPerChar);
        int asciiLengthSize = MultiByteInt31.GetByteCount(s.Length);
        int byteCount = TranscodeUtf8(s, span[asciiLengthSize..]);
        int lengthSize = MultiByteInt31.GetByteCount(byteCount);
        if (lengthSize != asciiLengthSize) span.Slice(asciiLengthSize, byteCount).CopyTo(span[lengthSize..]);
        MultiByteInt31.Write(span, byteCount);
        _model.Reserve(_pending, MultiByteInt31.MaxLength);
        _pending += lengthSize + byteCount;
        ModelUtf8Chunks(s, byteCount, _pending);
    }

    /// <summary>Writes text content as .NET's binary node writer does (MC-NBFX 2.2.3.13, 2.2.3.28; dotnet-behaviour 2.5).</summary>
    // Out of line: inlined into WriteElementString's caller, it left its own transcoding and the end tag's path as calls
    // (W2 8 characters 9 % slower).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteTextNode(ReadOnlySpan<char> chars)
    {
        int n = chars.Length;
        if (n == 1)
        {
            if (chars[0] == '0') { WriteTextNode(RecordType.ZeroText); return; }
            if (chars[0] == '1') { WriteTextNode(RecordType.OneText); return; }
        }
        if (n <= ShortTextChars)
        {
            // One reservation for header and payload; UTF-16 only when it is shorter (L / 2 > n).
            int reservation = 2 + n * MaxBytesPerChar;
            BeginTextNode(reservation);
            // The span first: growing the memory moves the write position.
            Span<byte> span = GetSpan(reservation);
            SetTextNode(_pending);
            _pending += WriteShortTextRecord(chars, span);
            return;
        }
        int byteCount;
        if (n <= UncountedTextChars) byteCount = TryWriteUncountedUtf8TextNode(chars);
        else if (StartsAsUtf16(chars, Utf16ProbeChars)) byteCount = CountUtf8OrUtf16(chars, 0);
        else if (n <= UncountedStreamTextChars && _streamOutput is not null) byteCount = TryWriteUncountedUtf8TextNode(chars);
        else byteCount = TryWriteUtf8TextNodeInFreeMemory(chars);
        if (byteCount < 0) return;
        if (byteCount / 2 > n)
        {
            WriteTextNodeWithLength(RecordType.UnicodeChars8Text, n * 2);
            // Modelled before it is written: over a stream, long text is handed on as it is (WriteModelledBytes).
            ModelChunks(chars, _pending + n * 2, n * 2, Utf16ChunkChars, reservePerChar: 2, bytesPerChar: 2);
            WriteUtf16Payload(chars);
        }
        else
        {
            WriteTextNodeWithLength(RecordType.Chars8Text, byteCount);
            WriteUtf8Payload(chars, byteCount);
        }
    }

    /// <summary>
    /// Writes a text record of up to <see cref="ShortTextChars"/> characters (a one-byte length) at the start of
    /// <paramref name="span"/>, which holds its worst case (2 + 3 bytes a character); returns its size. UTF-16 only
    /// where it is shorter (L / 2 > n), as .NET chooses.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteShortTextRecord(ReadOnlySpan<char> chars, Span<byte> span)
    {
        Debug.Assert(chars.Length <= ShortTextChars && span.Length >= 2 + chars.Length * MaxBytesPerChar);
        int length = TranscodeUtf8(chars, span[2..], asText: true);
        RecordType type = RecordType.Chars8Text;
        if (length / 2 > chars.Length)
        {
            type = RecordType.UnicodeChars8Text;
            length = WriteUtf16(chars, span[2..]);
        }
        span[0] = (byte)type;
        span[1] = (byte)length;
        return 2 + length;
    }

    /// <summary>
    /// Writes text of up to <see cref="UncountedTextChars"/> characters (<see cref="UncountedStreamTextChars"/> over a
    /// stream) as a Chars record without counting its bytes first: transcoded behind room for the header ASCII text of
    /// as many characters takes, then the header written in front of it, one pass over the text instead of two. Only
    /// text whose bytes take a longer header is moved on (an overlapping move is a call into the C runtime). Text that
    /// goes on from its ASCII start as CJK is counted first (<see cref="TranscodeTextUtf8"/>). Returns -1 when written,
    /// or the byte count when the text is to be written as UTF-16 instead (nothing written).
    /// </summary>
    private int TryWriteUncountedUtf8TextNode(ReadOnlySpan<char> chars)
    {
        Span<byte> span = GetSpan(LongestTextHeader + chars.Length * MaxBytesPerChar);
        int asciiHeaderSize = AsciiTextHeaderSize(chars);
        return EndUncountedUtf8TextNode(chars, span, asciiHeaderSize, TranscodeTextUtf8(chars, span[asciiHeaderSize..]));
    }

    /// <summary>
    /// Transcodes text of more than 16 characters (short text, and <see cref="TryWriteUncountedUtf8TextNode"/>'s) into
    /// <paramref name="destination"/> (room for its worst case) and returns its byte count. Text that goes on from its
    /// ASCII start as text written as UTF-16 (CJK) is counted first, and only counted if it is UTF-16: counting
    /// characters of three UTF-8 bytes is several times faster than transcoding them, and .NET's writer counts such
    /// text too.
    /// </summary>
    private static int TranscodeTextUtf8(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        OperationStatus status = System.Text.Ascii.FromUtf16(chars, destination, out int ascii);
        return status == OperationStatus.Done ? ascii : TranscodeTextUtf8After(chars, destination, ascii);
    }

    /// <summary>
    /// <see cref="TranscodeTextUtf8"/> after the <paramref name="ascii"/> ASCII characters before the first other one.
    /// Short text (up to 85 characters, a record of a one-byte length) that goes on with a three-byte character is
    /// counted whole from there in one call: probing its start first and counting on from the probe cost more.
    /// </summary>
    private static int TranscodeTextUtf8After(ReadOnlySpan<char> chars, Span<byte> destination, int ascii)
    {
        if (chars.Length <= ShortTextChars)
        {
            if (chars[ascii] >= '\u0800')
            {
                int byteCount = ascii + GetUtf8ByteCount(chars, ascii);
                if (byteCount / 2 > chars.Length) return byteCount;
            }
        }
        else if (GoesOnAsUtf16(chars, ascii, Utf16TextProbeChars))
        {
            int byteCount = CountUtf8OrUtf16(chars, ascii);
            if (byteCount / 2 > chars.Length) return byteCount;
        }
        bool done = TryTranscodeUtf8After(chars, destination, ascii, out _, out int written);
        Debug.Assert(done, "The destination holds the worst case: only a lone surrogate stops the transcoder, and it throws.");
        return written;
    }

    /// <summary>
    /// Writes text longer than <see cref="TryWriteUncountedUtf8TextNode"/> takes as a Chars record into the output
    /// memory at hand, which is not asked to grow for it: an <see cref="IBufferWriter{T}"/> that gave more than the
    /// text takes (an <see cref="ArrayBufferWriter{T}"/> written to before) holds it transcoded before it is counted,
    /// one pass over the text. When it does not fit, only the rest is counted, and the part transcoded is kept (copied
    /// out and back while the output gives memory for the whole record). Memory that cannot hold the text even as ASCII
    /// is not tried: the text is counted first. So is text that goes on from an ASCII start as CJK, as far as it takes to
    /// know whether it is UTF-16. Returns -1 when written, or the text's byte count when it was only counted (nothing
    /// written).
    /// </summary>
    private int TryWriteUtf8TextNodeInFreeMemory(ReadOnlySpan<char> chars)
    {
        int free = MemoryLength - _pending;
        // Room behind the longest header: the header the bytes take always fits in front of them.
        if (free - LongestTextHeader < chars.Length) return GetUtf8ByteCount(chars);
        Span<byte> span = GetSpan(free);
        int asciiHeaderSize = AsciiTextHeaderSize(chars);
        Span<byte> room = span.Slice(asciiHeaderSize, free - LongestTextHeader);
        // The room holds the text as ASCII: the ASCII step stops only at another character.
        OperationStatus status = System.Text.Ascii.FromUtf16(chars, room, out int ascii);
        if (status == OperationStatus.Done) return EndUncountedUtf8TextNode(chars, span, asciiHeaderSize, ascii);
        // Its start was probed before.
        if (ascii > 0 && GoesOnAsUtf16(chars, ascii, Utf16ProbeChars)) return CountUtf8OrUtf16(chars, ascii);
        if (TryTranscodeUtf8After(chars, room, ascii, out int read, out int written)) return EndUncountedUtf8TextNode(chars, span, asciiHeaderSize, written);
        int byteCount = written + GetUtf8ByteCount(chars, read);
        if (byteCount / 2 > chars.Length) return byteCount;
        byte[] transcoded = ArrayPool<byte>.Shared.Rent(written);
        room[..written].CopyTo(transcoded);
        WriteTextNodeWithLength(RecordType.Chars8Text, byteCount);
        WriteUtf8Payload(chars, byteCount, transcoded.AsSpan(0, written), read);
        ArrayPool<byte>.Shared.Return(transcoded);
        return -1;
    }

    /// <summary>
    /// Ends a Chars record whose <paramref name="byteCount"/> bytes were transcoded into <paramref name="span"/> behind
    /// the header ASCII text takes (<paramref name="asciiHeaderSize"/>), with room for the longest: writes its header,
    /// the text moved on first if its bytes take a longer one. Returns -1, or the byte count when the text is to be
    /// written as UTF-16 instead (nothing written).
    /// </summary>
    private int EndUncountedUtf8TextNode(ReadOnlySpan<char> chars, Span<byte> span, int asciiHeaderSize, int byteCount)
    {
        if (byteCount / 2 > chars.Length) return byteCount;
        RecordType type = BinaryXmlPrimitives.GetSizedTextType(RecordType.Chars8Text, byteCount);
        int headerSize = TextHeaderSize(type);
        if (headerSize != asciiHeaderSize) span.Slice(asciiHeaderSize, byteCount).CopyTo(span[headerSize..]);
        BeginTextNode(headerSize);
        WriteTextHeader(span, type, headerSize, byteCount);
        _pending += byteCount;
        ModelUtf8Chunks(chars, byteCount, _pending);
        return -1;
    }

    /// <summary>
    /// The UTF-8 byte count of text that starts as text written as UTF-16 (<see cref="StartsAsUtf16"/>), of which the
    /// <paramref name="start"/> characters before are ASCII, counted only as far as it takes to know: once the bytes
    /// counted and one a character for the rest make more than two a character, the text is written as UTF-16 whatever
    /// the rest holds, and the rest is only searched for surrogates (a lone one fails as .NET's writer, which counts it
    /// all, fails). Returns the byte count, or for text written as UTF-16 at least twice its characters and two. A
    /// piece counted takes at least what it needs to settle the text if all its characters take three bytes (CJK text
    /// is settled by its first half), and no fewer characters than the probe's or than were counted before it (a text
    /// that is not settled so is counted in a few pieces, not many).
    /// </summary>
    private static int CountUtf8OrUtf16(ReadOnlySpan<char> chars, int start)
    {
        // bytes / 2 > characters: UTF-16 from twice the characters and two bytes on.
        int utf16Bytes = 2 * chars.Length + 2;
        int byteCount = start;
        int position = start;
        while (true)
        {
            int remaining = chars.Length - position;
            // Bytes still needed beyond one a character for the rest: none, and the text is UTF-16.
            int needed = utf16Bytes - byteCount - remaining;
            if (needed <= 0) break;
            if (remaining == 0) return byteCount;
            int piece = Math.Min(remaining, Math.Max((needed + 1) / 2, Math.Max(Utf16TextProbeChars, position - start)));
            // A surrogate pair is counted whole.
            if (piece < remaining && char.IsHighSurrogate(chars[position + piece - 1])) piece++;
            byteCount += GetUtf8ByteCount(chars, position, piece);
            position += piece;
        }
        if (chars[position..].ContainsAny(TextFormatting.Surrogates)) GetUtf8ByteCount(chars, position);
        // At least the bytes of the text: one a character for the rest.
        return byteCount + chars.Length - position;
    }

    /// <summary>
    /// Whether text goes on from its <paramref name="ascii"/> ASCII characters as text written as UTF-16
    /// (<see cref="StartsAsUtf16"/> from there). Only a character of three UTF-8 bytes can begin such text: no text of
    /// one- and two-byte characters takes more than two bytes a character.
    /// </summary>
    private static bool GoesOnAsUtf16(ReadOnlySpan<char> chars, int ascii, int probeChars)
        => chars[ascii] >= '\u0800' && StartsAsUtf16(chars[ascii..], probeChars);

    /// <summary>
    /// Whether text starts as text written as UTF-16 (more than two UTF-8 bytes a character: CJK) in its first
    /// <paramref name="probeChars"/> characters: such text is counted before it is written, not transcoded to UTF-8 for
    /// nothing. Only a guess: text found to be UTF-16 after it was transcoded is written as UTF-16 all the same.
    /// </summary>
    private static bool StartsAsUtf16(ReadOnlySpan<char> chars, int probeChars)
    {
        ReadOnlySpan<char> probe = chars[..Math.Min(probeChars, chars.Length)];
        return Encoding.UTF8.GetByteCount(probe) > 2 * probe.Length;
    }

    /// <summary>The size of a sized text record's header: its type byte and its length field.</summary>
    private static int TextHeaderSize(RecordType sizedType) => 1 + BinaryXmlPrimitives.GetLengthFieldSize(sizedType);

    /// <summary>The size of the header of a Chars record of ASCII text of as many characters as <paramref name="chars"/>.</summary>
    private static int AsciiTextHeaderSize(ReadOnlySpan<char> chars)
        => TextHeaderSize(BinaryXmlPrimitives.GetSizedTextType(RecordType.Chars8Text, chars.Length));

    /// <summary>Writes UTF-8 that is already encoded as a Chars record (.NET's <c>WriteText(byte[])</c>).</summary>
    private void WriteUtf8TextNode(ReadOnlySpan<byte> utf8)
    {
        WriteTextNodeWithLength(RecordType.Chars8Text, utf8.Length);
        WriteBlock(utf8);
    }

    /// <summary>
    /// Writes the <paramref name="byteCount"/> UTF-8 bytes of <paramref name="chars"/>, of which the first
    /// <paramref name="read"/> characters may be <paramref name="transcoded"/> already.
    /// </summary>
    private void WriteUtf8Payload(ReadOnlySpan<char> chars, int byteCount, ReadOnlySpan<byte> transcoded = default, int read = 0)
    {
        if (_streamOutput is not null && chars.Length - read > StreamTextPieceChars)
        {
            // Modelled before it is written, as a block handed to the stream is (WriteModelledBytes).
            ModelUtf8Chunks(chars, byteCount, _pending + byteCount);
            if (PassesToStream(byteCount)) WriteUtf8PayloadInPieces(chars, transcoded, read);
            else TranscodeUtf8Payload(chars, byteCount, transcoded, read);
            return;
        }
        TranscodeUtf8Payload(chars, byteCount, transcoded, read);
        ModelUtf8Chunks(chars, byteCount, _pending);
    }

    /// <summary>Transcodes the UTF-8 payload of <see cref="WriteUtf8Payload"/> whole into the output memory.</summary>
    private void TranscodeUtf8Payload(ReadOnlySpan<char> chars, int byteCount, ReadOnlySpan<byte> transcoded, int read)
    {
        Span<byte> payload = GetSpan(byteCount);
        transcoded.CopyTo(payload);
        TranscodeUtf8(chars[read..], payload[transcoded.Length..]);
        _pending += byteCount;
    }

    /// <summary>
    /// Over a stream, the UTF-8 payload of text longer than <see cref="StreamTextPieceChars"/> characters (counted and
    /// modelled already) goes to the stream as it is transcoded, a piece at a time, as .NET's writer hands on its
    /// buffer while it transcodes: the writer's buffer holds a piece, not the text. A piece does not end between the
    /// two characters of a surrogate pair.
    /// </summary>
    private void WriteUtf8PayloadInPieces(ReadOnlySpan<char> chars, ReadOnlySpan<byte> transcoded, int read)
    {
        WriteToStream(transcoded);
        while (read < chars.Length)
        {
            int size = Math.Min(StreamTextPieceChars, chars.Length - read);
            if (read + size < chars.Length && char.IsHighSurrogate(chars[read + size - 1])) size--;
            _pending += TranscodeUtf8Vectorized(chars.Slice(read, size), GetSpan(size * MaxBytesPerChar));
            CommitToStream();
            read += size;
        }
    }

    /// <summary>
    /// Models the chunks of UTF-8 text of <paramref name="byteCount"/> bytes ending at <paramref name="end"/>: ASCII
    /// text (one byte per char) needs no chunk's byte count.
    /// </summary>
    private void ModelUtf8Chunks(ReadOnlySpan<char> chars, int byteCount, int end)
        => ModelChunks(chars, end, byteCount, Utf8ChunkChars, MaxBytesPerChar, byteCount == chars.Length ? 1 : CountedUtf8);

    /// <summary>
    /// Models .NET's chunked transcoding of a long string: chunks of 170 chars for UTF-8 (256 for UTF-16), one
    /// char shorter when a chunk would end on a high surrogate, each reserving its worst case. Only the byte counts
    /// of the last two chunks can change the outcome (every earlier full chunk forces a flush), so only those are
    /// counted exactly when <paramref name="bytesPerChar"/> is <see cref="CountedUtf8"/> (UTF-8 that is not all ASCII);
    /// otherwise a chunk is that many bytes per char. The text's <paramref name="byteCount"/> bytes end at the writer's
    /// position <paramref name="end"/> (written, or about to be).
    /// </summary>
    private void ModelChunks(ReadOnlySpan<char> chars, int end, int byteCount, int chunkChars, int reservePerChar, int bytesPerChar)
    {
        int remaining = chars.Length;
        int position = 0;
        // The chunks are modelled at the positions their counted bytes give; the offset after the last is then the
        // offset at the text's end.
        int modelled = end - byteCount;
        while (remaining > 0)
        {
            int size = remaining;
            if (remaining > chunkChars)
            {
                size = chunkChars;
                if (char.IsHighSurrogate(chars[position + size - 1])) size--;
            }
            _model.Reserve(modelled, size * reservePerChar);
            bool lastTwo = remaining - size <= chunkChars;
            modelled += bytesPerChar != CountedUtf8 ? size * bytesPerChar : lastTwo ? Encoding.UTF8.GetByteCount(chars.Slice(position, size)) : size;
            position += size;
            remaining -= size;
            if (bytesPerChar == 1 && remaining > 2 * chunkChars)
            {
                // ASCII: no surrogate shortens a chunk, and each full chunk after the first flushes the buffer whatever
                // it held (its worst case never fits behind a chunk's bytes): the chunks before the last two are
                // skipped, and the first of those flushes as they would have.
                int skipped = ((remaining - 1) / chunkChars - 1) * chunkChars;
                modelled += skipped;
                position += skipped;
                remaining -= skipped;
            }
        }
        _model.MoveTo(modelled, end);
    }

    /// <summary>
    /// Transcodes <paramref name="chars"/> into a <paramref name="destination"/> that holds their worst case; text
    /// (<paramref name="asText"/>) to be written as UTF-16 only counted: text of up to 16 characters
    /// (<see cref="TranscodeShortTextUtf8"/>), and longer text that goes on from its ASCII start as CJK
    /// (<see cref="TranscodeTextUtf8"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int TranscodeUtf8(ReadOnlySpan<char> chars, Span<byte> destination, bool asText = false)
    {
        // Names and short texts are mostly ASCII: a narrowing copy, with the full transcoder for the rest. Up to 16
        // characters (most names) are tested and narrowed inline, in the caller, in one or two steps; the vectorised
        // copy's setup and a call cost more than that.
        int n = chars.Length;
        if (n <= 16 && destination.Length >= n)
        {
            if (n >= 8 && Vector128.IsHardwareAccelerated)
            {
                if (TryNarrowAscii8To16(chars, destination)) return n;
            }
            else if (TryNarrowAsciiUpTo8(chars, destination))
            {
                return n;
            }
        }
        if (!asText) return TranscodeUtf8Vectorized(chars, destination);
        return n > 16 ? TranscodeTextUtf8(chars, destination) : TranscodeShortTextUtf8(chars, destination);
    }

    /// <summary>
    /// Transcodes text of up to 16 characters that is not all ASCII into <paramref name="destination"/> (room for its
    /// worst case) and returns its byte count. Text to be written as UTF-16 (two or more CJK characters) is only
    /// counted, as longer text is (<see cref="TranscodeTextUtf8"/>): told from its characters' ranges in a few vector
    /// steps (<see cref="IsShortUtf16Text"/>), where the transcoder's call and setup cost more than its UTF-16 copy.
    /// Other text goes to the transcoder whole, without the ASCII step that found it is not all ASCII.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int TranscodeShortTextUtf8(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        if (IsShortUtf16Text(chars, out int byteCount)) return byteCount;
        bool done = TryTranscodeUtf8After(chars, destination, 0, out _, out int written);
        Debug.Assert(done, "The destination holds the worst case: only a lone surrogate stops the transcoder, and it throws.");
        return written;
    }

    /// <summary>
    /// Whether text of up to 16 characters is to be written as UTF-16 (its UTF-8 bytes / 2 &gt; its characters), and
    /// then its UTF-8 <paramref name="byteCount"/>: each character takes a byte, one more from U+0080 on and another from
    /// U+0800 on. Text without a character from U+0800 on takes at most two bytes a character, and text with a
    /// surrogate (a pair, or a lone one the transcoder is to fail on) is left to the transcoder: both are told
    /// <see langword="false"/> before anything is counted. Eight to sixteen characters are tested as two vectors, the
    /// first eight and the last eight, of which the lanes the first holds already are left out of the count.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsShortUtf16Text(ReadOnlySpan<char> chars, out int byteCount)
    {
        int n = chars.Length;
        Debug.Assert(n <= 16);
        byteCount = n;
        if (n >= 8 && Vector128.IsHardwareAccelerated)
        {
            ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(chars));
            Vector128<ushort> head = Vector128.LoadUnsafe(ref source);
            Vector128<ushort> tail = Vector128.LoadUnsafe(ref source, (nuint)(n - 8));
            Vector128<ushort> threeBytes = Vector128.Create((ushort)0x7FF);
            if (Vector128.LessThanOrEqualAll(Vector128.Max(head, tail), threeBytes)) return false;
            Vector128<ushort> surrogateStart = Vector128.Create((ushort)0xD800), surrogates = Vector128.Create((ushort)0x800);
            if (Vector128.LessThanAny(head - surrogateStart, surrogates) || Vector128.LessThanAny(tail - surrogateStart, surrogates)) return false;
            tail &= Vector128.GreaterThanOrEqual(Vector128.Create((ushort)0, 1, 2, 3, 4, 5, 6, 7), Vector128.Create((ushort)(16 - n)));
            Vector128<ushort> twoBytes = Vector128.Create((ushort)0x7F);
            // A lane compared true is all ones (-1): subtracted, it counts one.
            Vector128<ushort> more = Vector128<ushort>.Zero - Vector128.GreaterThan(head, twoBytes) - Vector128.GreaterThan(head, threeBytes)
                - Vector128.GreaterThan(tail, twoBytes) - Vector128.GreaterThan(tail, threeBytes);
            byteCount += Vector128.Sum(more);
            return byteCount / 2 > n;
        }
        foreach (char c in chars)
        {
            if (c < 0x80) continue;
            if (char.IsSurrogate(c)) return false;
            byteCount += c < 0x800 ? 1 : 2;
        }
        return byteCount / 2 > n;
    }

    /// <summary>
    /// <see cref="TranscodeUtf8"/> for a name: ASCII names of up to 16 characters narrowed in line, the rest out of line
    /// (<see cref="TranscodeNameUtf8"/>). What is inlined here counts against the JIT's inlining budget of every caller
    /// that inlines a start tag: the step for 8 to 16 characters was out of line until a one-element document's reset
    /// and flush took less of that budget (the model's <see cref="InBoxBufferModel.Restart"/>, the stream's flush and
    /// the rare resets out of line), so that its flush still fits behind it (benchmarks/HISTORY.md, runs 779 on).
    /// </summary>
    /// <remarks>
    /// Its four callers write the name's length byte themselves. One helper for the length byte and the name (in place
    /// of this method, or around it) left a loop of prefixed start tags with its record written as a call (W3's
    /// "prefixed" names 1.5 ns slower, HISTORY.md runs 1015–1022): the callers keep their two lines.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int TranscodeName(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        int n = chars.Length;
        if (n <= 16 && destination.Length >= n)
        {
            if (n >= 8 && Vector128.IsHardwareAccelerated) return TryNarrowAscii8To16(chars, destination) ? n : TranscodeNameUtf8(chars, destination);
            if (TryNarrowAsciiUpTo8(chars, destination)) return n;
        }
        return TranscodeNameUtf8(chars, destination);
    }

    /// <summary>
    /// A name longer than 16 characters, or not ASCII: the transcoder, out of line. Inlined, its ASCII step took the
    /// inlining budget of some callers' loops, which then left the end tag's path as calls (W3's inline names).
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int TranscodeNameUtf8(ReadOnlySpan<char> chars, Span<byte> destination) => TranscodeUtf8Vectorized(chars, destination);

    /// <summary>
    /// Eight to sixteen characters, if all ASCII, narrowed into <paramref name="destination"/> (room for them): the
    /// first eight and the last eight (overlapping when fewer than sixteen), tested and narrowed as two vectors.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryNarrowAscii8To16(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        int n = chars.Length;
        Debug.Assert(n is >= 8 and <= 16 && destination.Length >= n);
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(chars));
        Vector128<ushort> head = Vector128.LoadUnsafe(ref source);
        Vector128<ushort> tail = Vector128.LoadUnsafe(ref source, (nuint)(n - 8));
        if (((head | tail) & Vector128.Create((ushort)0xFF80)) != Vector128<ushort>.Zero) return false;
        Vector128<byte> narrow = Vector128.Narrow(head, tail);
        ref byte target = ref MemoryMarshal.GetReference(destination);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, n - 8), narrow.AsUInt64().GetElement(1));
        Unsafe.WriteUnaligned(ref target, narrow.AsUInt64().GetElement(0));
        return true;
    }

    /// <summary>
    /// Up to eight characters (sixteen without 128-bit vectors), if all ASCII, narrowed into
    /// <paramref name="destination"/> (room for them): four to eight as the first four and the last four (overlapping
    /// when fewer than eight), each tested and narrowed as one 64-bit word; fewer one by one.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryNarrowAsciiUpTo8(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        int n = chars.Length;
        if (n is >= 4 and <= 8 && BitConverter.IsLittleEndian)
        {
            ref byte source = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(chars));
            ulong head = Unsafe.ReadUnaligned<ulong>(ref source);
            ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref source, (n - 4) * sizeof(char)));
            if (((head | tail) & 0xFF80_FF80_FF80_FF80) != 0) return false;
            ref byte target = ref MemoryMarshal.GetReference(destination);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, n - 4), NarrowAsciiQuad(tail));
            Unsafe.WriteUnaligned(ref target, NarrowAsciiQuad(head));
            return true;
        }
        // One by one, through references: the callers hold room for every character (destination.Length >= n). The
        // span indexers' range checks were inlined with this into every caller that writes a name and counted against
        // its inlining budget; a loop of prefixed start tags then had its end tag's path left as calls once the
        // session's keys took less of it (benchmarks/HISTORY.md, runs 1034–1039).
        Debug.Assert(destination.Length >= n);
        ref char from = ref MemoryMarshal.GetReference(chars);
        ref byte into = ref MemoryMarshal.GetReference(destination);
        for (int i = 0; i < n; i++)
        {
            char c = Unsafe.Add(ref from, i);
            if (c >= 0x80) return false;
            Unsafe.Add(ref into, i) = (byte)c;
        }
        return true;
    }

    /// <summary>Four ASCII characters (UTF-16, little-endian, in one 64-bit word) as four bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint NarrowAsciiQuad(ulong chars)
    {
        chars = (chars | chars >> 8) & 0x0000_FFFF_0000_FFFF;
        return (uint)(chars | chars >> 16);
    }

    /// <summary>Transcodes <paramref name="chars"/> into a <paramref name="destination"/> that holds their worst case.</summary>
    private static int TranscodeUtf8Vectorized(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        bool done = TryTranscodeUtf8(chars, destination, out _, out int written);
        Debug.Assert(done, "The destination holds the worst case: only a lone surrogate stops the transcoder, and it throws.");
        return written;
    }

    /// <summary>
    /// Transcodes <paramref name="chars"/> into <paramref name="destination"/> as far as it holds: whether all of them
    /// were, and how many characters were read and bytes written (a surrogate pair is never split). A lone surrogate in
    /// the part transcoded fails as .NET's writer does.
    /// </summary>
    private static bool TryTranscodeUtf8(ReadOnlySpan<char> chars, Span<byte> destination, out int read, out int written)
    {
        OperationStatus status = System.Text.Ascii.FromUtf16(chars, destination, out int ascii);
        if (status != OperationStatus.Done) return TryTranscodeUtf8After(chars, destination, ascii, out read, out written);
        read = written = ascii;
        return true;
    }

    /// <summary>
    /// <see cref="TryTranscodeUtf8"/> after its first step, which wrote the <paramref name="ascii"/> ASCII characters
    /// before the first other one (or as many as the destination holds): the transcoder goes on from there.
    /// </summary>
    private static bool TryTranscodeUtf8After(ReadOnlySpan<char> chars, Span<byte> destination, int ascii, out int read, out int written)
    {
        OperationStatus status = Utf8.FromUtf16(chars[ascii..], destination[ascii..], out int more, out int moreWritten, replaceInvalidSequences: false);
        if (status == OperationStatus.InvalidData) ThrowInvalidText(chars);
        read = ascii + more;
        written = ascii + moreWritten;
        return status == OperationStatus.Done;
    }

    /// <summary>
    /// The UTF-8 byte count of <paramref name="chars"/> from <paramref name="start"/> on (<paramref name="length"/>
    /// characters; -1: to the end); a lone surrogate fails as .NET's writer does, for the whole text.
    /// </summary>
    private static int GetUtf8ByteCount(ReadOnlySpan<char> chars, int start = 0, int length = -1)
    {
        try
        {
            return BinaryXmlPrimitives.StrictUtf8.GetByteCount(length < 0 ? chars[start..] : chars.Slice(start, length));
        }
        catch (EncoderFallbackException)
        {
            ThrowInvalidText(chars);
            return 0;
        }
    }

    /// <summary>
    /// Writes the UTF-16 payload of a text record, modelled already: its bytes as they are in memory (little-endian),
    /// which an output stream takes without a copy into the buffer when they are many.
    /// </summary>
    private void WriteUtf16Payload(ReadOnlySpan<char> chars)
    {
        if (BitConverter.IsLittleEndian)
        {
            WriteModelledBytes(MemoryMarshal.AsBytes(chars));
            return;
        }
        WriteUtf16(chars, GetSpan(chars.Length * 2));
        _pending += chars.Length * 2;
    }

    private static int WriteUtf16(ReadOnlySpan<char> chars, Span<byte> destination)
    {
        if (BitConverter.IsLittleEndian)
        {
            MemoryMarshal.AsBytes(chars).CopyTo(destination);
        }
        else
        {
            for (int i = 0; i < chars.Length; i++)
            {
                System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(destination[(2 * i)..], chars[i]);
            }
        }
        return chars.Length * 2;
    }

    /// <summary>
    /// A lone surrogate: the <see cref="EncoderFallbackException"/> .NET's writer throws, from the throwing UTF-8
    /// encoding it uses (its message, character and index). It writes text of up to 31 characters byte by byte up to its
    /// first non-ASCII character and encodes the rest, so there the index counts from that character; longer text is
    /// encoded whole.
    /// </summary>
    private static void ThrowInvalidText(ReadOnlySpan<char> chars)
    {
        int from = chars.Length <= 31 ? Math.Max(0, chars.IndexOfAnyExceptInRange('\0', '\x7F')) : 0;
        BinaryXmlPrimitives.StrictUtf8.GetByteCount(chars[from..]);
        throw new EncoderFallbackException("The text has a lone surrogate.");
    }
}
