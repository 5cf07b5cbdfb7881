import Foundation

/// How the user started pushline, so the commands a command suggests can be pasted as they are:
/// `swift run pushline …` from a checkout's build, `pushline …` when the binary found on PATH is this one,
/// the path as typed otherwise. A package's own build (`my-pushline`) is named by its own name.
enum Invocation {
    /// The command prefix for `argument0` (the process's `argv[0]`) under `environment`'s PATH.
    static func prefix(argument0: String, environment: [String: String]) -> String {
        guard argument0.contains("/") else { return argument0.isEmpty || argument0.contains(" ") ? "pushline" : argument0 }
        let name = URL(fileURLWithPath: argument0).lastPathComponent
        let invoked = URL(fileURLWithPath: argument0).standardizedFileURL.resolvingSymlinksInPath().path
        let onPath = (environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
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

    /// A TCP port on the loopback interface that nothing listens on right now (0 when none could be found).
    static func freePort() -> Int {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, stream, 0)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { return 0 }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : 0
    }
}
