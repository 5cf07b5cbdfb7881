import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// The timer task of one `within`, cancelled when the work finishes first.
final class TimerBox: Sendable {
    private let state = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func set(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { value -> Bool in
            value.task = task
            return value.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { value -> Task<Void, Never>? in
            value.cancelled = true
            return value.task
        }
        task?.cancel()
    }
}
