import PipelineCore

/// Rows of a run that were not sent because another run had sent the same notifications (`already sent by run X`),
/// kept as one range instead of one journal record per row: consecutive rows whose origins run on line by line and
/// whose earlier sends are consecutive items of one run. A re-run of a fixed input then writes what it sends, not
/// every row it skips; the journal still counts, reports and finds each of them.
package struct SkipRange: Sendable, Equatable {
    /// The step (1-based) and its id.
    package var step: Int
    package var stepId: String
    /// The rows skipped.
    package var rows: ClosedRange<Int>
    /// The first row's origin: its file when `firstLine` is set (then row `r` is `file:(firstLine + r - first)`),
    /// else the whole origin (a one-row range).
    package var originFile: String
    package var firstLine: Int?
    /// The run whose accepted items these rows are, and its item for the first row.
    package var priorRun: String
    package var prior: LedgerKey

    /// Creates a range.
    package init(
        step: Int, stepId: String, rows: ClosedRange<Int>, originFile: String, firstLine: Int?, priorRun: String,
        prior: LedgerKey
    ) {
        self.step = step
        self.stepId = stepId
        self.rows = rows
        self.originFile = originFile
        self.firstLine = firstLine
        self.priorRun = priorRun
        self.prior = prior
    }

    /// A range of one row, `row` of step `step`, whose notification `priorRun`'s item `prior` sent.
    package init(step: Int, stepId: String, row: Int, origin: String, priorRun: String, prior: LedgerKey) {
        let (file, line) = Self.split(origin)
        self.init(
            step: step, stepId: stepId, rows: row...row, originFile: file, firstLine: line, priorRun: priorRun,
            prior: prior)
    }

    /// Takes in the next row when it continues the range (the next row, on the next line of the same file, sent by the
    /// next item of the same run); false, unchanged, otherwise.
    package mutating func extend(row: Int, origin: String, priorRun: String, prior: LedgerKey) -> Bool {
        guard row == rows.upperBound + 1, priorRun == self.priorRun, prior.step == self.prior.step,
            prior.row == self.prior.row + rows.count, let firstLine
        else { return false }
        let (file, line) = Self.split(origin)
        guard file == originFile, line == firstLine + rows.count else { return false }
        rows = rows.lowerBound...row
        return true
    }

    /// Whether `row` is in the range.
    package func contains(_ row: Int) -> Bool { rows.contains(row) }

    /// The origin of `row` (a row of the range).
    package func origin(of row: Int) -> String {
        guard let firstLine else { return originFile }
        return originFile + ":" + String(firstLine + row - rows.lowerBound)
    }

    /// The earlier run's item for `row` (a row of the range).
    package func prior(of row: Int) -> LedgerKey {
        LedgerKey(step: prior.step, row: prior.row + row - rows.lowerBound)
    }

    /// The row of this range whose earlier send is `priorRun`'s item `key`, if one is.
    package func row(sentAs key: LedgerKey) -> Int? {
        guard key.step == prior.step, key.row >= prior.row, key.row - prior.row < rows.count else { return nil }
        return rows.lowerBound + key.row - prior.row
    }

    /// The reason every row of the range is counted under: `already sent by run X`.
    package var reason: String { "already sent by run \(priorRun)" }

    /// `file:line` split at its last colon when what follows is a line number; else the origin whole, no line.
    static func split(_ origin: String) -> (String, Int?) {
        guard let colon = origin.utf8.lastIndex(of: UInt8(ascii: ":")),
            let line = Int(Substring(origin.utf8[origin.utf8.index(after: colon)...])), line > 0
        else { return (origin, nil) }
        return (String(origin[..<colon]), line)
    }
}
