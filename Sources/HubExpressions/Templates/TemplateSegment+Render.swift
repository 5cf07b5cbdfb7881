extension TemplateSegment {
    /// How a `#(…)` segment renders: in a JSON template a bare number loses its quotes; in plain text
    /// (a `for-each` field) the value is written as is.
    enum NumberStyle {
        case json
        case plain
    }

    /// Renders `segments` with `properties` in one allocation.
    ///
    /// A first pass adds the literal bytes to each value's worst-case escaped size; the second writes
    /// into a string of that capacity. Looking each value up twice costs less than growing a String.
    static func render(
        _ segments: [TemplateSegment], literalBytes: Int, properties: TemplateProperties,
        numbers: NumberStyle
    ) -> String {
        var bound = literalBytes
        for segment in segments {
            switch segment {
            case .literal:
                continue
            case .value(let reference, let context):
                let value = properties.value(forFoldedKey: reference.key) ?? ""
                bound += OutputEscaping.bound(value, shaped: reference.transform, in: context)
            case .jsonNumber(let reference):
                // Quoted and JSON-escaped at worst.
                bound += (properties.value(forFoldedKey: reference.key)?.utf8.count ?? 0) * 6 + 2
            }
        }
        return RenderBuffer.string(bound: bound) { out in
            for segment in segments {
                switch segment {
                case .literal(let text):
                    out.append(text)
                case .value(let reference, let context):
                    let value = properties.value(forFoldedKey: reference.key) ?? ""
                    OutputEscaping.append(value, shaped: reference.transform, in: context, to: &out)
                case .jsonNumber(let reference):
                    let value = properties.value(forFoldedKey: reference.key) ?? ""
                    if numbers == .plain || OutputEscaping.isBareNumber(value) {
                        out.append(value)
                    } else {
                        out.append(ASCII.quote)
                        OutputEscaping.append(value[...], in: .jsonString, to: &out)
                        out.append(ASCII.quote)
                    }
                }
            }
        }
    }

    /// The bytes of every literal segment: the fixed part of a render's size.
    static func literalBytes(of segments: [TemplateSegment]) -> Int {
        segments.reduce(0) { total, segment in
            if case .literal(let text) = segment { total + text.utf8.count } else { total }
        }
    }
}
