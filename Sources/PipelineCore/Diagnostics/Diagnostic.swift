/// One problem found in a pipeline or template, printed compiler-style by the CLI.
///
/// Diagnostics are values so tests compare them whole. They never carry secret values: code that
/// reports on a configured value quotes what the user wrote (`${env:NAME}`), not what it resolved to.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The pipeline cannot run.
        case error
        /// The pipeline can be validated, but something needs attention (e.g. an unset variable).
        case warning
        /// Additional context for the diagnostic before it.
        case note
    }

    /// How bad the problem is.
    public var severity: Severity
    /// What is wrong, in one sentence (may end with "did you mean 'x'?").
    public var message: String
    /// Where it is, when known.
    public var location: SourceLocation?
    /// The step kind the problem belongs to (printed as `[send]`), if any.
    public var step: String?
    /// How to fix it, when there is something useful to say beyond the message.
    public var hint: String?
    /// The source line the location points into, for the snippet under the message.
    public var sourceLine: String?
    /// Edits of the file that fix the problem (`pushline validate --fix` applies them); nil when there are none.
    public var fixes: [FixIt]?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ message: String, at location: SourceLocation? = nil,
        step: String? = nil, hint: String? = nil, sourceLine: String? = nil
    ) {
        self.severity = severity
        self.message = message
        self.location = location
        self.step = step
        self.hint = hint
        self.sourceLine = sourceLine
    }

    /// The headline as printed: `file:line:col: error: [step] message`.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        let stepTag = step.map { "[\($0)] " } ?? ""
        return "\(prefix)\(severity.rawValue): \(stepTag)\(message)"
    }
}

/// One edit of a source file that fixes a diagnostic: the text `replacing` at `location` becomes `with`.
public struct FixIt: Sendable, Hashable, Codable {
    /// Where the text to replace begins.
    public var location: SourceLocation
    /// The text there now.
    public var replacing: String
    /// The text it becomes.
    public var with: String

    /// Creates an edit.
    public init(at location: SourceLocation, replacing: String, with: String) {
        self.location = location
        self.replacing = replacing
        self.with = with
    }
}

extension Array where Element == Diagnostic {
    /// True when any diagnostic is an error.
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
