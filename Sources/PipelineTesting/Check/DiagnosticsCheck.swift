import PipelineCore

/// `expect: { diagnostics: … }`: the pipeline is loaded, not run, and each expected problem must be given by a
/// diagnostic of its own (its line, column, severity and a part of its message, as far as the test says); an empty
/// list expects none at all.
struct DiagnosticsCheck {
    let run: String
    let expected: [ExpectedDiagnostic]
    let actual: [Diagnostic]
    let at: SourceLocation

    var failures: [TestFailure] {
        var failures: [TestFailure] = []
        let all = actual.map(\.description).joined(separator: "\n")
        if expected.isEmpty, !actual.isEmpty {
            failures.append(
                TestFailure(
                    run: run, location: at,
                    message:
                        "the pipeline gave \(actual.count) diagnostic\(actual.count == 1 ? "" : "s"), expected none",
                    detail: all))
        }
        var unused = actual
        for problem in expected {
            let index = unused.firstIndex { diagnostic in
                diagnostic.severity == problem.severity
                    && problem.line.map { $0 == diagnostic.location?.line } ?? true
                    && problem.column.map { $0 == diagnostic.location?.column } ?? true
                    && problem.message.map { diagnostic.message.contains($0) } ?? true
            }
            guard let index else {
                var wanted: [String] = [problem.severity == .warning ? "a warning" : "an error"]
                if let line = problem.line { wanted.append("at line \(line)\(problem.column.map { ":\($0)" } ?? "")") }
                if let message = problem.message { wanted.append("saying '\(message)'") }
                failures.append(
                    TestFailure(
                        run: run, location: problem.location,
                        message: "no diagnostic is \(wanted.joined(separator: " "))",
                        detail: all.isEmpty ? "the pipeline loaded without a diagnostic" : "diagnostics:\n\(all)"))
                continue
            }
            unused.remove(at: index)
        }
        return failures
    }
}
