extension CompiledTemplate {
    /// Renders the template with `properties`. Missing properties render as empty text.
    ///
    /// Only copies precomputed literals and escaped values into one allocation: this runs once per
    /// device in a batch send, so it must stay free of parsing, Foundation and regular expressions.
    public func render(_ properties: TemplateProperties) -> String {
        program.render(properties, numbers: .json)
    }
}
