import Foundation
import PipelineCore

/// Resolves `${env:NAME}`, `${file:PATH}` and `${param:NAME}` references inside scalar values.
///
/// The resolved text replaces the reference; the text as written is kept beside it so diagnostics
/// and reports quote the reference, never a secret. `$${` writes a literal `${`. A `${steps.ID.OUTPUT}`
/// reference is known only when the step runs: the scalar keeps it in its `deferred` pieces.
struct ReferenceResolver {
    let options: LoaderOptions
    let directory: String
    let diagnostics: DiagnosticCollector
    /// False for data files, whose text is taken literally.
    var resolves = true
    /// The declared parameters' names and the values they take (given or by default); a declared parameter
    /// without a value (required, not given) leaves its scalars unresolved: the loader reports it once.
    var parameters: (declared: [String], values: [String: String]) = ([], [:])

    func resolve(_ text: String, at location: SourceLocation, isPlain: Bool) -> ConfigScalar {
        guard resolves, text.contains(bytes: "${") else { return ConfigScalar(text: text, isPlain: isPlain) }
        var output = ""
        var unresolved = false
        // With step output references: the pieces, the text between them as resolved so far.
        var parts: [DeferredPart] = []
        var pending = ""
        var rest = Substring(text)
        while let start = rest.firstByteRange(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                output.append(contentsOf: rest[..<rest.index(before: start.lowerBound)])
                output += "${"
                pending.append(contentsOf: rest[..<rest.index(before: start.lowerBound)])
                pending += "${"
                rest = rest[start.upperBound...]
                continue
            }
            output.append(contentsOf: rest[..<start.lowerBound])
            pending.append(contentsOf: rest[..<start.lowerBound])
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                report(
                    "unterminated reference '\(rest[start.lowerBound...])'", at: location, severity: .error,
                    hint: "write ${env:NAME} or ${file:PATH}")
                return ConfigScalar(text: text, isPlain: isPlain, isUnresolved: true)
            }
            let reference = rest[start.upperBound..<end]
            if reference.hasPrefix("steps.") {
                switch OutputReference.parse(reference.dropFirst("steps.".count)) {
                case .success(let parsed):
                    if !pending.isEmpty { parts.append(.text(pending)) }
                    pending = ""
                    parts.append(.output(parsed))
                    output += parsed.written
                case .failure(let error):
                    report(
                        "'${\(reference)}' is not a step output reference: \(error.message)", at: location,
                        severity: .error,
                        hint: "e.g. ${steps.schedule.notification-ids[0]} (the step's id:, then its output)")
                    unresolved = true
                }
            } else if let value = value(of: reference, at: location) {
                output += value
                pending += value
            } else {
                unresolved = true
            }
            rest = rest[rest.index(after: end)...]
        }
        output.append(contentsOf: rest)
        pending.append(contentsOf: rest)
        if !parts.isEmpty, !pending.isEmpty { parts.append(.text(pending)) }
        return ConfigScalar(
            text: output, sourceText: text, isPlain: false, isUnresolved: unresolved,
            deferred: parts.isEmpty ? nil : parts)
    }

    private func value(of reference: Substring, at location: SourceLocation) -> String? {
        let written = "${\(reference)}"
        guard let colon = reference.firstIndex(of: ":") else {
            report(
                "reference '\(written)' has no kind", at: location, severity: .error,
                hint: "write ${env:NAME}, ${file:PATH}, ${param:NAME} or ${steps.ID.OUTPUT}")
            return nil
        }
        let kind = reference[..<colon]
        let argument = String(reference[reference.index(after: colon)...])
        guard !argument.isEmpty else {
            report("reference '\(written)' names nothing", at: location, severity: .error, hint: "write ${\(kind):…}")
            return nil
        }
        switch kind {
        case "env":
            if let value = options.environment[argument] { return value }
            report(
                "environment variable '\(argument)' is not set (referenced as \(written))", at: location,
                severity: severityForMissing, hint: "export \(argument)=… before running")
            return nil
        case "file":
            let path = FilePath.resolve(argument, against: directory)
            do {
                // Secret files usually end with a newline that is not part of the secret. Trimmed by
                // Character, which is what Foundation's `.newlines` set holds (LF, CR, CRLF, VT, FF,
                // NEL, LS, PS), without the NSString round trip.
                var value = Substring(try TextFile.read(path, limit: Self.maxFileBytes))
                while value.first?.isNewline == true { value.removeFirst() }
                while value.last?.isNewline == true { value.removeLast() }
                return String(value)
            } catch {
                let severity: Diagnostic.Severity = error == .missing ? severityForMissing : .error
                report(
                    error.message(what: "file", name: path) + " (referenced as \(written))", at: location,
                    severity: severity, hint: "paths are relative to the pipeline file")
                return nil
            }
        case "param":
            if let value = parameters.values[argument] { return value }
            if !parameters.declared.contains(argument) {
                report(
                    "unknown parameter '\(argument)' (referenced as \(written))\(Suggestion.didYouMean(argument, in: parameters.declared))",
                    at: location, severity: .error,
                    hint: parameters.declared.isEmpty
                        ? "declare it under `parameters:`" : "declared: \(parameters.declared.joined(separator: ", "))")
            }
            return nil
        default:
            report(
                "unknown reference kind '\(kind)' in '\(written)'\(Suggestion.didYouMean(String(kind), in: ["env", "file", "param"]))",
                at: location, severity: .error, hint: "write ${env:NAME}, ${file:PATH} or ${param:NAME}")
            return nil
        }
    }

    /// A referenced value is a secret or a name, never a document; a big file is a wrong path.
    static let maxFileBytes = 64 * 1024

    private var severityForMissing: Diagnostic.Severity {
        options.purpose == .run ? .error : .warning
    }

    private func report(_ message: String, at location: SourceLocation, severity: Diagnostic.Severity, hint: String) {
        diagnostics.report(Diagnostic(severity, message, at: location, hint: hint))
    }
}
