extension XMLScanner {
    /// A comment or PI inside an element means its text is not "the whole text of a leaf".
    private mutating func markParentHasMarkup() {
        if !stack.isEmpty { stack[stack.count - 1].hasMarkup = true }
    }

    mutating func scanComment() throws(ScanError) {
        let start = index
        index += 4
        try skip(through: "-->", opened: start, what: "comment", forbidding: "--")
        markParentHasMarkup()
    }

    mutating func scanCDATA() throws(ScanError) {
        let start = index
        index += 9
        try skip(through: "]]>", opened: start, what: "CDATA section")
    }

    mutating func scanProcessingInstruction() throws(ScanError) {
        let start = index
        index += 2
        let nameStart = index
        guard scanName() else {
            throw ScanError("expected a name after '<?' but found \(found())", at: index)
        }
        if ASCII.lowercased(name(nameStart, index)) == "xml" && start != 0 {
            throw ScanError("the XML declaration must be at the very start of the document", at: start)
        }
        try skip(through: "?>", opened: start, what: "processing instruction")
        markParentHasMarkup()
    }

    /// Moves past `end`, checking every character before it: the body of a comment, CDATA section or processing
    /// instruction opened at `start`. `forbidden` (a comment's `--`) may appear only as the start of `end`.
    private mutating func skip(
        through end: StaticString, opened start: Int, what: String,
        forbidding forbidden: StaticString? = nil
    ) throws(ScanError) {
        while index < bytes.count {
            if hasPrefix(end, at: index) {
                index += end.utf8CodeUnitCount
                return
            }
            if let forbidden, hasPrefix(forbidden, at: index) {
                throw ScanError("'\(forbidden)' is not allowed inside a \(what)", at: index)
            }
            try checkCharacter(bytes[index])
            index += 1
        }
        throw ScanError("unterminated \(what): missing '\(end)'", at: start)
    }

    /// Validates `&name;`, `&#123;` or `&#x7B;` at the current `&`.
    mutating func scanReference() throws(ScanError) {
        let start = index
        index += 1
        if peek == ASCII.hash {
            index += 1
            try scanCharacterReference(start: start)
            return
        }
        let nameStart = index
        let hint = "write &amp; for a literal '&'"
        guard scanName(), peek == ASCII.semicolon else {
            throw ScanError("'&' must start a reference such as &amp;", at: start, hint: hint)
        }
        let entity = name(nameStart, index)
        guard XMLEntities.predefined[entity] != nil else {
            throw ScanError(
                "unknown entity '&\(entity);'", at: start,
                hint:
                    "XML predefines only &lt; &gt; &amp; &quot; &apos;; use a numeric reference such as &#233; for other characters"
            )
        }
        index += 1
    }

    private mutating func scanCharacterReference(start: Int) throws(ScanError) {
        let isHex = peek == 0x78
        if isHex { index += 1 }
        let digitsStart = index
        var value: UInt32 = 0
        while let b = peek, isHex ? ASCII.isHexDigit(b) : ASCII.isDigit(b) {
            value = min(value * (isHex ? 16 : 10) + ASCII.hexValue(b), 0x110000)
            index += 1
        }
        guard index > digitsStart, peek == ASCII.semicolon else {
            throw ScanError("invalid character reference", at: start, hint: "write &#233; or &#xE9;")
        }
        index += 1
        guard XMLEntities.isAllowedCharacter(value) else {
            throw ScanError("character reference '\(name(start, index))' is not a legal XML character", at: start)
        }
    }
}
