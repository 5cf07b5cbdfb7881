import Logging
import Synchronization

/// A plugin's stderr: each line goes to the log (with the step's name), and the last few are kept for a failure's
/// message. Lines are cut at the protocol's length cap.
final class PluginStderr: Sendable {
    private let tail = Mutex<(lines: [String], partial: [UInt8])>(([], []))
    private let logger: Logger?
    private let redact: PluginRedaction
    private let keep: Int

    init(logger: Logger?, redact: PluginRedaction, keep: Int) {
        self.logger = logger
        self.redact = redact
        self.keep = keep
    }

    /// Takes the next bytes read from stderr.
    func feed(_ bytes: [UInt8]) {
        var complete: [String] = []
        tail.withLock { state in
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    complete.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll(keepingCapacity: true)
                } else if state.partial.count < 4096 {
                    state.partial.append(byte)
                }
            }
        }
        for line in complete { add(line) }
    }

    /// Takes what is left when stderr closes.
    func finish() {
        let rest = tail.withLock { state -> [UInt8] in
            defer { state.partial.removeAll() }
            return state.partial
        }
        if !rest.isEmpty { add(String(decoding: rest, as: UTF8.self)) }
    }

    private func add(_ raw: String) {
        let line = redact(raw.hasSuffix("\r") ? String(raw.dropLast()) : raw)
        logger?.info("\(line)", metadata: ["source": "plugin stderr"])
        tail.withLock { state in
            state.lines.append(line)
            if state.lines.count > keep { state.lines.removeFirst(state.lines.count - keep) }
        }
    }

    /// The last lines.
    var lastLines: [String] { tail.withLock { $0.lines } }
}
