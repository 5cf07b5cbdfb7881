/// The emulator served by a task of this process until stopped: what `pushline demo` runs its pipeline
/// against, and what a test or another front end can start without a second process.
public struct EmbeddedEmulator: Sendable {
    /// What it serves.
    public let emulator: Emulator
    /// The port it listens on (loopback).
    public let port: Int
    private let task: Task<Void, any Error>

    /// Starts serving on 127.0.0.1:`port` (0: a free port) and returns once it listens.
    public static func start(_ emulator: Emulator, port: Int) async throws -> EmbeddedEmulator {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            // Finishing the stream when serving ends makes a failure to start an error, not a hang.
            defer { continuation.finish() }
            try await emulator.run(host: "127.0.0.1", port: port, quiet: true) { continuation.yield($0) }
        }
        for await listening in ports {
            return EmbeddedEmulator(emulator: emulator, port: listening, task: task)
        }
        do {
            try await task.value
        } catch {
            throw EmulatorStartFailure(message: "the emulator did not start on port \(port): \(error)")
        }
        throw EmulatorStartFailure(message: "the emulator did not start on port \(port)")
    }

    /// Stops serving (in-flight requests finish) and waits until it has.
    public func stop() async {
        await emulator.shutdown()
        _ = try? await task.value
    }

    /// Waits until serving ends (Ctrl-C or SIGTERM: the emulator shuts down gracefully).
    public func waitUntilStopped() async {
        _ = try? await task.value
    }
}

/// The emulator could not start serving (the port is taken, the address cannot be bound).
public struct EmulatorStartFailure: Error, Sendable, CustomStringConvertible {
    /// What happened.
    public let message: String

    public var description: String { message }
}
