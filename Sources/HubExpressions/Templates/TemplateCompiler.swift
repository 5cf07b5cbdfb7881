/// Turns template source into segments: the source is copied verbatim except where a whole
/// string value (JSON) or attribute value / leaf text (XML) is an expression (docs §7.1).
enum TemplateCompiler {
    static func compileJSON(_ source: [UInt8]) throws(TemplateError) -> TemplateProgram {
        let strings: [JSONStringToken]
        do {
            strings = try JSONScanner.scan(source)
        } catch {
            throw TemplateError(error, in: source, prefix: "template is not valid JSON: ")
        }
        var builder = SegmentBuilder(source: source)
        var cursor = 0
        for token in strings where !token.isKey && couldBeExpression(source, token) {
            let text = JSONStringDecoder.decode(source, token)
            guard let expression = try parse(text, in: source) else { continue }
            // Replace the whole string token, quotes included: #(…) may drop them.
            builder.copySource(cursor, token.start - 1)
            if case .number = expression {
                builder.expression(expression, .jsonString)
            } else {
                builder.literal("\"")
                builder.expression(expression, .jsonString)
                builder.literal("\"")
            }
            cursor = token.end + 1
        }
        builder.copySource(cursor, source.count)
        return TemplateProgram(segments: builder.finish(), references: builder.references)
    }

    static func compileXML(_ source: [UInt8]) throws(TemplateError) -> TemplateProgram {
        let values: [XMLValueToken]
        do {
            values = try XMLScanner.scan(source)
        } catch {
            throw TemplateError(error, in: source, prefix: "template is not well-formed XML: ")
        }
        var builder = SegmentBuilder(source: source)
        var cursor = 0
        for token in values where token.start < token.end {
            let text = XMLEntities.decode(source, from: token.start, to: token.end)
            guard let expression = try parse(text, in: source) else { continue }
            builder.copySource(cursor, token.start)
            builder.expression(expression, token.kind == .attribute ? .xmlAttribute : .xmlText)
            cursor = token.end
        }
        builder.copySource(cursor, source.count)
        return TemplateProgram(segments: builder.finish(), references: builder.references)
    }

    /// Cheap pre-check that avoids decoding the many plain strings; an escape may hide a `$`.
    private static func couldBeExpression(_ source: [UInt8], _ token: JSONStringToken) -> Bool {
        guard token.start < token.end else { return false }
        let first = source[token.start]
        return first == ASCII.backslash || TemplateExpression.isExpression(startingWith: first)
    }

    /// Parses decoded text when its first character makes it an expression; `nil` for a literal.
    private static func parse(_ text: DecodedText, in source: [UInt8]) throws(TemplateError) -> TemplateExpression? {
        guard TemplateExpression.isExpression(startingWith: text.bytes.first) else { return nil }
        do {
            return try TemplateExpressionParser.parse(text.bytes)
        } catch {
            let offset = text.sourceOffsets[min(error.offset, text.sourceOffsets.count - 1)]
            throw TemplateError(ScanError(error.message, at: offset, hint: error.hint), in: source)
        }
    }
}
