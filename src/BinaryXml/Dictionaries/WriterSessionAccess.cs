using System.Runtime.CompilerServices;
using System.Xml;

namespace BinaryXml;

/// <summary>
/// Reaches <see cref="XmlBinaryWriterSession"/>'s internal <c>TryLookup</c> (and its count of keys), which .NET's
/// writer calls before <see cref="XmlBinaryWriterSession.TryAdd"/>: it finds a string added earlier from the same
/// dictionary and key, or any earlier string with the same value. Without it a session could not be shared with
/// in-box writers, and a string used twice would be added twice. <see cref="UnsafeAccessorAttribute"/> binds it
/// without reflection, so it is trimming- and AOT-safe.
/// </summary>
internal static class WriterSessionAccess
{
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "TryLookup")]
    public static extern bool TryLookup(XmlBinaryWriterSession session, XmlDictionaryString value, out int key);

    /// <summary>
    /// The session's count of keys (the next key it gives): only a reset lowers it, only an add raises it, so an
    /// unchanged count means the keys found before are still the session's (<see cref="SessionKeyCache"/>).
    /// </summary>
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_nextKey")]
    public static extern ref int NextKey(XmlBinaryWriterSession session);
}
