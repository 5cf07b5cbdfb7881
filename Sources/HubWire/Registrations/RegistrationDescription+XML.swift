extension RegistrationDescription {
    /// The description element alone, as the service writes it (nh-rest-api.md §4.2): children in DataContract
    /// order — `ETag`, `ExpirationTime`, `RegistrationId`, `Tags`, `PushVariables`, the handle element(s), then for
    /// templates `BodyTemplate` (CDATA), Apple's `Expiry` (`i:nil` when absent), `TemplateName`, `Priority`,
    /// `ApnsHeaders`, or Windows/Mpns `WnsHeaders`/`MpnsHeaders` before `TemplateName`. Nil fields and empty tags
    /// are left out; a header container is always written for template kinds that have one (`<ApnsHeaders/>`
    /// when empty, as the service does).
    public func descriptionXML() -> String {
        var out = XMLNamespace.dataContractStartTag(elementName)
        if let etag { out += XMLText.leaf("ETag", etag) }
        if let expirationTime { out += XMLText.leaf("ExpirationTime", expirationTime) }
        if let registrationId { out += XMLText.leaf("RegistrationId", registrationId) }
        if !tags.isEmpty { out += XMLText.leaf("Tags", tags.joined(separator: ",")) }
        if let pushVariables { out += XMLText.leaf("PushVariables", pushVariables) }
        for name in kind.platformElements {
            if name == handleElementName {
                out += XMLText.leaf(name, handle)
            } else if let value = secondaryFields[name] {
                out += XMLText.leaf(name, value)
            }
        }
        if isTemplate { out += templateXML() }
        return out + "</\(elementName)>"
    }

    private func templateXML() -> String {
        var out = bodyTemplate.map { "<BodyTemplate>\(XMLText.cdata($0))</BodyTemplate>" } ?? ""
        let name = templateName.map { XMLText.leaf("TemplateName", $0) } ?? ""
        switch kind {
        case .apple:
            out += expiry.map { XMLText.leaf("Expiry", $0) } ?? "<Expiry i:nil=\"true\"/>"
            out += name
            if let priority { out += XMLText.leaf("Priority", priority) }
            out += headersXML()
        case .windows, .mpns:
            out += headersXML() + name
        case .gcm, .fcmV1, .adm, .baidu, .browser:
            out += name
        }
        return out
    }

    private func headersXML() -> String {
        guard let (container, item) = kind.headerElements else { return "" }
        guard !headers.isEmpty else { return "<\(container)/>" }
        let items = headers.map {
            "<\(item)>" + XMLText.leaf("Header", $0.name) + XMLText.leaf("Value", $0.value) + "</\(item)>"
        }
        return "<\(container)>" + items.joined() + "</\(container)>"
    }

    /// A create/update request body as the SDKs send it:
    /// `<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">…</content></entry>`.
    public func requestEntryXML() -> String {
        "<entry xmlns=\"\(XMLNamespace.atom)\"><content type=\"application/xml\">\(descriptionXML())</content></entry>"
    }

    /// A response entry as the service returns it (nh-rest-api.md §4.2): `a:etag="W/&quot;n&quot;"` (left out
    /// without an etag), `id` (= `selfURL`), `title` (= registration id), `published`, `updated`,
    /// `link rel="self"`, then the description in `content`. An entry `inFeed` leaves the Atom namespace to its
    /// `<feed>`, as the service's listings do.
    public func responseEntryXML(selfURL: String, published: String, updated: String, inFeed: Bool = false) -> String {
        // As the service writes it: `p1` on an entry of its own, `p2` in a feed, the etag attribute first.
        let prefix = inFeed ? "p2" : "p1"
        let etagAttribute = etag.map { " \(prefix):etag=\"\(XMLText.escape("W/\"\($0)\""))\"" } ?? ""
        let atom = inFeed ? "" : " xmlns=\"\(XMLNamespace.atom)\""
        return "<entry\(etagAttribute) xmlns:\(prefix)=\"\(XMLNamespace.metadata)\"\(atom)>"
            + XMLText.leaf("id", selfURL)
            + "<title type=\"text\">\(XMLText.escapeText(registrationId ?? ""))</title>"
            + XMLText.leaf("published", published) + XMLText.leaf("updated", updated)
            + "<link rel=\"self\" href=\"\(XMLText.escape(selfURL))\" />"
            + "<content type=\"application/xml\">\(descriptionXML())</content></entry>"
    }
}
