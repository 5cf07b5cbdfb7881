import Foundation
import Testing

@testable import Engine
@testable import PipelineCore

/// A step that works once per row by conforming to `ForEachStep`: it declares no `for-each` and opens nothing, and
/// says which rows the engine built it with.
private struct RowCounter: ForEachStep {
    struct Options: DeclaredOptions {
        @Key(.text("label", "what to call the rows")) var label: String?
        init() {}
    }
    static let id = "row-counter"
    static let summary = "counts rows"
    static let examples: [String] = []
    let rows: RowSource?
    static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext) -> RowCounter? {
        RowCounter(rows: nil)
    }
    static func build(_ options: Options, rows: RowSource, reporting reader: OptionReader, in context: BuildContext)
        -> RowCounter?
    {
        RowCounter(rows: rows)
    }
    func run(in context: StepContext) async throws -> StepResult {
        guard let rows else { return StepResult(summary: "once") }
        let lines = try String(contentsOfFile: rows.path, encoding: .utf8).split(separator: "\n")
        return StepResult(summary: "\(rows.shown) (\(rows.format.rawValue)): \(lines.joined(separator: " | "))")
    }
}

/// A step that does not work per row.
private struct Once: DeclaredStep {
    struct Options: DeclaredOptions {
        @Key(.text("label", "what to call it")) var label: String?
        init() {}
    }
    static let id = "once"
    static let summary = "runs once"
    static let examples: [String] = []
    static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext) -> Once? { Once() }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "") }
}

/// A step that hands on a file name, for a `for-each` whose path is known only when the run gets there.
private struct Picker: DeclaredStep {
    struct Options: DeclaredOptions {
        @Key(.text("file", required: true, "the name to hand on")) var file: String?
        init() {}
    }
    struct Outputs: DeclaredOutputs {
        @Output("name", "the file's name") var name = ""
        init() {}
    }
    static let id = "picker"
    static let summary = "picks a file"
    static let examples: [String] = []
    let file: String
    static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext) -> Picker? {
        options.file.map(Picker.init)
    }
    func run(in context: StepContext) async throws -> StepResult {
        var outputs = Outputs()
        outputs.name = file
        var result = StepResult(summary: "picked")
        result.handOn(outputs)
        return result
    }
}

@Suite struct ForEachRowsTests {
    private let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("foreach-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    private func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    /// The step built from `options` as the engine builds one, and what building it reported.
    private func build<S: Step>(_ type: S.Type, _ options: [(String, ConfigNode)]) -> (S?, [Diagnostic]) {
        let diagnostics = DiagnosticCollector()
        let document = PipelineDocument(file: Build.file, directory: directory, steps: [])
        let step = StepKind(type).build(
            Build.mapping(options, 3, 5), in: BuildContext(document: document, loadDataFile: noFiles),
            diagnostics: diagnostics)
        return (step as? S, diagnostics.diagnostics)
    }

    @Test func aStepThatWorksPerRowIsGivenForEachByTheEngineAndOthersDoNotHaveIt() {
        #expect(!RowCounter.options.map(\.key).contains("for-each"), "the step does not declare it")
        #expect(StepKind(RowCounter.self).options.map(\.key) == ["label", "for-each"])
        #expect(StepKind(RowCounter.self).takesRows && !StepKind(Once.self).takesRows)
        let (step, found) = build(Once.self, [("for-each", Build.scalar("users.csv", 4, 15))])
        #expect(step == nil || !found.isEmpty)
        #expect(found.map(\.message) == ["unknown key 'for-each'"])
    }

    @Test func aCSVFileIsOpenedRelativeToThePipelineWithItsHeaderBeforeTheStepIsBuilt() throws {
        try write("users.csv", "userId,name\nu1,Ann\n")
        let (step, found) = build(RowCounter.self, [("for-each", Build.scalar("users.csv", 4, 15))])
        #expect(found.isEmpty, "\(found)")
        let built = try #require(step)
        let rows = try #require(built.rows)
        #expect(rows.path == directory + "/users.csv" && rows.format == .csv)
        #expect(rows.columns == .header(["userId", "name"]))
        // JSON rows have no header: their columns are known row by row.
        try write("users.jsonl", #"{"userId":"u1"}"# + "\n")
        #expect(build(RowCounter.self, [("for-each", Build.scalar("users.jsonl"))]).0?.rows?.columns == nil)
        // Without `for-each` the step is built to work once.
        let once = build(RowCounter.self, [("label", Build.scalar("x"))])
        #expect(once.1.isEmpty && once.0 != nil && once.0?.rows == nil)
    }

    @Test func rowsThatCannotBeUsedAreOneErrorAtTheValueAndTheStepIsNotBuilt() throws {
        let (wrongKind, found) = build(RowCounter.self, [("for-each", Build.scalar("users.txt", 4, 15))])
        #expect(wrongKind == nil)
        #expect(found.map(\.message) == ["for-each file 'users.txt' must end in .csv, .jsonl or .json"])
        #expect(found.first?.location == Build.at(4, 15) && found.first?.step == "row-counter")
        let (missing, notThere) = build(RowCounter.self, [("for-each", Build.scalar("gone.csv", 4, 15))])
        #expect(missing == nil && notThere.count == 1 && notThere.first?.location == Build.at(4, 15))
        #expect(notThere.first?.message.contains("gone.csv") == true, "\(notThere)")
        let (empty, noValue) = build(RowCounter.self, [("for-each", Build.scalar("", 4, 15))])
        #expect(empty == nil)
        #expect(noValue.map(\.message) == ["'for-each' has no value"])
    }

    @Test func aPathMadeFromAnEarlierStepsOutputIsOpenedWhenTheStepRuns() async throws {
        try write("tonight.csv", "userId\nu1\nu2\n")
        let registry = try StepRegistry([Picker.self, RowCounter.self])
        var pick = invocation(1, "picker", [("file", Build.scalar("tonight"))])
        pick.id = "pick"
        let reference = OutputReference(step: "pick", output: "name")
        let path = ConfigNode(
            .scalar(
                ConfigScalar(
                    text: "", sourceText: "\(reference.written).csv", isPlain: false,
                    deferred: [.output(reference), .text(".csv")])), at: Build.at(12, 20))
        let document = PipelineDocument(
            file: Build.file, directory: directory, steps: [pick, invocation(2, "row-counter", [("for-each", path)])])
        let diagnostics = DiagnosticCollector()
        let pipeline = try #require(
            registry.build(document, diagnostics: diagnostics, loadDataFile: noFiles), "\(diagnostics.diagnostics)")
        let report = await PipelineEngine(logger: testLogger, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
            .run(pipeline, mode: .live(DryRunTransport()))
        #expect(report.steps.map(\.summary) == ["picked", "\(directory)/tonight.csv (csv): userId | u1 | u2"])
    }
}
