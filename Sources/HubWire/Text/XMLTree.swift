/// One parsed XML element: just enough of XML for Atom entries and NH's DataContract documents.
///
/// Namespaces are not resolved: lookups go by local name, so `<a:entry>`, `<entry xmlns="…">` and a bare
/// `<entry>` all match "entry". That is deliberate leniency — every NH document uses fixed, well-known names.
struct XMLTree: Equatable, Sendable {
    /// An attribute as written (qualified name) with its value unescaped.
    struct Attribute: Equatable, Sendable {
        var name: String
        var value: String
    }

    /// The qualified name as written, e.g. `a:entry`.
    var name: String
    /// Attributes in document order.
    var attributes: [Attribute]
    /// Child elements in document order.
    var children: [XMLTree]
    /// Character data directly inside this element: entities resolved, CDATA kept verbatim. When the element
    /// holds CDATA and all other text is whitespace, only the CDATA counts, so a pretty-printed
    /// `<BodyTemplate>\n  <![CDATA[…]]>\n</BodyTemplate>` still yields exactly the template.
    var text: String
    /// UTF-8 offsets of the whole element (start tag to end tag) in the parsed text.
    var sourceRange: Range<Int>

    /// The name without its namespace prefix.
    var localName: String {
        Self.localName(of: name)
    }

    /// The first child with the given local name.
    func child(_ localName: String) -> XMLTree? {
        children.first { $0.localName == localName }
    }

    /// All children with the given local name, in order.
    func children(_ localName: String) -> [XMLTree] {
        children.filter { $0.localName == localName }
    }

    /// Text of the first child with the given local name, without surrounding whitespace; nil when absent.
    func trimmedText(of localName: String) -> String? {
        child(localName)?.text.trimmingWhitespace()
    }

    /// Value of the first attribute with the given local name (`i:nil` matches "nil").
    func attribute(_ localName: String) -> String? {
        attributes.first { Self.localName(of: $0.name) == localName }?.value
    }

    /// True for `<X i:nil="true"/>`, DataContract's way of writing null.
    var isNil: Bool {
        attribute("nil")?.trimmingWhitespace().lowercased() == "true"
    }

    static func localName(of qualifiedName: String) -> String {
        guard let colon = qualifiedName.lastIndex(of: ":") else { return qualifiedName }
        return String(qualifiedName[qualifiedName.index(after: colon)...])
    }
}

/// Why text could not be parsed as XML; `message` names the line and column.
struct XMLSyntaxError: Error, Equatable, Sendable {
    let message: String
}
