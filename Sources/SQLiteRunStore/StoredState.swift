import PipelineCore
import RunStore

/// How the journal stores an item's state: a small integer rather than its name. SQLite keeps 0 and 1 in the row's
/// header alone, so the two states nearly every item is in (`sending`, then `accepted`) cost no bytes at all, where
/// `accepted` as text took nine. The codes are part of the file format: never renumber one.
enum StoredState {
    /// The code `state` is stored as.
    static func code(_ state: ItemState) -> Int64 {
        switch state {
        case .sending: 0
        case .accepted: 1
        case .pending: 2
        case .failed: 3
        case .unknown: 4
        case .duplicate: 5
        case .bad: 6
        }
    }

    /// The state stored as `code`; nil for a code this build does not know.
    static func state(_ code: Int64) -> ItemState? {
        // Read for every item a lookup finds: a table, not a search through the cases.
        (0..<Int64(byCode.count)).contains(code) ? byCode[Int(code)] : nil
    }

    /// The states by their codes (the codes run from 0 without gaps).
    private static let byCode: [ItemState] = ItemState.allCases.sorted { code($0) < code($1) }

    /// `states` as an SQL list for `IN`: `(4, 0)`.
    static func sql(_ states: ItemState...) -> String {
        sql(states)
    }

    /// `states` as an SQL list for `IN`.
    static func sql(_ states: [ItemState]) -> String {
        "(" + states.map { String(code($0)) }.joined(separator: ", ") + ")"
    }

    /// The v6 → v7 conversion of a state's name to its code, in SQL.
    static let fromName =
        "CASE state " + ItemState.allCases.map { "WHEN '\($0.rawValue)' THEN \(code($0)) " }.joined() + "END"
}
