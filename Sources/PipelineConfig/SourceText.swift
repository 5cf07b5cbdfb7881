import PipelineCore

/// Reads a file named by the pipeline, reporting why it cannot be used.
enum SourceText {
    /// The file's text, or nil after reporting. `name` is how the path is shown: the path as written
    /// when it came from a reference (so a resolved secret is never echoed).
    static func read(
        _ path: String, name: String? = nil, limit: Int, what: String, at reference: SourceLocation?,
        diagnostics: DiagnosticCollector
    ) -> String? {
        do {
            return try TextFile.read(path, limit: limit)
        } catch {
            let shown = name ?? path
            switch error {
            case .invalidUTF8(_, let line, let column, _):
                diagnostics.error(
                    error.message(what: what, name: shown), at: SourceLocation(file: path, line: line, column: column),
                    hint: "save the file as UTF-8")
            case .missing:
                diagnostics.error(
                    error.message(what: what, name: shown),
                    at: reference ?? SourceLocation(file: shown, line: 1, column: 1),
                    hint: "check the path; relative paths are resolved against the pipeline file's directory")
            default:
                diagnostics.error(
                    error.message(what: what, name: shown),
                    at: reference ?? SourceLocation(file: shown, line: 1, column: 1),
                    hint: "is this the right path?")
            }
            return nil
        }
    }
}
