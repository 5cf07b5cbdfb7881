import Foundation
import HTTPTypes
import PushService
import Testing

@Suite("The OpenAPI document and the server agree")
struct OpenAPITests {
    static func committed(filePath: String = #filePath) throws -> String {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("api/openapi.json"), encoding: .utf8)
    }

    @Test func theServedDocumentIsTheCommittedOne() async throws {
        #expect(
            PushServer.openAPIDocument == (try Self.committed()),
            "api/openapi.json is a link to Sources/PushService/openapi.json")
        try await ServiceHarness.with { harness in
            let served = await harness.call(.get, "/openapi.json")
            #expect(served.status == 200)
            #expect(served.text == PushServer.openAPIDocument)
        }
    }

    /// Every operation in the document answers something other than 404/405 (with an admin key, whose scope some
    /// routes need), and a path the document does not have answers 404.
    @Test func everyDocumentedOperationIsServed() async throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(PushServer.openAPIDocument.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.count == 13)
        try await ServiceHarness.with { harness in
            for (template, item) in paths {
                let path = template.replacingOccurrences(of: "{id}", with: "x-1").replacingOccurrences(
                    of: "{name}", with: "none")
                for method in item.keys where ["get", "put", "post", "delete"].contains(method) {
                    let answer = await harness.call(
                        HTTPRequest.Method(method.uppercased())!, path, apiKey: ServiceHarness.adminKey)
                    #expect(answer.status != 405, "\(method) \(template): \(answer)")
                    if !template.contains("{") { #expect(answer.status != 404, "\(method) \(template): \(answer)") }
                }
                // Methods the document leaves out are 405 with the ones it has.
                if item["patch"] == nil {
                    let answer = await harness.call(.patch, path, apiKey: ServiceHarness.adminKey)
                    #expect(answer.status == 405 || answer.status == 404, "PATCH \(template): \(answer)")
                }
            }
            #expect(await harness.call(.get, "/api/undocumented", apiKey: ServiceHarness.adminKey).status == 404)
        }
    }
}
