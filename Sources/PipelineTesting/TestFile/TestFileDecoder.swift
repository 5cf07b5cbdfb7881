import Foundation
import HubEmulator
import HubWire
import PipelineConfig
import PipelineCore
import RunFlow

/// Reads a test file into a `PipelineTestFile`, reporting every problem at its `file:line:column` as pipelines are.
package struct TestFileDecoder {
    typealias Keys = TestFileKeys
    let path: String
    let diagnostics: DiagnosticCollector

    /// The test file at `path`, or nil after reporting why it cannot be used (every problem is reported in one pass).
    package static func load(_ path: String, diagnostics: DiagnosticCollector) -> PipelineTestFile? {
        // References are not resolved: a test file writes what it expects, `${…}` and `$(…)` included.
        let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:]))
        guard
            let root = loader.loadDataFile(
                path: path, reference: nil, what: "test file", resolvingReferences: false, diagnostics: diagnostics)
        else { return nil }
        let errorsBefore = diagnostics.errorCount
        let file = TestFileDecoder(path: path, diagnostics: diagnostics).decode(root)
        return diagnostics.errorCount == errorsBefore ? file : nil
    }

    /// The test file whose text is `text`, as if read from `path` (the fuzzer reads test files this way).
    package static func load(text: String, path: String, diagnostics: DiagnosticCollector) -> PipelineTestFile? {
        let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:]))
        guard let root = loader.loadData(text: text, name: path, diagnostics: diagnostics) else { return nil }
        let errorsBefore = diagnostics.errorCount
        let file = TestFileDecoder(path: path, diagnostics: diagnostics).decode(root)
        return diagnostics.errorCount == errorsBefore ? file : nil
    }

    /// The pipeline a test file tests unless it says: `nightly.test.yaml` → `nightly.yaml`, a file in
    /// `nightly.tests/` → `nightly.yaml` beside the folder.
    package static func defaultPipeline(for path: String) -> String? {
        let directory = FilePath.directory(of: path)
        let name = FilePath.lastComponent(of: path)
        for suffix in [".test.yaml", ".test.yml"] where name.hasSuffix(suffix) {
            return FilePath.resolve(String(name.dropLast(suffix.count)) + ".yaml", against: directory)
        }
        let folder = FilePath.lastComponent(of: directory)
        guard folder.hasSuffix(".tests"), folder.count > ".tests".count else { return nil }
        return FilePath.resolve(
            String(folder.dropLast(".tests".count)) + ".yaml", against: FilePath.directory(of: directory))
    }

    func decode(_ root: ConfigNode) -> PipelineTestFile? {
        let reader = OptionReader(
            root, specs: Keys.File.specs, step: nil, what: "a test file", diagnostics: diagnostics)
        let keys = Keys.File(reading: reader)
        let directory = FilePath.directory(of: path)
        var pipeline = keys.pipeline.map { FilePath.resolve($0, against: directory) }
        if pipeline == nil { pipeline = Self.defaultPipeline(for: path) }
        guard let pipeline else {
            diagnostics.error(
                "this test file does not say which pipeline it tests", at: root.location,
                hint: "add `pipeline: nightly.yaml`, or name the file nightly.test.yaml beside nightly.yaml")
            return nil
        }
        if !FileManager.default.fileExists(atPath: pipeline) {
            if let node = keys.$pipeline.node {
                reader.error(
                    "the pipeline '\(pipeline)' does not exist", at: node, hint: "the path is relative to this file")
            } else {
                diagnostics.error(
                    "the pipeline this file tests, '\(pipeline)', does not exist", at: root.location,
                    hint: "a test file is named after its pipeline (nightly.test.yaml tests nightly.yaml); "
                        + "or say which with `pipeline:`")
            }
        }
        var cases: [TestCase] = []
        if let node = keys.cases {
            guard let items = node.items else {
                reader.error("'cases' must be a list of cases, found \(node.kindName)", at: node)
                return nil
            }
            if items.isEmpty {
                reader.error("'cases' has no case", at: node, hint: "add `- name: …` with what a run must come to")
            }
            var names: [String: SourceLocation] = [:]
            for item in items {
                guard let testCase = decodeCase(item) else { continue }
                if let first = names[testCase.name] {
                    diagnostics.error(
                        "a case named '\(testCase.name)' is already at line \(first.line)", at: testCase.location,
                        hint: "give every case its own name: `--run` and the reports tell them apart by it")
                }
                names[testCase.name] = testCase.location
                cases.append(testCase)
            }
        }
        return PipelineTestFile(path: path, pipeline: pipeline, cases: cases)
    }

    private func decodeCase(_ node: ConfigNode) -> TestCase? {
        let reader = OptionReader(
            node, specs: Keys.Case.specs, step: nil, what: "a test case", diagnostics: diagnostics)
        let keys = Keys.Case(reading: reader)
        guard let name = keys.name else { return nil }
        let devices = keys.devices.map { decodeDevices($0, reader) } ?? []
        // A case of one run names no run in its report: its failures are the case's.
        let defaults = decodeRun(keys.run, reader: reader, label: "", at: node.location, inheriting: nil)
        var runs: [TestRun] = []
        if let runsNode = keys.runs {
            if let items = runsNode.items, !items.isEmpty {
                if let expect = keys.run.$expect.node {
                    reader.error(
                        "a case with `runs:` gives each run its own `expect:`", at: expect,
                        hint: "move this `expect:` into the run it is about")
                }
                for (index, item) in items.enumerated() {
                    let runReader = OptionReader(
                        item, specs: Keys.RunEntry.specs, step: nil, what: "a run", diagnostics: diagnostics)
                    let entry = Keys.RunEntry(reading: runReader)
                    runs.append(
                        decodeRun(
                            entry.run, reader: runReader, label: entry.name ?? "run \(index + 1)", at: item.location,
                            inheriting: defaults))
                }
            } else {
                reader.error("'runs' must be a list of runs, found \(runsNode.kindName)", at: runsNode)
            }
        } else {
            runs = [defaults]
        }
        return TestCase(
            name: name, location: node.location, devices: devices, runs: runs, idempotent: keys.idempotent,
            crashAfter: keys.crashAfter, snapshot: keys.snapshot)
    }

    /// A run from its keys; a run of `runs:` takes what it does not give from the case (`inheriting`).
    private func decodeRun(
        _ keys: Keys.Run, reader: OptionReader, label: String, at location: SourceLocation, inheriting: TestRun?
    ) -> TestRun {
        var run =
            inheriting
            ?? TestRun(
                label: label, location: location, now: nil, parameters: [:], environment: [:], rows: [], faults: [],
                latency: nil, again: false, expect: Expectations(location: location))
        run.label = label
        run.location = location
        run.expect = Expectations(location: location)
        if let text = keys.now, let node = keys.$now.node {
            if let date = try? Date.ISO8601FormatStyle().parse(text) {
                run.now = date
            } else {
                reader.error(
                    "'now' must be a time in ISO 8601, such as 2026-11-29T02:00:00Z, found \(node.scalar?.quoted ?? node.kindName)",
                    at: node)
            }
        }
        for (name, value) in keys.params { run.parameters[name] = value }
        for (name, value) in keys.env { run.environment[name] = value }
        if let node = keys.rows { run.rows = decodeRows(node, reader) }
        let emulator = EmulatorConfigDecoder(diagnostics: diagnostics)
        if let node = keys.faults { run.faults = emulator.faults(node, reader) }
        if let node = keys.latency { run.latency = emulator.latencyRule(node) }
        if let node = keys.mocks { run.mocks = decodeMocks(node, reader) }
        if let node = keys.tables { run.databases += decodeTables(node, reader) }
        let databaseNodes = keys.$databases.node?.entries ?? []
        for (step, file) in keys.databases {
            let location = databaseNodes.first { $0.key == step }?.keyLocation ?? location
            let resolved = FilePath.resolve(file, against: FilePath.directory(of: path))
            if !FileManager.default.fileExists(atPath: resolved) {
                diagnostics.error(
                    "the database '\(file)' does not exist", at: location, hint: "it is relative to this file")
            }
            run.databases.append(DatabaseOverride(step: step, location: location, source: .file(resolved)))
        }
        if keys.$again.node != nil { run.again = keys.again }
        if let node = keys.expect { run.expect = decodeExpect(node) }
        return run
    }

    private func decodeRows(_ node: ConfigNode, _ reader: OptionReader) -> [RowsOverride] {
        guard let entries = node.entries else {
            reader.error(
                "'rows' must be a mapping of step ids to rows, found \(node.kindName)", at: node,
                hint: "e.g. rows: { digest: [ { userId: alice } ] } or rows: { digest: rows.csv }")
            return []
        }
        return entries.compactMap { entry in
            if let items = entry.value.items {
                var rows: [JSONValue] = []
                for item in items {
                    guard item.entries != nil else {
                        reader.error("a row must be a mapping of columns to values, found \(item.kindName)", at: item)
                        continue
                    }
                    rows.append(JSONValue(item))
                }
                return RowsOverride(step: entry.key, location: entry.keyLocation, source: .inline(rows))
            }
            guard let file = entry.value.scalar?.text, !entry.value.isNull else {
                reader.error(
                    "the rows of '\(entry.key)' must be a list of rows or a file, found \(entry.value.kindName)",
                    at: entry.value)
                return nil
            }
            let resolved = FilePath.resolve(file, against: FilePath.directory(of: path))
            if !FileManager.default.fileExists(atPath: resolved) {
                reader.error(
                    "the rows file '\(file)' does not exist", at: entry.value, hint: "it is relative to this file")
            }
            return RowsOverride(step: entry.key, location: entry.keyLocation, source: .file(resolved))
        }
    }
}
