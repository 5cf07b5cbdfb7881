import Foundation
import Synchronization
import Testing

@testable import Engine
@testable import PipelineCore
@testable import RunStore

/// A step that "queries": puts the rows it is given through the spooler, counting how often it read its source.
private struct RowsSource: Step {
    static let id = "rows-source"
    static let summary = "produces rows"
    static let options = [OptionSpec("rows", .string, required: true, "comma-separated values of one column")]
    static let examples: [String] = []
    static let outputs = [OutputSpec("rows", .rows, "the rows"), OutputSpec("count", .integer, "how many")]
    static let reads = Mutex(0)
    let values: [String]
    static func build(_ options: OptionReader, in context: BuildContext) -> RowsSource? {
        options.string("rows").map { RowsSource(values: $0.value.split(separator: ",").map(String.init)) }
    }
    var recordsCompletion: Bool { true }
    func run(in context: StepContext) async throws -> StepResult {
        let (rows, origin) = try await RowSpooler(step: context.stepIndex, source: "s").rows(in: context) { sink in
            Self.reads.withLock { $0 += 1 }
            sink.begin(columns: ["userId"])
            for value in values { try await sink.add([value]) }
        }
        var result = StepResult(summary: "\(rows.count) rows (\(origin))")
        result.outputs = ["rows": .rows(rows), "count": .integer(rows.count)]
        return result
    }
}

/// A step that reads `for-each` as the rows the engine hands on, as send and register do, and says what it found.
private struct RowsReader: Step {
    static let id = "rows-reader"
    static let summary = "reads rows"
    static let options = [BatchOptions.forEach.spec]
    static let examples: [String] = []
    let path: String
    let shown: String
    static func build(_ options: OptionReader, in context: BuildContext) -> RowsReader? {
        guard case .handed(let rows)? = options.value(BatchOptions.forEach) else { return nil }
        return RowsReader(path: rows.path ?? "", shown: rows.reference.written)
    }
    var dedupeWindow: Int64 { 3600 }
    func run(in context: StepContext) async throws -> StepResult {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "(no file)"
        // The file read goes in the lines, so a test can check it is gone once the run ends.
        return StepResult(summary: "\(shown): " + text.split(separator: "\n").joined(separator: " "), lines: [path])
    }
}

/// One process's spools, in memory: what a run store keeps, for the engine's side of it.
private final class MemorySpool: RowSpool, ItemLedger {
    struct Spool {
        var lines: [String] = []
        var rows: SpooledRows?
    }
    let spools = Mutex<[Int64: Spool]>([:])
    let isWritable = true
    var rowSpool: (any RowSpool)? { self }
    func entry(_ key: LedgerKey) throws(LedgerError) -> LedgerEntry? { nil }
    func markSending(_ items: [LedgerItem]) throws(LedgerError) {}
    func record(_ outcomes: [LedgerOutcome], skips: [SkipRange]) throws(LedgerError) {}
    func markSending(_ item: LedgerItem, creating id: String) throws(LedgerError) {}
    func assignId(_ id: String, to key: LedgerKey) throws(LedgerError) {}
    func priorSend(key: String, since: Double, excluding: LedgerKey) throws(LedgerError) -> PriorSend? { nil }

    func claimSpool(step: Int, source: String, now: Double) throws(LedgerError) -> SpoolClaim {
        if let rows = spools.withLock({ $0[Int64(step)]?.rows }) { return .complete(rows) }
        spools.withLock { $0[Int64(step)] = Spool() }
        return .fill(Filler(spool: self, id: Int64(step)))
    }
    func spoolLines(_ spool: Int64, after: Int, limit: Int) throws(LedgerError) -> [String] {
        spools.withLock { Array(($0[spool]?.lines ?? []).dropFirst(after).prefix(limit)) }
    }
    func completedSpool(step: Int, source: String) throws(LedgerError) -> SpooledRows? {
        spools.withLock { $0[Int64(step)]?.rows }
    }
    func discardLines(step: Int, source: String) throws(LedgerError) {
        spools.withLock { $0[Int64(step)]?.lines = [] }
    }

    final class Filler: SpoolFiller {
        let spool: MemorySpool
        let id: Int64
        init(spool: MemorySpool, id: Int64) {
            self.spool = spool
            self.id = id
        }
        func append(_ lines: [String]) throws(LedgerError) { spool.spools.withLock { $0[id]?.lines += lines } }
        func complete(columns: [String], count: Int, digest: String, now: Double) throws(LedgerError) -> SpooledRows {
            let rows = SpooledRows(spool: id, columns: columns, count: count, digest: digest, run: "r1", readAt: now)
            spool.spools.withLock { $0[id]?.rows = rows }
            return rows
        }
        func release() async {}
    }
}

@Suite(.serialized) struct RowSpoolTests {
    private func pipeline(_ registry: StepRegistry, rows: String = "u1,u2,u3", reader: ConfigNode? = nil) throws
        -> Pipeline
    {
        var source = invocation(1, "rows-source", [("rows", Build.scalar(rows))])
        source.id = "users"
        let reference = OutputReference(step: "users", output: "rows")
        let consumer = invocation(
            2, "rows-reader",
            [
                (
                    "for-each",
                    reader
                        ?? ConfigNode(
                            .scalar(
                                ConfigScalar(
                                    text: "", sourceText: reference.written, isPlain: false,
                                    deferred: [.output(reference)])), at: Build.at(12, 20))
                )
            ])
        let document = PipelineDocument(file: Build.file, directory: ".", steps: [source, consumer])
        let diagnostics = DiagnosticCollector()
        guard let built = registry.build(document, diagnostics: diagnostics, loadDataFile: noFiles) else {
            throw StepFailure(diagnostics.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return built
    }

    @Test func rowsGoThroughTheSpoolToALaterStepsForEachAndAResumeReadsTheSpoolNotTheSource() async throws {
        let registry = try StepRegistry([RowsSource.self, RowsReader.self])
        let spool = MemorySpool()
        let engine = PipelineEngine(logger: testLogger, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
        RowsSource.reads.withLock { $0 = 0 }
        let live = await engine.run(
            try pipeline(registry), mode: .live(DryRunTransport()), batch: BatchControl(ledger: spool))
        #expect(
            live.steps.map(\.summary) == [
                "3 rows (read)", #"${steps.users.rows}: {"userId":"u1"} {"userId":"u2"} {"userId":"u3"}"#,
            ])
        // The rows' output in the report: count, columns, digest; never the rows.
        guard case .object(let fields)? = live.steps[0].outputs, case .object(let rows)? = fields.first?.value else {
            Issue.record("rows output")
            return
        }
        #expect(rows.map(\.key) == ["count", "columns", "digest", "run"])

        // The source changed; the same run again finds its spool and reads the rows it spooled, not the source.
        let again = await engine.run(
            try pipeline(registry, rows: "u9"), mode: .live(DryRunTransport()), batch: BatchControl(ledger: spool))
        #expect(
            again.steps.map(\.summary) == [
                "3 rows (spooled)", #"${steps.users.rows}: {"userId":"u1"} {"userId":"u2"} {"userId":"u3"}"#,
            ])
        #expect(RowsSource.reads.withLock { $0 } == 1)

        // A spool that does not hold what was recorded stops the reader before it reads anything.
        _ = spool.spools.withLock { $0[1]?.lines.removeLast() }
        let tampered = await engine.run(
            try pipeline(registry), mode: .live(DryRunTransport()), batch: BatchControl(ledger: spool))
        #expect(
            tampered.steps[1].status == .failed
                && tampered.steps[1].summary.hasPrefix("the rows step 'users' spooled are not what the run recorded"))
    }

    @Test func aDryRunReadsTheSourceIntoAFileOfItsOwnThatGoesWithTheRun() async throws {
        let registry = try StepRegistry([RowsSource.self, RowsReader.self])
        let engine = PipelineEngine(logger: testLogger, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000)))
        let dry = await engine.run(
            try pipeline(registry, rows: "a,b"), mode: .dryRun, batch: BatchControl(ledger: MemorySpool()))
        #expect(dry.steps.map(\.summary) == ["2 rows (read)", #"${steps.users.rows}: {"userId":"a"} {"userId":"b"}"#])
        // Other tests make row files at the same time, so the check is of this run's own file, not a count.
        let file = try #require(dry.steps.last?.lines.first)
        #expect(file.contains("pushline-rows-"), "\(file)")
        #expect(!FileManager.default.fileExists(atPath: file), "the run's row files are removed when it ends")
    }

    @Test func aRowsFileIsReadableByItsOwnerOnly() throws {
        let (file, handle) = try RowSpooler.temporaryFile(for: "the rows")
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600, "rows carry user data; TMPDIR is shared: \(String(mode, radix: 8))")
    }

    @Test func rowsFitOnlyAForEachAndNeverACondition() throws {
        let registry = try StepRegistry([RowsSource.self, RowsReader.self, OutputsConsumer.self])
        var source = invocation(1, "rows-source", [("rows", Build.scalar("a"))])
        source.id = "users"
        let reference = OutputReference(step: "users", output: "rows")
        let inText = invocation(
            2, "outputs-consumer",
            [
                (
                    "text",
                    ConfigNode(
                        .scalar(
                            ConfigScalar(
                                text: "", sourceText: "rows: \(reference.written)", isPlain: false,
                                deferred: [.text("rows: "), .output(reference)])), at: Build.at(12, 20))
                )
            ])
        let indexed = OutputReference(step: "users", output: "rows", index: 0)
        let withIndex = invocation(
            3, "rows-reader",
            [
                (
                    "for-each",
                    ConfigNode(
                        .scalar(
                            ConfigScalar(
                                text: "", sourceText: indexed.written, isPlain: false, deferred: [.output(indexed)])),
                        at: Build.at(13, 20))
                )
            ])
        let diagnostics = DiagnosticCollector()
        _ = registry.build(
            PipelineDocument(file: Build.file, directory: ".", steps: [source, inText, withIndex]),
            diagnostics: diagnostics, loadDataFile: noFiles)
        #expect(
            diagnostics.diagnostics.map(\.message) == [
                "${steps.users.rows} is rows, and only a `for-each` takes rows (written as its whole value)",
                "'rows' of step 'users' is rows, not a list; remove the index",
            ])
    }

    @Test func storedOutputsKeepRowsWhereTheyAre() {
        let rows = SpooledRows(
            spool: 42, columns: ["userId", "name"], count: 1_000, digest: "abc", run: "20261127-030000-aaaaaa",
            readAt: 1_700_000_000)
        let outputs: StepOutputs = ["rows": .rows(rows), "count": .integer(1_000)]
        #expect(
            CompletedStep.outputs(
                fromJSON: CompletedStep(step: 1, stepId: "query", summary: "s", outputs: outputs).outputsJSON)
                == outputs)
    }

    @Test func aURLsPasswordIsRedactedFromShownText() {
        #expect(
            SecretRedaction.redact("    database: postgres://reader:s3cr%40t@db.internal:5432/app?sslmode=verify-full")
                == "    database: postgres://reader:<redacted>@db.internal:5432/app?sslmode=verify-full")
        #expect(SecretRedaction.redact("database: postgres://reader@db/app") == "database: postgres://reader@db/app")
        #expect(
            SecretRedaction.redact(#"database: "postgres://reader:p@ss'w"d@db/app""#)
                == #"database: "postgres://reader:<redacted>@db/app""#)
        #expect(
            SecretRedaction.redact("database: postgres://reader@db/app?password=s3cret&sslmode=require")
                == "database: postgres://reader@db/app?password=<redacted>&sslmode=require")
    }
}

/// A step with a text option, to see where rows do not fit.
private struct OutputsConsumer: Step {
    static let id = "outputs-consumer"
    static let summary = "takes text"
    static let options = [OptionSpec("text", .string, required: true, "text")]
    static let examples: [String] = []
    static func build(_ options: OptionReader, in context: BuildContext) -> OutputsConsumer? { OutputsConsumer() }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "ran") }
}
