import Foundation
import HTTPServing
import HubWire
import Hummingbird
import Synchronization

/// The local Notification Hubs emulator: NH's data-plane REST API over HTTP, backed by memory
/// (and optionally a state file), with a side channel that shows what each device received.
///
/// Build it, then `run` it: the `pushline emulator` command, or `EmbeddedEmulator` inside another process.
package final class Emulator: Sendable {
    /// What it serves.
    package let configuration: EmulatorConfiguration
    let store: EmulatorStore
    let stateFile: StateFile?
    /// The emulator's clock: `now` moved by the configured offset.
    let clock: @Sendable () -> Date
    /// The server of the current `run`, so `shutdown` can end it. One `run` at a time: a second concurrent one
    /// would take `shutdown` over (and fail to bind a port the first holds, if the same).
    private let serving = Mutex<HTTPServer<EmulatorContext>?>(nil)

    /// Creates an emulator; with `statePath`, state saved by an earlier run is loaded.
    /// - Parameters:
    ///   - deliveryLimit: most deliveries the side channel keeps, and most notifications whose telemetry
    ///     `GET messages/{id}` answers (oldest dropped first).
    ///   - now: this machine's clock; the emulator's own runs `configuration.clockOffset` seconds from it
    ///     and dates token checks, the `Date` header, scheduled sends and timestamps.
    package init(
        configuration: EmulatorConfiguration, statePath: String? = nil, deliveryLimit: Int = 100_000,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        self.configuration = configuration
        let offset = TimeInterval(configuration.clockOffset)
        let clock: @Sendable () -> Date = { now().addingTimeInterval(offset) }
        self.clock = clock
        store = EmulatorStore(configuration: configuration, deliveryLimit: deliveryLimit, now: clock)
        stateFile = statePath.map(StateFile.init(path:))
        if let snapshot = try stateFile?.load() {
            do {
                try await store.restore(snapshot)
            } catch {
                throw EmulatorStateError(
                    message: "state file '\(statePath ?? "")' holds an invalid device: \(error.detail)")
            }
        }
    }

    /// Serves until SIGINT, SIGTERM or `shutdown()`, then lets in-flight requests finish and saves the state.
    /// `quiet` logs only warnings and errors (an emulator embedded in another command); `onRunning` receives the
    /// bound port (port 0 picks a free one).
    /// With `tls` it serves HTTPS, and the URLs it answers with (Location, entry ids) are `https://` ones.
    package func run(
        host: String, port: Int, quiet: Bool = false, tls: ServerTLS? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let background = Task { await backgroundWork() }
        defer { background.cancel() }
        let responder = EmulatorResponder(
            store: store, configuration: configuration, now: clock, scheme: tls == nil ? "http" : "https")
        // Only an offset clock needs its own `Date`; the usual path keeps the server's cached one.
        let server = HTTPServer(
            options: ServerOptions(
                host: host, port: port, serverName: "Pushline-Emulator", quiet: quiet,
                responseClock: configuration.clockOffset == 0 ? nil : clock, tls: tls),
            responder: responder.router().buildResponder())
        serving.withLock { $0 = server }
        defer { serving.withLock { $0 = nil } }
        try await server.run(onRunning: onRunning)
        // The periodic save may be writing right now: let it finish before the last one, so the state file
        // ends with the newest snapshot and the two never race.
        background.cancel()
        await background.value
        try await saveState()
    }

    /// Ends a `run` as SIGTERM would: no new connections, in-flight requests finish, state is saved.
    package func shutdown() async {
        await serving.withLock { $0 }?.shutdown()
    }

    /// Sends scheduled notifications that are due; returns how many. `run` calls it every 100 ms.
    @discardableResult
    package func sendDueNotifications() async -> Int {
        await store.sendDueNotifications()
    }

    /// Writes the state file now (no-op without one).
    package func saveState() async throws {
        guard let stateFile else { return }
        try stateFile.save(await store.takeSnapshot())
    }

    /// The deliveries recorded so far (what the side channel returns).
    /// Forgets what was delivered (ids keep increasing), as `DELETE /_emulator/deliveries` does.
    package func clearDeliveries() async {
        await store.clearDeliveries()
    }

    package func deliveries(since: Int? = nil) async -> [Delivery] {
        await store.deliveries(since: since)
    }

    /// The installation `id` of `hub` as the hub holds it now, if it does (what `pushline test` matches audiences
    /// against).
    package func installation(id: String, hub: String) async -> Installation? {
        await store.installation(id: id, hub: hub)
    }

    /// One connection string per hub and policy, for clients pointed at `baseURL` (e.g. `http://127.0.0.1:8080/`).
    package func connectionStrings(baseURL: String) -> [(hub: String, policy: String, connectionString: String)] {
        let endpoint = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        return configuration.hubs.flatMap { hub in
            hub.policies.map { policy in
                (
                    hub.name, policy.name,
                    "Endpoint=\(endpoint);SharedAccessKeyName=\(policy.name);SharedAccessKey=\(policy.key)"
                )
            }
        }
    }

    /// Due scheduled sends every 100 ms; changed state saved about once a second.
    private func backgroundWork() async {
        var ticks = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
            await store.sendDueNotifications()
            ticks += 1
            if ticks % 10 == 0, await store.isDirty { try? await saveState() }
        }
    }
}

/// A state file that cannot be used.
package struct EmulatorStateError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    package let message: String
    /// The message.
    package var description: String { message }
}
