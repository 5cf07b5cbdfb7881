import Foundation
import HTTPTypes
import HubWire
import Hummingbird

extension EmulatorResponder {
    /// The label of a written registration's answer (and, recorded 2024, of the empty answer to `registrationIDs`).
    static let entryContentType = "application/atom+xml; type=entry; charset=utf-8"
    /// Reads (one registration, listings) are labelled plain XML by today's service.
    static let readContentType = "application/xml"

    /// 201, empty, labelled as an entry, with a Location that carries no query (recorded 2024).
    func createRegistrationID(_ call: Call) async -> Response {
        let id = await store.newRegistrationID(hub: call.hub)
        var headers = HTTPFields()
        headers[.location] = "\(call.base)/\(call.hub)/registrationids/\(id)"
        headers[.contentType] = Self.entryContentType
        return Self.empty(.created, headers: headers)
    }

    /// 200 with the entry. Today's service sends no ETag header (the entry's `etag` attribute and `ETag` element
    /// carry it) and no Content-Location (the old front end sent one on a create).
    func createRegistration(_ call: Call) async throws -> Response {
        let description = try parseRegistration(try await body(call))
        let stored = try await store.createRegistration(description, hub: call.hub)
        return entryResponse(stored, call: call)
    }

    func upsertRegistration(_ call: Call, id: String) async throws -> Response {
        let description = try parseRegistration(try await body(call))
        let stored = try await store.upsertRegistration(
            description, id: id, ifMatch: call.headers[.ifMatch], hub: call.hub)
        return entryResponse(stored, call: call)
    }

    func getRegistration(_ call: Call, id: String) async throws -> Response {
        guard let stored = await store.registration(id: id, hub: call.hub) else { throw EmulatorError.notFound("") }
        return entryResponse(stored, call: call, reading: true)
    }

    func deleteRegistration(_ call: Call, id: String) async throws -> Response {
        try await store.deleteRegistration(id: id, ifMatch: call.headers[.ifMatch], hub: call.hub)
        return Self.empty(.ok)
    }

    /// Lists registrations (all, by handle with `$filter`, or by tag), `$top` per page, with a
    /// continuation token for the next page in `x-ms-continuationtoken` and a `next` link.
    ///
    /// As recorded: the feed's and each entry's id and self link name `resources` (`/hub/resources/{id}`, a tag
    /// listing's too, as today's service does) with the request's query as sent; the next link, on the path the
    /// client called, re-encodes the query (`%24top=2`) and the already encoded token (`%253D`).
    func listRegistrations(_ call: Call, tag: String?) async throws -> Response {
        let top = min(max(Int(call.query.value(ignoringCase: "$top") ?? "") ?? 100, 1), 100)
        let skip = try call.query.value(ignoringCase: "continuationtoken").map(Self.decodeContinuation) ?? 0
        let handle = try call.query.value(ignoringCase: "$filter").map(Self.handle(fromFilter:))
        let (page, next) = await store.registrations(hub: call.hub, handle: handle, tag: tag, skip: skip, top: top)
        let path = tag.map { "tags/\(PercentCoding.encode($0, hexCase: .upper))/registrations" } ?? "registrations"
        let entries = page.map {
            entryXML($0, selfURL: call.urlAsSent("resources/\($0.id)"), reading: true, inFeed: true)
        }
        var headers = HTTPFields()
        var nextURL: String?
        if let next {
            let token = Self.encodeContinuation(next)
            headers[.continuationToken] = token
            nextURL = call.url(path, extraQuery: Self.nextQuery(call.request.uri.query, token: token))
        }
        let feed = AtomFeed.render(
            entries: entries, selfURL: call.urlAsSent("resources"), nextURL: nextURL,
            updated: await store.atomTimestamp())
        return response(.ok, contentType: Self.readContentType, body: feed, headers: headers)
    }

    /// The next link's query after `api-version`: the request's other items, each name and value percent-encoded again,
    /// then `continuationtoken` with the (already encoded) token encoded once more.
    static func nextQuery(_ query: String?, token: String) -> String {
        var out = ""
        for (name, value) in ReceivedQuery(query).items {
            guard !["api-version", "continuationtoken"].contains(name.lowercased()) else { continue }
            out +=
                "&" + PercentCoding.encode(name, hexCase: .upper) + "=" + PercentCoding.encode(value, hexCase: .upper)
        }
        return out + "&continuationtoken=" + PercentCoding.encode(token, hexCase: .upper)
    }

    private func parseRegistration(_ text: String) throws -> RegistrationDescription {
        do {
            return try RegistrationDescription(parsing: text)
        } catch {
            throw EmulatorError.badRequest("The registration description is invalid: \(error.message)")
        }
    }

    /// An entry for `stored`. A read (GET, listings) writes the expiration time with its `Z`, as recorded; the answer
    /// to a write repeats it as stored, without.
    private func entryXML(_ stored: StoredRegistration, selfURL: String, reading: Bool, inFeed: Bool = false) -> String
    {
        var description =
            (try? RegistrationDescription(parsing: stored.descriptionXML))
            ?? RegistrationDescription(kind: .apple, isTemplate: false, handle: "")
        if reading, let expiration = description.expirationTime, !expiration.hasSuffix("Z") {
            description.expirationTime = expiration + "Z"
        }
        return description.responseEntryXML(
            selfURL: selfURL, published: stored.published, updated: stored.updated, inFeed: inFeed)
    }

    /// A written registration is named `registrations/{id}` and labelled an Atom entry; a read one is named
    /// `resources/{id}` and labelled plain XML, as today's service answers.
    private func entryResponse(_ stored: StoredRegistration, call: Call, reading: Bool = false) -> Response {
        let selfURL = reading ? call.urlAsSent("resources/\(stored.id)") : call.url("registrations/\(stored.id)")
        let body = entryXML(stored, selfURL: selfURL, reading: reading)
        return response(.ok, contentType: reading ? Self.readContentType : Self.entryContentType, body: body)
    }

    /// `ChannelUri eq 'x'`, `DeviceToken eq 'x'`, `GcmRegistrationId eq 'x'`, … → x.
    static func handle(fromFilter filter: String) throws -> String {
        let parts = filter.split(separator: " ", maxSplits: 2)
        guard parts.count == 3, parts[1].lowercased() == "eq", parts[2].hasPrefix("'"), parts[2].hasSuffix("'"),
            parts[2].count >= 2
        else {
            throw EmulatorError.badRequest(
                "Unsupported $filter; use ChannelUri eq '<handle>' (or DeviceToken/GcmRegistrationId/FcmV1RegistrationId)."
            )
        }
        return String(parts[2].dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    /// Continuation tokens are opaque to clients: base64 of the offset, percent-encoded like the service's.
    static func encodeContinuation(_ offset: Int) -> String {
        PercentCoding.encode(Data("offset:\(offset)".utf8).base64EncodedString(), hexCase: .upper)
    }

    static func decodeContinuation(_ token: String) throws -> Int {
        let decoded = PercentCoding.decode(token, plusAsSpace: false) ?? token
        guard let data = Data(base64Encoded: decoded), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("offset:"), let offset = Int(text.dropFirst("offset:".count)), offset >= 0
        else { throw EmulatorError.badRequest("The continuation token is invalid.") }
        return offset
    }
}
