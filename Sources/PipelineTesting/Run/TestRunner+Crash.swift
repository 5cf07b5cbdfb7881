import Engine
import HubEmulator
import PipelineCore

extension TestRunner {
    /// `crash-after: N`: the case's runs again on a fresh hub and journal, the last one cut off after the hub took N of
    /// its requests and then resumed by the same command. What the devices received across the cut and the resume must
    /// be what they received from the last run without a cut (`reference`): nothing twice, nothing dropped.
    func crashCheck(_ testCase: TestCase, of file: PipelineTestFile, after: Int, reference: [Delivery]) async
        -> [TestFailure]
    {
        guard let last = testCase.runs.last else { return [] }
        let session = CaseSession(file: file, testCase: testCase, steps: steps, baseEnvironment: baseEnvironment)
        defer { session.close() }
        let label = (last.label.isEmpty ? "" : last.label + " ") + "cut off after \(after) requests, then run again"
        var problems: [TestFailure] = []
        for run in testCase.runs.dropLast() { _ = await session.perform(run, failures: &problems) }
        let crash = CrashPoint(after: after)
        let cut = await session.perform(last, failures: &problems, crash: crash)
        var again = last
        again.now = nil
        let resumed = await session.perform(again, failures: &problems)
        guard problems.isEmpty else { return problems }
        guard crash.wasReached else {
            return [
                TestFailure(
                    run: label, location: testCase.location,
                    message: "the run made fewer than \(after) requests: crash-after never cut it off",
                    detail: "give a smaller crash-after")
            ]
        }
        let want = reference.map(Self.shown).sorted()
        let got = (cut.deliveries + resumed.deliveries).map(Self.shown).sorted()
        guard got != want else { return [] }
        return [
            TestFailure(
                run: label, location: testCase.location,
                message: "cut off and resumed, the devices did not receive what one uncut run delivers",
                detail: TextDiff.unified(expected: want.joined(separator: "\n"), actual: got.joined(separator: "\n"))
                    + "\nthe cut run: \(cut.status) (exit \(cut.exitCode)); the next start: \(resumed.status) (exit \(resumed.exitCode)"
                    + (resumed.report?.resumed == true ? ", resumed it)" : ", a run of its own)")
            )
        ]
    }

    /// A delivery as the crash check compares it: device, platform, template and payload.
    static func shown(_ delivery: Delivery) -> String {
        let device = delivery.installationId ?? delivery.registrationId ?? delivery.pushChannel
        return
            "\(device) (\(delivery.platform)\(delivery.template.map { ", template \($0)" } ?? "")): \(delivery.payload)"
    }
}
