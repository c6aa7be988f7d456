using System.Xml;

namespace BinaryXml.Tool;

/// <summary>The marks of <c>decode --types</c> (<see cref="ValueTypeMarks"/>): values' record types, arrays, names' kinds.</summary>
internal sealed partial class XmlEncoder
{
    private const string Types = "int, long, ulong, bool, float, double, decimal, dateTime, timeSpan, guid, uniqueId, base64, dictionary, qname, sessionDictionary, sessionQname; for lists list: and the items' types or text, separated by commas; for arrays bool[], short[], int[], long[], float[], double[], decimal[], dateTime[], timeSpan[], guid[]";

    private static void ReadMark(XmlReader r, ref string? type, ref string? attributeTypes, ref string? inline, ref string? session)
    {
        switch (r.LocalName)
        {
            case ValueTypeMarks.Type: type = r.Value; break;
            case ValueTypeMarks.AttributeTypes: attributeTypes = r.Value; break;
            case ValueTypeMarks.Inline: inline = r.Value; break;
            case ValueTypeMarks.Session: session = r.Value; break;
            default: throw Error(r, $"'{r.LocalName}' is not a mark binxml knows ({ValueTypeMarks.Type}, {ValueTypeMarks.AttributeTypes}, {ValueTypeMarks.Inline}, {ValueTypeMarks.Session}) in {ValueTypeMarks.Namespace}");
        }
    }

    /// <summary>
    /// Reads the mark of a text record in mixed content, a processing instruction whose target is the marks' prefix
    /// (<c>&lt;?t int?&gt;</c>, or empty: <c>&lt;?t?&gt;</c>), into the element it stands in, for the text after it.
    /// </summary>
    private static void ReadTextMark(XmlReader r, Stack<Content> open)
    {
        if (!open.TryPeek(out Content? c)) throw Error(r, $"the mark <?{r.Name}?> stands outside the elements: it marks text in one");
        if (c.Type is not null) throw Error(r, $"an element marked {ValueTypeMarks.Type}=\"{c.Type}\" holds one value: its text takes no mark <?{r.Name}?>");
        string mark = r.Value.Trim();
        if (mark.EndsWith("[]", StringComparison.Ordinal)) throw Error(r, $"text cannot be an array ({mark}): {ValueTypeMarks.Type}=\"{mark}\" marks an array's elements");
        c.Mark = mark;
    }

    private static bool IsText(XmlNodeType type) => type is XmlNodeType.Text or XmlNodeType.CDATA or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace;

    /// <summary>The entries of a list mark, separated by white space.</summary>
    private static string[] List(string value) => value.Split([' ', '\t', '\r', '\n'], StringSplitOptions.RemoveEmptyEntries);

    /// <summary>Gives the attributes that <c>t:attributeTypes</c> names (<c>name=type</c> pairs, names as written) their types.</summary>
    private static void ApplyAttributeTypes(XmlReader r, string list, List<(string Prefix, string Local, string Ns, string Value, string? Type)> attributes)
    {
        var byName = new Dictionary<string, int>();
        for (int a = 0; a < attributes.Count; a++) byName.TryAdd(QName(attributes[a].Prefix, attributes[a].Local), a);
        foreach (string entry in List(list))
        {
            int equals = entry.LastIndexOf('=');
            if (equals <= 0) throw Error(r, $"'{entry}' in {ValueTypeMarks.AttributeTypes} is not name=type");
            string name = entry[..equals], type = entry[(equals + 1)..];
            if (!byName.TryGetValue(name, out int i)) throw Error(r, $"{ValueTypeMarks.AttributeTypes} names '{name}', which the element does not have");
            if (type.EndsWith("[]", StringComparison.Ordinal)) throw Error(r, $"an attribute cannot be an array ({type})");
            attributes[i] = attributes[i] with { Type = type };
        }
    }

    /// <summary>
    /// Writes the element the reader is on and the consecutive siblings with the same name and mark as one Array
    /// record; leaves the reader on the node after them.
    /// </summary>
    private void WriteArray(BinaryXmlWriter w, XmlReader r, string mark)
    {
        string prefix = r.Prefix, local = r.LocalName, ns = r.NamespaceURI;
        var items = new List<string>();
        do
        {
            items.Add(ReadItem(r));
            // (Indentation between items.)
            while (ignoreWhitespace && r.NodeType == XmlNodeType.Whitespace) r.Read();
        }
        while (r.NodeType == XmlNodeType.Element && r.LocalName == local && r.NamespaceURI == ns && r.Prefix == prefix
            && r.GetAttribute(ValueTypeMarks.Type, ValueTypeMarks.Namespace) == mark && !HasAttributes(r));
        string? p = prefix.Length == 0 ? null : prefix;
        string? n = ns.Length == 0 ? null : ns;
        try
        {
            switch (mark)
            {
                case "bool[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToBoolean).ToArray()); break;
                case "short[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToInt16).ToArray()); break;
                case "int[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToInt32).ToArray()); break;
                case "long[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToInt64).ToArray()); break;
                case "float[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToSingle).ToArray()); break;
                case "double[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToDouble).ToArray()); break;
                case "decimal[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToDecimal).ToArray()); break;
                case "dateTime[]": w.WriteArray(p, local, n, items.Select(s => XmlConvert.ToDateTime(s, XmlDateTimeSerializationMode.RoundtripKind)).ToArray()); break;
                case "timeSpan[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToTimeSpan).ToArray()); break;
                case "guid[]": w.WriteArray(p, local, n, items.Select(XmlConvert.ToGuid).ToArray()); break;
                default: throw Error(r, $"'{mark}' is not a value type binxml knows ({Types})");
            }
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            throw Error(r, $"an item of the {local} array is not a {mark[..^2]} value: {e.Message}");
        }
    }

    private static bool HasAttributes(XmlReader r)
    {
        for (bool more = r.MoveToFirstAttribute(); more; more = r.MoveToNextAttribute())
        {
            if (r.NamespaceURI is not (XmlnsNamespace or ValueTypeMarks.Namespace))
            {
                r.MoveToElement();
                return true;
            }
        }
        r.MoveToElement();
        return false;
    }

    /// <summary>An array item's text: the element the reader is on holds text only; leaves the reader after it.</summary>
    private static string ReadItem(XmlReader r)
    {
        if (r.IsEmptyElement)
        {
            r.Read();
            return "";
        }
        var text = new System.Text.StringBuilder();
        while (r.Read() && r.NodeType != XmlNodeType.EndElement)
        {
            if (!IsText(r.NodeType))
                throw Error(r, $"an array item holds text only, not a {r.NodeType}");
            text.Append(r.Value);
        }
        r.Read();
        return text.ToString();
    }

    private void WriteTyped(BinaryXmlWriter w, XmlReader r, string type, string text)
    {
        if (type.StartsWith(ValueTypeMarks.ListPrefix, StringComparison.Ordinal))
        {
            WriteList(w, r, type, text);
            return;
        }
        switch (type)
        {
            case "dictionary" or "sessionDictionary":
                w.WriteString(Name(text, notStatic: type == "sessionDictionary"));
                return;
            case "qname" or "sessionQname":
                int colon = text.IndexOf(':');
                string prefix = colon < 0 ? "" : text[..colon], local = text[(colon + 1)..];
                string ns = r.LookupNamespace(prefix) ?? throw Error(r, $"the prefix of the qname '{text}' is not declared");
                w.WriteQualifiedName(Name(local, notStatic: type == "sessionQname"), Name(ns));
                return;
            default:
                WriteValue(w, r, type, text);
                return;
        }
    }

    /// <summary>
    /// Writes a list (<c>list:int,text,…</c>): its text's items, separated by single spaces, each of its type, between
    /// StartListText and EndListText.
    /// </summary>
    private void WriteList(BinaryXmlWriter w, XmlReader r, string type, string text)
    {
        string[] types = type[ValueTypeMarks.ListPrefix.Length..].Split(',');
        string[] items = text.Split(' ');
        if (items.Length != types.Length) throw Error(r, $"the list marked {type} has {types.Length} items, its text '{text}' {items.Length}");
        w.WriteStartList();
        for (int i = 0; i < items.Length; i++)
        {
            if (types[i] == ValueTypeMarks.ListText) w.WriteString(items[i]);
            else if (types[i] is "base64" || types[i].StartsWith(ValueTypeMarks.ListPrefix, StringComparison.Ordinal) || types[i].EndsWith("[]", StringComparison.Ordinal))
                throw Error(r, $"a list's item cannot be {types[i]}");
            else WriteTyped(w, r, types[i], items[i]);
        }
        w.WriteEndList();
    }

    private static void WriteValue(BinaryXmlWriter w, XmlReader r, string type, string text)
    {
        try
        {
            switch (type)
            {
                case "int": w.WriteValue(XmlConvert.ToInt32(text)); break;
                case "long": w.WriteValue(XmlConvert.ToInt64(text)); break;
                case "ulong": w.WriteValue(XmlConvert.ToUInt64(text)); break;
                case "bool": w.WriteValue(XmlConvert.ToBoolean(text)); break;
                case "float": w.WriteValue(XmlConvert.ToSingle(text)); break;
                case "double": w.WriteValue(XmlConvert.ToDouble(text)); break;
                case "decimal": w.WriteValue(XmlConvert.ToDecimal(text)); break;
                case "dateTime": w.WriteValue(XmlConvert.ToDateTime(text, XmlDateTimeSerializationMode.RoundtripKind)); break;
                case "timeSpan": w.WriteValue(XmlConvert.ToTimeSpan(text)); break;
                case "guid": w.WriteValue(XmlConvert.ToGuid(text)); break;
                case "uniqueId": w.WriteValue(new UniqueId(text)); break;
                case "base64":
                    // White space separates records: each piece is one call (what decode --types shows of several).
                    foreach (string piece in List(text).DefaultIfEmpty("")) w.WriteBase64(Convert.FromBase64String(piece));
                    break;
                default: throw Error(r, $"'{type}' is not a value type binxml knows ({Types})");
            }
        }
        catch (Exception e) when (e is FormatException or OverflowException)
        {
            throw Error(r, $"'{text}' is not a {type} value: {e.Message}");
        }
    }
}
