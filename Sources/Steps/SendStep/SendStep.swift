import Foundation
import HubExpressions
import HubWire
import PipelineCore

/// `send`: sends one notification through a hub: a template send with properties, or a native
/// payload rendered locally from a pipeline template; to an audience, to everyone (explicitly), or
/// straight to device handles (inline or streamed from a file). Can schedule, use NH's test send,
/// or cancel a scheduled send.
package struct SendStep: Step {
    /// The YAML key of this step.
    package static let id = "send"
    /// One line for docs.
    package static let summary = "Sends a notification through a hub: template or native, to an audience, to everyone, or to device handles."
    /// Native formats: the `ServiceBusNotification-Format` values other than `template`.
    static let nativeFormats = PushPlatform.allCases.map(\.notificationFormat)

    /// The keys of `send`, each declared once (with the shared batch, retry and property keys).
    package enum Keys {
        /// `hub`.
        package static let hub = OptionKey<String>.hub("the declared hub to send through")
        /// `format`.
        package static let format = OptionKey<String>.word(
            "format", ["template"] + nativeFormats, default: "template",
            "template (NH renders each device's registered template) or a native format (apple, fcmv1, gcm, windows, …)")
        /// `audience`.
        package static let audience = OptionKey<String>.text(
            "audience", examples: ["boston-fans", "\"follows_RedSox && location_Boston\"", "\"$UserId:{$(userId)}\""],
            "a declared audience name, or an inline tag expression such as \"follows_RedSox && location_Boston\"")
        /// `broadcast`.
        package static let broadcast = OptionKey<Bool>.flag("broadcast", default: nil,
                                                       "send to every device; must be written out, never implied by a missing audience")
        /// `direct`.
        package static let direct = OptionKey<[(value: String, node: ConfigNode)]>.stringList(
            "direct", "device handle(s) to send to directly (native formats); lists go out in batches of 1000")
        /// `direct-file`.
        package static let directFile = OptionKey<String>.path(
            "direct-file", "a file of device handles, one per line (blank lines and # comments skipped), checked first, then streamed in batches of 1000"
        ).excluding([BatchOptions.forEach.key], hint: "put the handles in a column of the rows and write `direct: $(column)`")
        /// `template`.
        package static let template = OptionKey<String>.name(
            "template", of: "template", "native formats: the pipeline template rendered locally into the payload")
        /// `headers`.
        package static let headers = OptionKey<[(key: String, value: String)]>.stringMap(
            "headers", examples: ["{ apns-push-type: alert, apns-priority: \"10\" }", "{ X-WNS-Type: wns/toast }"],
            "platform headers, e.g. { apns-push-type: alert, apns-priority: \"10\" } or { X-WNS-Type: wns/toast }")
        /// `test`.
        package static let test = OptionKey<Bool>.flag("test", "NH test send: at most 10 devices, per-device outcome in the report")
            .excluding([BatchOptions.forEach.key], hint: "a test send goes out once; remove `test` or `for-each`")
        /// `schedule`.
        package static let schedule = OptionKey<String>.text(
            "schedule", examples: ["2026-11-23T08:00:00Z", "in 2h"], "send later: a UTC time (2026-11-23T08:00:00Z) or a delay (in 2h); at most 7 days ahead")
        /// `cancel`: instead of sending, cancel a scheduled send; beside it only the hub and the retry keys.
        package static let cancel = OptionKey<String>.text(
            "cancel", "instead of sending: cancel the scheduled send with this notification id (as a scheduled send reported it)"
        ).excluding(targets + shaping, hint: "use one step to schedule and another to cancel")
        /// `retry-ambiguous`.
        package static let retryAmbiguous = RetryOptions.retryAmbiguous
        /// `outcomes`.
        package static let outcomes = OptionKey<ConfigNode>.node(OptionSpec(
            "outcomes", .mapping(OutcomeSettings.keys), examples: ["{ wait: 10m }", "{ wait: 30m, sample: 200 }"],
            "after sending, read NH's telemetry until the outcomes are final (Standard tier, a key with Manage): "
                + "per-platform counts go to the outputs, the report, the journal and --metrics; off by default"))

        /// Batch keys that only rows give a meaning.
        static let forEachOnly = [
            BatchOptions.concurrency.spec, BatchOptions.rate.spec, BatchOptions.badRows.spec, BatchOptions.shardKey.spec,
        ].map { $0.requiring(BatchOptions.forEach.key, because: "for-each sends make one request per row", hint: "add `for-each: <rows file>` or remove `\($0.key)`") }

        /// The keys that choose where a send goes; exactly one is given.
        static let targets = [audience.key, broadcast.key, direct.key, directFile.key]

        /// The keys that shape a send, so make no sense next to `cancel`.
        static let shaping = [format.key, template.key, headers.key, test.key, schedule.key, retryAmbiguous.key, outcomes.key, BatchOptions.forEach.key,
                              BatchOptions.idempotencyKey.key, BatchOptions.dedupeWindow.key] + PropertyOptions.specs.map(\.key) + forEachOnly.map(\.key)
    }

    /// The keys `send` accepts.
    package static let options: [OptionSpec] = [
        Keys.hub.spec, Keys.format.spec, Keys.audience.spec, Keys.broadcast.spec, Keys.direct.spec, Keys.directFile.spec, Keys.template.spec,
        Keys.headers.spec, Keys.test.spec, Keys.schedule.spec, Keys.cancel.spec, BatchOptions.forEach.spec,
    ] + Keys.forEachOnly + [BatchOptions.idempotencyKey.spec, BatchOptions.dedupeWindow.spec] + RetryOptions.specs + [Keys.retryAmbiguous.spec]
        + PropertyOptions.specs + [Keys.outcomes.spec]

    /// What `send` hands to later steps.
    package static let outputs = ItemCounts.outputSpecs + [
        OutputSpec("notification-ids", .list,
                   "the ids of the notifications sent (a scheduled send's are the ids a later step cancels); a cancel's is the id it cancelled")
                   .traced(as: "nh.notification.ids", count: "nh.notification.count"),
        OutputSpec("tracking-ids", .list, "the TrackingIds of the accepted requests, for Azure support"),
        OutputSpec("outcome-state", .string,
                   "with `outcomes:`, how far reading telemetry got: final, partial (the wait ended first), unavailable (no Standard tier, "
                       + "no Manage right, the hub unreachable) or none (nothing was accepted); off without `outcomes:`")
                       .traced(),
        OutputSpec("delivered", .integer, "with `outcomes:`, devices the PNS accepted the notifications for (Success), over the notifications read")
            .traced(),
        OutputSpec("not-delivered", .integer, "with `outcomes:`, devices not reached, for any reason (dead channels, credentials, payload, throttling)")
            .traced(),
        OutputSpec("dead-channels", .integer, "with `outcomes:`, devices whose channel the PNS called dead (ExpiredChannel, BadChannel, …)")
            .traced(),
        OutputSpec("outcome-counts", .list, "with `outcomes:`, per-platform counts as `platform outcome count` (e.g. `fcmv1 Success 9200`)"),
    ]

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- send: { hub: sports, audience: boston-fans, properties: { message: \"Red Sox win!\" } }",
        "- send: { hub: sports, format: apple, template: alert, audience: \"username:alice\", properties: { message: \"Hi\" } }",
        "- send: { hub: sports, broadcast: true, schedule: in 2h, properties: { message: \"Good morning\" } }",
        "- send: { hub: sports, format: apple, template: alert, direct-file: ../data/tokens.txt, properties: { message: \"Hi\" } }",
        "- send: { hub: sports, cancel: \"7138412281836466052-3339543437946614470-1\" }",
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
        /// Cancels the scheduled send with this notification id.
        case cancel(notificationId: String)
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
    /// `outcomes:`; nil when the step does not read telemetry.
    var outcomes: OutcomeSettings?
    /// How the step waits between readings of telemetry (tests replace it).
    var outcomeSleep: @Sendable (Double) async throws -> Void = OutcomeCollector.sleepForReal

    /// Creates a send (tests and `build`).
    init(
        hub: HubDeclaration, format: String, target: Target, template: TemplateDeclaration?, properties: [String: String],
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
    init(hub: HubDeclaration, format: String, plan: RowPlan, template: TemplateDeclaration?, headers: [HubHeader],
         schedule: Schedule?, policy: RetryPolicy) {
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

    /// Creates a cancellation.
    init(hub: HubDeclaration, cancelling notificationId: String, policy: RetryPolicy) {
        self.hub = hub
        action = .cancel(notificationId: notificationId)
        format = "template"
        template = nil
        properties = [:]
        headers = []
        test = false
        schedule = nil
        self.policy = policy
    }
}
