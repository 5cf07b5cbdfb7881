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
                } else if state.partial.count < Self.keptBytes {
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

    /// Bytes of one line kept: enough that a secret near the shown part is hidden before the line is cut.
    static let keptBytes = 64 * 1024
    /// Characters of one line shown.
    static let shownCharacters = 4096

    private func add(_ raw: String) {
        // Hidden first, cut after: a cut could leave part of a secret that no longer matches it.
        let redacted = redact(raw.hasSuffix("\r") ? String(raw.dropLast()) : raw)
        let line =
            redacted.count > Self.shownCharacters ? String(redacted.prefix(Self.shownCharacters)) + "…" : redacted
        logger?.log(level: Self.level(of: line), "\(line)", metadata: ["source": "plugin stderr"])
        tail.withLock { state in
            state.lines.append(line)
            if state.lines.count > keep { state.lines.removeFirst(state.lines.count - keep) }
        }
    }

    /// The last lines.
    var lastLines: [String] { tail.withLock { $0.lines } }

    /// The level a line is logged at: a warning or an error when its first words say so (`WARNING: …`, `[warn]`,
    /// `Error: …`, `Traceback …`, `2024-05-01 10:00:00 ERROR …`), so the default log level shows it; info otherwise.
    static func level(of line: String) -> Logger.Level {
        let words = line.prefix(80).split { !$0.isLetter }.prefix(6).map { $0.lowercased() }
        if words.contains(where: errorWords.contains) { return .error }
        if words.contains(where: warningWords.contains) { return .warning }
        return .info
    }

    static let errorWords: Set<String> = ["error", "err", "fatal", "critical", "traceback", "exception", "panic"]
    static let warningWords: Set<String> = ["warning", "warn", "deprecationwarning", "deprecated"]
}
