import PipelineCore

/// What happened to one device, as the report shows it.
struct DeviceResult: Sendable, Equatable {
    /// The outcome words of the report.
    enum Outcome: String, Sendable {
        /// `put` of an installation (NH answers the same for a new and a replaced one), or a registration
        /// under a new id.
        case created
        /// `patch` of an installation, or a registration upserted under the id it was given.
        case updated
        /// `delete` of an installation.
        case deleted
        /// Not done; `reason` says why.
        case failed
        /// Done by an earlier attempt of this run (the journal says so); not sent again.
        case skipped
        /// The same device was already done by another run within the dedupe window, or by an earlier row.
        case duplicate
        /// A malformed row: never sent.
        case bad
    }

    /// The installation id, registration id or handle; `file:line` for a row without an id.
    let device: String
    /// The outcome.
    let outcome: Outcome
    /// Why it failed (failures only).
    var reason: String?
    /// The registration id used (registrations only).
    var registrationId: String?
    /// Set when the failure is the hub's rather than the device's, so no further device is started.
    var stop: RunStop?
    /// True when trying again may succeed (no answer, throttled, a server error), so a resumed run does.
    var retriable = false

    /// The report entry: `{device, outcome, registrationId?, reason?}`.
    var reportValue: ReportValue {
        var fields = [ReportField("device", .string(device)), ReportField("outcome", .string(outcome.rawValue))]
        if let registrationId { fields.append(ReportField("registrationId", .string(registrationId))) }
        if let reason { fields.append(ReportField("reason", .string(reason))) }
        return .object(fields)
    }

    /// A failure.
    static func failed(_ device: String, _ reason: String, stop: RunStop? = nil, retriable: Bool = false) -> DeviceResult {
        DeviceResult(device: device, outcome: .failed, reason: reason, stop: stop, retriable: retriable)
    }
}

/// Why the step stopped starting devices: a failure every further request would share (the key is wrong or
/// lacks a right, the hub is unreachable, the device file became unreadable, the run was cancelled).
struct RunStop: Sendable, Equatable {
    /// What happened.
    let message: String
    /// What to do about it.
    let hint: String?
}
