import Engine
import Foundation
import HubEmulator
import HubWire
import PipelineCore
import RunFlow

/// Runs test cases, each in a session of its own (emulator, journal, clock), several at once.
package struct TestRunner: Sendable {
    /// The step kinds pipelines may use (the console's registry).
    package var steps: StepRegistry
    /// What a run sees of the tester's environment besides what a case gives: PATH, HOME and TMPDIR only, so a test
    /// gives the same result on every machine.
    package var baseEnvironment: [String: String]
    /// Most cases at once.
    package var parallelism: Int

    /// A runner; `environment` is the tester's, of which PATH, HOME and TMPDIR are passed on.
    package init(steps: StepRegistry, environment: [String: String], parallelism: Int) {
        self.steps = steps
        baseEnvironment = environment.filter { ["PATH", "HOME", "TMPDIR"].contains($0.key) }
        self.parallelism = max(1, parallelism)
    }

    /// The results of `cases` (each with its file), in the order given.
    package func run(_ cases: [(file: PipelineTestFile, testCase: TestCase)]) async -> [CaseResult] {
        await withTaskGroup(of: (Int, CaseResult).self) { group in
            var results = [CaseResult?](repeating: nil, count: cases.count)
            var next = 0
            func start() {
                guard next < cases.count else { return }
                let index = next
                next += 1
                let (file, testCase) = cases[index]
                group.addTask { (index, await runCase(testCase, of: file)) }
            }
            for _ in 0..<parallelism { start() }
            for await (index, result) in group {
                results[index] = result
                start()
            }
            return results.compactMap { $0 }
        }
    }

    /// One case: its runs in order, then the idempotent re-run when asked for.
    package func runCase(_ testCase: TestCase, of file: PipelineTestFile) async -> CaseResult {
        let started = ContinuousClock.now
        let session = CaseSession(file: file, testCase: testCase, steps: steps, baseEnvironment: baseEnvironment)
        defer { session.close() }
        var failures: [TestFailure] = []
        var runs = testCase.runs
        if testCase.idempotent, var again = runs.last {
            // The same command once more on the same journal and hub: it must send nothing and succeed.
            again.label = again.label.isEmpty ? "run again (idempotent)" : "\(again.label) run again (idempotent)"
            again.now = nil
            again.again = false
            again.expect = Expectations(location: testCase.location)
            again.expect.exit = 0
            again.expect.deliveries = 0
            runs.append(again)
        }
        var lastDeliveries: [Delivery] = []
        var coverage: CaseCoverage?
        var snapshotRuns: [(label: String, exchanges: [ExchangeLog.Exchange], deliveries: [Delivery])] = []
        for (index, run) in runs.enumerated() {
            var found: [TestFailure] = []
            let outcome = await session.perform(run, failures: &found)
            // A problem of the test's own (rows for a step that is not there) is the failure: nothing was checked.
            guard found.isEmpty else {
                failures += found
                break
            }
            let emulator = session.emulator
            let hub = outcome.hub ?? "myhub"
            found += await RunCheck(run: run, outcome: outcome, properties: session.log.properties(of:)).failures {
                id in
                await emulator?.installation(id: id, hub: hub).map { Set($0.tags ?? []) }
            }
            failures += found
            if index == testCase.runs.count - 1 { lastDeliveries = outcome.deliveries }
            if coverage == nil, let shape = outcome.shape {
                coverage = CaseCoverage(pipeline: file.pipeline, shape: shape)
            }
            if let report = outcome.report { coverage?.record(report) }
            if index < testCase.runs.count { snapshotRuns.append((run.label, outcome.exchanges, outcome.deliveries)) }
            // A run that could not start leaves the later runs nothing to stand on.
            if outcome.refused, run.expect.diagnostics == nil { break }
        }
        if let after = testCase.crashAfter, failures.isEmpty {
            failures += await crashCheck(testCase, of: file, after: after, reference: lastDeliveries)
        }
        let elapsed = started.duration(to: .now)
        return CaseResult(
            file: file.path, name: testCase.name, location: testCase.location, failures: failures,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            output: session.output,
            snapshot: testCase.snapshot ? SnapshotText.render(snapshotRuns) : nil, coverage: coverage)
    }
}
