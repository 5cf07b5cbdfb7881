import Foundation
import PipelineCore
import RunStore

/// An item as `runs show --items` and `runs find` print it, and `GET /v1/runs/{id}` its unknown items.
package struct ItemView: Encodable, Sendable {
    package let step: Int
    package let row: Int
    package let stepId: String
    package let origin: String
    package let key: String?
    package let target: String?
    package let state: ItemState
    package let attempts: Int
    package let notificationId: String?
    package let error: String?
    package let resolution: String?
    package let updatedAt: String

    package init(_ item: JournalItem) {
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
    package var line: String {
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
