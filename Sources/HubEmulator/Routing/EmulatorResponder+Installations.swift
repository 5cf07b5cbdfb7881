import Foundation
import HTTPTypes
import HubWire
import Hummingbird

extension EmulatorResponder {
    func putInstallation(_ call: Call, id: String) async throws -> Response {
        let installation: Installation = try decodeJSON(try await body(call), what: "installation")
        guard installation.installationId == id else {
            throw EmulatorError.badRequest(
                "The installationId in the body ('\(installation.installationId)') does not match the URL ('\(id)').")
        }
        try await store.putInstallation(installation, hub: call.hub)
        // Today's service answers 200 with no body and no Content-Type (the JS SDK's recordings, 2024; the .NET
        // SDK's of 2018–2020 labelled it `application/xml`).
        return Self.empty(.ok)
    }

    func patchInstallation(_ call: Call, id: String) async throws -> Response {
        let operations: [InstallationPatchOperation] = try decodeJSON(try await body(call), what: "JSON-Patch array")
        try await store.patchInstallation(id: id, operations: operations, hub: call.hub)
        return Self.empty(.ok)
    }

    func getInstallation(_ call: Call, id: String) async throws -> Response {
        guard let installation = await store.installation(id: id, hub: call.hub) else {
            throw EmulatorError.notFound("Installation not found")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(installation), as: UTF8.self)
        // The body is JSON, but recorded NH traffic (the .NET SDK's recordings of 2018 and 2020) labels it
        // `application/xml; charset=utf-8`, and clients must cope with that: so does the emulator. Those answers carry
        // no Content-Location either (the REST reference shows one; the service sends none).
        return response(.ok, contentType: "application/xml; charset=utf-8", body: json)
    }

    func deleteInstallation(_ call: Call, id: String) async -> Response {
        await store.deleteInstallation(id: id, hub: call.hub)
        // A 204 with no Content-Type (recorded 2024; the old front end labelled it `application/xml` in 2018).
        return Response(status: .noContent)
    }

    /// Decodes a JSON body, turning decoding errors into a 400 whose detail says what was wrong.
    func decodeJSON<T: Decodable>(_ text: String, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch let DecodingError.keyNotFound(key, _) {
            throw EmulatorError.badRequest("The \(what) is missing '\(key.stringValue)'.")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw EmulatorError.badRequest("The \(what) has a value of the wrong type at '\(path)'.")
        } catch {
            throw EmulatorError.badRequest("The body is not a valid \(what) (JSON).")
        }
    }
}
