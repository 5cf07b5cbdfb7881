extension XMLScanner {
    mutating func scanStartTag() throws(ScanError) {
        let tagStart = index
        index += 1
        let nameStart = index
        guard scanName() else {
            throw ScanError(
                "expected an element name after '<' but found \(found())", at: index,
                hint: "write &lt; for a literal '<'")
        }
        let nameEnd = index
        var tag: String { name(nameStart, nameEnd) }
        if stack.isEmpty {
            if rootSeen {
                throw ScanError("only one root element is allowed; found a second one <\(tag)>", at: tagStart)
            }
            rootSeen = true
        } else {
            stack[stack.count - 1].hasChildren = true
        }
        var attributeNames: [String] = []
        while true {
            let hadSpace = skipWhitespace()
            guard let b = peek else { throw ScanError("start tag <\(tag)> is not closed with '>'", at: tagStart) }
            if b == ASCII.greaterThan {
                index += 1
                stack.append(
                    OpenElement(nameStart: nameStart, nameEnd: nameEnd, tagStart: tagStart, contentStart: index))
                return
            }
            if b == ASCII.slash {
                index += 1
                guard peek == ASCII.greaterThan else {
                    throw ScanError("expected '>' after '/' but found \(found())", at: index)
                }
                index += 1
                return
            }
            let attributeStart = index
            guard hadSpace, scanName() else {
                throw ScanError("expected an attribute, '>' or '/>' in <\(tag)> but found \(found())", at: index)
            }
            let attribute = name(attributeStart, index)
            if attributeNames.contains(attribute) {
                throw ScanError("duplicate attribute '\(attribute)' in <\(tag)>", at: attributeStart)
            }
            attributeNames.append(attribute)
            try scanAttributeValue(attribute)
        }
    }

    private mutating func scanAttributeValue(_ attribute: String) throws(ScanError) {
        skipWhitespace()
        guard peek == ASCII.equals else {
            throw ScanError("expected '=' after attribute '\(attribute)' but found \(found())", at: index)
        }
        index += 1
        skipWhitespace()
        guard let quote = peek, quote == ASCII.quote || quote == ASCII.apostrophe else {
            throw ScanError(
                "value of attribute '\(attribute)' must be in quotes", at: index,
                hint: "write \(attribute)=\"…\"")
        }
        let open = index
        index += 1
        let start = index
        while true {
            guard let b = peek else { throw ScanError("unterminated value of attribute '\(attribute)'", at: open) }
            if b == quote { break }
            if b == ASCII.lessThan {
                throw ScanError("'<' is not allowed in an attribute value", at: index, hint: "write &lt;")
            }
            if b == ASCII.ampersand {
                try scanReference()
                continue
            }
            try checkCharacter(b)
            index += 1
        }
        tokens.append(XMLValueToken(kind: .attribute, start: start, end: index))
        index += 1
    }

    mutating func scanEndTag() throws(ScanError) {
        let tagStart = index
        index += 2
        let nameStart = index
        guard scanName() else {
            throw ScanError("expected an element name after '</' but found \(found())", at: index)
        }
        let nameEnd = index
        var tag: String { name(nameStart, nameEnd) }
        skipWhitespace()
        guard peek == ASCII.greaterThan else {
            throw ScanError("expected '>' to end </\(tag)> but found \(found())", at: index)
        }
        index += 1
        guard let open = stack.last else {
            throw ScanError("closing tag </\(tag)> has no matching start tag", at: tagStart)
        }
        guard bytes[open.nameStart..<open.nameEnd].elementsEqual(bytes[nameStart..<nameEnd]) else {
            let opened = name(open.nameStart, open.nameEnd)
            let position = SourcePosition(offset: open.tagStart, in: bytes)
            throw ScanError(
                "closing tag </\(tag)> does not match <\(opened)> opened at line \(position.line), column \(position.column)",
                at: tagStart, hint: "close <\(opened)> first")
        }
        if !open.hasChildren && !open.hasMarkup {
            tokens.append(XMLValueToken(kind: .text, start: open.contentStart, end: tagStart))
        }
        stack.removeLast()
    }
}
