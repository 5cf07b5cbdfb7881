import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// The timer of one `within`, cancelled when the work finishes first (and any timer set after that, at once).
final class TimerBox: Sendable {
    private let state = Mutex<(timer: Scheduled<Void>?, cancelled: Bool)>((nil, false))

    func set(_ timer: Scheduled<Void>) {
        let cancelled = state.withLock { value -> Bool in
            value.timer = timer
            return value.cancelled
        }
        if cancelled { timer.cancel() }
    }

    func cancel() {
        let timer = state.withLock { value -> Scheduled<Void>? in
            value.cancelled = true
            return value.timer
        }
        timer?.cancel()
    }
}
