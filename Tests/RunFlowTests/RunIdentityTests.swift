import Foundation
import PipelineCore
import RunFlow
import Testing

@Suite("RunIdentity: what makes two runs the same run")
struct RunIdentityTests {
    private func identity(_ fixture: RunFlowFixture, parameters: [String: String] = [:]) async throws -> String {
        let loaded = await fixture.load(parameters: parameters)
        let pipeline = try #require(loaded.pipeline, "\(loaded.diagnostics)")
        return RunIdentity.digest(of: pipeline, registry: loaded.registry)
    }

    @Test("the same text is the same run; a changed option, key or input file is a new one")
    func identityFollowsContent() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let first = try await identity(fixture)
        #expect(try await identity(fixture) == first)
        #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))

        let changes = [
            RunFlowFixture.pipeline.replacingOccurrences(of: "\"hello\"", with: "\"hello again\""),
            RunFlowFixture.pipeline.replacingOccurrences(of: "RunFlowTestKey0", with: "RunFlowTestKey1"),
            RunFlowFixture.pipeline.replacingOccurrences(of: "lifetime: 20m", with: "lifetime: 30m"),
        ]
        for changed in changes {
            let other = try RunFlowFixture(pipeline: changed)
            defer { other.remove() }
            #expect(try await identity(other) != first)
        }
    }

    @Test("the identity holds a digest of the connection string, never the key itself")
    func noSecretInIdentity() async throws {
        let fixture = try RunFlowFixture()
        defer { fixture.remove() }
        let digest = try await identity(fixture)
        #expect(!digest.contains("RunFlowTestKey"))
    }

    @Test(
        "a for-each file is data, not identity: edited, it is the same run (its rows are compared once read); moved, another"
    )
    func forEachFilesAreData() async throws {
        let text = """
            version: 1
            hubs:
              main:
                connection: "Endpoint=http://127.0.0.1:9/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=RunFlowTestKey0NotASecret00000000000000000000="
                hub: flow-hub
            steps:
              - send:
                  hub: main
                  for-each: rows.csv
                  audience: "$UserId:{$(user)}"
                  properties: { message: "hi" }

            """
        let fixture = try RunFlowFixture(pipeline: text)
        defer { fixture.remove() }
        try "user\nu1\nu2\n".write(toFile: fixture.directory + "/rows.csv", atomically: true, encoding: .utf8)
        let before = try await identity(fixture)
        try "user\nu1\nu3\n".write(toFile: fixture.directory + "/rows.csv", atomically: true, encoding: .utf8)
        #expect(try await identity(fixture) == before)
        try "user\nu1\nu3\n".write(toFile: fixture.directory + "/other.csv", atomically: true, encoding: .utf8)
        try text.replacingOccurrences(of: "rows.csv", with: "other.csv").write(
            toFile: fixture.pipelinePath, atomically: true, encoding: .utf8)
        #expect(try await identity(fixture) != before)
    }

    @Test("parameter values are part of the identity: the same pipeline for another user is another run")
    func parametersCount() async throws {
        let fixture = try RunFlowFixture(
            pipeline: RunFlowFixture.pipeline
                .replacingOccurrences(of: "version: 1\n", with: "version: 1\nparameters:\n  user: { required: true }\n")
                .replacingOccurrences(of: "message: \"hello\"", with: "message: \"hello ${param:user}\""))
        defer { fixture.remove() }
        let digest = { (user: String) async throws -> String in try await identity(fixture, parameters: ["user": user])
        }
        #expect(try await digest("alice") == digest("alice"))
        #expect(try await digest("alice") != digest("bob"))
    }

    @Test("a parameter used only in an audience still makes another run: values are hashed whatever uses them")
    func parameterInAnAudience() async throws {
        let fixture = try RunFlowFixture(
            pipeline: RunFlowFixture.pipeline
                .replacingOccurrences(
                    of: "version: 1\n",
                    with:
                        "version: 1\nparameters:\n  user: { required: true }\naudiences:\n  me: \"user_${param:user}\"\n"
                ))
        defer { fixture.remove() }
        let digest = { (user: String) async throws -> String in try await identity(fixture, parameters: ["user": user])
        }
        #expect(try await digest("alice") != digest("bob"))
    }
}
