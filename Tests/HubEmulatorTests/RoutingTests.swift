import Foundation
import HTTPTypes
import HubEmulator
import TestSupport
import Testing

/// How a request finds its resource (§2): the order of the checks a request meets, paths matched without regard to
/// case, ids decoded, and every refusal in NH's error shape.
@Suite("Routing (§2)")
struct RoutingTests {
    @Test("a method a resource does not serve is 405 — after the hub, the api-version and the token are checked")
    func wrongMethodComesAfterAuth() async throws {
        try await withEmulator { client, _ async throws in
            let path = "/\(NH.hub)/registrations/123?\(NH.api)"
            AuthTests.expectError(
                try await client.request(.post, path, auth: Token.full()), 405,
                detailPrefix: "The method POST is not allowed on this resource.")
            AuthTests.expectError(
                try await client.request(.patch, "/\(NH.hub)/messages?\(NH.api)", auth: Token.full()), 405)
            // Unsigned, the same request is refused for its token first; without an api-version, for that.
            #expect(try await client.request(.post, path).status == 401)
            AuthTests.expectError(
                try await client.request(.post, "/\(NH.hub)/registrations/123", auth: Token.full()), 400,
                detailPrefix: "The api-version query parameter is required.")
            // HEAD is a method like any other here: refused, with the head of the refusal and no body.
            let head = try await client.request(.head, path, auth: Token.full())
            #expect(head.status == 405 && head.body.isEmpty, "\(head)")
            #expect(head.header("TrackingId") != nil)
        }
    }

    @Test("an unknown hub and an unknown resource are 404s that say which, with a TrackingId of the caller's")
    func unmatched() async throws {
        try await withEmulator { client, _ async throws in
            let nowhere = try await client.request(
                .get, "/nohub/installations/a?\(NH.api)", auth: Token.full(), headers: [("TrackingId", "t-123")])
            AuthTests.expectError(nowhere, 404, detailPrefix: "No service is hosted at the specified address.")
            #expect(nowhere.header("TrackingId") == "t-123")
            #expect(nowhere.header("x-ms-correlation-request-id")?.count == 36)
            AuthTests.expectError(
                try await client.request(.get, "/\(NH.hub)/nothing/here?\(NH.api)", auth: Token.full()), 404,
                detailPrefix: "No such resource: /\(NH.hub)/nothing/here")
            AuthTests.expectError(
                try await client.request(.get, "/\(NH.hub)?\(NH.api)", auth: Token.full()), 404,
                detailPrefix: "No such resource")
            AuthTests.expectError(
                try await client.request(.get, "/_emulator/nothing"), 404, detailPrefix: "The side channel has")
        }
    }

    @Test("paths match without regard to case; ids are percent-decoded; messages/$batch is the batch, not an id")
    func pathShapes() async throws {
        try await withEmulator { client, _ async throws in
            let id = "mixed Case/1"
            let put = try await client.request(
                .put, "/MyHub/Installations/mixed%20Case%2F1?\(NH.api)", auth: Token.full(),
                headers: [("Content-Type", "application/json")], body: seedInstallation(id: id))
            #expect(put.status == 200, "\(put)")
            let get = try await client.request(
                .get, "/myhub/INSTALLATIONS/mixed%20Case%2F1?\(NH.api)", auth: Token.full())
            #expect((get.json as? [String: Any])?["installationId"] as? String == id, "\(get)")
            // GET on the batch resource is refused as a method, not looked up as a notification's telemetry.
            AuthTests.expectError(
                try await client.request(.get, "/\(NH.hub)/messages/$batch?\(NH.api)", auth: Token.full()), 405)
            let created = try await client.request(
                .post, "/\(NH.hub)/RegistrationIDs?\(NH.api)", auth: Token.full())
            #expect(created.status == 201, "\(created)")
        }
    }
}
