/// How the run stands, as a `when:` expression reads it.
package enum ConditionStatus: String, Sendable, Equatable, CaseIterable {
    /// No earlier step failed.
    case success
    /// An earlier step failed.
    case failure
    /// Always true.
    case always
    /// The run is a dry run.
    case dryRun = "dry-run"
}
