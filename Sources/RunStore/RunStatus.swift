/// Where a whole run stands.
///
/// Named `RunStatus` because `PipelineCore` already has a `RunState` (the outputs steps share).
package enum RunStatus: String, Sendable, CaseIterable, Codable {
    /// Started or resumed and not finished; if its process is gone, it was killed.
    case running
    /// Every item was accepted.
    case completed
    /// It ran to the end, but some items failed or are unknown.
    case partial
    /// It stopped on an error before the end.
    case failed
    /// Its input was refused (malformed rows under `bad-rows: stop`) before anything was sent: the data needs fixing,
    /// and the next start reads it afresh.
    case rejected
    /// It was stopped (a signal, Ctrl-C) and can be resumed.
    case interrupted
    /// It was cut off and not resumed within its dedupe window: closed by a later start, which read its sources
    /// afresh. Its unknown items stay listed.
    case expired
}
