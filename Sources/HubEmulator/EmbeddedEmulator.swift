/// The emulator served by a task of this process until stopped: what `pushline demo` runs its pipeline
/// against, and what a test or another front end can start without a second process.
package struct EmbeddedEmulator: Sendable {
    /// What it serves.
    package let emulator: Emulator
    /// The port it listens on (loopback).
    package let port: Int
    private let task: Task<Void, any Error>

    /// Starts serving on 127.0.0.1:`port` (0: a free port) and returns once it listens.
    package static func start(_ emulator: Emulator, port: Int) async throws -> EmbeddedEmulator {
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
    package func stop() async {
        await emulator.shutdown()
        _ = try? await task.value
    }

    /// Waits until serving ends (Ctrl-C or SIGTERM: the emulator shuts down gracefully).
    package func waitUntilStopped() async {
        _ = try? await task.value
    }
}

/// The emulator could not start serving (the port is taken, the address cannot be bound).
package struct EmulatorStartFailure: Error, Sendable, CustomStringConvertible {
    /// What happened.
    package let message: String

    package var description: String { message }
}
