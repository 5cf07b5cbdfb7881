import Foundation
import PushlineKit
import RunFlow
import Synchronization
import Testing

/// A step as a package's own `pushline` adds it, written against what `import PushlineKit` offers.
struct CountdownStep: Step {
    static let id = "countdown"
    static let summary = "Hands on a countdown from a number, as text."
    static let options = [
        OptionSpec("from", .integer, required: true, "the number to count down from (1 to 10)"),
        OptionSpec("then", .string, "what follows the numbers"),
    ]
    static let outputs = [OutputSpec("text", .string, "the numbers, highest first")]
    static let examples = ["- countdown: { from: 3 }"]

    let from: Int
    let then: String?

    static func build(_ options: OptionReader, in context: BuildContext) -> CountdownStep? {
        options.integer("from", in: 1...10).map { CountdownStep(from: $0, then: options.string("then")?.value) }
    }

    func run(in context: StepContext) async throws -> StepResult {
        context.logger.info("counting down", metadata: ["from": "\(from)"])
        var result = StepResult(summary: "counted down from \(from)")
        let numbers = stride(from: from, through: 1, by: -1).map(String.init).joined(separator: " ")
        result.outputs = ["text": .string(numbers + (then.map { " " + $0 } ?? ""))]
        return result
    }
}

/// A step that takes a name a built-in step has.
struct SendAgainStep: Step {
    static let id = "send"
    static let summary = "Takes the built-in send's name."
    static let options: [OptionSpec] = []
    static let examples: [String] = []
    static func build(_ options: OptionReader, in context: BuildContext) -> SendAgainStep? { SendAgainStep() }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "") }
}

@Suite("Pushline as a package: the command line with steps of one's own")
struct PushlineTests {
    /// Runs `arguments` through `Pushline.run` with the console captured.
    func run(_ arguments: [String], adding steps: [any Step.Type] = [CountdownStep.self]) async -> (
        out: String, err: String, status: Int32
    ) {
        let out = Mutex("")
        let err = Mutex("")
        var console = Console.current.writing(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } })
        // A journal of this call's own, never the user's.
        let journal = NSTemporaryDirectory() + "pushline-kit-journal-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: journal) }
        console.environment["PUSHLINE_JOURNAL"] = journal + "/journal.sqlite"
        let status = await Console.$current.withValue(console) { await Pushline.run(arguments, adding: steps) }
        return (out.withLock { $0 }, err.withLock { $0 }, status)
    }

    func pipeline(_ text: String) throws -> (path: String, remove: () -> Void) {
        let directory = NSTemporaryDirectory() + "pushline-kit-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        return (directory + "/p.yaml", { try? FileManager.default.removeItem(atPath: directory) })
    }

    @Test("the built-in steps come first, in the order pushline steps lists them")
    func builtinSteps() {
        #expect(
            Pushline.builtinSteps.map(\.id) == ["sign", "register", "render", "send", "cancel", "outcomes", "query"])
    }

    @Test("an added step is listed, checked at its line and column, run, and its output feeds a later step")
    func addedStepRuns() async throws {
        let listed = await run(["steps"])
        #expect(listed.status == 0)
        #expect(
            listed.out.contains("countdown") && listed.out.contains("Hands on a countdown from a number, as text."),
            "\(listed.out)")

        let (bad, removeBad) = try pipeline("version: 1\nsteps:\n  - countdown: { from: 12 }\n")
        defer { removeBad() }
        let refused = await run(["validate", bad])
        #expect(refused.status == 2)
        #expect(
            refused.err.contains(
                "p.yaml:3:24: error: [countdown] 'from' must be a whole number from 1 to 10, found '12'"),
            "\(refused.err)")

        let (good, removeGood) = try pipeline(
            """
            version: 1
            steps:
              - id: count
                countdown: { from: 3 }
              - countdown: { from: 1, then: "after ${steps.count.text}: lift-off" }

            """)
        defer { removeGood() }
        let ran = await run(["run", good, "--format", "json"])
        #expect(ran.status == 0, "\(ran.err)")
        #expect(ran.out.contains("1 after 3 2 1: lift-off"), "\(ran.out)")
    }

    @Test("a step that takes a built-in step's name is refused (exit 78) before any command runs")
    func takenName() async {
        let refused = await run(["steps"], adding: [SendAgainStep.self])
        #expect(refused.status == 78)
        #expect(refused.err.contains("two steps are called 'send'"), "\(refused.err)")
        #expect(refused.out.isEmpty)
    }
}
