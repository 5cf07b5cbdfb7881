import Foundation
import Testing

@testable import PushlineCLI

/// Suggested commands start the way the user started pushline.
@Suite struct InvocationTests {
    @Test func theSuggestedPrefixFollowsHowPushlineWasStarted() throws {
        #expect(Invocation.prefix(argument0: "pushline", environment: [:]) == "pushline")
        // PATH names only directories this test made, so a pushline installed on the machine changes nothing.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(
            Invocation.prefix(argument0: "/src/pushline/.build/debug/pushline", environment: ["PATH": empty])
                == "swift run pushline")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = directory + "/pushline"
        #expect(
            FileManager.default.createFile(
                atPath: binary, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect(Invocation.prefix(argument0: binary, environment: ["PATH": "\(empty):\(directory)"]) == "pushline")
        #expect(Invocation.prefix(argument0: binary, environment: ["PATH": empty]) == binary)
        // A package's own build is suggested by its own name.
        #expect(Invocation.prefix(argument0: "my-pushline", environment: [:]) == "my-pushline")
        #expect(
            Invocation.prefix(argument0: "/src/app/.build/release/my-pushline", environment: ["PATH": empty])
                == "swift run my-pushline")
    }
}
