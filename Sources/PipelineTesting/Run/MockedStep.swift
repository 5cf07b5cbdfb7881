import Foundation
import PipelineCore
import RunFlow
import RunStore

/// A plugin step given canned results by a test (`mocks:`): the plugin is not started; the step hands on the rows and
/// outputs the test gives, or fails with the test's error. Everything the engine asks of a step before it runs (its
/// hubs, whether it reads a source, its columns) is the real step's.
struct MockedStep: RunnableStep {
    let real: any RunnableStep
    let mock: StepMock
    /// The outputs the plugin declares.
    let declared: [OutputSpec]

    func checkInput(in context: StepContext) async throws -> InputCheck? { try await real.checkInput(in: context) }
    var access: [HubAccess] { real.access }
    var concurrency: Int { real.concurrency }
    var dedupeWindow: Int64 { real.dedupeWindow }
    var recordsCompletion: Bool { real.recordsCompletion }
    var readsSource: Bool { real.readsSource }
    func columns(of output: String) -> [String]? { real.columns(of: output) }
    var columnsRead: [String] { real.columnsRead }

    func run(in context: StepContext) async throws -> StepResult {
        if let error = mock.error { throw StepFailure(error, hint: "the test's mock of this step fails it") }
        var outputs: StepOutputs = [:]
        var summary = "mocked by the test"
        if let rowsOutput = declared.first(where: { $0.type == .rows }) {
            let rows = mock.rows
            // The declared columns, else every key the rows give, in the order they first appear.
            var columns = real.columns(of: rowsOutput.name) ?? []
            if columns.isEmpty {
                for row in rows {
                    for key in row.keys.sorted() where !columns.contains(key) { columns.append(key) }
                }
            }
            let text = rows.map { row in
                row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            }
            .joined(separator: "\n")
            let spooler = RowSpooler(step: context.stepIndex, source: "mock:" + ContentName.of(text))
            let (spooled, _) = try await spooler.rows(in: context) { sink in
                sink.begin(columns: columns)
                for row in rows { try await sink.add(columns.map { row[$0] }) }
            }
            outputs[rowsOutput.name] = .rows(spooled)
            summary += ": \(rows.count) row\(rows.count == 1 ? "" : "s")"
        }
        for (name, value) in mock.outputs {
            guard let spec = declared.first(where: { $0.name == name }) else { continue }
            switch (spec.type, value) {
            case (.integer, .integer(let number)): outputs[name] = .integer(number)
            case (.boolean, .bool(let flag)): outputs[name] = .boolean(flag)
            case (.list, .array(let items)):
                let texts = items.map { item in if case .string(let text) = item { text } else { item.compact } }
                outputs[name] = .list(texts, total: texts.count)
            case (_, .string(let text)): outputs[name] = .string(text)
            default: outputs[name] = .string(value.compact)
            }
        }
        var result = StepResult(summary: summary)
        result.outputs = outputs
        return result
    }
}

/// What a test gives a plugin step instead of running it.
package struct StepMock: Sendable {
    /// The step's id.
    package var step: String
    /// Where the mock is written.
    package var location: SourceLocation
    /// The rows it hands on (a plugin that hands on rows), each a mapping of column to text.
    package var rows: [[String: String]]
    /// Its other outputs, by name.
    package var outputs: [(String, JSONValue)]
    /// When given, the step fails with this message instead.
    package var error: String?
}
