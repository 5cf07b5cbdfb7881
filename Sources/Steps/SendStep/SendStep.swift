import Foundation
import HubClient
import HubExpressions
import HubWire
import PipelineCore

/// `send`: sends one notification through a hub: a template send with properties, or a native
/// payload rendered locally from a pipeline template; to an audience, to everyone (explicitly), or
/// straight to device handles (inline or streamed from a file). Can schedule, or use NH's test send.
package struct SendStep: ForEachStep {
    /// What `send` hands to later steps.
    package typealias Outputs = SendOutputs

    /// The YAML key of this step.
    package static let id = "send"
    /// One line for docs.
    package static let summary =
        "Sends a notification through a hub: template or native, to an audience, to everyone, or to device handles."
    /// Native formats: the `ServiceBusNotification-Format` values other than `template`.
    static let nativeFormats = PushPlatform.allCases.map(\.notificationFormat)

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- send: { hub: sports, audience: boston-fans, properties: { message: \"Red Sox win!\" } }",
        "- send: { hub: sports, format: apple, template: alert, audience: \"username:alice\", properties: { message: \"Hi\" } }",
        "- send: { hub: sports, broadcast: true, schedule: in 2h, properties: { message: \"Good morning\" } }",
        "- send: { hub: sports, format: apple, template: alert, direct-file: ../data/tokens.txt, properties: { message: \"Hi\" } }",
        "- send: { hub: digest, for-each: ../data/rows.csv, audience: \"$UserId:{$(userId)}\", properties: { message: \"$(headline)\" } }",
        """
        - send:
            hub: digest
            for-each: ../data/rows.csv
            audience: "$UserId:{$(userId)}"
            properties: { message: "$(headline)" }
            idempotency-key: "digest-2026-11-23-$(userId)"
            dedupe-window: 24h
            bad-rows: skip
        """,
    ]

    /// What the step does.
    enum Action: Sendable, Equatable {
        /// Sends a notification.
        case send(Target)
        /// Sends one notification per row.
        case sendEach(RowPlan)
    }

    /// Where a send goes.
    enum Target: Sendable, Equatable {
        /// Devices whose tags match.
        case audience(name: String?, expression: TagExpression)
        /// Everyone.
        case broadcast
        /// These device handles.
        case direct([String])
        /// The handles in this file, checked at build time, streamed at run time.
        case directFile(HandleFile)
    }

    /// When a send goes out.
    enum Schedule: Sendable, Equatable {
        /// At this time (epoch seconds).
        case at(Double)
        /// This many seconds after the step runs.
        case after(Int64)
    }

    let hub: HubDeclaration
    let action: Action
    let format: String
    let template: TemplateDeclaration?
    let properties: [String: String]
    let headers: [HubHeader]
    let test: Bool
    let schedule: Schedule?
    let policy: RetryPolicy
    /// The declared idempotency key (`$(column)` text); nil: the request's digest is the key.
    var idempotencyKey: TextTemplate?
    /// Seconds an accepted key keeps the same notification from being sent again; 0 for off.
    package var dedupeWindow: Int64 = BatchOptions.defaultDedupeWindow
    /// What the input check does with malformed rows of a `for-each` file.
    var badRows: BadRowPolicy = .stop
    /// The column that places a row in a part of `--shard I/N`; nil for the whole row.
    var shardKey: String?

    /// Creates a send (tests and `build`).
    init(
        hub: HubDeclaration, format: String, target: Target, template: TemplateDeclaration?,
        properties: [String: String],
        headers: [HubHeader] = [], test: Bool = false, schedule: Schedule? = nil, policy: RetryPolicy = RetryPolicy()
    ) {
        self.hub = hub
        action = .send(target)
        self.format = format
        self.template = template
        self.properties = properties
        self.headers = headers
        self.test = test
        self.schedule = schedule
        self.policy = policy
    }

    /// What a `for-each` send reads of each row: the columns its target and properties use, its idempotency key's and
    /// its shard key.
    package var columnsRead: [String] {
        guard case .sendEach(let plan) = action else { return [] }
        return plan.columns + (idempotencyKey?.propertyNames ?? []) + (shardKey.map { [$0] } ?? [])
    }

    /// Creates a `for-each` send.
    init(
        hub: HubDeclaration, format: String, plan: RowPlan, template: TemplateDeclaration?, headers: [HubHeader],
        schedule: Schedule?, policy: RetryPolicy
    ) {
        self.hub = hub
        action = .sendEach(plan)
        self.format = format
        self.template = template
        properties = [:]
        self.headers = headers
        test = false
        self.schedule = schedule
        self.policy = policy
    }
}
