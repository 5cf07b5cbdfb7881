/// One request a run sent and how it ended, with the signature redacted: what `run --trace` prints and
/// what `demo` shows after the run.
package struct HubTrace: Sendable, Equatable {
    /// The request as a dry run shows it: method and URL, `Authorization` (redacted), headers, body.
    package var requestLines: [String]
    /// The final status, or nil when no usable response came back.
    package var status: Int?
    /// The `Location` the hub answered with, if any (a send's notification id).
    package var location: String?
    /// Attempts it took.
    package var attempts: Int
    /// Why no response was usable, when `status` is nil.
    package var failure: String?

    /// One line: `→ 201 (1 attempt) Location: …` or `→ no response (4 attempts): …`.
    package var outcomeLine: String {
        // A dry run's transport answers without sending: no attempt was made.
        if attempts == 0, failure == nil { return "→ not sent (a dry run)" }
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        guard let status else { return "→ no response (\(tries)): \(failure ?? "unknown")" }
        return "→ \(status) (\(tries))" + (location.map { " Location: \($0)" } ?? "")
    }
}
