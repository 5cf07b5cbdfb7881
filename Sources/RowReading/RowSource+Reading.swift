import PipelineCore

extension RowSource {
    /// Opens the file; for CSV reads and checks the header. Throws a sentence naming the file.
    /// `digests: false` leaves each row's digest empty, for a pass that only checks the rows.
    public func open(digests: Bool = true) throws(RowSourceError) -> RowReader {
        do {
            return try RowReader(self, digests: digests)
        } catch let failure as TextFile.Failure {
            throw RowSourceError(failure.message(what: "for-each file", name: shown))
        } catch let error as RowSourceError {
            throw error
        } catch {
            throw RowSourceError("for-each file '\(shown)': \(error)")
        }
    }

    /// The CSV header's columns, read from the file (nil for JSON formats, whose keys are known only row by row).
    public func header() throws(RowSourceError) -> [String]? {
        try open().columns
    }
}
