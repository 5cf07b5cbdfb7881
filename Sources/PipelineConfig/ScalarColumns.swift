/// Maps a column inside a scalar's text back to the column in the YAML source line.
///
/// Quoted scalars spell some characters with more than one source character (`''` in single
/// quotes, `\"` or `\u00e9` in double quotes), so a caret placed by text position alone drifts.
enum ScalarColumns {
    /// The source column of the `textColumn`-th character of a flow scalar that starts at
    /// `startColumn` on `line` (at its opening quote, if quoted).
    static func sourceColumn(forTextColumn textColumn: Int, line: Substring, startColumn: Int) -> Int {
        let characters = Array(line)
        var index = startColumn - 1
        guard index >= 0, index < characters.count else { return startColumn + textColumn - 1 }
        let quote: Character? = characters[index] == "'" || characters[index] == "\"" ? characters[index] : nil
        if quote != nil { index += 1 }
        var remaining = textColumn - 1
        while remaining > 0, index < characters.count {
            index += sourceLength(at: index, in: characters, quote: quote)
            remaining -= 1
        }
        return index + 1 + remaining
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
