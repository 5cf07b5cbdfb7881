import Foundation

/// How the user started pushline, so the commands a command suggests can be pasted as they are:
/// `swift run pushline …` from a checkout's build, `pushline …` when the binary found on PATH is this one,
/// the path as typed otherwise. A package's own build (`my-pushline`) is named by its own name.
enum Invocation {
    /// The command prefix for `argument0` (the process's `argv[0]`) under `environment`'s PATH.
    static func prefix(argument0: String, environment: [String: String]) -> String {
        guard argument0.contains("/") else {
            return argument0.isEmpty || argument0.contains(" ") ? "pushline" : argument0
        }
        let name = URL(fileURLWithPath: argument0).lastPathComponent
        let invoked = URL(fileURLWithPath: argument0).standardizedFileURL.resolvingSymlinksInPath().path
        let onPath = (environment["PATH"] ?? "").split(separator: ":").map {
            URL(fileURLWithPath: String($0)).appendingPathComponent(name)
        }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        if let onPath, onPath.standardizedFileURL.resolvingSymlinksInPath().path == invoked { return name }
        // `swift run pushline` runs `<package>/.build/<configuration>/pushline`.
        if invoked.contains("/.build/"), !name.contains(" ") { return "swift run \(name)" }
        return argument0.contains(" ") ? "'\(argument0)'" : argument0
    }

    /// The prefix for this process.
    static func current(environment: [String: String]) -> String {
        prefix(argument0: CommandLine.arguments.first ?? "pushline", environment: environment)
    }
}
