import Foundation
import HTTPTypes
import Testing

@testable import PushService

/// The route table of docs/backend.md is written by hand (each route's behaviour is prose), so it is checked here
/// against the server: it lists exactly the operations of the OpenAPI document, each with the scope the server
/// asks for.
@Suite("The backend guide's route table and the server agree")
struct BackendGuideRoutesTests {
    /// One row's operation: method, path template (query left out) and the scope column.
    struct Listed: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var scope: String
        var description: String { "\(method) \(path) (\(scope))" }
    }

    static func guide(filePath: String = #filePath) throws -> String {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/backend.md"), encoding: .utf8)
    }

    /// The operations the table's rows name: a cell such as "`PUT`, `GET`, `DELETE /v1/installations/{id}`" is three.
    static func listed(in text: String) -> [Listed] {
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
        return rows.flatMap { row -> [Listed] in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4 else { return [] }
            var pending: [String] = []
            var found: [Listed] = []
            for span in cells[1].matches(of: /`([^`]+)`/).map({ String($0.output.1) }) {
                let words = span.split(separator: " ", maxSplits: 1).map(String.init)
                guard let method = words.first, method == method.uppercased(), method.allSatisfy(\.isLetter) else {
                    continue
                }
                guard words.count == 2, words[1].hasPrefix("/") else {
                    pending.append(method)
                    continue
                }
                let path = String(words[1].prefix { $0 != "?" && $0 != " " })
                found += (pending + [method]).map { Listed(method: $0, path: path, scope: cells[2]) }
                pending = []
            }
            return found
        }
    }

    @Test func theTableListsEveryOperationOnceWithItsScope() async throws {
        let listed = Self.listed(in: try Self.guide())
        #expect(listed.count == Set(listed).count, "a route listed twice: \(listed)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(PushServer.openAPIDocument.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(
            paths.flatMap { path, item in
                item.keys.filter { ["get", "put", "post", "delete", "patch"].contains($0) }.map {
                    "\($0.uppercased()) \(path)"
                }
            })
        #expect(Set(listed.map { "\($0.method) \($0.path)" }) == documented, "docs/backend.md's route table: \(listed)")
        try await ServiceHarness.with { harness in
            let routes = harness.server.routes
            for operation in listed {
                // The server's templates name parameters `:id`, the document's `{id}`.
                let route = routes.first {
                    $0.method.rawValue == operation.method
                        && $0.path.replacingOccurrences(of: ":id", with: "{id}").replacingOccurrences(
                            of: ":name", with: "{name}") == operation.path
                }
                #expect(route != nil, "docs/backend.md: \(operation) is not a route of the server")
                #expect(
                    route?.scope?.rawValue ?? "none" == operation.scope,
                    "docs/backend.md: \(operation) — the server asks for \(route?.scope?.rawValue ?? "none")")
            }
        }
    }
}
