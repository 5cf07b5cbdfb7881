import Foundation
import HubWire

extension EmulatorStore {
    /// Issues a registration id (`POST registrationIDs`); ids look like the service's: three numbers.
    func newRegistrationID(hub: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = "\(UInt64.random(in: 1_000_000_000_000_000...9_000_000_000_000_000, using: &generator))-\(UInt64.random(in: 1_000_000_000_000_000...9_000_000_000_000_000, using: &generator))-\(nextSequence())"
        hubs[hub]?.issuedRegistrationIDs.insert(id)
        markDirty()
        return id
    }

    /// Creates a registration under a new id (`POST registrations`).
    func createRegistration(_ description: RegistrationDescription, hub: String) throws(EmulatorError) -> StoredRegistration {
        let id = newRegistrationID(hub: hub)
        return try upsertRegistration(description, id: id, ifMatch: nil, hub: hub)
    }

    /// Creates or updates the registration at `id` (`PUT registrations/{id}`).
    ///
    /// 410 Gone for an id this emulator never issued or has deleted, so clients' "get a new id and
    /// retry" path is exercised; 412 when `If-Match` names another ETag or is not one (no `If-Match` is a plain
    /// overwrite, as recorded traffic shows).
    func upsertRegistration(
        _ description: RegistrationDescription, id: String, ifMatch: String?, hub: String
    ) throws(EmulatorError) -> StoredRegistration {
        guard var state = hubs[hub] else { throw .notFound("No service is hosted at the specified address.") }
        let existing = state.registrations[id]
        if existing == nil, state.retiredRegistrationIDs.contains(id) || !state.issuedRegistrationIDs.contains(id) {
            throw EmulatorError(410, "The registration id is gone; create a new registration id and retry.")
        }
        if let ifMatch {
            let condition = try Self.condition(ifMatch)
            if let existing, !condition.matches(existing.etag) {
                throw EmulatorError(412, "The ETag in If-Match does not match the registration's ETag \(existing.etag).")
            }
        }
        try Self.validateTags(description.tags)
        if description.kind == .windows, description.isTemplate,
            !description.headers.contains(where: { $0.name.lowercased() == "x-wns-type" })
        {
            throw .badRequest("A Windows template registration needs WnsHeaders with an X-WNS-Type header.")
        }
        var stored = description
        stored.registrationId = id
        let etag = (existing?.etag ?? 0) + 1
        stored.etag = String(etag)
        stored.expirationTime = "9999-12-31T23:59:59.999"
        let target: Target
        do {
            target = try Target.target(of: stored, id: id)
        } catch {
            throw .badRequest(error.detail)
        }
        let time = timestamp()
        let record = StoredRegistration(id: id, etag: etag, descriptionXML: stored.descriptionXML(),
                                        published: existing?.published ?? time, updated: time)
        state.registrations[id] = record
        hubs[hub] = state
        indexes[hub]?.replace(owner: .registration(id), with: [target])
        markDirty()
        return record
    }

    /// The registration at `id`.
    func registration(id: String, hub: String) -> StoredRegistration? {
        hubs[hub]?.registrations[id]
    }

    /// Deletes a registration; its id is retired (a later PUT gets 410).
    func deleteRegistration(id: String, ifMatch: String?, hub: String) throws(EmulatorError) {
        // The service requires If-Match on a delete (every SDK sends `*`), checked before the registration is looked up.
        let condition = try Self.condition(ifMatch)
        guard let existing = hubs[hub]?.registrations[id] else { throw .notFound("") }
        guard condition.matches(existing.etag) else {
            throw EmulatorError(412, "The ETag in If-Match does not match the registration's ETag \(existing.etag).")
        }
        hubs[hub]?.registrations[id] = nil
        hubs[hub]?.retiredRegistrationIDs.insert(id)
        indexes[hub]?.remove(owner: .registration(id))
        markDirty()
    }

    /// Registrations matching an optional handle or tag, ordered by id, paged by offset.
    func registrations(
        hub: String, handle: String?, tag: String?, skip: Int, top: Int
    ) -> (page: [StoredRegistration], next: Int?) {
        let all = (hubs[hub]?.registrations.values.sorted { $0.id < $1.id }) ?? []
        let matching = all.filter { stored in
            guard handle != nil || tag != nil else { return true }
            guard let description = try? RegistrationDescription(parsing: stored.descriptionXML) else { return false }
            if let handle, description.handle.lowercased() != handle.lowercased() { return false }
            if let tag, !description.tags.contains(tag) { return false }
            return true
        }
        let page = Array(matching.dropFirst(skip).prefix(top))
        let next = skip + page.count < matching.count ? skip + page.count : nil
        return (page, next)
    }

    /// An `If-Match` value: `*`, or an ETag quoted as HTTP requires, strong (`"3"`) or weak (`W/"3"`). Anything else,
    /// a missing header included, is NH's 412 "The ETag header is either missing or invalid"; a bare `3` is not an
    /// ETag.
    static func condition(_ header: String?) throws(EmulatorError) -> IfMatch {
        let trimmed = header?.trimmingCharacters(in: .whitespaces) ?? ""
        // The .NET SDK quotes the ETag it is given, `"*"` included, and NH accepts that as any ETag (its 412 text asks
        // for "\"*\", or a quoted ETag").
        if trimmed == "*" || trimmed == "\"*\"" { return .any }
        let quoted = trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : Substring(trimmed)
        guard quoted.count >= 3, quoted.first == "\"", quoted.last == "\"", let etag = Int(quoted.dropFirst().dropLast()) else {
            throw EmulatorError(412, "The ETag header is either missing or invalid.")
        }
        return .etag(etag)
    }

    /// What an `If-Match` header asks for.
    enum IfMatch: Equatable {
        /// `*`: any current ETag.
        case any
        /// This ETag.
        case etag(Int)

        func matches(_ current: Int) -> Bool {
            switch self {
            case .any: true
            case .etag(let etag): etag == current
            }
        }
    }
}
