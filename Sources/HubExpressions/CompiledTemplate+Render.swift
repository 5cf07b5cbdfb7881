extension CompiledTemplate {
    /// Renders the template with `properties`. Missing properties render as empty text.
    ///
    /// Only appends precomputed literals and escaped values: this runs once per device in a
    /// batch send, so it must stay free of parsing, Foundation and regular expressions.
    public func render(_ properties: TemplateProperties) -> String {
        var out = String()
        out.reserveCapacity(capacityHint)
        for segment in segments {
            switch segment {
            case .literal(let text):
                out.append(text)
            case .value(let reference, let context):
                let value = properties.value(forFoldedKey: reference.key) ?? ""
                OutputEscaping.append(value, shaped: reference.transform, in: context, to: &out)
            case .jsonNumber(let reference):
                let value = properties.value(forFoldedKey: reference.key) ?? ""
                if OutputEscaping.isBareNumber(value) {
                    out.append(value)
                } else {
                    out.append("\"")
                    OutputEscaping.appendJSON(value[...], to: &out)
                    out.append("\"")
                }
            }
        }
        return out
    }
}
