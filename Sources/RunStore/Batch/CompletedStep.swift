import Foundation
import PipelineCore

/// A step a run completed, as the run's journal keeps it: a resumed run reads it back rather than run the step
/// again (a cancel that already cancelled would find nothing; a send already done has nothing left to do), and
/// `pushline runs show` prints its outputs.
package struct CompletedStep: Sendable, Equatable {
    /// 1-based position in `steps:`.
    package var step: Int
    /// How the journal names the step: its `name:`, or its kind.
    package var stepId: String
    /// The step's one line, as it ended.
    package var summary: String
    /// What it handed on.
    package var outputs: StepOutputs
    /// True when its notifications reached no device (`StepResult.reachedNoDevice`): a resumed run ends `undelivered` too.
    package var reachedNoDevice: Bool

    /// How the journal marks `reachedNoDevice` among the stored outputs (no step declares it, so none reads it); every
    /// journal written since the mark was introduced spells it so.
    static let reachedNoDeviceKey = "_reached-no-device"

    /// Creates a record. Outputs read from a journal may hold the stored mark: it becomes `reachedNoDevice`.
    package init(step: Int, stepId: String, summary: String, outputs: StepOutputs, reachedNoDevice: Bool = false) {
        self.step = step
        self.stepId = stepId
        self.summary = summary
        self.reachedNoDevice = reachedNoDevice || outputs[Self.reachedNoDeviceKey] != nil
        self.outputs = outputs.filter { $0.key != Self.reachedNoDeviceKey }
    }

    /// The outputs as the journal stores them: a JSON object, booleans as `{"boolean": true}`, lists as `{"values": […], "total": n}`, rows as
    /// `{"rows": {…}}` (where the spool is, its count, columns and digest).
    package var outputsJSON: String {
        let stored =
            reachedNoDevice ? outputs.merging([Self.reachedNoDeviceKey: .integer(1)]) { kept, _ in kept } : outputs
        let object = stored.sorted { $0.key < $1.key }.map { name, value -> ReportField in
            switch value {
            case .integer(let number): ReportField(name, .int(number))
            case .string(let text): ReportField(name, .string(text))
            // Wrapped: a bare JSON true reads back as the number 1 where Foundation bridges numbers.
            case .boolean(let value): ReportField(name, .object([ReportField("boolean", .bool(value))]))
            case .list(let values, let total):
                ReportField(
                    name,
                    .object([
                        ReportField("values", .array(values.map(ReportValue.string))),
                        ReportField("total", .int(total)),
                    ]))
            case .rows(let rows):
                ReportField(name, .object([ReportField("rows", Self.stored(rows))]))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(ReportValue.object(object))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Outputs from their stored JSON; nil when the text is not what `outputsJSON` writes.
    package static func outputs(fromJSON text: String) -> StepOutputs? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return nil
        }
        var outputs: StepOutputs = [:]
        for (name, value) in object {
            if let text = value as? String {
                outputs[name] = .string(text)
            } else if let wrapped = value as? [String: Any], wrapped.count == 1, let flag = wrapped["boolean"] as? Bool
            {
                outputs[name] = .boolean(flag)
            } else if let list = value as? [String: Any], let values = list["values"] as? [String],
                let total = list["total"] as? Int
            {
                outputs[name] = .list(values, total: total)
            } else if let wrapped = value as? [String: Any], let rows = wrapped["rows"],
                let data = try? JSONSerialization.data(withJSONObject: rows),
                let spooled = try? JSONDecoder().decode(SpooledRows.self, from: data)
            {
                outputs[name] = .rows(spooled)
            } else if let number = value as? Int {
                outputs[name] = .integer(number)
            } else {
                return nil
            }
        }
        return outputs
    }

    /// Rows as the journal keeps them: every field of the value, so a resumed run finds the spool.
    private static func stored(_ rows: SpooledRows) -> ReportValue {
        var fields = [
            ReportField("columns", .array(rows.columns.map(ReportValue.string))),
            ReportField("count", .int(rows.count)),
            ReportField("digest", .string(rows.digest)), ReportField("readAt", .int(Int(rows.readAt))),
        ]
        if let spool = rows.spool { fields.append(ReportField("spool", .int(Int(spool)))) }
        if let file = rows.file { fields.append(ReportField("file", .string(file))) }
        if let run = rows.run { fields.append(ReportField("run", .string(run))) }
        return .object(fields)
    }
}

extension CompletedStep: Encodable {
    private enum CodingKeys: String, CodingKey {
        case step, stepId, summary, outputs
    }

    /// As `runs show --format json` prints it: the outputs as an object, in the report's form.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(step, forKey: .step)
        try container.encode(stepId, forKey: .stepId)
        try container.encode(summary, forKey: .summary)
        try container.encode(
            ReportValue.object(outputs.sorted { $0.key < $1.key }.map { ReportField($0.key, $0.value.report) }),
            forKey: .outputs)
    }
}
