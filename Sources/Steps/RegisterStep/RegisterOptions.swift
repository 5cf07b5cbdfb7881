import HubExpressions
import PipelineCore

/// The keys of `register`, each declared once, with the batch keys as register reads them and the retry group.
package struct RegisterOptions: DeclaredOptions {
    /// `hub`.
    @Key(.hub("the declared hub to register with")) package var hub: HubDeclaration?
    /// `installations`: devices in the YAML, or a file of them.
    @Key(
        OptionKey<ConfigNode>.node(
            OptionSpec(
                "installations", .anyOf([.path, .list(.mapping(InstallationEntry.specs))]),
                "the installations: a list of { installationId, platform, pushChannel, tags, userId } mappings, "
                    + "or a .jsonl, .json (array) or .csv file of them, streamed (JSON rows may also carry the installation's own "
                    + "`templates` and `pushVariables`, as NH's installation JSON has them); give this or `registrations`"
            )
        ).excluding(
            ["registrations"], hint: "one register step writes installations or registrations; use two steps for both"))
    package var installations: ConfigNode?
    /// `registrations`.
    @Key(
        .node(
            OptionSpec(
                "registrations",
                .anyOf([.list(.mapping(RegistrationEntry.specs)), .list(.mapping(RegistrationDeleteEntry.specs))]),
                "registrations to create or update: a list of { platform, handle, tags, template, id } mappings "
                    + "(without id, a new id is requested first); with `mode: delete`, a list of { id } to delete; "
                    + "give this or `installations`")))
    package var registrations: ConfigNode?
    /// `templates`.
    @Key(
        .stringList(
            "templates",
            "declared templates to attach to every installation; each must be for the installation's platform"))
    package var templates: [(value: String, node: ConfigNode)]
    /// `mode`.
    @Key(
        .choice(
            "mode", default: .put,
            "put creates or overwrites each installation, patch changes only what is given, delete removes it "
                + "(an installation, or a registration by id)"))
    package var mode: RegisterMode
    /// `add-tags`.
    @Key(.stringList("add-tags", "patch mode: tags to add to every installation")) package var addTags:
        [(value: String, node: ConfigNode)]
    /// `remove-tags`.
    @Key(.stringList("remove-tags", "patch mode: tags to remove from every installation")) package var removeTags:
        [(value: String, node: ConfigNode)]
    /// `concurrency`.
    @Key(BatchOptions.concurrency) package var concurrency: Int
    /// `rate`.
    @Key(BatchOptions.rate) package var rate: Double?
    /// `bad-rows`.
    @Key(BatchOptions.badRows) package var badRows: BadRowPolicy
    /// `idempotency-key`.
    @Key(RegisterOptions.perRow(BatchOptions.idempotencyKey)) package var idempotencyKey: TextTemplate?
    /// `shard-key`.
    @Key(RegisterOptions.perRow(BatchOptions.shardKey)) package var shardKey: String?
    /// `dedupe-window`, narrowed: only registrations without an id make something new.
    @Key(
        BatchOptions.dedupeWindow.described(
            "a registration without an id (each makes a new one) that a run of this pipeline made this recently with the "
                + "same key (default: the same handle, tags and template) is not made again (reported as already sent); 0 turns it off; "
                + "installations and registrations by id are always written"))
    package var dedupeWindow: Int64
    /// `retries`, `retry-delay`, `retry-max-delay`.
    @KeyGroup package var retry: RetryKeys

    /// Every key at its default.
    package init() {}

    /// `key`, accepted only beside `for-each`.
    private static func perRow<Value>(_ key: OptionKey<Value>) -> OptionKey<Value> {
        key.requiring(
            BatchOptions.forEach.key, because: "they read the columns of the rows",
            hint: "add `for-each: <rows file>` or remove `\(key.key)`")
    }

    /// The batch settings the keys give.
    var batch: BatchSettings {
        BatchSettings(
            concurrency: concurrency, rate: rate, badRows: badRows, idempotencyKey: idempotencyKey,
            dedupeWindow: dedupeWindow, shardKey: shardKey)
    }
}
