import Foundation
import PipelineCore
import PushlineCLI
import RunFlow
import Synchronization
import Testing

/// What a command printed and how it exited.
package struct CommandOutput: Equatable {
    package var out: String
    package var err: String
    package var status: Int32

    package init(out: String, err: String, status: Int32) {
        self.out = out
        self.err = err
        self.status = status
    }
}

/// Runs `pushline` commands in-process with a captured console, a fixed clock and a given environment.
package enum CommandRunner {
    /// The repository root (the directory holding Package.swift).
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        return FileManager.default.currentDirectoryPath
    }()

    /// 2023-11-14T22:13:20Z, the fixtures' expiry minus nothing: tokens signed "now + 1h" are stable.
    package static let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

    package static func run(
        _ arguments: [String], environment: [String: String] = [:], now: Date = fixedNow, steps: [StepKind]? = nil
    ) async -> CommandOutput {
        let out = Mutex("")
        let err = Mutex("")
        // A journal of the command's own unless the test shares one; removed afterwards.
        let journalDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-journal-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: journalDirectory) }
        let console = Console(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } },
            environment: ["PUSHLINE_JOURNAL": journalDirectory + "/journal.sqlite"].merging(environment) { _, given in
                given
            },
            clock: .fixed(now))
        // Arguments say `pipelines/x.yaml` as a user in a clone would; they are made absolute (tests run in
        // parallel, so no chdir) and the prefix is removed from the output again.
        let absolute = arguments.map { argument in
            ["pipelines/", "templates/", "Tests/"].contains { argument.hasPrefix($0) }
                ? root + "/" + argument : argument
        }
        // What the executable sets at its start, for commands that host plugins here.
        PushlineMain.ignoreBrokenPipes()
        let status = await Console.$current.withValue(console) { await PushlineMain.run(absolute, steps: steps) }
        let strip = { (text: String) in text.replacingOccurrences(of: root + "/", with: "") }
        return CommandOutput(out: strip(out.withLock { $0 }), err: strip(err.withLock { $0 }), status: status)
    }

    /// The text of a golden file under Tests/PushlineCLITests/Golden.
    package static func golden(_ name: String) throws -> String {
        let path = root + "/Tests/PushlineCLITests/Golden/" + name
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Compares output with a golden file. `PUSHLINE_UPDATE_GOLDEN=1 swift test` rewrites the file
    /// instead; review the diff before committing it.
    package static func expectGolden(
        _ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let path = root + "/Tests/PushlineCLITests/Golden/" + name
        if ProcessInfo.processInfo.environment["PUSHLINE_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(actual == (try golden(name)), sourceLocation: sourceLocation)
    }
}
