namespace BinaryXml;

/// <summary>What <see cref="BinaryXmlReader"/> is positioned on.</summary>
public enum BinaryXmlTokenType : byte
{
    /// <summary>Nothing has been read yet, or the input is exhausted.</summary>
    None,
    /// <summary>An element start; its attributes and namespace declarations follow as their own tokens.</summary>
    StartElement,
    /// <summary>An attribute of the current element: name and value. A list value is followed by <see cref="Text"/> tokens and <see cref="EndList"/>.</summary>
    Attribute,
    /// <summary>A namespace declaration (<c>xmlns</c> or <c>xmlns:p</c>) on the current element.</summary>
    NamespaceDeclaration,
    /// <summary>A text record in element content or inside a list.</summary>
    Text,
    /// <summary>The end of an element: an EndElement record, or implied by a <c>…WithEndElement</c> text record.</summary>
    EndElement,
    /// <summary>A comment.</summary>
    Comment,
    /// <summary>The start of a list (StartListText) in element content.</summary>
    StartList,
    /// <summary>The end of a list (EndListText), in content or in an attribute value.</summary>
    EndList,
    /// <summary>
    /// The items of an Array record (MC-NBFX 2.3.3). It follows the array's <see cref="StartElement"/> and attribute
    /// tokens; the array stands for that element repeated once per item. No <see cref="EndElement"/> follows.
    /// </summary>
    ArrayData,
}
