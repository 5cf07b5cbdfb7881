import FuzzSupport
import PipelineTesting

/// Test files (`pushline test`) through the YAML loader and the test file decoder: every input ends in a test file
/// or in diagnostics, never a trap, a hang or unbounded memory. Relative paths in it (a devices or rows file) are
/// looked for under a folder that does not exist.
func fuzzOne(_ bytes: [UInt8]) {
    _ = TestFileText.problems(
        in: String(decoding: bytes, as: UTF8.self), path: "/nonexistent-pushline-fuzz/fuzz.test.yaml")
}
