import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `pushline` executable, run as a child process for end-to-end tests.
package final class PushlineProcess: @unchecked Sendable {
    package let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var captured = ""
    /// Whether what was left in the pipe when the process ended was read (`readToTheEnd`); nothing is read after.
    private var drained = false
    /// The journal directory made for this process alone (nil when the test gave one); removed with it.
    private var ownJournal: String?

    /// The built executable next to the test bundle.
    package static let executable: URL = {
        var directory = Bundle(for: PushlineProcess.self).bundleURL
        while directory.pathExtension == "xctest" || directory.lastPathComponent.hasSuffix(".xctest") {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("pushline")
    }()

    package init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws {
        process.executableURL = Self.executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        // Each process journals to its own file unless a test shares one on purpose (resume tests).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-journal-\(UUID().uuidString)"
        ).path
        if environment["PUSHLINE_JOURNAL"] == nil { ownJournal = directory }
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PUSHLINE_JOURNAL": directory + "/journal.sqlite"
        ]) { _, new in new }
        .merging(environment) { _, new in new }
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            guard let self else { return }
            // Read under the lock, so what `readToTheEnd` reads after it is appended after it.
            self.lock.withLock {
                guard !self.drained else { return }
                let data = handle.availableData
                if !data.isEmpty { self.captured += String(decoding: data, as: UTF8.self) }
            }
        }
        try process.run()
    }

    /// Everything written to standard output so far.
    package var stdout: String { lock.withLock { captured } }

    /// Waits (up to `timeout` seconds) until standard output contains `text`.
    package func waitForOutput(containing text: String, timeout: Double = 60) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stdout.contains(text) { return stdout }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ProcessTimeout(waitingFor: text, output: stdout)
    }

    /// Waits (up to `timeout` seconds) for the process to exit by itself; returns its status.
    package func waitForExit(timeout: Double = 60) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            throw ProcessTimeout(waitingFor: "exit", output: stdout)
        }
        try await readToTheEnd()
        return process.terminationStatus
    }

    /// Reads what the ended process left in the pipe: all it wrote is there once it has exited, however far behind the
    /// reading handler is on a loaded machine (waiting a fixed moment for it lost the end of long output).
    private func readToTheEnd() async throws {
        output.fileHandleForReading.readabilityHandler = nil
        let descriptor = output.fileHandleForReading.fileDescriptor
        lock.withLock {
            guard !drained else { return }
            drained = true
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            var rest: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                rest += buffer[..<count]
            }
            captured += String(decoding: rest, as: UTF8.self)
        }
    }

    /// Sends a signal and waits (up to `timeout` seconds) for the exit status.
    package func stop(signal: Int32 = SIGTERM, timeout: Double = 60) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            throw ProcessTimeout(waitingFor: "exit", output: stdout)
        }
        try await readToTheEnd()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        if let ownJournal { try? FileManager.default.removeItem(atPath: ownJournal) }
    }
}

package struct ProcessTimeout: Error, CustomStringConvertible {
    package let waitingFor: String
    package let output: String
    package var description: String { "timed out waiting for \(waitingFor); output so far:\n\(output)" }
}

/// One HTTP exchange with Foundation's client: a third implementation, neither Pushline's nor the emulator's.
package func http(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) async throws
    -> (
        Int, String
    )
{
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body.map { Data($0.utf8) }
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}
