/// A small, strict XML 1.0 well-formedness scanner over UTF-8 bytes.
///
/// It checks what matters for push payloads (matching tags, one root, quoted and unique
/// attributes, valid references, legal characters) and records attribute values and leaf texts.
/// It is iterative so that deep nesting cannot overflow the stack. DOCTYPE is rejected: no
/// notification payload needs one, and it would bring entity definitions with it.
struct XMLScanner {
    struct OpenElement {
        let nameStart: Int
        let nameEnd: Int
        let tagStart: Int
        let contentStart: Int
        var hasChildren = false
        var hasMarkup = false
    }

    let bytes: [UInt8]
    var index = 0
    var tokens: [XMLValueToken] = []
    var stack: [OpenElement] = []
    var rootSeen = false

    /// Scans a whole document and returns its attribute values and leaf texts in source order.
    static func scan(_ bytes: [UInt8]) throws(ScanError) -> [XMLValueToken] {
        var scanner = XMLScanner(bytes: bytes)
        try scanner.scanDocument()
        return scanner.tokens
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func found() -> String { ASCII.describeCharacter(at: index, in: bytes) }

    func hasPrefix(_ prefix: StaticString, at offset: Int) -> Bool {
        prefix.withUTF8Buffer { p in
            offset + p.count <= bytes.count && p.indices.allSatisfy { bytes[offset + $0] == p[$0] }
        }
    }

    func name(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }

    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while let b = peek, ASCII.isWhitespace(b) { index += 1 }
        return index > start
    }

    /// Consumes an XML name; returns `false` (consuming nothing) when none starts here.
    mutating func scanName() -> Bool {
        guard let first = peek,
            first >= 0x80 || ASCII.isLetter(first) || first == ASCII.underscore || first == ASCII.colon
        else { return false }
        index += 1
        while let b = peek,
            b >= 0x80 || ASCII.isLetter(b) || ASCII.isDigit(b)
                || b == ASCII.underscore || b == ASCII.colon || b == ASCII.minus || b == ASCII.dot
        {
            index += 1
        }
        return true
    }

    mutating func scanDocument() throws(ScanError) {
        while index < bytes.count {
            if bytes[index] == ASCII.lessThan {
                try scanMarkup()
            } else {
                try scanText()
            }
        }
        if let open = stack.last {
            let tag = name(open.nameStart, open.nameEnd)
            throw ScanError("element <\(tag)> is never closed", at: open.tagStart, hint: "add </\(tag)>")
        }
        if !rootSeen { throw ScanError("the document has no root element", at: index) }
    }

    private mutating func scanMarkup() throws(ScanError) {
        // Dispatch on the byte after '<' first: most markup is tags, which need no prefix checks.
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if next == ASCII.slash {
            try scanEndTag()
        } else if next == ASCII.question {
            try scanProcessingInstruction()
        } else if next != ASCII.exclamation {
            try scanStartTag()
        } else if hasPrefix("<!--", at: index) {
            try scanComment()
        } else if hasPrefix("<![CDATA[", at: index) {
            guard !stack.isEmpty else { throw ScanError("CDATA section outside the root element", at: index) }
            try scanCDATA()
        } else {
            throw ScanError("<!DOCTYPE> and other declarations are not supported", at: index)
        }
    }

    /// Character data between markup; outside the root only whitespace is allowed.
    private mutating func scanText() throws(ScanError) {
        while let b = peek, b != ASCII.lessThan {
            if stack.isEmpty && !ASCII.isWhitespace(b) {
                let side = rootSeen ? "after" : "before"
                throw ScanError("unexpected text \(side) the root element", at: index)
            }
            if b == ASCII.ampersand {
                try scanReference()
                continue
            }
            if b == ASCII.closeBracket && hasPrefix("]]>", at: index) {
                throw ScanError("']]>' is not allowed in text", at: index, hint: "write ]]&gt;")
            }
            try checkCharacter(b)
            index += 1
        }
    }

    /// XML 1.0 forbids control characters other than tab, line feed and carriage return.
    func checkCharacter(_ b: UInt8) throws(ScanError) {
        if b < 0x20 && b != ASCII.tab && b != ASCII.lineFeed && b != ASCII.carriageReturn {
            throw ScanError("character \(ASCII.describe(b)) is not allowed in XML", at: index)
        }
    }
}
