import Foundation
import HubExpressions
import HubWire

/// A send checked and parsed: the expression compiled, template properties decoded.
struct PreparedSend: Sendable {
    let notification: OutgoingNotification
    let expression: TagExpression?
    /// Template properties; nil for native sends.
    let properties: TemplateProperties?

    /// Checks a send as NH does: tag expression syntax and limits, template body shape.
    init(_ notification: OutgoingNotification) throws(EmulatorError) {
        self.notification = notification
        if let tags = notification.tags {
            let parsed: TagExpression
            do {
                parsed = try TagExpression(parsing: tags)
            } catch {
                throw Self.invalidTags(error)
            }
            if let violation = parsed.limitViolation() { throw Self.invalidTags(violation) }
            expression = parsed
        } else {
            expression = nil
        }
        guard notification.format == .template else {
            properties = nil
            return
        }
        properties = try Self.templateProperties(notification.body)
    }

    private static func invalidTags(_ error: TagExpressionError) -> EmulatorError {
        .badRequest("Invalid tag expression in ServiceBusNotification-Tags: \(error.message) (column \(error.column)).")
    }

    /// A template send's body: a flat JSON object whose values are strings (§7.3).
    static func templateProperties(_ body: String) throws(EmulatorError) -> TemplateProperties {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            throw .badRequest("The body of a template notification must be a JSON object of string properties.")
        }
        var values: [String: String] = [:]
        for (name, value) in object {
            guard let text = value as? String else {
                throw .badRequest("Template property '\(name)' must be a string.")
            }
            values[name] = text
        }
        let properties = TemplateProperties(values)
        if let conflict = properties.caseConflicts.first {
            throw .badRequest("Template property names differ only in case: '\(conflict)'.")
        }
        return properties
    }
}

/// Per-notification telemetry, as `GET messages/{id}` reports it.
///
/// The outcome is worked out when the send is made, but reported as NH reports it: `Enqueued`, then `Processing`,
/// and the final state with its counts only once the configured telemetry delay has passed.
struct NotificationRecord: Sendable {
    var id: String
    /// The state once processing is over: `Completed`, or `NoTargetFound`.
    var final: NotificationDetails.State
    var enqueuedAt: Date
    var enqueueTime: String
    var body: String
    var tags: String?
    /// Outcome name → count, per platform.
    var outcomes: [PushPlatform: [String: Int]]
    /// The devices the PNS refused, for the error details link.
    var pnsErrors: [PnsError] = []

    /// The state at `now`, given `delay` seconds of processing: the first half `Enqueued`, the rest `Processing`.
    func state(at now: Date, delay: Double) -> NotificationDetails.State {
        let elapsed = now.timeIntervalSince(enqueuedAt)
        if elapsed >= delay { return final }
        return elapsed < delay / 2 ? .enqueued : .processing
    }
}
