extension XMLTree {
    /// Parses a whole document: optional BOM, XML declaration, comments and processing instructions around one
    /// root element. DTDs are refused rather than skipped, so no entity expansion can happen.
    static func parse(_ text: String) throws(XMLSyntaxError) -> XMLTree {
        try parse(Array(text.utf8))
    }

    /// Parses UTF-8 bytes; `sourceRange`s index into `bytes`.
    static func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLTree {
        var parser = XMLTreeParser(bytes: bytes)
        return try parser.parseDocument()
    }
}

/// A small recursive-descent parser over UTF-8 bytes. It checks what the documents here need (tags nest and
/// match, attributes are quoted, nothing trails the root) and nothing more.
private struct XMLTreeParser {
    static let maxDepth = 64

    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(XMLSyntaxError) -> XMLTree {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try skipMisc()
        guard index < bytes.count else { throw error("the document has no root element") }
        guard bytes[index] == UInt8(ascii: "<") else { throw error("expected '<' to start the root element") }
        let root = try parseElement(depth: 0)
        try skipMisc()
        guard index == bytes.count else { throw error("unexpected content after the root element </\(root.name)>") }
        return root
    }

    /// Skips whitespace, comments and processing instructions between top-level items.
    private mutating func skipMisc() throws(XMLSyntaxError) {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<!") {
                throw error("DTDs and other markup declarations are not supported")
            } else {
                return
            }
        }
    }

    private mutating func parseElement(depth: Int) throws(XMLSyntaxError) -> XMLTree {
        guard depth < Self.maxDepth else { throw error("elements are nested more than \(Self.maxDepth) deep") }
        let start = index
        index += 1
        let name = readName()
        guard !name.isEmpty else { throw error("expected an element name after '<'") }
        var attributes: [XMLTree.Attribute] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("the start tag <\(name)> is not closed") }
            if starts(with: "/>") {
                index += 2
                return XMLTree(name: name, attributes: attributes, children: [], text: "", sourceRange: start..<index)
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            attributes.append(try parseAttribute(in: name))
        }
        var children: [XMLTree] = []
        var text = XMLTextCollector()
        while true {
            guard index < bytes.count else { throw error("<\(name)> is never closed") }
            guard bytes[index] == UInt8(ascii: "<") else {
                let textStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                text.append(XMLText.unescape(string(textStart..<index)), isCDATA: false)
                continue
            }
            if starts(with: "</") {
                index += 2
                let endName = readName()
                skipWhitespace()
                guard endName == name, index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw error("expected </\(name)> but found </\(endName)>")
                }
                index += 1
                return XMLTree(
                    name: name, attributes: attributes, children: children, text: text.result,
                    sourceRange: start..<index)
            } else if starts(with: "<![CDATA[") {
                let contentStart = index + 9
                try skip(past: "]]>", what: "CDATA section")
                text.append(string(contentStart..<(index - 3)), isCDATA: true)
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!") {
                throw error("markup declarations are not allowed inside <\(name)>")
            } else {
                children.append(try parseElement(depth: depth + 1))
            }
        }
    }

    private mutating func parseAttribute(in element: String) throws(XMLSyntaxError) -> XMLTree.Attribute {
        let name = readName()
        guard !name.isEmpty else { throw error("unexpected character in the start tag <\(element)>") }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw error("attribute \(name) of <\(element)> has no '=' and value")
        }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw error("the value of attribute \(name) must be in quotes")
        }
        let quote = bytes[index]
        let valueStart = index + 1
        guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else {
            throw error("the value of attribute \(name) is not closed")
        }
        index = valueEnd + 1
        return XMLTree.Attribute(name: name, value: XMLText.unescape(string(valueStart..<valueEnd)))
    }

    /// Reads up to whitespace or a delimiter; names are not checked further.
    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
                UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "="),
                UInt8(ascii: "\""), UInt8(ascii: "'"):
                return string(start..<index)
            default:
                index += 1
            }
        }
        return string(start..<index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    private mutating func skip(past terminator: String, what: String) throws(XMLSyntaxError) {
        let pattern = Array(terminator.utf8)
        var probe = index
        while probe + pattern.count <= bytes.count {
            if bytes[probe] == pattern[0], bytes[probe..<(probe + pattern.count)].elementsEqual(pattern) {
                index = probe + pattern.count
                return
            }
            probe += 1
        }
        throw error("a \(what) is not closed with '\(terminator)'")
    }

    private func starts(with prefix: String) -> Bool {
        bytes[index...].starts(with: prefix.utf8)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func error(_ message: String) -> XMLSyntaxError {
        let consumed = bytes[..<min(index, bytes.count)]
        let line = consumed.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let lineStart = consumed.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column = String(decoding: consumed[lineStart...], as: UTF8.self).count + 1
        return XMLSyntaxError(message: "line \(line), column \(column): \(message)")
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): true
        default: false
        }
    }
}
