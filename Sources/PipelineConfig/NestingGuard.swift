import PipelineCore

/// Rejects absurdly deep nesting before the YAML parser sees it.
///
/// The parser builds nodes recursively, so 100,000 nested `[` would overflow the stack and crash
/// instead of producing a diagnostic. The scan follows just enough YAML to count levels: flow
/// brackets outside quoted scalars and comments, and block levels from indentation and compact
/// `- `/`? ` indicators. It may over-count inside block scalars, which is harmless at this limit.
///
/// It reads UTF-8 bytes, not Characters: every byte it looks for is ASCII, which never occurs inside
/// a multi-byte sequence, and it runs on every file `validate` loads, so grapheme breaking was most of
/// its cost.
enum NestingGuard {
    /// The location of the first place nesting exceeds `limit`, if any.
    static func firstViolation(in text: String, limit: Int, file: String) -> SourceLocation? {
        var scanner = Scanner(limit: limit)
        for (offset, line) in text.lines.enumerated() {
            var line = line
            let byteColumn = line.withUTF8 { scanner.scan($0) }
            if let byteColumn {
                // Columns count characters, as everywhere in diagnostics.
                let prefix = line.utf8.prefix(byteColumn - 1)
                let column = Substring(decoding: prefix, as: UTF8.self).count + 1
                return SourceLocation(file: file, line: offset + 1, column: column)
            }
        }
        return nil
    }

    private struct Scanner {
        let limit: Int
        var flowDepth = 0
        var quote: UInt8?
        var indents: [Int] = []

        private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        private static let singleQuote = UInt8(ascii: "'"), doubleQuote = UInt8(ascii: "\"")

        /// Scans one line; returns the 1-based byte column where the limit is exceeded.
        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            if quote == nil, flowDepth == 0, let column = blockLevels(bytes) { return column }
            var previous: UInt8?
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if open == Self.doubleQuote, byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == open {
                        if open == Self.singleQuote, index + 1 < bytes.count, bytes[index + 1] == Self.singleQuote {
                            index += 2
                            continue
                        }
                        quote = nil
                    }
                    previous = byte
                    index += 1
                    continue
                }
                // Quotes and flow brackets only mean something where a value starts; `don't` is plain text.
                let atTokenStart = previous.map { Self.startsToken(after: $0) } ?? true
                switch byte {
                case UInt8(ascii: "#"):
                    if previous == nil || previous == Self.space || previous == Self.tab { return nil }
                case Self.singleQuote, Self.doubleQuote:
                    if atTokenStart { quote = byte }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if atTokenStart || flowDepth > 0 {
                        flowDepth += 1
                        if flowDepth > limit { return index + 1 }
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if flowDepth > 0 { flowDepth -= 1 }
                default:
                    break
                }
                previous = byte
                index += 1
            }
            return nil
        }

        /// Whether a token can start right after `byte`: after blanks and the flow and block indicators.
        private static func startsToken(after byte: UInt8) -> Bool {
            switch byte {
            case space, tab, UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","), UInt8(ascii: ":"),
                UInt8(ascii: "-"), UInt8(ascii: "?"):
                true
            default:
                false
            }
        }

        /// Block nesting: one level per deeper indentation, plus one per compact `- `/`? ` indicator.
        private mutating func blockLevels(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            let indent = bytes.prefix { $0 == Self.space }.count
            guard indent < bytes.count, bytes[indent] != UInt8(ascii: "#") else { return nil }
            while let last = indents.last, last >= indent { indents.removeLast() }
            indents.append(indent)
            var depth = indents.count
            var index = indent
            while index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "?"),
                bytes[index + 1] == Self.space
            {
                depth += 1
                index += 2
                while index < bytes.count, bytes[index] == Self.space { index += 1 }
                if depth > limit { return index + 1 }
            }
            return depth > limit ? indent + 1 : nil
        }
    }
}
