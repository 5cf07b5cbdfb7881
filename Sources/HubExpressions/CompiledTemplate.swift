/// An NH template compiled once and rendered many times (docs §7).
///
/// Compiling validates the template and the expressions in it and reduces it to a list of
/// literal chunks and value operations, so ``render(_:)`` does no parsing at all.
public struct CompiledTemplate: Sendable {
    /// JSON or XML, chosen from the first non-whitespace character of the source.
    public let format: TemplateFormat
    /// The template text as given.
    public let source: String
    /// Referenced property names as first written, de-duplicated case-insensitively, in order of first use.
    public let propertyNames: [String]
    let segments: [TemplateSegment]
    /// The bytes of all literal segments: the fixed part of every render's size.
    let literalBytes: Int

    /// Compiles `source`: `<` starts XML, `{` or `[` starts JSON; anything else is an error.
    public init(compiling source: String) throws(TemplateError) {
        let bytes = Array(source.utf8)
        guard let first = bytes.firstIndex(where: { !ASCII.isWhitespace($0) }) else {
            throw TemplateError(message: "template is empty", line: 1, column: 1,
                                hint: "a template is a JSON object or an XML document")
        }
        let output: TemplateCompiler.Output
        switch bytes[first] {
        case ASCII.lessThan:
            format = .xml
            output = try TemplateCompiler.compileXML(bytes)
        case ASCII.openBrace, ASCII.openBracket:
            format = .json
            output = try TemplateCompiler.compileJSON(bytes)
        default:
            throw TemplateError(ScanError("template must start with '{' or '[' (JSON) or '<' (XML) but starts with \(ASCII.describeCharacter(at: first, in: bytes))",
                                          at: first), in: bytes)
        }
        self.source = source
        self.segments = output.segments
        self.propertyNames = Self.uniqueNames(output.references)
        self.literalBytes = TemplateSegment.literalBytes(of: segments)
    }

    private static func uniqueNames(_ references: [PropertyReference]) -> [String] {
        var seen = Set<String>()
        return references.compactMap { seen.insert($0.key).inserted ? $0.name : nil }
    }
}
