import Foundation

/// `pushline emulator` run as a process on a free loopback port, and what its banner says: where it listens and a
/// connection string per access policy. The end-to-end suites start their emulators through it.
package struct EmulatorProcess {
    /// The running emulator; stop it with `stop()`.
    package let process: PushlineProcess
    /// `http://127.0.0.1:PORT/`.
    package let base: String
    /// The connection strings the banner printed, in its order.
    package let connections: [String]

    /// Starts `pushline emulator --port 0` with `arguments` and waits for its banner.
    package static func start(_ arguments: [String] = []) async throws -> EmulatorProcess {
        let process = try PushlineProcess(["emulator", "--port", "0"] + arguments)
        let banner = try await process.waitForOutput(containing: "stop with Ctrl-C")
        guard let base = banner.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") }) else {
            _ = try? await process.stop()
            throw BannerWithoutAddress(banner: banner)
        }
        let connections = banner.split(separator: "\n").filter { $0.contains("Endpoint=") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return EmulatorProcess(process: process, base: String(base), connections: connections)
    }

    /// The connection string of the policy named `keyName` (`SharedAccessKeyName`), if the banner printed one.
    package func connection(named keyName: String) -> String? {
        connections.first { $0.contains("SharedAccessKeyName=\(keyName);") }
    }
}

/// The emulator printed its banner without the address it listens on.
package struct BannerWithoutAddress: Error, CustomStringConvertible {
    package let banner: String
    package var description: String { "the emulator's banner names no http://127.0.0.1 address:\n\(banner)" }
}
