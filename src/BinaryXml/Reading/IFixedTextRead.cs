namespace BinaryXml;

/// <summary>
/// How a one-step element read converts a typed record of fixed size closing the element: the native reader's
/// <c>ReadElementContentAs…</c> (the <c>Get…</c> methods' rules) and the drop-in reader's (.NET's rules) each implement
/// it for every value type. The drop-in reader's typed reads of text implement it too, for the UTF-8 of a character
/// record (given as <see cref="RecordType.Chars8Text"/>), and take only ASCII. Static members of a struct, so that
/// each read's code is specialized.
/// </summary>
internal interface IFixedTextRead<T>
{
    /// <summary>Converts the payload of a record (its plain, even type) the read takes; false for the others.</summary>
    static abstract bool TryRead(RecordType record, ReadOnlySpan<byte> payload, out T value);
}
