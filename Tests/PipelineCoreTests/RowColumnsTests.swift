import Testing

@testable import Engine
@testable import PipelineCore

/// A source of rows whose columns are known before the run when `columns:` is given (as a prepared query's are).
private struct KnownColumnsSource: Step {
    static let id = "known-columns"
    static let summary = "hands on rows"
    static let options = [OptionSpec("columns", .string, "comma-separated column names, when known")]
    static let examples: [String] = []
    static let outputs = [OutputSpec("rows", .rows, "the rows"), OutputSpec("count", .integer, "how many")]
    let known: [String]?
    static func build(_ options: OptionReader, in context: BuildContext) -> KnownColumnsSource? {
        KnownColumnsSource(known: options.string("columns").map { $0.value.split(separator: ",").map(String.init) })
    }
    func columns(of output: String) -> [String]? { output == "rows" ? known : nil }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "") }
}

/// A step whose `for-each` reads the columns `reads:` names (as a send's `$(column)` references do).
private struct ColumnsReader: ForEachStep {
    struct Options: DeclaredOptions {
        @Key(.text("reads", required: true, "comma-separated column names")) var reads: String?
        init() {}
    }
    static let id = "columns-reader"
    static let summary = "reads columns of rows"
    static let examples: [String] = []
    let columnsRead: [String]
    static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext) -> ColumnsReader? {
        nil
    }
    static func build(_ options: Options, rows: RowSource, reporting reader: OptionReader, in context: BuildContext)
        -> ColumnsReader?
    {
        guard let reads = options.reads else { return nil }
        let step = ColumnsReader(columnsRead: reads.split(separator: ",").map(String.init))
        rows.checkColumns(step.columnsRead, reporting: reader)
        return step
    }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "") }
}

@Suite struct RowColumnsTests {
    private let registry = try! StepRegistry([KnownColumnsSource.self, ColumnsReader.self])

    /// The diagnostics of building `known-columns` (id `users`, with `columns:` when given) then a reader of its rows.
    private func diagnostics(known: String?, reads: String, output: String = "rows") -> [Diagnostic] {
        var source = invocation(1, "known-columns", known.map { [("columns", Build.scalar($0))] } ?? [])
        source.id = "users"
        let reference = OutputReference(step: "users", output: output)
        let forEach = ConfigNode(
            .scalar(
                ConfigScalar(text: "", sourceText: reference.written, isPlain: false, deferred: [.output(reference)])),
            at: Build.at(12, 20))
        let consumer = invocation(2, "columns-reader", [("for-each", forEach), ("reads", Build.scalar(reads))])
        let collector = DiagnosticCollector()
        _ = registry.build(
            PipelineDocument(file: Build.file, directory: ".", steps: [source, consumer]), diagnostics: collector,
            loadDataFile: noFiles)
        return collector.diagnostics
    }

    @Test func aColumnTheEarlierRowsDoNotHaveIsAnErrorAtTheForEachWithTheColumnsThereAre() throws {
        let found = diagnostics(known: "userId,name,unread", reads: "userId,unred,Name")
        #expect(found.count == 1)
        let error = try #require(found.first)
        #expect(error.severity == .error && error.location == Build.at(12, 20))
        #expect(
            error.message
                == "the step reads column 'unred', which the rows of step 'users' (known-columns) do not have; did you mean 'unread'?"
        )
        #expect(error.hint == "its columns: userId, name, unread")
    }

    @Test func columnsOnlyTheRunKnowsAreNotChecked() {
        #expect(diagnostics(known: nil, reads: "anything").isEmpty)
    }

    @Test func everyColumnReadThatIsThereIsFineWhateverItsCase() {
        #expect(diagnostics(known: "userId,name", reads: "userid,NAME,userId").isEmpty)
    }
}
