/// A position in a source file: 1-based line and column, as editors and compilers print them.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file path as the user gave it (relative paths stay relative so output is stable).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars (what libyaml reports).
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors jump to.
    public var description: String { "\(file):\(line):\(column)" }
}
