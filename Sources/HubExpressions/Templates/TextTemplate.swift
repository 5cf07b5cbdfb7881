/// A line of text with `$(name)` references, as `for-each` fields use them: each reference takes a
/// row's value; everything else is literal and nothing is escaped (the caller puts the result where
/// it belongs: a tag expression, a property value, a device handle).
///
/// References use the template language's forms (docs §7.2): `$(name)`, `$(name, n)`, `.(name, n)`
/// and `%(name)`. Only a sigil followed by `(` starts one, so NH's own `$UserId:{…}` and
/// `$InstallationId:{…}` tag forms stay literal: `$UserId:{$(userId)}` is a user-id tag per row.
public struct TextTemplate: Sendable, Equatable {
    /// The text as written.
    public let source: String
    let program: TemplateProgram

    /// Referenced names as first written, de-duplicated case-insensitively, in order of first use.
    public var propertyNames: [String] { program.propertyNames }

    /// Compiles `source`; a malformed reference is an error located in it.
    public init(compiling source: String) throws(TemplateError) {
        let bytes = Array(source.utf8)
        var segments: [TemplateSegment] = []
        var references: [PropertyReference] = []
        var literalStart = 0
        var index = 0
        while index < bytes.count {
            let b = bytes[index]
            guard b == ASCII.dollar || b == ASCII.dot || b == ASCII.percent, index + 1 < bytes.count,
                bytes[index + 1] == ASCII.openParen
            else {
                index += 1
                continue
            }
            if literalStart < index {
                segments.append(.literal(String(decoding: bytes[literalStart..<index], as: UTF8.self)))
            }
            var parser = TemplateExpressionParser(text: bytes, index: index)
            let reference: PropertyReference
            do { reference = try parser.parseToken(inComposite: true) } catch { throw TemplateError(error, in: bytes) }
            segments.append(.value(reference, .plain))
            references.append(reference)
            index = parser.index
            literalStart = index
        }
        if literalStart < bytes.count {
            segments.append(.literal(String(decoding: bytes[literalStart...], as: UTF8.self)))
        }
        self.source = source
        program = TemplateProgram(segments: segments, references: references)
    }

    /// True when the text references nothing (it renders as itself).
    public var isConstant: Bool { propertyNames.isEmpty }

    /// The text with each reference replaced by its value; a missing value renders as empty text.
    public func render(_ properties: TemplateProperties) -> String {
        program.render(properties, numbers: .plain)
    }
}
