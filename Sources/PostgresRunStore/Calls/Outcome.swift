import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// The first of two racing results, handed to one continuation exactly once.
final class Outcome<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, result: Result<T, any Error>?)>(
        (nil, nil))

    func attach(_ continuation: CheckedContinuation<T, any Error>) {
        let ready = state.withLock { value -> Result<T, any Error>? in
            if let result = value.result { return result }
            value.continuation = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Delivers `result` if nothing was delivered yet; true when it was this one.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (first, waiting) = state.withLock { value -> (Bool, CheckedContinuation<T, any Error>?) in
            guard value.result == nil else { return (false, nil) }
            value.result = result
            let waiting = value.continuation
            value.continuation = nil
            return (true, waiting)
        }
        waiting?.resume(with: result)
        return first
    }
}
