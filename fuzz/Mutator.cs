using System.Buffers.Binary;

namespace BinaryXml.Fuzz;

/// <summary>
/// Mutations aimed at binary XML: bit flips; byte insert, delete, replace and duplicate; record bytes; interesting
/// values written as MultiByteInt31s and as 8/16/32-bit lengths (0, 1, boundaries, the bytes remaining ± 1,
/// int.MaxValue); splicing two inputs.
/// </summary>
internal static class Mutator
{
    private static readonly byte[] s_interestingBytes =
        [0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0x09, 0x0B, 0x40, 0x41, 0x42, 0x43, 0x5E, 0x7F, 0x80, 0x81, 0x88, 0x8D, 0x98, 0x99, 0x9A, 0x9C, 0x9E, 0xA2, 0xA4, 0xA6, 0xA8, 0xAA, 0xB5, 0xB6, 0xBA, 0xBC, 0xBE, 0xFF];

    public static byte[] Mutate(byte[] source, List<byte[]> corpus, Random r, int maxLength)
    {
        var data = new List<byte>(source);
        int operations = 1 + r.Next(4);
        for (int i = 0; i < operations; i++)
        {
            int pos = data.Count == 0 ? 0 : r.Next(data.Count);
            switch (r.Next(10))
            {
                case 0:
                    if (data.Count > 0) data[pos] ^= (byte)(1 << r.Next(8));
                    break;
                case 1:
                    if (data.Count > 0) data[pos] = (byte)r.Next(256);
                    break;
                case 2:
                    if (data.Count > 0) data[pos] = s_interestingBytes[r.Next(s_interestingBytes.Length)];
                    break;
                case 3:
                    byte[] insert = new byte[1 + r.Next(8)];
                    r.NextBytes(insert);
                    data.InsertRange(pos, insert);
                    break;
                case 4:
                    if (data.Count > 1) data.RemoveRange(pos, Math.Min(1 + r.Next(16), data.Count - pos));
                    break;
                case 5:
                    if (data.Count > 1)
                    {
                        int start = r.Next(data.Count), length = Math.Min(1 + r.Next(32), data.Count - start);
                        data.InsertRange(r.Next(data.Count), data.GetRange(start, length));
                    }
                    break;
                case 6:
                    Replace(data, pos, MultiByteInt31Bytes(Interesting(r, data.Count - pos)), r.Next(1, 6));
                    break;
                case 7:
                {
                    byte[] value = new byte[4];
                    BinaryPrimitives.WriteInt32LittleEndian(value, Interesting(r, data.Count - pos));
                    int width = r.Next(3) switch { 0 => 1, 1 => 2, _ => 4 };
                    Replace(data, pos, value.AsSpan(0, width).ToArray(), width);
                    break;
                }
                case 8:
                {
                    byte[] other = corpus[r.Next(corpus.Count)];
                    int cut = r.Next(other.Length + 1);
                    data.RemoveRange(pos, data.Count - pos);
                    data.AddRange(other.AsSpan(cut).ToArray());
                    break;
                }
                default:
                {
                    // Repeat a slice: deep nesting and long runs of records.
                    if (data.Count > 0)
                    {
                        int start = r.Next(data.Count), length = Math.Min(1 + r.Next(8), data.Count - start);
                        List<byte> slice = data.GetRange(start, length);
                        int times = 1 + r.Next(64);
                        for (int t = 0; t < times && data.Count < maxLength; t++) data.InsertRange(start, slice);
                    }
                    break;
                }
            }
        }
        if (data.Count > maxLength) data.RemoveRange(maxLength, data.Count - maxLength);
        return data.ToArray();
    }

    private static int Interesting(Random r, int remaining) => r.Next(14) switch
    {
        0 => 0, 1 => 1, 2 => 127, 3 => 128, 4 => 255, 5 => 256, 6 => 16383, 7 => 16384, 8 => 65535, 9 => 65536,
        10 => int.MaxValue, 11 => Math.Max(0, remaining - 1), 12 => Math.Max(0, remaining), _ => Math.Max(0, remaining + 1),
    };

    private static byte[] MultiByteInt31Bytes(int value)
    {
        byte[] buffer = new byte[5];
        return buffer.AsSpan(0, MultiByteInt31.Write(buffer, value)).ToArray();
    }

    private static void Replace(List<byte> data, int pos, byte[] value, int replaced)
    {
        replaced = Math.Min(replaced, data.Count - pos);
        if (replaced > 0) data.RemoveRange(pos, replaced);
        data.InsertRange(pos, value);
    }
}

/// <summary>
/// Coverage stands in for what the decoder did: the transitions between record and token types it read, and the
/// kind of error it stopped at. An input that shows a new transition or error is kept in the corpus.
/// </summary>
internal static class Signature
{
    public static bool Add(HashSet<long> seen, byte[] input, Exception? error)
    {
        bool added = false;
        var r = new BinaryXmlReader(input, null, null, new BinaryXmlReaderOptions { RequireBoundPrefixes = false });
        long previous = 0;
        try
        {
            while (r.Read())
            {
                long current = ((long)r.TokenType << 8) | (byte)r.RecordType;
                added |= seen.Add((previous << 16) | current);
                previous = current;
            }
        }
        catch (BinaryXmlException e)
        {
            added |= seen.Add(0x7F00_0000_0000L ^ Classify(e.Reason) ^ (previous << 24));
        }
        finally
        {
            r.Dispose();
        }
        if (error is BinaryXmlException b) added |= seen.Add(0x7E00_0000_0000L ^ Classify(b.Reason));
        return added;
    }

    /// <summary>The reason without its numbers, so that one kind of error counts once.</summary>
    private static long Classify(string reason)
    {
        long h = 17;
        foreach (char c in reason)
        {
            if (!char.IsDigit(c)) h = h * 31 + c;
        }
        return h & 0xFFFF_FFFF;
    }
}

/// <summary>Ends the process, saving the input, when one execution runs far past the time budget (a hang).</summary>
internal static class Watchdog
{
    private static readonly TimeSpan s_limit = TimeSpan.FromSeconds(30);
    private static byte[]? s_input;
    private static string s_target = "", s_dir = "";
    private static long s_started;
    private static readonly Thread s_thread = StartThread();

    private static Thread StartThread()
    {
        var t = new Thread(() =>
        {
            while (true)
            {
                Thread.Sleep(1000);
                long started = Interlocked.Read(ref s_started);
                if (started != 0 && System.Diagnostics.Stopwatch.GetElapsedTime(started) > s_limit && s_input is byte[] input)
                {
                    Directory.CreateDirectory(s_dir);
                    string file = Path.Combine(s_dir, $"{s_target}-hang-{Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(input))[..12].ToLowerInvariant()}.bin");
                    File.WriteAllBytes(file, input);
                    Console.WriteLine($"FINDING {s_target} hang: {file}");
                    Environment.Exit(3);
                }
            }
        }) { IsBackground = true, Name = "fuzz watchdog" };
        t.Start();
        return t;
    }

    public static Armed Arm(byte[] input, string target, string dir)
    {
        _ = s_thread;
        s_input = input;
        s_target = target;
        s_dir = dir;
        Interlocked.Exchange(ref s_started, System.Diagnostics.Stopwatch.GetTimestamp());
        return default;
    }

    public readonly struct Armed : IDisposable
    {
        public void Dispose() => Interlocked.Exchange(ref s_started, 0);
    }
}

/// <summary>
/// Documented differences between the in-box reader and ours, where one accepts what the other rejects. Each is
/// pinned by a test; anything not listed here is a finding.
/// </summary>
internal static class Leniency
{
    public static string? Classify(Exception? inBox, Exception? ours)
    {
        if (inBox is null && ours is BinaryXmlException b)
        {
            // Ours is stricter: payloads .NET reinterprets without checking.
            if (b.Reason.Contains("not a valid decimal", StringComparison.Ordinal) || b.Reason.Contains("DecimalText value", StringComparison.Ordinal)) return "decimal-flags";
        }
        // .NET's reader cannot convert a QNameDictionaryText list item to join the list (its ValueHandle.ToObject
        // fails); ours renders it as MC-NBFX says (DictionaryReaderContractTests.A_qualified_name_in_a_list_is_read_where_the_in_box_reader_fails).
        if (inBox is InvalidOperationException && ours is null && inBox.StackTrace?.Contains("ValueHandle.ToObject", StringComparison.Ordinal) == true
            && inBox.StackTrace.Contains("GetList", StringComparison.Ordinal))
            return "qname-in-list";
        return null;
    }
}
