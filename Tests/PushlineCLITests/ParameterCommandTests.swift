import CommandTestSupport
import Foundation
import Testing

/// `pushline run --param NAME=VALUE`: values for the pipeline's `parameters:`, checked before anything runs.
@Suite struct ParameterCommandTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "pushline-params-\(UUID().uuidString)"
    ).path

    /// Removes the scratch directory (a test calls it last, by `defer`).
    private func cleanUp() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func pipeline() throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/notify.yaml"
        try """
        version: 1
        parameters:
          user: { pattern: "[a-z0-9]{1,32}", required: true, description: "who is notified" }
          message: { default: "Hello" }
        hubs:
          main:
            connection: ${env:NH_CONNECTION}
            hub: h
        templates:
          alert:
            platform: apns
            body: '{"aps":{"alert":"$(message)"}}'
        steps:
          - send: { hub: main, format: apple, template: alert, audience: "username:${param:user}", properties: { message: "${param:message}" } }

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private let environment = [
        "NH_CONNECTION":
            "Endpoint=http://127.0.0.1:9/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=LocalEmulatorSampleKey0NotASecret0000000000="
    ]

    @Test func aDryRunSendsToTheGivenUserWithTheValueEscapedByTheTemplateEngine() async throws {
        let path = try pipeline()
        defer { cleanUp() }
        let output = await CommandRunner.run(
            ["run", path, "--dry-run", "--quiet", "--param", "user=bob", "--param", #"message=Hi "there""#],
            environment: environment)
        #expect(output.status == 0, "\(output.err)")
        #expect(output.out.contains("username:bob"))
        #expect(output.out.contains(#"{"aps":{"alert":"Hi \"there\""}}"#))
    }

    @Test func aMissingRequiredValueOrABadOneStopsTheRunWithTheDeclarationShown() async throws {
        let path = try pipeline()
        defer { cleanUp() }
        let missing = await CommandRunner.run(["run", path, "--dry-run"], environment: environment)
        #expect(missing.status == 2)
        #expect(missing.err.contains("notify.yaml:3:3: error: parameter 'user' is required and was not given"))
        #expect(missing.err.contains("hint: pass --param user=VALUE"))
        let bad = await CommandRunner.run(
            ["run", path, "--dry-run", "--param", "user=Bob Smith"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.err.contains("parameter 'user' must match [a-z0-9]{1,32}; the value given does not (as given)"))
        #expect(!bad.err.contains("Bob Smith"))
        #expect(bad.err.contains("hint: 'user': who is notified"))
    }

    @Test func aParameterWithoutEqualsOrGivenTwiceIsAUsageError() async throws {
        let path = try pipeline()
        defer { cleanUp() }
        let noEquals = await CommandRunner.run(["run", path, "--param", "user"], environment: environment)
        #expect(noEquals.status == 2)
        #expect(noEquals.err.contains("--param takes NAME=VALUE, found 'user'"))
        let twice = await CommandRunner.run(
            ["run", path, "--param", "user=a", "--param", "user=b"], environment: environment)
        #expect(twice.status == 2)
        #expect(twice.err.contains("--param user is given twice"))
    }
}
