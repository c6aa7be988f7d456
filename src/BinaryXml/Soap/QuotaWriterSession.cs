using System.Text;
using System.Xml;

namespace BinaryXml.Soap;

/// <summary>
/// A writer session with WCF's MaxSessionSize rule (dotnet/wcf <c>XmlBinaryWriterSessionWithQuota</c>): a string
/// costs its MultiByteInt31 length prefix plus its UTF-8 bytes; once a string does not fit, the session adds nothing
/// more and later names are written inline. Records the strings each message adds, for its StringTable.
/// </summary>
internal sealed class QuotaWriterSession : XmlBinaryWriterSession
{
    private readonly int _maxSessionSize;
    private int _bytesRemaining;

    public QuotaWriterSession(int maxSessionSize)
    {
        _maxSessionSize = maxSessionSize;
        _bytesRemaining = maxSessionSize;
    }

    public List<string> NewStrings { get; } = [];

    public List<string> AllStrings { get; } = [];

    public int BytesRemaining => _bytesRemaining;

    public override bool TryAdd(XmlDictionaryString value, out int key)
    {
        if (_bytesRemaining == 0)
        {
            key = -1;
            return false;
        }
        int length = Encoding.UTF8.GetByteCount(value.Value);
        int cost = length + MultiByteInt31.GetByteCount(length);
        if (cost > _bytesRemaining)
        {
            key = -1;
            _bytesRemaining = 0;
            return false;
        }
        if (!base.TryAdd(value, out key)) return false;
        NewStrings.Add(value.Value);
        AllStrings.Add(value.Value);
        _bytesRemaining -= cost;
        return true;
    }

    public void ResetSession()
    {
        Reset();
        NewStrings.Clear();
        AllStrings.Clear();
        _bytesRemaining = _maxSessionSize;
    }
}
