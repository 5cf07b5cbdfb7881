import PipelineCore

/// What the schema says of a key beyond its type: the keys it excludes or needs, its bounds, and how its description
/// states them.
extension PipelineSchema {
    /// A key's exclusions and requirement, as `validate` applies them: to keys given a value (an empty `key:`
    /// is absent).
    static func rules(_ spec: OptionSpec) -> [ReportValue] {
        func given(_ keys: [String]) -> ReportValue {
            .object([
                ReportField("required", .array(keys.map(ReportValue.string))),
                ReportField(
                    "properties",
                    .object(
                        keys.map {
                            ReportField(
                                $0, .object([ReportField("not", .object([ReportField("type", .string("null"))]))]))
                        })),
            ])
        }
        var rules: [ReportValue] = []
        if let exclusion = spec.exclusion {
            // Given this key, the others are absent or empty.
            let empty = ReportValue.object([ReportField("type", .string("null"))])
            rules.append(
                .object([
                    ReportField("if", given([spec.key])),
                    ReportField(
                        "then",
                        .object([ReportField("properties", .object(exclusion.keys.map { ReportField($0, empty) }))])),
                ]))
        }
        if let requirement = spec.requirement {
            rules.append(
                .object([ReportField("if", given([spec.key])), ReportField("then", given([requirement.key]))]))
        }
        return rules
    }

    /// What a key does, with the bounds of its value and what it needs or excludes.
    static func description(_ spec: OptionSpec) -> String {
        var text = spec.summary
        if spec.bounds != nil { text += " (\(spec.typeDocumentation))" }
        if let requirement = spec.requirement { text += "; only with `\(requirement.key)`" }
        if let exclusion = spec.exclusion {
            text += "; not with " + exclusion.keys.map { "`\($0)`" }.joined(separator: ", ")
        }
        return text
    }

    /// `minimum` and `maximum` of a number (a quoted number or a reference is checked by `validate` alone).
    static func limits(_ bounds: ClosedRange<Double>?) -> [ReportField] {
        guard let bounds else { return [] }
        // A fractional bound is left to `validate` (reports carry whole numbers only).
        func whole(_ value: Double) -> Int? { value.rounded() == value && abs(value) < 1e15 ? Int(value) : nil }
        return [("minimum", bounds.lowerBound), ("maximum", bounds.upperBound)].compactMap { name, value in
            whole(value).map { ReportField(name, .int($0)) }
        }
    }
}
