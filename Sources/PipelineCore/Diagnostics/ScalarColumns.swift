/// Maps a column inside a scalar's text back to the column in the YAML source line.
///
/// Quoted scalars spell some characters with more than one source character (`''` in single
/// quotes, `\"` or `\u00e9` in double quotes), so a caret placed by text position alone drifts.
/// Text columns count Characters (as the expression parsers do); source columns count Unicode
/// scalars (as libyaml and the caret printer do).
package enum ScalarColumns {
    /// The source column of the `textColumn`-th character of a flow scalar that starts at
    /// `startColumn` on `line`, or nil when that character is not on this line (multi-line scalars).
    package static func sourceColumn(forTextColumn textColumn: Int, line: Substring, startColumn: Int) -> Int? {
        let characters = Array(line)
        var scalarColumn = 1
        var index = 0
        while index < characters.count, scalarColumn < startColumn {
            scalarColumn += characters[index].unicodeScalars.count
            index += 1
        }
        guard index < characters.count, scalarColumn == startColumn else { return nil }
        let quote: Character? = characters[index] == "'" || characters[index] == "\"" ? characters[index] : nil
        if quote != nil {
            scalarColumn += 1
            index += 1
        }
        for _ in 1..<max(1, textColumn) {
            guard index < characters.count else { return nil }
            let length = sourceLength(at: index, in: characters, quote: quote)
            for offset in 0..<length where index + offset < characters.count {
                scalarColumn += characters[index + offset].unicodeScalars.count
            }
            index += length
        }
        // One past the last character is a fair place for "missing ')'" at the end of a plain scalar.
        return index <= characters.count ? scalarColumn : nil
    }

    /// How many source characters spell the next text character.
    private static func sourceLength(at index: Int, in characters: [Character], quote: Character?) -> Int {
        let character = characters[index]
        switch quote {
        case "'" where character == "'" && index + 1 < characters.count && characters[index + 1] == "'":
            return 2
        case "\"" where character == "\\" && index + 1 < characters.count:
            switch characters[index + 1] {
            case "x": return 4
            case "u": return 6
            case "U": return 10
            default: return 2
            }
        default:
            return 1
        }
    }
}

/// Where a place inside a scalar's text is in the file: the same line for a one-line flow scalar, the following lines
/// (at the block's indentation) for a literal block (`|`, `|-`, `|+`). Folded (`>`) and explicitly indented (`|2`)
/// blocks and multi-line flow scalars do not map line for line; for those there is no place finer than the scalar.
package enum ScalarPlace {
    /// The file location of `line`:`column` (1-based, in Characters) of `text`, the scalar at `start`, reading the
    /// file's lines through `sourceLine` (1-based); nil when it cannot be mapped.
    package static func location(
        line: Int, column: Int, text: String, at start: SourceLocation,
        sourceLine: (Int) -> Substring?
    ) -> SourceLocation? {
        guard let first = sourceLine(start.line) else { return nil }
        guard text.contains("\n") else {
            guard line == 1,
                let mapped = ScalarColumns.sourceColumn(forTextColumn: column, line: first, startColumn: start.column)
            else { return nil }
            return SourceLocation(file: start.file, line: start.line, column: mapped)
        }
        guard isPlainLiteralBlock(first, column: start.column), let content = sourceLine(start.line + line) else {
            return nil
        }
        // Every content line is indented at least as far as the block's first (leading blank lines aside).
        let indentation =
            (1...line).compactMap { sourceLine(start.line + $0) }
            .first { !$0.allSatisfy(\.isWhitespace) }?.prefix { $0 == " " }.count ?? content.prefix { $0 == " " }.count
        return SourceLocation(file: start.file, line: start.line + line, column: indentation + column)
    }

    /// True when the scalar that starts at `column` of `line` is introduced by `|`, `|-` or `|+` (no indentation digit).
    static func isPlainLiteralBlock(_ line: Substring, column: Int) -> Bool {
        let rest = line.unicodeScalars.dropFirst(column - 1)
        guard rest.first == "|" else { return false }
        return !rest.dropFirst().prefix(2).contains { $0.properties.numericType != nil }
    }
}
