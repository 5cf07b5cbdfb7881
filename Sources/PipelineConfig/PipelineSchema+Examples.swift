import PipelineCore
import Yams

/// Step and option examples, written in YAML, as the JSON values the schema lists.
extension PipelineSchema {
    /// A step example (`- kind: { options }`) as the JSON of its options; an example that first shows the step it reads
    /// (an `outcomes` step's send) documents its last step.
    static func stepExample(_ yaml: String, id: String) -> ReportValue? {
        guard case .array(let items)? = yamlValue(yaml), case .object(let fields)? = items.last,
            fields.count == 1, fields[0].key == id
        else { return nil }
        return fields[0].value
    }

    // YAML 1.2's core types only: no timestamps or floats, which JSON examples would misrepresent.
    static let exampleResolver = Resolver.basic.appending(.bool).appending(.int).appending(.null)

    /// A YAML snippet as JSON, or nil when it does not parse.
    static func yamlValue(_ yaml: String) -> ReportValue? {
        guard let parsed = try? Yams.load(yaml: yaml, exampleResolver) else { return nil }
        return json(parsed)
    }

    static func json(_ value: Any) -> ReportValue {
        switch value {
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .int(number)
        case let text as String: return .string(text)
        case let list as [Any]: return .array(list.map(json))
        case let mapping as [String: Any]:
            return .object(mapping.sorted { $0.key < $1.key }.map { ReportField($0.key, json($0.value)) })
        default: return .null
        }
    }
}
