import Foundation
import Testing

@testable import Engine
@testable import PipelineCore

/// How many times each key of `Greeting` was read, across the tests of this file: shared, so the suite runs its tests
/// one at a time (two of them read `limit`, and a count taken while the other reads it was off by one).
private final class Reads: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    func add(_ key: String) { lock.withLock { counts[key, default: 0] += 1 } }
    func count(_ key: String) -> Int { lock.withLock { counts[key, default: 0] } }
}

private let reads = Reads()

/// Keys that count their reads.
private struct GreetingOptions: DeclaredOptions {
    @Key(
        OptionKey<Int>(OptionSpec("limit", .integer, "at most this many"), default: 1) { reader, node in
            reads.add("limit")
            return reader.integer("limit", in: 1...10)
        }) var limit: Int
    @Key(
        OptionKey<String>(OptionSpec("message", .string, "what to say")) { reader, node in
            reads.add("message")
            return reader.string("message")?.value
        }) var message: String?
    @Key(BatchOptions.forEach) var forEach: RowInput?

    init() {}
}

/// A step built from `GreetingOptions`, keeping what it was built with.
private struct Greeting: DeclaredStep {
    static let id = "greet"
    static let summary = "greets"
    static let examples: [String] = []
    let options: GreetingOptions

    static func build(_ options: GreetingOptions, reporting reader: OptionReader, in context: BuildContext) -> Greeting?
    {
        Greeting(options: options)
    }

    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "greeted") }
}

@Suite(.serialized) struct PendingStepTests {
    private let context = BuildContext(
        document: PipelineDocument(file: "p.yaml", directory: "/tmp"), loadDataFile: { _, _, _, _ in nil })

    /// A scalar holding one reference, written at `line`:`column`.
    private func reference(_ step: String, _ output: String, _ line: Int, _ column: Int) -> ConfigNode {
        let reference = OutputReference(step: step, output: output)
        return ConfigNode(
            .scalar(
                ConfigScalar(
                    text: reference.written, sourceText: reference.written, isPlain: false,
                    deferred: [.output(reference)])),
            at: Build.at(line, column))
    }

    private func outputs(_ values: StepOutputs, of step: String) -> EarlierOutputs {
        var outputs = EarlierOutputs()
        outputs.record(values, of: step)
        return outputs
    }

    @Test func whenTheStepRunsOnlyTheKeysHoldingReferencesAreReadAgain() throws {
        let options = Build.mapping([
            ("limit", Build.scalar("3", 2, 10)), ("message", reference("names", "first", 3, 12)),
        ])
        let diagnostics = DiagnosticCollector()
        let kind = StepKind(Greeting.self)
        let pending = kind.pending(kind.reader(options, diagnostics: diagnostics), in: context)
        #expect(pending.keys == ["message"])
        #expect(diagnostics.diagnostics.isEmpty)
        let (limitBefore, messageBefore) = (reads.count("limit"), reads.count("message"))

        let values = OutputSubstitution(
            outputs: outputs(["first": .string("Ada")], of: "names"), consumer: "step 'greet'")
        let step = try #require(try pending.build(with: values, diagnostics: DiagnosticCollector()) as? Greeting)
        #expect(step.options.message == "Ada")
        #expect(step.options.limit == 3, "a key without a reference keeps the value read when the pipeline was built")
        #expect(reads.count("limit") == limitBefore, "read once, when the pipeline was built")
        #expect(reads.count("message") == messageBefore + 1, "read once, with its value in")
    }

    @Test func aValueThatDoesNotFitItsKeyIsReportedAtTheReference() throws {
        let options = Build.mapping([("limit", reference("count", "n", 4, 12))])
        let kind = StepKind(Greeting.self)
        let built = DiagnosticCollector()
        let pending = kind.pending(kind.reader(options, diagnostics: built), in: context)
        #expect(built.diagnostics.isEmpty, "nothing is known of the value until the step runs")

        let diagnostics = DiagnosticCollector()
        let values = OutputSubstitution(outputs: outputs(["n": .integer(50)], of: "count"), consumer: "step 'greet'")
        #expect(try pending.build(with: values, diagnostics: diagnostics) == nil)
        let problem = try #require(diagnostics.diagnostics.first)
        #expect(problem.message == "'limit' must be a whole number from 1 to 10, found '${steps.count.n}'")
        #expect(problem.location == Build.at(4, 12), "at the reference, with the reference as written")
    }

    @Test func rowsReachTheForEachAsTheRowsHandedOnWithTheirColumns() throws {
        let options = Build.mapping([("for-each", reference("users", "rows", 5, 15))])
        let kind = StepKind(Greeting.self)
        let pending = kind.pending(kind.reader(options, diagnostics: DiagnosticCollector()), in: context)
        let rows = SpooledRows(
            spool: nil, file: "/tmp/rows.jsonl", columns: ["id", "name"], count: 2, digest: "d", readAt: 0)
        let reference = OutputReference(step: "users", output: "rows")
        let values = OutputSubstitution(
            outputs: outputs(["rows": .rows(rows)], of: "users"), consumer: "step 'greet'",
            rowFiles: [reference: "/tmp/copy.jsonl"])
        let step = try #require(try pending.build(with: values, diagnostics: DiagnosticCollector()) as? Greeting)
        #expect(
            step.options.forEach
                == .handed(HandedRows(reference: reference, path: "/tmp/copy.jsonl", columns: ["id", "name"])))
        #expect(step.options.$forEach.node?.location == Build.at(5, 15))
    }

    @Test func aFileIsAFileWhateverItsName() {
        // A path that merely looks like a reference is a file: only the engine hands rows on.
        let options = Build.mapping([("for-each", Build.scalar("${steps.users.rows}.csv", 2, 15, plain: false))])
        let diagnostics = DiagnosticCollector()
        let values = GreetingOptions(
            reading: OptionReader(
                options, specs: GreetingOptions.specs, step: "greet", what: "greet options", diagnostics: diagnostics))
        #expect(values.forEach == .file("${steps.users.rows}.csv"))
    }
}
