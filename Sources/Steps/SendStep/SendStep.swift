import Foundation
import HubExpressions
import HubWire
import PipelineCore

/// `send`: sends one notification through a hub: a template send with properties, or a native
/// payload rendered locally from a pipeline template; to an audience, to everyone (explicitly), or
/// straight to device handles (inline or streamed from a file). Can schedule, use NH's test send,
/// or cancel a scheduled send.
public struct SendStep: Step {
    /// The YAML key of this step.
    public static let id = "send"
    /// One line for docs.
    public static let summary = "Sends a notification through a hub: template or native, to an audience, to everyone, or to device handles."
    /// Requests in flight at once for `for-each`, by default.
    static let defaultConcurrency = 16
    /// Native formats: the `ServiceBusNotification-Format` values other than `template`.
    static let nativeFormats = PushPlatform.allCases.map(\.notificationFormat)

    /// The keys `send` accepts.
    public static let options: [OptionSpec] = [
        OptionSpec("hub", .reference("hub"), required: true, "the declared hub to send through"),
        OptionSpec("format", .oneOf(["template"] + nativeFormats), default: "template",
                   "template (NH renders each device's registered template) or a native format (apple, fcmv1, gcm, windows, …)"),
        OptionSpec("audience", .string, examples: ["boston-fans", "\"follows_RedSox && location_Boston\"", "\"$UserId:{$(userId)}\""],
                   "a declared audience name, or an inline tag expression such as \"follows_RedSox && location_Boston\""),
        OptionSpec("broadcast", .boolean, "send to every device; must be written out, never implied by a missing audience"),
        OptionSpec("direct", .stringList, "device handle(s) to send to directly (native formats); lists go out in batches of 1000"),
        OptionSpec("direct-file", .path,
                   "a file of device handles, one per line (blank lines and # comments skipped), checked first, then streamed in batches of 1000"),
        OptionSpec("template", .reference("template"), "native formats: the pipeline template rendered locally into the payload"),
        OptionSpec("headers", .stringMap, examples: ["{ apns-push-type: alert, apns-priority: \"10\" }", "{ X-WNS-Type: wns/toast }"],
                   "platform headers, e.g. { apns-push-type: alert, apns-priority: \"10\" } or { X-WNS-Type: wns/toast }"),
        OptionSpec("test", .boolean, default: "false", "NH test send: at most 10 devices, per-device outcome in the report"),
        OptionSpec("schedule", .string, examples: ["2026-11-23T08:00:00Z", "in 2h"], "send later: a UTC time (2026-11-23T08:00:00Z) or a delay (in 2h); at most 7 days ahead"),
        OptionSpec("cancel", .string, "instead of sending: cancel the scheduled send with this notification id (as a scheduled send reported it)"),
        OptionSpec("for-each", .path, examples: ["${env:DIGEST_ROWS}", "../data/users.csv"],
                   "one send per row of a .csv (header row), .jsonl or .json file, streamed; $(column) in audience, direct and properties takes the row's value"),
        OptionSpec("concurrency", .integer, default: "\(defaultConcurrency)", "for-each: most requests in flight at once (1 to 256)"),
        OptionSpec("rate", .string, examples: ["200"], "for-each: most requests per second (e.g. 200), shared by the parts of a sharded run; slows down by itself when the hub throttles"),
        BadRowPolicy.option,
        OptionSpec.shardKey,
    ] + OptionSpec.idempotency + OptionSpec.retryPolicy + [
        OptionSpec("retry-ambiguous", .boolean, default: "false",
                   "resend when the outcome is unknown (timeout after writing, 500, 504); may deliver twice"),
    ] + OptionSpec.templateProperties

    /// Examples as they appear under `steps:`.
    public static let examples = [
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
    public var dedupeWindow: Int64 = OptionSpec.defaultDedupeWindow
    /// What the input check does with malformed rows of a `for-each` file.
    var badRows: BadRowPolicy = .stop
    /// The column that places a row in a part of `--shard I/N`; nil for the whole row.
    var shardKey: String?

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
