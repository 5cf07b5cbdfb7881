import PipelineCore

/// Which item: the step's position in the pipeline and the row's number in its input (1-based).
package struct LedgerKey: Sendable, Hashable, Comparable {
    /// The step's index in the pipeline (0-based).
    package var step: Int
    /// The row number (1-based; for CSV the header is not a row).
    package var row: Int

    /// Creates a key.
    package init(step: Int, row: Int) {
        self.step = step
        self.row = row
    }

    package static func < (lhs: LedgerKey, rhs: LedgerKey) -> Bool { (lhs.step, lhs.row) < (rhs.step, rhs.row) }
}
