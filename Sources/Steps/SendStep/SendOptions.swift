import HubExpressions
import HubWire
import PipelineCore

/// The keys of `send`, each declared once, with the shared batch, retry and property groups.
package struct SendOptions: DeclaredOptions {
    /// `hub`.
    @Key(.hub("the declared hub to send through")) package var hub: HubDeclaration?
    /// `format`.
    @Key(
        .word(
            "format", ["template"] + SendStep.nativeFormats, default: "template",
            "template (NH renders each device's registered template) or a native format (apple, fcmv1, gcm, windows, …)"
        ))
    package var format: String
    /// `audience`.
    @Key(
        .text(
            "audience", examples: ["boston-fans", "\"follows_RedSox && location_Boston\"", "\"$UserId:{$(userId)}\""],
            "a declared audience name, or an inline tag expression such as \"follows_RedSox && location_Boston\""))
    package var audience: String?
    /// `broadcast`.
    @Key(
        .flag(
            "broadcast", default: nil, "send to every device; must be written out, never implied by a missing audience")
    )
    package var broadcast: Bool?
    /// `direct`.
    @Key(
        .stringList("direct", "device handle(s) to send to directly (native formats); lists go out in batches of 1000"))
    package var direct: [(value: String, node: ConfigNode)]
    /// `direct-file`.
    @Key(
        OptionKey.path(
            "direct-file",
            "a file of device handles, one per line (blank lines and # comments skipped), checked first, then streamed in batches of 1000"
        )
        .excluding(
            [BatchOptions.forEach.key], hint: "put the handles in a column of the rows and write `direct: $(column)`"))
    package var directFile: String?
    /// `template`.
    @Key(.template("template", "native formats: the pipeline template rendered locally into the payload"))
    package var template: TemplateDeclaration?
    /// `headers`.
    @Key(
        .stringMap(
            "headers", examples: ["{ apns-push-type: alert, apns-priority: \"10\" }", "{ X-WNS-Type: wns/toast }"],
            "platform headers, e.g. { apns-push-type: alert, apns-priority: \"10\" } or { X-WNS-Type: wns/toast }"))
    package var headers: [(key: String, value: String)]
    /// `test`.
    @Key(
        OptionKey.flag("test", "NH test send: at most 10 devices, per-device outcome in the report")
            .excluding([BatchOptions.forEach.key], hint: "a test send goes out once; remove `test` or `for-each`"))
    package var test: Bool
    /// `schedule`.
    @Key(
        .text(
            "schedule", examples: ["2026-11-23T08:00:00Z", "in 2h"],
            "send later: a UTC time (2026-11-23T08:00:00Z) or a delay (in 2h); at most 7 days ahead"))
    package var schedule: String?
    /// The keys of a send per row (`for-each` itself is the engine's).
    @KeyGroup package var batch: BatchKeys
    /// `retries`, `retry-delay`, `retry-max-delay`.
    @KeyGroup package var retry: RetryKeys
    /// `retry-ambiguous`.
    @Key(RetryOptions.retryAmbiguous) package var retryAmbiguous: Bool
    /// `properties` or `properties-file`.
    @KeyGroup package var properties: PropertyKeys

    /// Every key at its default.
    package init() {}
}
