import PipelineCore
import RunFlow

/// What a run must come to (`expect:`). Everything left out is not checked.
package struct Expectations: Sendable {
    /// The exit code `pushline run` would end with.
    package var exit: Int?
    /// The run's status: `succeeded`, `partial`, `failed`, `rejected`, … or `already-completed` (nothing ran).
    package var status: String?
    /// Each step's status, by step id.
    package var steps: [Expected<String>] = []
    /// Step outputs, by `step-id.output` (or a path into one: `users.rows.0.userId`).
    package var outputs: [Expected<JSONValue>] = []
    /// Item counts by `step-id.state` (`digest.accepted`, `digest.duplicates`).
    package var items: [Expected<Int>] = []
    /// Notifications delivered in this run, in all.
    package var deliveries: Int?
    /// What devices received, in order per device: every device named receives exactly these.
    package var received: [ExpectedDelivery] = []
    /// Devices (by installation id) or audiences (tag expressions over the hub's devices) that received nothing.
    package var receivedNothing: [NothingReceived] = []
    /// The pipeline must be refused when it is loaded, with these diagnostics (nothing runs).
    package var diagnostics: [ExpectedDiagnostic]?
    /// Where `expect:` is written.
    package var location: SourceLocation

    /// Nothing expected, written at `location`.
    package init(location: SourceLocation) {
        self.location = location
    }
}

/// One expected value, with where it is written.
package struct Expected<Value: Sendable>: Sendable {
    /// What is expected of: a step id, `step.output`, `step.state`.
    package var key: String
    /// The value.
    package var value: Value
    /// Where it is written.
    package var location: SourceLocation
}

/// One notification a device must receive.
package struct ExpectedDelivery: Sendable {
    /// The installation id.
    package var device: String
    /// The template it was rendered from (template sends), if checked.
    package var template: String?
    /// The platform, if checked.
    package var platform: String?
    /// The whole payload: JSON compared as JSON, anything else as text.
    package var payload: String?
    /// A JSON object the payload must contain (every key given, recursively; lists element by element).
    package var includes: JSONValue?
    /// Values at paths into the payload (`aps.alert`, `data.items.0`).
    package var values: [Expected<JSONValue>] = []
    /// Headers the platform request carried (`apns-priority: 10`).
    package var headers: [Expected<String>] = []
    /// Where it is written.
    package var location: SourceLocation
}

/// A device or audience that must receive nothing.
package enum NothingReceived: Sendable {
    /// An installation id.
    case device(String, SourceLocation)
    /// Every device whose tags match this tag expression.
    case audience(String, SourceLocation)
}

/// A diagnostic `validate` must give.
package struct ExpectedDiagnostic: Sendable {
    /// Text the message contains.
    package var message: String?
    /// The line, if checked.
    package var line: Int?
    /// The column, if checked.
    package var column: Int?
    /// `error` (the default) or `warning`.
    package var severity: Diagnostic.Severity
    /// Where it is written.
    package var location: SourceLocation
}
