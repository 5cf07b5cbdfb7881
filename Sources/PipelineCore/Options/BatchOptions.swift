import HubExpressions

/// The keys of steps that work item by item through the batch runner (`send` with `for-each`, `register`),
/// declared once so both read, check and document them alike.
package enum BatchOptions {
    /// The default dedupe window: long enough to cover an operator fixing a failed night run the next
    /// morning and running it again, short enough that a daily job whose notification happens not to change
    /// (the same reminder every morning, with a few minutes of cron jitter) is never taken for a duplicate of
    /// yesterday's.
    package static let defaultDedupeWindow: Int64 = 12 * 3600

    /// `for-each`: the rows the step works through, declared by the engine for a step that conforms to `ForEachStep`.
    package static let forEach = OptionKey<RowInput>(
        OptionSpec(
            "for-each", .path, examples: ["${env:DIGEST_ROWS}", "../data/users.csv", "${steps.users.rows}"],
            "a .csv (header row), .jsonl or .json (array) file of rows, or an earlier step's rows (a query's), streamed: the step works once per row, and $(column) in its values takes the row's"
        )
    ) { reader, node in
        // An earlier step's rows arrive resolved by the engine, typed; anything else is a file's path.
        if let rows = node.scalar?.handedRows { return .handed(rows) }
        return reader.string("for-each").map { .file($0.value) }
    }

    /// `concurrency`: requests in flight.
    package static let concurrency = OptionKey<Int>.integer(
        "concurrency", in: 1...256, default: 16, "most requests in flight at once")

    /// `rate`: requests per second at most.
    package static let rate = OptionKey<Double>.number(
        "rate", in: 0.001...100_000, examples: ["200"],
        "most requests per second (e.g. 200), shared by the parts of a sharded run; slows down by itself when the hub throttles"
    )

    /// `bad-rows`: what the input check does with malformed rows.
    package static let badRows = OptionKey<BadRowPolicy>.choice(
        "bad-rows", default: .stop,
        "what to do when the input check finds malformed rows: stop (send nothing, the default) or skip (send the rest, report them)"
    )

    /// `idempotency-key`: what makes two items the same across runs, as `$(column)` text.
    package static let idempotencyKey = OptionKey<TextTemplate>(
        OptionSpec(
            "idempotency-key", .string, examples: ["\"digest-$(userId)\""],
            "what makes two items the same notification across runs of this pipeline and step; $(column) takes the "
                + "row's value. Default: a digest of the exact request (hub, audience or handle, format, headers, payload), "
                + "the same notification whichever pipeline or run sends it to that hub")
    ) { reader, node in
        let text = node.scalar?.text ?? ""
        guard !text.trimmingCharacters().isEmpty else {
            reader.error(
                "'idempotency-key' is empty", at: node,
                hint: "write a key that names the notification, e.g. \"digest-$(userId)\"")
            return nil
        }
        do throws(TemplateError) { return try TextTemplate(compiling: text) } catch {
            reader.error(
                "'idempotency-key' has a malformed reference: \(error.message) (character \(error.column))", at: node,
                hint: error.hint)
            return nil
        }
    }

    /// `dedupe-window`: how long an accepted key holds back the same item.
    package static let dedupeWindow = OptionKey<Int64>.duration(
        "dedupe-window", in: 0...(366 * 86400), default: defaultDedupeWindow, examples: ["12h", "30m", "0"],
        "an item whose idempotency key a run had accepted this recently is not sent again (reported as already "
            + "sent by that run); 0 turns it off; `pushline run --again` overrides it. The run journal keeps a run's "
            + "keys at least this long after it ends")

    /// `shard-key`: the column that places a row in a part of a split run.
    package static let shardKey = OptionKey<String>(
        OptionSpec(
            "shard-key", .string, examples: ["userId"],
            "the column whose value places a row in one part of `pushline run --shard I/N` (rows with the same value go to the "
                + "same part); default: the row's idempotency key")
    ) { reader, node in
        let column = String((node.scalar?.text ?? "").trimmingCharacters())
        guard !column.isEmpty, !column.contains("$(") else {
            reader.error(
                "'shard-key' names a column of the rows", at: node,
                hint: "write the column's name, e.g. shard-key: userId")
            return nil
        }
        return column
    }
}

/// How a batch step works through its items, read from the keys above; every key's default to begin with.
package struct BatchSettings: Sendable, Equatable {
    /// Requests in flight at once.
    package var concurrency = BatchOptions.concurrency.defaultValue ?? 16
    /// Requests per second at most; nil for no cap.
    package var rate: Double?
    /// What the input check does with malformed rows.
    package var badRows = BadRowPolicy.stop
    /// The declared idempotency key; nil: the request's digest is the key.
    package var idempotencyKey: TextTemplate?
    /// Seconds an accepted key holds the same item back; 0 for off.
    package var dedupeWindow = BatchOptions.defaultDedupeWindow
    /// The column that places a row in a part of `--shard I/N`; nil for the whole row.
    package var shardKey: String?

    /// The defaults of every key.
    package init() {}

    /// The settings the batch keys give.
    package init(
        concurrency: Int, rate: Double?, badRows: BadRowPolicy, idempotencyKey: TextTemplate?, dedupeWindow: Int64,
        shardKey: String?
    ) {
        self.concurrency = concurrency
        self.rate = rate
        self.badRows = badRows
        self.idempotencyKey = idempotencyKey
        self.dedupeWindow = dedupeWindow
        self.shardKey = shardKey
    }
}

/// The batch keys of a step that makes one request per row, as a group of its declared options
/// (`@KeyGroup var batch: BatchKeys`): the keys only rows give a meaning, and the idempotency keys. `for-each` itself
/// is the engine's, given to a step that conforms to `ForEachStep`.
package struct BatchKeys: DeclaredOptions {
    /// `concurrency`.
    @Key(BatchKeys.perRow(BatchOptions.concurrency)) package var concurrency: Int
    /// `rate`.
    @Key(BatchKeys.perRow(BatchOptions.rate)) package var rate: Double?
    /// `bad-rows`.
    @Key(BatchKeys.perRow(BatchOptions.badRows)) package var badRows: BadRowPolicy
    /// `shard-key`.
    @Key(BatchKeys.perRow(BatchOptions.shardKey)) package var shardKey: String?
    /// `idempotency-key`.
    @Key(BatchOptions.idempotencyKey) package var idempotencyKey: TextTemplate?
    /// `dedupe-window`.
    @Key(BatchOptions.dedupeWindow) package var dedupeWindow: Int64

    /// The defaults.
    package init() {}

    /// `key`, accepted only beside `for-each`.
    private static func perRow<Value>(_ key: OptionKey<Value>) -> OptionKey<Value> {
        key.requiring(
            BatchOptions.forEach.key, because: "for-each sends make one request per row",
            hint: "add `for-each: <rows file>` or remove `\(key.key)`")
    }

    /// The settings the keys give.
    package var settings: BatchSettings {
        BatchSettings(
            concurrency: concurrency, rate: rate, badRows: badRows, idempotencyKey: idempotencyKey,
            dedupeWindow: dedupeWindow, shardKey: shardKey)
    }
}
