/// One problem found in a rendered payload.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
    /// How serious the finding is.
    public enum Severity: String, Sendable {
        /// The payload would be rejected or misread.
        case error
        /// The payload is valid but probably not what was meant.
        case warning
    }

    /// How serious the finding is.
    public let severity: Severity
    /// One-line description, e.g. "payload is 4200 bytes; the apns limit is 4096".
    public let message: String
    /// 1-based line in the rendered payload, when the finding has a position.
    public let line: Int?
    /// 1-based column (in `Character`s), when the finding has a position.
    public let column: Int?

    /// Creates a finding; public so other modules can build expected values in tests.
    public init(severity: Severity, message: String, line: Int? = nil, column: Int? = nil) {
        self.severity = severity
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line:column: severity: message`, or `severity: message` when there is no position.
    public var description: String {
        if let line, let column { return "\(line):\(column): \(severity.rawValue): \(message)" }
        return "\(severity.rawValue): \(message)"
    }
}
