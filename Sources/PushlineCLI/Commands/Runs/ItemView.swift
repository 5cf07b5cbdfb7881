import ArgumentParser
import Foundation
import PipelineCore
import RunStore

/// An item as `runs show --items` and `runs find` print it.
struct ItemView: Encodable {
    let step: Int
    let row: Int
    let stepId: String
    let origin: String
    let key: String?
    let target: String?
    let state: ItemState
    let attempts: Int
    let notificationId: String?
    let error: String?
    let resolution: String?
    let updatedAt: String

    init(_ item: JournalItem) {
        step = item.key.step
        row = item.key.row
        stepId = item.stepId
        origin = item.origin
        key = item.idempotencyKey
        target = item.target
        state = item.state
        attempts = item.attempts
        notificationId = item.notificationId
        error = item.error
        resolution = item.resolution
        updatedAt = RunID.iso(item.updatedAt)
    }

    /// One line: `step 1 row 204  rows.csv:205  accepted  1 attempt  notification 123  key digest-u0203  → $UserId:{u0203}`.
    var line: String {
        var text =
            "step \(step) row \(row)  \(origin)  \(state.rawValue)  \(attempts) attempt\(attempts == 1 ? "" : "s")  \(updatedAt)"
        if let notificationId { text += "  notification \(notificationId)" }
        if let key { text += "  key \(key)" }
        if let target { text += "  → \(target)" }
        if let error { text += "  (\(error))" }
        if let resolution { text += "  [\(resolution)]" }
        return text
    }
}
