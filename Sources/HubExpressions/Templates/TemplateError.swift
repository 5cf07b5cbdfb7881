/// Why a template could not be compiled, located in the template source.
public struct TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One-line description, e.g. "expected '(' after '$'".
    public let message: String
    /// 1-based line in the template source.
    public let line: Int
    /// 1-based column (in `Character`s), pointing inside the string value when the problem is there.
    public let column: Int
    /// How to fix it, when there is a useful suggestion.
    public let hint: String?

    /// Creates an error; public so other modules can build expected values in tests.
    public init(message: String, line: Int, column: Int, hint: String? = nil) {
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint
    }

    /// `line:column: message`, plus the hint in parentheses when there is one.
    public var description: String {
        if let hint { return "\(line):\(column): \(message) (\(hint))" }
        return "\(line):\(column): \(message)"
    }

    /// Locates a scanner error in `source`, optionally prefixing its message.
    init(_ error: ScanError, in source: [UInt8], prefix: String = "") {
        let position = SourcePosition(offset: error.offset, in: source)
        self.init(message: prefix + error.message, line: position.line, column: position.column, hint: error.hint)
    }
}
