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
    /// It was stopped (a signal, Ctrl-C) and can be resumed.
    case interrupted
}
