import Foundation

/// How `RunStore.find` matches an item's target: the text as a whole word.
package enum TargetWords {
    /// True when `word` occurs in `text` with no letter, digit, `_`, `-` or `.` right before or after it
    /// (`u0203` is in `$UserId:{u0203}`, not in `u02031`).
    package static func holds(_ text: String, _ word: String) -> Bool {
        let isPart = { (character: Character) in character.isLetter || character.isNumber || "_-.".contains(character) }
        var searched = text[...]
        while let range = searched.range(of: word) {
            let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
            let after = range.upperBound < text.endIndex ? text[range.upperBound] : nil
            if !(before.map(isPart) ?? false), !(after.map(isPart) ?? false) { return true }
            searched = text[text.index(after: range.lowerBound)...]
        }
        return false
    }
}
