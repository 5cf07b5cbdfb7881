extension FixIt {
    /// `text` with `fixes` applied, and the fixes that did not apply (the text at their place is not what they
    /// replace: the file changed since it was read). Places are lines and columns of `text` as it is, so the edits
    /// are made from the end of the text back. A fix may replace text across lines (its `replacing` holds line
    /// breaks): the lines it spans must read exactly so.
    public static func apply(_ fixes: [FixIt], to text: String) -> (text: String, skipped: [FixIt]) {
        let (fixed, skipped) = apply(groups: fixes.map { [$0] }, to: text)
        return (fixed, skipped.flatMap { $0 })
    }

    /// `text` with every group of `groups` applied whose every fix applies, and the groups that did not: the edits of
    /// one change (a step split in two) are made all together or not at all.
    public static func apply(groups: [[FixIt]], to text: String) -> (text: String, skipped: [[FixIt]]) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Array(String($0).unicodeScalars)
        }
        let applying = groups.filter { group in group.allSatisfy { matches($0, in: lines) } }
        let skipped = groups.filter { group in !group.allSatisfy { matches($0, in: lines) } }
        let ordered = applying.flatMap { $0 }.sorted {
            ($0.location.line, $0.location.column) > ($1.location.line, $1.location.column)
        }
        for fix in ordered where matches(fix, in: lines) {
            let line = fix.location.line - 1
            let start = fix.location.column - 1
            let old = fix.replacing.split(separator: "\n", omittingEmptySubsequences: false).map {
                Array(String($0).unicodeScalars)
            }
            let last = line + old.count - 1
            let before = Array(lines[line][..<start])
            let after = Array(lines[last][(old.count == 1 ? start + old[0].count : old[old.count - 1].count)...])
            var scalars = before
            scalars.append(contentsOf: fix.with.unicodeScalars)
            scalars.append(contentsOf: after)
            let replaced = String(String.UnicodeScalarView(scalars)).split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .map { Array(String($0).unicodeScalars) }
            lines.replaceSubrange(line...last, with: replaced)
        }
        let joined = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        return (joined, skipped)
    }

    /// True when the text `fix` replaces is at its place in `lines`.
    private static func matches(_ fix: FixIt, in lines: [[Unicode.Scalar]]) -> Bool {
        let line = fix.location.line - 1
        let start = fix.location.column - 1
        let old = fix.replacing.split(separator: "\n", omittingEmptySubsequences: false).map {
            Array(String($0).unicodeScalars)
        }
        guard start >= 0, lines.indices.contains(line), lines.indices.contains(line + old.count - 1) else {
            return false
        }
        if old.count == 1 {
            return start + old[0].count <= lines[line].count
                && Array(lines[line][start..<start + old[0].count]) == old[0]
        }
        // The first line's rest, the lines between whole, and the start of the last.
        guard Array(lines[line][min(start, lines[line].count)...]) == old[0], start <= lines[line].count else {
            return false
        }
        for offset in 1..<old.count - 1 where lines[line + offset] != old[offset] { return false }
        let tail = old[old.count - 1]
        return lines[line + old.count - 1].count >= tail.count
            && Array(lines[line + old.count - 1][..<tail.count]) == tail
    }
}
