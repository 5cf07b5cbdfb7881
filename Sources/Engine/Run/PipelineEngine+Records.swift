import Foundation
import Logging
import PipelineCore
import RunStore
import Tracing

extension PipelineEngine {
    /// The record of a step that did not run.
    static func notRun(_ built: BuiltStep, status: StepRecord.Status, summary: String) -> StepRecord {
        named(
            StepRecord(
                index: built.index, step: built.id, location: built.location.description, status: status,
                summary: summary), built)
    }

    /// The record of a step its `when:` skips, after earlier steps of which some failed (`failed`) or none did.
    static func skipped(_ built: BuiltStep, afterFailure failed: Bool) -> StepRecord {
        let summary =
            switch built.condition {
            case .expression(let expression, let written) where !failed || expression.readsFailure:
                "skipped (when: \(written)): false"
            case .expression, .success: "skipped: an earlier step failed"
            case .failure, .always:
                failed
                    ? "skipped: an earlier step failed"
                    : "skipped (when: \(built.condition.written)): no earlier step failed"
            }
        return notRun(built, status: .skipped, summary: summary)
    }

    /// `record` with the step's id and name.
    static func named(_ record: StepRecord, _ built: BuiltStep) -> StepRecord {
        var record = record
        record.id = built.declaredId
        record.name = built.name
        return record
    }

    /// A step's outputs as the report shows them: those it declares, in their order, each of its declared type
    /// (a value a step did not declare is not handed on; a test of each step proves it sets every one it declares).
    static func declared(_ outputs: StepOutputs, of specs: [OutputSpec]) -> ReportValue? {
        let fields = specs.compactMap { spec in
            outputs[spec.name].flatMap { $0.type == spec.type ? ReportField(spec.name, $0.report) : nil }
        }
        return fields.isEmpty ? nil : .object(fields)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
