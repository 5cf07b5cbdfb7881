extension HubRequests {
    /// The Content-Type of a registration entry, as the SDKs send it.
    public static let atomEntryContentType = "application/atom+xml;type=entry;charset=utf-8"

    /// `POST registrationIDs` with an empty body; the new id comes back in `Location`. Listen. Idempotent: an id
    /// created twice is harmless, the unused one expires.
    public static func createRegistrationID(at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .post, url: endpoint.url("registrationIDs"), headers: [], body: [], isIdempotent: true,
            summary: "POST registrationIDs", right: .listen)
    }

    /// `PUT registrations/{id}` with the description in an Atom entry and no `If-Match` (create or replace);
    /// Listen, idempotent.
    public static func upsertRegistration(
        _ description: RegistrationDescription, id: String,
        at endpoint: HubEndpoint
    ) -> HubRequest {
        HubRequest(
            method: .put, url: endpoint.url("registrations/" + segment(id)),
            headers: [HubHeader("Content-Type", atomEntryContentType)],
            body: Array(description.requestEntryXML().utf8), isIdempotent: true,
            summary: "PUT registration \(quoted(id))", right: .listen)
    }

    /// `GET registrations/{id}`; Listen.
    public static func getRegistration(id: String, at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .get, url: endpoint.url("registrations/" + segment(id)), headers: [], body: [],
            isIdempotent: true, summary: "GET registration \(quoted(id))", right: .listen)
    }

    /// `DELETE registrations/{id}` with `If-Match: *` (all SDKs send it); Listen.
    public static func deleteRegistration(id: String, at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .delete, url: endpoint.url("registrations/" + segment(id)),
            headers: [HubHeader("If-Match", "*")], body: [], isIdempotent: true,
            summary: "DELETE registration \(quoted(id))", right: .listen)
    }

    /// One page of registrations:
    /// * with `handle`: `GET registrations?…&$filter=ChannelUri eq '<handle>'` (what .NET sends for every
    ///   platform; a `'` in the handle is doubled as OData requires); Listen. `tag` is then ignored.
    /// * with `tag`: `GET tags/{tag}/registrations`; Manage.
    /// * otherwise `GET registrations` (all); Manage.
    ///
    /// `$top` is written when `top > 0`. `continuation` is the `x-ms-continuationtoken` of the previous page; the
    /// service sends it already URL-encoded, so it is passed back unchanged as `continuationtoken`.
    public static func registrations(
        handle: String?, tag: String?, top: Int, continuation: String?,
        at endpoint: HubEndpoint
    ) -> HubRequest {
        var query: [QueryItem] = []
        let path: String
        let summary: String
        let right: AccessRight
        if let handle {
            let literal = handle.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''")
            query.append(QueryItem("$filter", "ChannelUri eq '\(literal)'"))
            (path, summary, right) = ("registrations", "GET registrations for handle \(quoted(handle))", .listen)
        } else if let tag {
            (path, summary, right) = (
                "tags/\(segment(tag))/registrations", "GET registrations tagged \(quoted(tag))",
                .manage
            )
        } else {
            (path, summary, right) = ("registrations", "GET all registrations", .manage)
        }
        if top > 0 { query.append(QueryItem("$top", String(top))) }
        if let continuation, !continuation.isEmpty {
            query.append(QueryItem("continuationtoken", preEncoded: continuation))
        }
        return HubRequest(
            method: .get, url: endpoint.url(path, query: query), headers: [], body: [],
            isIdempotent: true, summary: summary, right: right)
    }
}
