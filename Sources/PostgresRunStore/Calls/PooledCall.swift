import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// Where a pooled call is: waiting for a connection, running on one, or given up by its caller.
final class PooledCall: Sendable {
    private enum Phase { case waiting, running, finished, abandoned }
    private let state = Mutex<(phase: Phase, connection: PostgresConnection?)>((.waiting, nil))

    /// Moves a waiting call to running on `connection`; false when its caller already gave up.
    func start(on connection: PostgresConnection) -> Bool {
        state.withLock { value in
            guard value.phase == .waiting else { return false }
            value = (.running, connection)
            return true
        }
    }

    /// Gives up a call still waiting for a connection; false when it is running already.
    func giveUpWaiting() -> Bool {
        state.withLock { value in
            guard value.phase == .waiting else { return false }
            value.phase = .abandoned
            return true
        }
    }

    /// Moves a running call to finished, before its connection goes back to the pool; false when its caller gave up.
    func finish() -> Bool {
        state.withLock { value in
            guard value.phase == .running else { return false }
            value = (.finished, nil)
            return true
        }
    }

    /// Marks the call given up, returning the connection it was running on, if any, for closing.
    func abandon() -> PostgresConnection? {
        state.withLock { value in
            guard value.phase != .finished else { return nil }
            defer { value = (.abandoned, nil) }
            return value.phase == .running ? value.connection : nil
        }
    }

    /// Whether the caller gave up on this call.
    var isAbandoned: Bool { state.withLock { $0.phase == .abandoned } }
}
