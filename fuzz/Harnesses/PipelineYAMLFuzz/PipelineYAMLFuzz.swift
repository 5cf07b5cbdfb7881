import FuzzSupport
import PipelineConfig
import PipelineCore

/// The YAML pipeline loader with its size, node and depth budgets, as `validate` runs it: every input ends in a
/// document or in diagnostics, never a trap, a hang or unbounded memory.
func fuzzOne(_ bytes: [UInt8]) {
    let diagnostics = DiagnosticCollector()
    let loader = PipelineLoader(
        options: LoaderOptions(
            purpose: .validate,
            environment: ["NH_CONNECTION": "Endpoint=sb://x/;SharedAccessKeyName=k;SharedAccessKey=v"]))
    _ = loader.load(text: String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml", diagnostics: diagnostics)
    _ = loader.loadData(text: String(decoding: bytes, as: UTF8.self), name: "fuzz-data.yaml", diagnostics: diagnostics)
}
