import PipelineCore

/// Reading a test file's text as `pushline test` reads a file: public for the libFuzzer harness in fuzz/ (a package
/// of its own), not an API.
public enum TestFileText {
    /// The problems reading `text` as the test file at `path` finds (none for a valid one).
    public static func problems(in text: String, path: String) -> [Diagnostic] {
        let diagnostics = DiagnosticCollector()
        _ = TestFileDecoder.load(text: text, path: path, diagnostics: diagnostics)
        return diagnostics.diagnostics
    }
}
