/// An NH template compiled once and rendered many times (docs §7).
///
/// Compiling validates the template and the expressions in it and reduces it to a list of
/// literal chunks and value operations, so ``render(_:)`` does no parsing at all.
public struct CompiledTemplate: Sendable {
    /// JSON or XML, chosen from the first non-whitespace character of the source.
    public let format: TemplateFormat
    /// The template text as given.
    public let source: String
    let program: TemplateProgram

    /// Referenced property names as first written, de-duplicated case-insensitively, in order of first use.
    public var propertyNames: [String] { program.propertyNames }

    /// Compiles `source`: `<` starts XML, `{` or `[` starts JSON; anything else is an error.
    public init(compiling source: String) throws(TemplateError) {
        let bytes = Array(source.utf8)
        guard let first = bytes.firstIndex(where: { !ASCII.isWhitespace($0) }) else {
            throw TemplateError(
                message: "template is empty", line: 1, column: 1,
                hint: "a template is a JSON object or an XML document")
        }
        let compiled: TemplateProgram
        switch bytes[first] {
        case ASCII.lessThan:
            format = .xml
            compiled = try TemplateCompiler.compileXML(bytes)
        case ASCII.openBrace, ASCII.openBracket:
            format = .json
            compiled = try TemplateCompiler.compileJSON(bytes)
        default:
            throw TemplateError(
                ScanError(
                    "template must start with '{' or '[' (JSON) or '<' (XML) but starts with \(ASCII.describeCharacter(at: first, in: bytes))",
                    at: first), in: bytes)
        }
        self.source = source
        program = compiled
    }
}
