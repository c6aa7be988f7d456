using System.Buffers;
using System.Xml;
using FsCheck;
using FsCheck.Fluent;
using Xunit;

namespace BinaryXml.Tests;

/// <summary>
/// Differential properties against the in-box oracle: the same random call sequence through
/// <see cref="BinaryXmlWriter"/> and <c>XmlDictionaryWriter.CreateBinaryWriter</c> gives identical bytes (and the
/// same session strings); the in-box reader and ours see the same node stream in those bytes; and the compact mode
/// (always fold) stays readable by the in-box reader with the same node stream.
/// </summary>
public sealed class WriterDifferentialProperties
{
    [Fact]
    public void Same_calls_give_the_in_box_bytes_and_both_readers_agree()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            List<Call> calls = doc.Calls(withFlushes: true);
            RecordingWriterSession? inBoxSession = context.CreateWriterSession(), ourSession = context.CreateWriterSession();
            (byte[] inBox, Exception? inBoxError) = WriterScript.RunInBox(calls, context, inBoxSession);
            (byte[] ours, Exception? ourError) = WriterScript.RunNative(calls, context, ourSession);
            Assert.Equal(inBoxError?.GetType(), ourError?.GetType());
            Assert.Equal(Hex.Format(inBox), Hex.Format(ours));
            Assert.Equal(inBoxSession?.Strings, ourSession?.Strings);
            if (inBoxError is not null) return;

            List<string> expected = NodeStream.FromInBox(inBox, context.Dictionary, inBoxSession?.ToReaderSession());
            Assert.Equal(expected, NodeStream.FromNative(inBox, context.Dictionary, inBoxSession?.ToReaderSession()));
        }), 1000);
    }

    [Fact]
    public void A_reused_writer_gives_the_in_box_bytes_document_after_document()
    {
        // One writer for all the documents, reset before each (also after a document that failed half-way), and
        // now and then closed and replaced by a new one, which takes over the closed writer's scopes and buffers.
        var output = new ArrayBufferWriter<byte>();
        BinaryXmlWriter? writer = null;
        int documents = 0;
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            List<Call> calls = doc.Calls(withFlushes: true);
            RecordingWriterSession? inBoxSession = context.CreateWriterSession(), ourSession = context.CreateWriterSession();
            (byte[] inBox, Exception? inBoxError) = WriterScript.RunInBox(calls, context, inBoxSession);

            if (writer is not null && documents % 3 == 1)
            {
                // A document abandoned half-way (its scopes, declarations and pending attribute left open).
                writer.Reset(new ArrayBufferWriter<byte>(), context.Dictionary, context.CreateWriterSession());
                try
                {
                    foreach (Call c in calls.Take(calls.Count / 2)) WriterScript.ApplyNative(writer, c, context);
                }
                catch (Exception e) when (e is ArgumentException or InvalidOperationException or XmlException or NotSupportedException)
                {
                }
            }
            output.ResetWrittenCount();
            if (writer is null || documents++ % 7 == 6)
            {
                writer?.Close();
                writer = new BinaryXmlWriter(output, context.Dictionary, ourSession);
            }
            else
            {
                writer.Reset(output, context.Dictionary, ourSession);
            }
            Exception? ourError = null;
            try
            {
                foreach (Call c in calls) WriterScript.ApplyNative(writer, c, context);
                if (writer.WriteState != WriteState.Closed) writer.Flush();
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException or XmlException or NotSupportedException)
            {
                ourError = e;
            }
            Assert.Equal(inBoxError?.GetType(), ourError?.GetType());
            Assert.Equal(Hex.Format(inBox), Hex.Format(output.WrittenSpan));
        }), 1000);
    }

    [Fact]
    public void Compact_output_reads_as_the_same_document_in_the_in_box_reader()
    {
        PropertyConfig.Verify(Prop.ForAll(Generators.DocumentArbitrary, doc =>
        {
            var context = new ScriptContext(useSession: doc.UseSession);
            List<Call> calls = doc.Calls(withFlushes: true);
            RecordingWriterSession? inBoxSession = context.CreateWriterSession(), ourSession = context.CreateWriterSession();
            (byte[] inBox, Exception? inBoxError) = WriterScript.RunInBox(calls, context, inBoxSession);
            (byte[] compact, Exception? ourError) = WriterScript.RunNative(calls, context, ourSession, new BinaryXmlWriterOptions { AlwaysFoldEndElements = true });
            Assert.Equal(inBoxError?.GetType(), ourError?.GetType());
            if (inBoxError is not null) return;
            Assert.True(compact.Length <= inBox.Length);
            Assert.Equal(
                NodeStream.FromInBox(inBox, context.Dictionary, inBoxSession?.ToReaderSession()),
                NodeStream.FromInBox(compact, context.Dictionary, ourSession?.ToReaderSession()));
        }), 1000);
    }
}
