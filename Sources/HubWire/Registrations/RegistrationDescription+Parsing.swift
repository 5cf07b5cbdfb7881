extension RegistrationDescription {
    /// Reads a request or response body: an Atom `<entry>` whose `<content>` holds a `…RegistrationDescription`,
    /// or that description element alone.
    ///
    /// Lenient about form: namespaces and prefixes, whitespace, comments, CDATA or escaped text, and element order
    /// are all accepted; unknown elements are ignored; `FcmRegistrationDescription`/`FcmRegistrationId` (older .NET
    /// names for FCM legacy) read as `.gcm`. `Tags` are split at commas and trimmed. `ETag`, `RegistrationId` and
    /// `ExpirationTime` are kept (callers creating registrations ignore them). Headers are read from any of
    /// `ApnsHeaders`, `WnsHeaders` or `MpnsHeaders`. Throws when the XML is malformed, the element is not a known
    /// description, or the handle element is missing or empty.
    public init(parsing xml: String) throws(RegistrationXMLError) {
        let root = try RegistrationXMLError.parse(xml)
        let element = try Self.descriptionElement(in: root)
        // The .NET SDK (DataContractSerializer) writes the base type as the element and the concrete type in `i:type`:
        // `<RegistrationDescription i:type="GcmRegistrationDescription">`, which NH accepts as that type.
        let typeName =
            element.localName == "RegistrationDescription"
            ? element.attribute("type").map(XMLTree.localName(of:)) ?? element.localName : element.localName
        guard let (kind, isTemplate) = Self.kind(ofElement: typeName) else {
            let known = Kind.allCases.map { "\($0.rawValue)RegistrationDescription" }.joined(separator: ", ")
            throw RegistrationXMLError(
                message: "Unknown registration type <\(typeName)>; expected one of "
                    + "\(known), or their Template forms.")
        }
        let handleName = kind.handleElementName
        let handleText =
            element.trimmedText(of: handleName)
            ?? (kind == .gcm ? element.trimmedText(of: "FcmRegistrationId") : nil)
        guard let handle = handleText, !handle.isEmpty else {
            throw RegistrationXMLError(message: "<\(element.localName)> has no \(handleName), or it is empty.")
        }
        self.init(kind: kind, isTemplate: isTemplate, handle: handle)
        etag = element.optionalText(of: "ETag")
        expirationTime = element.optionalText(of: "ExpirationTime")
        registrationId = element.optionalText(of: "RegistrationId")
        tags = (element.child("Tags")?.text ?? "").split(separator: ",").map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
        pushVariables = element.optionalText(of: "PushVariables")
        for name in kind.platformElements where name != handleName {
            if let value = element.optionalText(of: name) { secondaryFields[name] = value }
        }
        bodyTemplate = element.child("BodyTemplate").flatMap { $0.isNil ? nil : $0.text }
        templateName = element.optionalText(of: "TemplateName")
        expiry = element.optionalText(of: "Expiry")
        priority = element.optionalText(of: "Priority")
        let container = element.children.first { ["ApnsHeaders", "WnsHeaders", "MpnsHeaders"].contains($0.localName) }
        headers = (container?.children ?? []).map {
            RegistrationHeader(name: $0.trimmedText(of: "Header") ?? "", value: $0.trimmedText(of: "Value") ?? "")
        }
    }

    /// The description inside an entry's content, or the root itself.
    private static func descriptionElement(in root: XMLTree) throws(RegistrationXMLError) -> XMLTree {
        switch root.localName {
        case "entry":
            guard let content = root.child("content") else {
                throw RegistrationXMLError(message: "The <entry> has no <content> element.")
            }
            guard let description = content.children.first else {
                throw RegistrationXMLError(message: "The entry's <content> holds no registration description.")
            }
            return description
        case "feed":
            throw RegistrationXMLError(
                message: "Expected a single <entry>, found a <feed>; read feeds with AtomFeed.entries(in:).")
        default:
            return root
        }
    }

    /// `AppleTemplateRegistrationDescription` → (.apple, true); names compare case-insensitively.
    static func kind(ofElement name: String) -> (Kind, Bool)? {
        let suffix = "registrationdescription"
        var stem = name.lowercased()
        guard stem.hasSuffix(suffix) else { return nil }
        stem.removeLast(suffix.count)
        let isTemplate = stem.hasSuffix("template")
        if isTemplate { stem.removeLast("template".count) }
        if stem == "fcm" { return (.gcm, isTemplate) }
        guard let kind = Kind.allCases.first(where: { $0.rawValue.lowercased() == stem }) else { return nil }
        return (kind, isTemplate)
    }
}
