/// Atom feeds of registrations, as returned by the list operations (nh-rest-api.md §4.1).
public enum AtomFeed {
    /// A feed as the service writes it: `<feed xmlns="http://www.w3.org/2005/Atom">`, `title` "Registrations",
    /// `id` (= `selfURL`), `updated`, `link rel="self"`, a `link rel="next"` when there is a next page, then the
    /// entries (e.g. from `RegistrationDescription.responseEntryXML`) verbatim.
    public static func render(entries: [String], selfURL: String, nextURL: String?, updated: String) -> String {
        var out =
            "<feed xmlns=\"\(XMLNamespace.atom)\"><title type=\"text\">Registrations</title>"
            + XMLText.leaf("id", selfURL) + XMLText.leaf("updated", updated)
            + "<link rel=\"self\" href=\"\(XMLText.escape(selfURL))\" />"
        if let nextURL { out += "<link rel=\"next\" href=\"\(XMLText.escape(nextURL))\"/>" }
        return out + entries.joined() + "</feed>"
    }

    /// The description element of each `<entry>`, in order, as its original text — ready for
    /// `RegistrationDescription(parsing:)`. An entry without a description is returned whole, so parsing it
    /// reports what is missing. A single `<entry>` document gives one element; text that is not well-formed
    /// XML, or another root element, gives none.
    public static func entries(in feedXML: String) -> [String] {
        let bytes = Array(feedXML.utf8)
        guard let root = try? XMLTree.parse(bytes) else { return [] }
        let entries: [XMLTree]
        switch root.localName {
        case "feed": entries = root.children("entry")
        case "entry": entries = [root]
        default: entries = []
        }
        return entries.map { entry in
            let element = entry.child("content")?.children.first ?? entry
            return String(decoding: bytes[element.sourceRange], as: UTF8.self)
        }
    }
}
