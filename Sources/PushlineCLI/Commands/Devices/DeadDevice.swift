import HubWire
import PipelineCore

/// A device whose push channel the PNS called dead, and how Pushline knows.
struct DeadDevice: Sendable, Equatable {
    enum Kind: String, Sendable {
        case installation, registration
    }

    /// The hub (as the pipeline declares it).
    let hub: String
    let kind: Kind
    /// The installation or registration id.
    let id: String
    /// `apns`, `fcmv1`, … when known.
    let platform: String?
    /// The outcome that says so (`ExpiredChannel`, `BadChannel`, …), or `pushChannelExpired`.
    let reason: String
    /// Where it was found: `installation` (its pushChannelExpired) or `telemetry` (a notification's PNS errors).
    let source: String

    var line: String {
        "\(kind.rawValue) \(id)" + (platform.map { " (\($0))" } ?? "") + " on hub '\(hub)', from its \(source)"
    }

    var report: ReportValue {
        .object([
            ReportField("hub", .string(hub)), ReportField("kind", .string(kind.rawValue)),
            ReportField("id", .string(id)),
            ReportField("platform", platform.map(ReportValue.string) ?? .null), ReportField("reason", .string(reason)),
            ReportField("source", .string(source)),
        ])
    }
}
