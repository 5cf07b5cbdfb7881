extension TemplateExpressionParser {
    /// Parses `$(name)`, `$(name, n)`, `.(name, n)`, `%(name)` or `#(name)` starting at the sigil.
    mutating func parseToken(inComposite: Bool) throws(ScanError) -> PropertyReference {
        let sigil = text[index]
        let form = String(UnicodeScalar(sigil))
        if sigil == ASCII.hash && inComposite {
            throw ScanError(
                "'#(...)' is not allowed inside a composite expression", at: index,
                hint: "use $(name) inside {…}; #(name) only works as a whole value")
        }
        index += 1
        guard peek == ASCII.openParen else {
            throw ScanError(
                "expected '(' after '\(form)'", at: index,
                hint: "a value starting with '\(form)' is an expression; write \(form)(name)")
        }
        index += 1
        skipSpaces()
        let name = try parseName(form: form)
        skipSpaces()
        var length: Int?
        var commaOffset = 0
        if peek == ASCII.comma {
            commaOffset = index
            index += 1
            skipSpaces()
            length = try parseLength()
            skipSpaces()
        }
        guard peek == ASCII.closeParen else {
            if peek == nil {
                throw ScanError("missing ')' to close '\(form)('", at: index)
            }
            let expected = length == nil ? "',' or ')'" : "')'"
            throw ScanError(
                "expected \(expected) after \(length == nil ? "'\(name)'" : "the length") but found \(found())",
                at: index)
        }
        let shape = try transform(sigil, form, length, commaOffset)
        index += 1
        return PropertyReference(name: name, transform: shape)
    }

    private func transform(
        _ sigil: UInt8, _ form: String, _ length: Int?,
        _ commaOffset: Int
    ) throws(ScanError) -> ValueTransform {
        switch sigil {
        case ASCII.dot:
            guard let length else {
                throw ScanError(
                    "'.(…)' needs a length: write .(name, n)", at: index,
                    hint: "n is the maximum length including the three dots")
            }
            return .ellipsis(length)
        case ASCII.dollar:
            return length.map(ValueTransform.prefix) ?? .whole
        default:
            if length != nil {
                throw ScanError(
                    "'\(form)(…)' does not take a length", at: commaOffset,
                    hint: "remove ', n'; only $(…) and .(…) can be shortened")
            }
            return sigil == ASCII.percent ? .percentEncoded : .whole
        }
    }

    private mutating func parseName(form: String) throws(ScanError) -> String {
        let start = index
        while let b = peek, ASCII.isLetter(b) || ASCII.isDigit(b) || b == ASCII.underscore { index += 1 }
        let hint = "property names may contain only ASCII letters, digits and '_'"
        if index == start {
            if peek == ASCII.closeParen || peek == ASCII.comma || peek == nil {
                throw ScanError("expected a property name after '\(form)('", at: index)
            }
            throw ScanError("unexpected \(found()) in property name", at: index, hint: hint)
        }
        if index - start > Self.maxNameLength {
            throw ScanError(
                "property name is longer than \(Self.maxNameLength) characters",
                at: start + Self.maxNameLength)
        }
        let name = String(decoding: text[start..<index], as: UTF8.self)
        guard let b = peek, b != ASCII.closeParen, b != ASCII.comma, !ASCII.isWhitespace(b) else { return name }
        if b == ASCII.colon {
            throw ScanError(
                "default values ('\(name):{…}') are not supported", at: index,
                hint: "the NH validator accepts them but it is not confirmed the service applies them")
        }
        throw ScanError("unexpected \(found()) in property name", at: index, hint: hint)
    }

    private mutating func parseLength() throws(ScanError) -> Int {
        let start = index
        var value = 0
        while let b = peek, ASCII.isDigit(b) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(b - ASCII.zero))
            if overflow1 || overflow2 { throw ScanError("length is too large", at: start) }
            value = sum
            index += 1
        }
        if index == start {
            throw ScanError("expected a length (a whole number ≥ 0) after ',' but found \(found())", at: index)
        }
        return value
    }
}
