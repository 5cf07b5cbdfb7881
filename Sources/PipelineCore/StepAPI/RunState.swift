import Foundation
import HubWire
import Synchronization

/// Outputs that steps leave for later steps during one run: token providers, rendered payloads.
///
/// Shared by reference across the run; a mutex keeps it safe when steps use concurrency inside.
package final class RunState: Sendable {
    private struct Storage {
        var tokenProviders: [String: SASTokenProvider] = [:]
        var renderedPayloads: [String: String] = [:]
        var temporaryFiles: [String] = []
    }

    private let storage = Mutex(Storage())

    /// Creates an empty state.
    package init() {}

    /// Registers the token provider for a declared hub (by its pipeline name).
    package func setTokenProvider(_ provider: SASTokenProvider, forHub hub: String) {
        storage.withLock { $0.tokenProviders[hub] = provider }
    }

    /// The token provider a `sign` step registered for a hub.
    package func tokenProvider(forHub hub: String) -> SASTokenProvider? {
        storage.withLock { $0.tokenProviders[hub] }
    }

    /// Records the payload a `render` step produced for a template.
    package func setRenderedPayload(_ payload: String, forTemplate template: String) {
        storage.withLock { $0.renderedPayloads[template] = payload }
    }

    /// The last payload rendered for a template.
    package func renderedPayload(forTemplate template: String) -> String? {
        storage.withLock { $0.renderedPayloads[template] }
    }

    /// Notes a file this run wrote for its own use (a dry run's rows), removed when the run ends.
    package func addTemporaryFile(_ path: String) {
        storage.withLock { $0.temporaryFiles.append(path) }
    }

    /// Removes the files `addTemporaryFile` noted.
    package func removeTemporaryFiles() {
        let paths = storage.withLock { storage in
            defer { storage.temporaryFiles = [] }
            return storage.temporaryFiles
        }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
