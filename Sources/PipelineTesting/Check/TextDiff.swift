/// A line diff of what was expected and what came, for failure output: `-` lines only expected, `+` lines only
/// actual, the rest shared (a longest common subsequence of lines).
enum TextDiff {
    /// The diff, `-`/`+`/` ` before each line; empty when the texts are the same.
    static func unified(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard old != new else { return "" }
        // Payloads are small; a quadratic table is fine, and bounded so a huge body cannot stall the run.
        guard old.count * new.count <= 4_000_000 else {
            return (old.map { "- " + $0 } + new.map { "+ " + $0 }).joined(separator: "\n")
        }
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [String] = []
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append("  " + old[i])
                (i, j) = (i + 1, j + 1)
            } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
                lines.append("- " + old[i])
                i += 1
            } else {
                lines.append("+ " + new[j])
                j += 1
            }
        }
        return lines.joined(separator: "\n")
    }
}
