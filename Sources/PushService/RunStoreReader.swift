import PipelineCore
import RunFlow
import RunStore

/// The run store `GET /v1/runs/{id}` reads, opened on first use and kept for the server's life: opening a
/// PostgreSQL store costs a connection, a login and a schema check, which no GET should pay (nor let a caller make
/// the server pay at will). Runs open their own store, as `pushline run` does.
actor RunStoreReader {
    private let location: String
    private let environment: [String: String]
    private var store: (any RunStore)?
    /// Stores opened so far (tests check that GETs share one).
    private(set) var opened = 0

    init(environment: [String: String]) {
        self.environment = environment
        location = RunStores.location(nil, environment: environment)
    }

    /// The store, or nil while nothing has created it yet (no run has started: asked again next time).
    func store() async throws(RunStoreError) -> (any RunStore)? {
        if let store { return store }
        guard let fresh = try await RunStores.openExisting(location, environment: environment) else { return nil }
        opened += 1
        // Two first GETs at once may both open one: keep the first, close the other.
        if let store {
            await fresh.close()
            return store
        }
        store = fresh
        return fresh
    }

    /// Closes the store; a later read opens it again.
    func close() async {
        let open = store
        store = nil
        await open?.close()
    }
}
