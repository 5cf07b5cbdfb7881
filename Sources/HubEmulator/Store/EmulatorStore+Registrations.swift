import Foundation
import HubWire

extension EmulatorStore {
    /// Issues a registration id (`POST registrationIDs`); ids look like the service's: three numbers.
    func newRegistrationID(hub: String) -> String {
        let id = makeRegistrationID()
        hubs[hub]?.issuedRegistrationIDs.insert(id)
        markDirty()
        return id
    }

    /// A fresh id in the service's shape (`2769164299032376463-7564246112616637413-3`).
    func makeRegistrationID() -> String {
        var generator = SystemRandomNumberGenerator()
        let range: ClosedRange<UInt64> = 1_000_000_000_000_000...9_000_000_000_000_000
        return
            "\(UInt64.random(in: range, using: &generator))-\(UInt64.random(in: range, using: &generator))-\(nextSequence())"
    }

    /// Creates a registration under a new id (`POST registrations`).
    func createRegistration(_ description: RegistrationDescription, hub: String) throws(EmulatorError)
        -> StoredRegistration
    {
        let id = newRegistrationID(hub: hub)
        return try upsertRegistration(description, id: id, ifMatch: nil, hub: hub)
    }

    /// Creates or updates the registration at `id` (`PUT registrations/{id}`).
    ///
    /// An id the client chose is created (NH answered 200 with `ETag: W/"1"` for `123-234-1`); 410 Gone for an
    /// id that was deleted, so clients' "get a new id and retry" path is exercised; 412 when `If-Match` names
    /// another ETag or is not one (no `If-Match` is a plain overwrite, as recorded traffic shows). An installation's
    /// registration is changed through its installation: 400 says so.
    func upsertRegistration(
        _ description: RegistrationDescription, id: String, ifMatch: String?, hub: String
    ) throws(EmulatorError) -> StoredRegistration {
        guard var state = hubs[hub] else { throw .notFound("No service is hosted at the specified address.") }
        if let part = installationParts[hub]?[id] {
            throw .badRequest(
                "Registration \(id) belongs to installation '\(part.installationId)'; change it with PUT or PATCH installations/\(part.installationId)."
            )
        }
        let existing = state.registrations[id]
        if existing == nil, state.retiredRegistrationIDs.contains(id) {
            throw EmulatorError(410, "The registration id is gone; create a new registration id and retry.")
        }
        if existing == nil, !state.issuedRegistrationIDs.contains(id), !Self.isRegistrationID(id) {
            throw .badRequest(
                "'\(id.prefix(64))' is not a registration id: use 1 to 128 letters, digits, '-', '_' or '.'.")
        }
        if let ifMatch {
            let condition = try Self.condition(ifMatch)
            if let existing, !condition.matches(existing.etag) {
                throw EmulatorError(
                    412, "The ETag in If-Match does not match the registration's ETag \(existing.etag).")
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
        stored.expirationTime = "9999-12-31T23:59:59.9999999"
        // The service keeps an APNs token upper-cased and answers it so (recorded 2024); tokens compare without case.
        if description.kind == .apple { stored.handle = description.handle.uppercased() }
        let target: Target
        do {
            target = try Target.target(of: stored, id: id)
        } catch {
            throw .badRequest(error.detail)
        }
        // Recorded answers date a written registration's `published` and `updated` alike, in whole seconds.
        let time = atomTimestamp()
        let record = StoredRegistration(
            id: id, etag: etag, descriptionXML: stored.descriptionXML(), published: time, updated: time)
        state.registrations[id] = record
        hubs[hub] = state
        indexes[hub]?.replace(owner: .registration(id), with: [target])
        markDirty()
        return record
    }

    /// The registration at `id`, an installation's included.
    func registration(id: String, hub: String) -> StoredRegistration? {
        hubs[hub]?.registrations[id] ?? ownedRegistration(id, hub: hub)
    }

    /// Ids a client may choose: what NH issues (digits and dashes) and the like, nothing a URL or XML must escape.
    static func isRegistrationID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }

    /// Deletes a registration; its id is retired (a later PUT gets 410).
    func deleteRegistration(id: String, ifMatch: String?, hub: String) throws(EmulatorError) {
        // The service requires If-Match on a delete (every SDK sends `*`), checked before the registration is looked up.
        let condition = try Self.condition(ifMatch)
        if let part = installationParts[hub]?[id] {
            return try deleteOwnedRegistration(id, part: part, condition: condition, hub: hub)
        }
        guard let existing = hubs[hub]?.registrations[id] else { throw .notFound("") }
        guard condition.matches(existing.etag) else {
            throw EmulatorError(412, "The ETag in If-Match does not match the registration's ETag \(existing.etag).")
        }
        hubs[hub]?.registrations[id] = nil
        hubs[hub]?.retiredRegistrationIDs.insert(id)
        indexes[hub]?.remove(owner: .registration(id))
        markDirty()
    }

    /// Registrations matching an optional handle or tag, the installations' included, ordered by id, paged by offset.
    func registrations(
        hub: String, handle: String?, tag: String?, skip: Int, top: Int
    ) -> (page: [StoredRegistration], next: Int?) {
        // Channel URIs compare as the hub keeps them (an installation's `https://some.url` is `https://some.url/`).
        let wanted = handle.map { ChannelURI.normalized($0).lowercased() }
        func matches(_ description: RegistrationDescription) -> Bool {
            if let wanted, ChannelURI.normalized(description.handle).lowercased() != wanted { return false }
            if let tag, !description.tags.contains(tag) { return false }
            return true
        }
        let stored = (hubs[hub]?.registrations.values).map(Array.init) ?? []
        var matching: [(id: String, make: () -> StoredRegistration)] = stored.compactMap { stored in
            if handle != nil || tag != nil {
                guard let description = try? RegistrationDescription(parsing: stored.descriptionXML),
                    matches(description)
                else { return nil }
            }
            return (stored.id, { stored })
        }
        for owned in ownedRegistrations(hub: hub) where matches(owned.description) {
            matching.append(
                (
                    owned.id,
                    {
                        StoredRegistration(
                            id: owned.id, etag: owned.etag, descriptionXML: owned.description.descriptionXML(),
                            published: owned.published, updated: owned.updated)
                    }
                ))
        }
        matching.sort { $0.id < $1.id }
        let page = matching.dropFirst(skip).prefix(top).map { $0.make() }
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
        guard quoted.count >= 3, quoted.first == "\"", quoted.last == "\"",
            let etag = Int(quoted.dropFirst().dropLast())
        else {
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
