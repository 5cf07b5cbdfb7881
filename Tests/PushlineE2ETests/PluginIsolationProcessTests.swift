import CommandTestSupport
import Foundation
import Testing

/// A plugin runs as pushline's user, so what stands between it and the keys pushline holds is the process itself.
@Suite struct PluginIsolationProcessTests {
    /// As root (CI's containers) every process may read every other's /proc files whatever they say, so pushline and
    /// its plugin are run as `nobody` there, as they would be run by an operator's own user.
    @Test("a plugin cannot read pushline's environment or memory through /proc: pushline is not dumpable")
    func pluginCannotReadItsHost() async throws {
        #if os(Linux)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushline-snoop-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // The plugin is copied beside the pipeline: the checkout may lie in a folder only its owner can read (CI's).
            let plugin = directory + "/snoop.py"
            try FileManager.default.copyItem(
                atPath: CommandRunner.root + "/Tests/PushlineCLITests/Inputs/plugins/snoop.py", toPath: plugin)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plugin)
            try """
            version: 1
            plugins:
              snoop: { command: [python3, \(plugin)], env: { PATH: "${env:PATH}" } }
            steps:
              - snoop: {}
            """.write(toFile: directory + "/snoop.yaml", atomically: true, encoding: .utf8)
            // So is pushline, for the same reason, when it is to run as another user.
            var executable = PushlineProcess.executable.path
            if getuid() == 0 {
                executable = directory + "/pushline"
                try FileManager.default.copyItem(atPath: PushlineProcess.executable.path, toPath: executable)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
            }
            let pushline = [executable, "run", directory + "/snoop.yaml"]
            let process = Process()
            if getuid() == 0 {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + pushline
            } else {
                process.executableURL = URL(fileURLWithPath: pushline[0])
                process.arguments = Array(pushline.dropFirst())
            }
            process.environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory,
                "PUSHLINE_JOURNAL": directory + "/journal.sqlite", "SNOOP_MARKER": "a-key-pushline-holds",
            ]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(
                text.contains(
                    "own environ read; pushline's environ denied (PermissionError); pushline's mem denied (PermissionError)"
                ), "\(text)")
        #endif
    }
}
