import Foundation
import Logging
import NIOCore
import NIOSSL
import PipelineCore
import PostgresNIO
import RunStore
import Synchronization

/// A store call that outlived its deadline.
struct StoreDeadline: Error {
    let limit: Duration
    /// When the call began, so a pause of this process within it can be told from a store that did not answer.
    var started: ContinuousClock.Instant = .now
}
