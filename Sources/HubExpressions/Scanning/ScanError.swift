/// A problem found by one of the byte scanners, located by byte offset.
///
/// Converted to a public error (with line and column) only at the module boundary, where the
/// full source is at hand.
struct ScanError: Error, Equatable {
    let message: String
    let offset: Int
    let hint: String?

    init(_ message: String, at offset: Int, hint: String? = nil) {
        self.message = message
        self.offset = offset
        self.hint = hint
    }
}
