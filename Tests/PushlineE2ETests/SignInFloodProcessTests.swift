import CommandTestSupport
import Foundation
import PasswordHashing
import Testing

/// A distributed flood of failed sign-ins against the real `pushline serve`, with first sign-ins of real users during
/// it, driven by the benchmark's own flooder (bench/tools/signin_flood.py) for a few seconds instead of thirty.
@Suite(.serialized) struct SignInFloodProcessTests {
    @Test func aFloodFromFortyAddressesLeavesUsersTheirSignInsAndHealthzItsAnswers() async throws {
        let (emulator, _, connection) = try await ServeProcessTests.startEmulator()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-flood-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Cost 10, as `htpasswd -B` writes by default: a check is tens of milliseconds of CPU, the flood's whole point.
        let users = (1...10).map { ("user-\($0)", "legit-password-\($0)") }
        try users.map { "\($0.0):\(PasswordHash.make($0.1, cost: 10))" }.joined(separator: "\n")
            .write(toFile: directory + "/users.htpasswd", atomically: true, encoding: .utf8)
        try users.map { "\($0.0):\($0.1)" }.joined(separator: "\n").write(
            toFile: directory + "/users.txt", atomically: true, encoding: .utf8)
        let server = try PushlineProcess(
            ["serve", ServeProcessTests.serviceFile, "--port", "0"],
            environment: [
                "NH_CONNECTION": connection, "NH_HUB": "myhub", "PUSHLINE_USERS": directory + "/users.htpasswd",
                "PUSHLINE_API_KEY": "flood-test-key-0123456789abcdef",
            ])
        let started = try await server.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            started.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))

        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        flood.arguments = [
            "python3", CommandRunner.root + "/bench/tools/signin_flood.py", "--base", base, "--users",
            directory + "/users.txt",
            "--attackers", "40", "--seconds", "6", "--deadline", "30",
            // A loaded machine can hold an answer back for seconds; a test times nothing.
            "--request-timeout", "60",
        ]
        let pipe = Pipe()
        flood.standardOutput = pipe
        try flood.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        flood.waitUntilExit()
        #expect(flood.terminationStatus == 0)
        let figures = try #require(
            try JSONSerialization.jsonObject(with: output) as? [String: Any],
            "\(String(decoding: output, as: UTF8.self))")
        let statuses = figures["attacker_statuses"] as? [String: Int] ?? [:]
        // The flood was one: 40 addresses kept every check busy, each with a request always waiting.
        #expect((statuses["401"] ?? 0) >= 20, "\(figures)")
        #expect(statuses.keys.allSatisfy { ["401", "429", "503"].contains($0) }, "\(figures)")
        // Every user got their turn, none was refused as busy: users rank before the flooding addresses whatever
        // the machine's speed (how fast, the benchmark measures: bench/signin-flood.sh). A test times nothing.
        #expect(figures["legit"] as? Int == 10)
        #expect(figures["legit_statuses"] as? [String] == ["403"], "\(figures)")
        #expect(figures["legit_served"] as? Int == 10, "\(figures)")
        #expect(figures["healthz_failed"] as? Int == 0, "\(figures)")
        #expect(try await server.stop() == 0)
        #expect(try await emulator.stop() == 0)
    }
}
