/// Collects diagnostics during loading and building, so one pass reports every problem.
///
/// A class so that nested readers (a step's options inside a pipeline) append to one list.
/// It lives only for the synchronous build phase and is never shared across tasks.
public final class DiagnosticCollector {
    /// Everything reported so far, in order.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Source text of each file seen, by path, so snippets can be attached.
    private var sources: [String: [Substring]] = [:]

    /// Creates an empty collector.
    public init() {}

    /// Registers a file's text so diagnostics pointing into it get a snippet line.
    public func register(source: String, for file: String) {
        // Split on scalars: Swift treats "\r\n" as one Character, so a Character split misses CRLF lines.
        sources[file] = source.lines
    }

    /// Line `line` (1-based) of a registered file, for mapping a place inside a scalar to the file.
    package func sourceLine(_ line: Int, of file: String) -> Substring? {
        guard let lines = sources[file], line >= 1, line <= lines.count else { return nil }
        return lines[line - 1]
    }

    /// Appends a diagnostic, attaching the source line when the location points into a known file.
    public func report(_ diagnostic: Diagnostic) {
        var diagnostic = diagnostic
        if diagnostic.sourceLine == nil, let location = diagnostic.location,
            let lines = sources[location.file], location.line >= 1, location.line <= lines.count
        {
            diagnostic.sourceLine = SecretRedaction.redact(String(lines[location.line - 1]))
        }
        diagnostics.append(diagnostic)
    }

    /// Reports an error.
    public func error(_ message: String, at location: SourceLocation?, step: String? = nil, hint: String? = nil) {
        report(Diagnostic(.error, message, at: location, step: step, hint: hint))
    }

    /// Reports a warning; `fixes` are edits of the file that resolve it.
    public func warning(
        _ message: String, at location: SourceLocation?, step: String? = nil, hint: String? = nil, fixes: [FixIt] = []
    ) {
        var diagnostic = Diagnostic(.warning, message, at: location, step: step, hint: hint)
        diagnostic.fixes = fixes.isEmpty ? nil : fixes
        report(diagnostic)
    }

    /// Takes back what was reported about places that no longer hold what was read there (`pushline test` gives a
    /// step other rows in place of its `for-each`, whose reference need not resolve then).
    package func withdraw(where superseded: (Diagnostic) -> Bool) {
        diagnostics.removeAll(where: superseded)
    }

    /// How many errors have been reported (a step compares counts to see whether it reported one).
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }

    /// True when an error has been reported.
    public var hasErrors: Bool { diagnostics.hasErrors }
}
