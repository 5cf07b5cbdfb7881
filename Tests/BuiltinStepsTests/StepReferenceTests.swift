import BuiltinSteps
import Engine
import Foundation
import PipelineConfig
import PipelineCore
import Testing

/// The steps reference in the repository is what the steps' declarations write today.
@Suite struct StepReferenceTests {
    static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../docs/reference/steps.md"
    ).path

    @Test func theCommittedReferenceIsCurrent() throws {
        let written = StepReference(registry: BuiltinSteps.registry()).markdown
        let committed = try String(contentsOfFile: Self.committed, encoding: .utf8)
        #expect(
            committed == written,
            "docs/reference/steps.md is stale: run `swift run pushline steps --markdown > docs/reference/steps.md`")
    }

    @Test func everyKeyOfEveryStepIsInTheReferenceWithItsBoundsAndConstraints() throws {
        let reference = StepReference(registry: BuiltinSteps.registry())
        let markdown = reference.markdown
        for type in BuiltinSteps.all {
            #expect(markdown.contains("## \(type.id)\n\n\(type.summary)"))
            for spec in type.options { #expect(markdown.contains("| `\(spec.key)` | "), "\(type.id).\(spec.key)") }
        }
        #expect(
            markdown.contains(
                "| `concurrency` | integer, 1 to 256 | `16` | most requests in flight at once. Only with `for-each`"))
        #expect(markdown.contains("| `shard-key` |"), "the batch keys are documented wherever a step declares them")
        let send = reference.text(for: try #require(reference.registry.kind(for: "send")))
        #expect(send.contains("  rate  (number, 0.001 to 100000)"))
        #expect(send.contains("EXAMPLES\n  - send: { hub: sports, audience: boston-fans"))
        #expect(
            reference.text(for: try #require(reference.registry.kind(for: "register"))).contains(
                "EACH ENTRY OF INSTALLATIONS\n  installationId  (string)"))
    }
}
