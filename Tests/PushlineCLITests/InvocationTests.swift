import Foundation
import Testing
@testable import PushlineCLI

/// Suggested commands start the way the user started pushline.
@Suite struct InvocationTests {
    @Test func theSuggestedPrefixFollowsHowPushlineWasStarted() throws {
        #expect(Invocation.prefix(argument0: "pushline", environment: [:]) == "pushline")
        #expect(Invocation.prefix(argument0: "/src/pushline/.build/debug/pushline", environment: ["PATH": "/usr/bin"]) == "swift run pushline")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = directory + "/pushline"
        #expect(FileManager.default.createFile(atPath: binary, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect(Invocation.prefix(argument0: binary, environment: ["PATH": "/usr/bin:\(directory)"]) == "pushline")
        #expect(Invocation.prefix(argument0: binary, environment: ["PATH": "/usr/bin"]) == binary)
    }

    @Test func aFreePortIsOneNothingListensOn() {
        let port = Invocation.freePort()
        #expect((1024...65535).contains(port))
    }
}
