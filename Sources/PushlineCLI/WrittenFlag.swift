import ArgumentParser
import Foundation
import PipelineCore
import Synchronization

/// Set once something was done (the metrics written), read after: shared between a command and the
/// closures it hands down.
final class WrittenFlag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }

    var isSet: Bool { value.withLock { $0 } }
}
