import Foundation
import PipelineCore

/// Prints diagnostics compiler-style: headline, the source line, a caret, and the hint.
///
/// ```
/// pipelines/news.yaml:14:7: error: [send] unknown key 'tgas'; did you mean 'tags'?
///       tgas: 12345
///       ^
///   hint: send options accept: hub, tags, …
/// ```
enum DiagnosticPrinter {
    static func format(_ diagnostic: Diagnostic) -> String {
        var text = diagnostic.description + "\n"
        if let line = diagnostic.sourceLine, let column = diagnostic.location?.column {
            text += line + "\n" + caretLine(under: line, column: column) + "\n"
        }
        if let hint = diagnostic.hint {
            text +=
                hint.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { $0.offset == 0 ? "  hint: \($0.element)" : "        \($0.element)" }
                .joined(separator: "\n") + "\n"
        }
        return text
    }

    /// Spaces up to the column (tabs kept as tabs so the caret lines up in a terminal), then `^`.
    static func caretLine(under line: String, column: Int) -> String {
        var prefix = ""
        for scalar in line.unicodeScalars.prefix(max(0, column - 1)) {
            prefix.append(scalar == "\t" ? "\t" : " ")
        }
        return prefix + "^"
    }

    /// "2 errors, 1 warning" style counts.
    static func summary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if errors == 0, warnings == 0 { return "ok" }
        var parts: [String] = []
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }
}
