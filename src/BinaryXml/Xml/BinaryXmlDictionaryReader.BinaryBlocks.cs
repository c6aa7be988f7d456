using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Binary content read as characters in blocks, as .NET's reader reads it (its <c>ReadBytes</c>), the one place of that
/// rule for every binary read that does not take bytes straight from a record: base64 text read in pieces, BinHex, an
/// attribute's value, a value read in part as characters.
/// </summary>
public sealed partial class BinaryXmlDictionaryReader
{
    /// <summary>The most bytes one read in blocks gives, as in .NET's reader.</summary>
    private const int MaxBytesPerBlockRead = 512;

    /// <summary>Where a read in blocks takes its characters.</summary>
    private enum BlockSource
    {
        /// <summary>
        /// The content's text node by node, straight from the input where it is ASCII (<see cref="ReadPieceChars"/>):
        /// base64 text read so costs no string. Base64 only.
        /// </summary>
        ContentPieces,

        /// <summary>The current text node's characters only, as <see cref="ContentPieces"/> reads them.</summary>
        NodePieces,

        /// <summary>The content's characters as <c>ReadContentAsChars</c> reads them (<see cref="ReadContentChars"/>).</summary>
        ContentChars,

        /// <summary>The current value's characters as <c>ReadValueChunk</c> reads them.</summary>
        ValueChars,
    }

    /// <summary>
    /// What a read in blocks leaves for the next: the characters of a block begun (fewer than a block's) and the bytes
    /// of a block decoded that did not fit (fewer than three).
    /// </summary>
    private struct BlockReadState
    {
        public BlockChars Carry;
        public int CarryCount;
        public BlockBytes Trail;
        public int TrailCount;

        /// <summary>Whether anything is kept for the next read.</summary>
        public readonly bool Kept => CarryCount > 0 || TrailCount > 0;

        /// <summary>Forgets what was kept.</summary>
        public void Clear() => CarryCount = TrailCount = 0;
    }

    /// <summary>The characters of a block (four base64 characters, or two BinHex digits).</summary>
    [InlineArray(4)]
    private struct BlockChars
    {
        private char _element;
    }

    /// <summary>The bytes one block decodes to.</summary>
    [InlineArray(4)]
    private struct BlockBytes
    {
        private byte _element;
    }

    /// <summary>
    /// Reads the next bytes of base64 or BinHex (<paramref name="hex"/>) from characters, as .NET's reader does: bytes of
    /// a block decoded before that did not fit first; 0 on an element or an end tag; otherwise characters are read from
    /// <paramref name="source"/> until a block's are in hand (a line feed read alone dropped from a content read, as
    /// base64 written in lines gives one), at most as many as the bytes asked for take, 512 bytes at most, white space
    /// counted; those beyond whole blocks are kept for the next read; characters that do not decode are taken again
    /// without white space, and read on from there. Fewer than a block's bytes asked for, the block is decoded and what
    /// does not fit kept. What is kept stays kept when the read fails, as in .NET's reader.
    /// </summary>
    private int ReadBlocks(Span<byte> destination, bool hex, BlockSource source, ref BlockReadState state)
    {
        if (state.TrailCount > 0) return TakeBlockTrail(destination, ref state);
        if (NodeType is XmlNodeType.Element or XmlNodeType.EndElement) return 0;
        int byteBlock = hex ? 1 : 3, charBlock = hex ? 2 : 4;
        int byteCount = Math.Min(destination.Length, MaxBytesPerBlockRead);
        int maxChars = byteCount < byteBlock ? charBlock : byteCount / byteBlock * charBlock;
        bool content = source is BlockSource.ContentPieces or BlockSource.ContentChars;
        Span<char> chars = stackalloc char[MaxBytesPerBlockRead * 2];
        int count = 0;
        while (true)
        {
            ((ReadOnlySpan<char>)state.Carry)[..state.CarryCount].CopyTo(chars[count..]);
            count += state.CarryCount;
            state.CarryCount = 0;
            while (count < charBlock)
            {
                int n = ReadBlockChars(chars[count..maxChars], source);
                if (content && n == 1 && chars[count] == '\n') continue;
                if (n == 0) break;
                count += n;
            }
            if (count >= charBlock)
            {
                state.CarryCount = count % charBlock;
                count -= state.CarryCount;
                chars.Slice(count, state.CarryCount).CopyTo(state.Carry);
            }
            bool whole = byteCount >= byteBlock;
            if (TryDecodeBlocks(chars[..count], hex, whole ? destination : state.Trail, out int written))
            {
                if (whole) return written;
                state.TrailCount = written;
                return TakeBlockTrail(destination, ref state);
            }
            int kept = Base64Blocks.RemoveWhitespace(chars[..count]);
            if (kept == count)
            {
                throw new BinaryXmlException(
                    $"The {(content ? "content" : "value")} is not {(hex ? "BinHex" : "base64")} (in '{new string(chars[..Math.Min(count, 64)])}')", _state.BytesConsumed);
            }
            count = kept;
        }
    }

    /// <summary>The next characters for a read in blocks, as many as fit and <paramref name="source"/> gives in one step; 0 at its end.</summary>
    private int ReadBlockChars(Span<char> into, BlockSource source) => source switch
    {
        BlockSource.ContentPieces => ReadPieceChars(into, withinNode: false),
        BlockSource.NodePieces => ReadPieceChars(into, withinNode: true),
        BlockSource.ContentChars => ReadContentChars(into),
        _ => ReadValueChunk(into),
    };

    /// <summary>Hands out bytes of a block decoded before that did not fit.</summary>
    private static int TakeBlockTrail(Span<byte> destination, ref BlockReadState state)
    {
        Span<byte> trail = ((Span<byte>)state.Trail)[..state.TrailCount];
        int n = Math.Min(trail.Length, destination.Length);
        trail[..n].CopyTo(destination);
        trail[n..].CopyTo(trail);
        state.TrailCount -= n;
        return n;
    }

    /// <summary>
    /// Decodes whole blocks of base64 (<see cref="Base64Blocks"/>: a padded block anywhere gives its bytes) or BinHex
    /// (two hex digits), with no white space, as .NET's reader decodes a block of characters; false when they do not
    /// decode.
    /// </summary>
    private static bool TryDecodeBlocks(ReadOnlySpan<char> chars, bool hex, Span<byte> destination, out int written)
    {
        written = 0;
        if (hex)
            return chars.Length % 2 == 0 && Convert.FromHexString(chars, destination, out _, out written) == OperationStatus.Done;
        return Base64Blocks.TryDecode(chars, destination, out written);
    }

    /// <summary>
    /// Reads the content's characters as XmlDictionaryReader's <c>ReadContentAsChars</c> reads them: the current text
    /// node's (or attribute's) value in a chunk, moving on past a node used up and any that is not text; 0 at an
    /// element, an end tag, the end of an attribute's value or the end of the input. (The reader does not override
    /// <c>ReadContentAsChars</c>: this is its loop over the span that reads in blocks use.)
    /// </summary>
    private int ReadContentChars(Span<char> destination)
    {
        while (true)
        {
            XmlNodeType nodeType = NodeType;
            if (nodeType is XmlNodeType.Element or XmlNodeType.EndElement) return 0;
            if (nodeType is XmlNodeType.Text or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace or XmlNodeType.CDATA or XmlNodeType.Attribute)
            {
                int n = ReadValueChunk(destination);
                if (n > 0 || nodeType == XmlNodeType.Attribute) return n;
            }
            if (!Read()) return 0;
        }
    }
}
