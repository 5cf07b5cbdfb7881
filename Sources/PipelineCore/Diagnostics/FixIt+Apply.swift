extension FixIt {
    /// `text` with `fixes` applied, and the fixes that did not apply (the text at their place is not what they
    /// replace: the file changed since it was read). Places are lines and columns of `text` as it is, so the edits
    /// of one line are made from its end.
    public static func apply(_ fixes: [FixIt], to text: String) -> (text: String, skipped: [FixIt]) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        var skipped: [FixIt] = []
        let ordered = fixes.sorted { ($0.location.line, $0.location.column) > ($1.location.line, $1.location.column) }
        for fix in ordered {
            let line = fix.location.line - 1
            let start = fix.location.column - 1
            let old = Array(fix.replacing.unicodeScalars)
            guard lines.indices.contains(line), start >= 0, start + old.count <= lines[line].count,
                Array(lines[line][start..<start + old.count]) == old
            else {
                skipped.append(fix)
                continue
            }
            lines[line].replaceSubrange(start..<start + old.count, with: Array(fix.with.unicodeScalars))
        }
        let joined = lines.map { line in
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: line)
            return String(scalars)
        }.joined(separator: "\n")
        return (joined, skipped)
    }
}
