import HubWire
import PipelineCore

/// What a step hands to later steps, whatever became of it: every output its kind declares (what it did, or nothing
/// when it never started: 0, empty text, an empty list, no rows), with `status` and `error`. So a summary that runs
/// `when: always` reads the counts of a step that failed or was skipped instead of failing itself.
/// Every step has `StepKind.commonOutputs` besides its own.
enum HandedOn {
    /// `produced` over the empty value of every declared output, with the step's status and error.
    static func outputs(of built: BuiltStep, record: StepRecord, produced: StepOutputs?, rejected: Bool) -> StepOutputs
    {
        var outputs: StepOutputs = [:]
        for spec in built.outputs { outputs[spec.name] = empty(spec.type) }
        if let produced { outputs.merge(produced) { _, made in made } }
        let status = rejected ? "rejected" : record.status.rawValue
        outputs["status"] = .string(status)
        outputs["error"] = .string(record.status == .failed ? record.summary : "")
        return outputs
    }

    /// What an output holds when its step produced nothing.
    static func empty(_ type: OutputSpec.ValueType) -> OutputValue {
        switch type {
        case .integer: .integer(0)
        case .string: .string("")
        case .boolean: .boolean(false)
        case .list: .list([], total: 0)
        case .rows:
            .rows(SpooledRows(spool: nil, columns: [], count: 0, digest: ContentDigest.Running().finish(), readAt: 0))
        }
    }
}

extension EarlierOutputs {
    /// Records what `built` hands on after `record`, at its place; a step without an `id:` hands on nothing.
    mutating func record(_ built: BuiltStep, _ record: StepRecord, produced: StepOutputs?, rejected: Bool = false) {
        guard let id = built.declaredId else { return }
        self.record(
            HandedOn.outputs(of: built, record: record, produced: produced, rejected: rejected), of: id, at: built.index
        )
    }
}
