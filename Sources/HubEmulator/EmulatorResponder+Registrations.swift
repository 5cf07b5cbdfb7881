import Foundation
import HubWire
import HTTPServing

extension EmulatorResponder {
    static let entryContentType = "application/atom+xml; type=entry; charset=utf-8"
    static let feedContentType = "application/atom+xml; type=feed; charset=utf-8"

    func createRegistrationID(_ call: Call) async -> ServedResponse {
        let id = await store.newRegistrationID(hub: call.hub)
        var headers = HeaderFields()
        headers[.location] = call.url("registrationids/\(id)")
        headers[.contentLength] = "0"
        return ServedResponse(status: .created, headers: headers)
    }

    func createRegistration(_ call: Call) async throws -> ServedResponse {
        let description = try parseRegistration(try await body(call))
        return entryResponse(try await store.createRegistration(description, hub: call.hub), call: call)
    }

    func upsertRegistration(_ call: Call, id: String) async throws -> ServedResponse {
        let description = try parseRegistration(try await body(call))
        let stored = try await store.upsertRegistration(description, id: id, ifMatch: call.request.headers[.ifMatch], hub: call.hub)
        return entryResponse(stored, call: call)
    }

    func getRegistration(_ call: Call, id: String) async throws -> ServedResponse {
        guard let stored = await store.registration(id: id, hub: call.hub) else { throw EmulatorError.notFound("") }
        return entryResponse(stored, call: call)
    }

    func deleteRegistration(_ call: Call, id: String) async throws -> ServedResponse {
        try await store.deleteRegistration(id: id, ifMatch: call.request.headers[.ifMatch], hub: call.hub)
        return ServedResponse(status: .ok, headers: [.contentLength: "0"])
    }

    /// Lists registrations (all, by handle with `$filter`, or by tag), `$top` per page, with a
    /// continuation token for the next page in `x-ms-continuationtoken` and a `next` link.
    func listRegistrations(_ call: Call, tag: String?) async throws -> ServedResponse {
        let top = min(max(Int(call.query["$top"] ?? "") ?? 100, 1), 100)
        let skip = try call.query["continuationtoken"].map(Self.decodeContinuation) ?? 0
        let handle = try call.query["$filter"].map(Self.handle(fromFilter:))
        let (page, next) = await store.registrations(hub: call.hub, handle: handle, tag: tag, skip: skip, top: top)
        let entries = page.map { entryXML($0, call: call) }
        let path = tag.map { "tags/\(PercentCoding.encode($0, hexCase: .upper))/registrations" } ?? "registrations"
        var headers = HeaderFields()
        var nextURL: String?
        if let next {
            let token = Self.encodeContinuation(next)
            headers[.continuationToken] = token
            nextURL = call.url(path, extraQuery: "&continuationtoken=\(token)")
        }
        let feed = AtomFeed.render(entries: entries, selfURL: call.url(path), nextURL: nextURL, updated: await store.timestamp())
        return response(.ok, contentType: Self.feedContentType, body: feed, headers: headers)
    }

    private func parseRegistration(_ text: String) throws -> RegistrationDescription {
        do {
            return try RegistrationDescription(parsing: text)
        } catch {
            throw EmulatorError.badRequest("The registration description is invalid: \(error.message)")
        }
    }

    private func entryXML(_ stored: StoredRegistration, call: Call) -> String {
        let description = (try? RegistrationDescription(parsing: stored.descriptionXML))
            ?? RegistrationDescription(kind: .apple, isTemplate: false, handle: "")
        return description.responseEntryXML(selfURL: call.url("registrations/\(stored.id)"), published: stored.published,
                                            updated: stored.updated)
    }

    private func entryResponse(_ stored: StoredRegistration, call: Call) -> ServedResponse {
        var headers = HeaderFields()
        headers[.eTag] = "W/\"\(stored.etag)\""
        headers[.contentLocation] = call.url("registrations/\(stored.id)")
        return response(.ok, contentType: Self.entryContentType, body: entryXML(stored, call: call), headers: headers)
    }

    /// `ChannelUri eq 'x'`, `DeviceToken eq 'x'`, `GcmRegistrationId eq 'x'`, … → x.
    static func handle(fromFilter filter: String) throws -> String {
        let parts = filter.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, parts[1].lowercased() == "eq", parts[2].hasPrefix("'"), parts[2].hasSuffix("'"), parts[2].count >= 2 else {
            throw EmulatorError.badRequest("Unsupported $filter; use ChannelUri eq '<handle>' (or DeviceToken/GcmRegistrationId/FcmV1RegistrationId).")
        }
        return String(parts[2].dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    /// Continuation tokens are opaque to clients: base64 of the offset, percent-encoded like the service's.
    static func encodeContinuation(_ offset: Int) -> String {
        PercentCoding.encode(Data("offset:\(offset)".utf8).base64EncodedString(), hexCase: .upper)
    }

    static func decodeContinuation(_ token: String) throws -> Int {
        let decoded = QueryString.decode(token, plusAsSpace: false)
        guard let data = Data(base64Encoded: decoded), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("offset:"), let offset = Int(text.dropFirst("offset:".count)), offset >= 0
        else { throw EmulatorError.badRequest("The continuation token is invalid.") }
        return offset
    }
}
