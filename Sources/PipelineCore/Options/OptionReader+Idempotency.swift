import HubExpressions

/// The duplicate-protection keys, shared by every step that sends item by item, so they read and check alike.
extension OptionSpec {
    /// The default window: long enough to cover an operator fixing a failed night run the next morning and
    /// running it again, short enough that a daily job whose notification happens not to change (the same
    /// reminder every morning, with a few minutes of cron jitter) is never taken for a duplicate of
    /// yesterday's.
    public static let defaultDedupeWindow: Int64 = 12 * 3600

    /// `idempotency-key` and `dedupe-window`.
    public static let idempotency: [OptionSpec] = [
        OptionSpec("idempotency-key", .string, examples: ["\"digest-$(userId)\""],
                   "what makes two items the same notification across runs of this pipeline and step; $(column) takes the "
                       + "row's value. Default: a digest of the exact request (hub, audience or handle, format, headers, payload), "
                       + "the same notification whichever pipeline or run sends it to that hub"),
        OptionSpec("dedupe-window", .duration, default: ConfigDuration.format(defaultDedupeWindow), examples: ["12h", "30m", "0"],
                   "an item whose idempotency key a run had accepted this recently is not sent again (reported as already "
                       + "sent by that run); 0 turns it off; `pushline run --again` overrides it. The run journal keeps a run's "
                       + "keys at least this long after it ends"),
    ]
}

extension OptionReader {
    /// Reads `dedupe-window` in seconds (0: off); nil after reporting a problem.
    public func dedupeWindow() -> Int64? {
        guard let node = node("dedupe-window") else { return OptionSpec.defaultDedupeWindow }
        if let text = node.scalar?.text.trimmingCharacters(), text == "0" { return 0 }
        return duration("dedupe-window", in: 0...(366 * 86400))
    }

    /// Reads `idempotency-key` as `$(column)` text; nil when not given (the request digest is the key) or
    /// after reporting a problem (then `failed` is true).
    public func idempotencyKey() -> (template: TextTemplate?, failed: Bool) {
        guard let (text, node) = string("idempotency-key") else { return (nil, false) }
        guard !text.trimmingCharacters().isEmpty else {
            error("'idempotency-key' is empty", at: node, hint: "write a key that names the notification, e.g. \"digest-$(userId)\"")
            return (nil, true)
        }
        do {
            return (try TextTemplate(compiling: text), false)
        } catch {
            self.error("'idempotency-key' has a malformed reference: \(error.message) (character \(error.column))", at: node, hint: error.hint)
            return (nil, true)
        }
    }
}
