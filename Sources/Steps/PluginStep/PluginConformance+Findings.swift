import Foundation
import PipelineCore
import PluginProtocol

extension PluginConformance {
    /// What the description says that the host accepts but an author should hear about.
    func descriptionProblems(_ description: PluginDescription) -> [Finding] {
        // An option without a summary is refused by describe itself; an output's is optional in the protocol.
        let unsummarised = description.outputs.filter { $0.summary.isEmpty }.map(\.name)
        guard !unsummarised.isEmpty else { return [] }
        return [
            Finding(
                part: "describe", outcome: .failed,
                message: "no summary for \(unsummarised.map { "'\($0)'" }.joined(separator: ", "))",
                details: ["give each output a \"summary\": `pushline steps` and editors show it"])
        ]
    }

    /// The first `${env:…}`/`${file:…}` without a value, or `${steps.…}` (known only in a pipeline), in `node`.
    static func unresolvedReference(in node: ConfigNode) -> String? {
        switch node.value {
        case .scalar(let scalar):
            return scalar.isUnresolved || scalar.deferred != nil ? scalar.sourceText : nil
        case .mapping(let entries):
            return entries.lazy.compactMap { unresolvedReference(in: $0.value) }.first
        case .sequence(let items):
            return items.lazy.compactMap(unresolvedReference).first
        }
    }

    static func shown(_ value: OutputValue) -> String {
        switch value {
        case .integer(let number): "\(number)"
        case .string(let text): "\"\(text.prefix(60))\""
        case .boolean(let value): "\(value)"
        case .list(let values, let total):
            "[\(values.prefix(3).joined(separator: ", "))\(total > 3 ? ", …" : "")] (\(total))"
        case .rows(let rows): "\(rows.count) rows"
        }
    }

    static func timedOut(_ failure: PluginFailure) -> Bool {
        failure.timedOut
    }

    static func skipped(_ part: String, _ why: String) -> Finding {
        Finding(part: part, outcome: .skipped, message: why, details: [])
    }

    static func failed(_ part: String, _ failure: PluginFailure) -> Finding {
        Finding(
            part: part, outcome: .failed, message: failure.message,
            details: (failure.hint.map { ["fix: " + $0] } ?? []) + failure.stderr.map { "stderr: " + $0 })
    }
}
