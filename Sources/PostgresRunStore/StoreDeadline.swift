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
}
