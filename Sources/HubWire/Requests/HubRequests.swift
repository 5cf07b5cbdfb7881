#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builders for every NH data-plane request Pushline makes (nh-rest-api.md §3–§5).
///
/// Path segments (installation ids, registration ids, tags, notification ids) are percent-encoded with
/// upper-case hex, so a `/`, `:`, space or `{}` in an id stays inside its segment; query values are
/// form-encoded. Requests never carry an Authorization header: the transport adds the SAS token.
public enum HubRequests {
    /// `PUT installations/{id}` with the installation as JSON (keys sorted, `/` unescaped); Listen, idempotent.
    /// The read-only `pushChannelExpired` and `expirationTime` are left out, so a read-back installation can be
    /// written again as is.
    public static func putInstallation(_ installation: Installation, at endpoint: HubEndpoint) -> HubRequest {
        var writable = installation
        writable.pushChannelExpired = nil
        writable.expirationTime = nil
        let id = installation.installationId
        return HubRequest(
            method: .put, url: endpoint.url("installations/" + segment(id)),
            headers: [HubHeader("Content-Type", "application/json")], body: json(writable),
            isIdempotent: true, summary: "PUT installation \(quoted(id))", right: .listen)
    }

    /// `PATCH installations/{id}` with a JSON-Patch array (`application/json-patch+json`), each operation written
    /// as `{"op":…,"path":…,"value":…}` (value left out when nil); Listen, idempotent.
    public static func patchInstallation(
        id: String, operations: [InstallationPatchOperation],
        at endpoint: HubEndpoint
    ) -> HubRequest {
        let items = operations.map { operation in
            "{\"op\":" + JSONText.quote(operation.op.rawValue) + ",\"path\":" + JSONText.quote(operation.path)
                + (operation.value.map { ",\"value\":" + JSONText.quote($0) } ?? "") + "}"
        }
        return HubRequest(
            method: .patch, url: endpoint.url("installations/" + segment(id)),
            headers: [HubHeader("Content-Type", "application/json-patch+json")],
            body: Array(("[" + items.joined(separator: ",") + "]").utf8),
            isIdempotent: true, summary: "PATCH installation \(quoted(id))", right: .listen)
    }

    /// `GET installations/{id}`; Listen.
    public static func getInstallation(id: String, at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .get, url: endpoint.url("installations/" + segment(id)), headers: [], body: [],
            isIdempotent: true, summary: "GET installation \(quoted(id))", right: .listen)
    }

    /// `DELETE installations/{id}`; Listen.
    public static func deleteInstallation(id: String, at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .delete, url: endpoint.url("installations/" + segment(id)), headers: [], body: [],
            isIdempotent: true, summary: "DELETE installation \(quoted(id))", right: .listen)
    }

    /// `GET messages/{id}`: per-message telemetry (Standard tier); Manage.
    public static func notificationDetails(id: String, at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .get, url: endpoint.url("messages/" + segment(id)), headers: [], body: [],
            isIdempotent: true, summary: "GET notification \(quoted(id))", right: .manage)
    }

    /// `DELETE schedulednotifications/{id}`: cancels a scheduled send; Send. Idempotent: cancelling twice
    /// leaves the same state.
    public static func cancelScheduled(id: String, at endpoint: HubEndpoint) -> HubRequest {
        HubRequest(
            method: .delete, url: endpoint.url("schedulednotifications/" + segment(id)), headers: [],
            body: [], isIdempotent: true, summary: "DELETE scheduled notification \(quoted(id))",
            right: .send)
    }

    /// One percent-encoded path segment.
    static func segment(_ text: String) -> String {
        // `.` and `..` are unreserved, yet as a whole segment they mean "here" and "up": escaped, they stay an id.
        if text == "." { return "%2E" }
        if text == ".." { return "%2E%2E" }
        return PercentCoding.encode(text, hexCase: .upper)
    }

    /// `'text'` for summaries.
    static func quoted(_ text: String) -> String {
        "'\(text)'"
    }

    /// Compact JSON with sorted keys and `/` unescaped, so bodies are the same bytes on every platform.
    static func json<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Installations hold only strings, bools and containers of them, which always encode; an empty body
        // here would surface as a 400 rather than a crash.
        return (try? encoder.encode(value)).map { Array($0) } ?? []
    }
}
