/// `shard-key`: which column places a row in a part of `pushline run --shard I/N`.
extension OptionSpec {
    /// The option, for steps that read rows.
    public static let shardKey = OptionSpec(
        "shard-key", .string, examples: ["userId"],
        "the column whose value places a row in one part of `pushline run --shard I/N` (rows with the same value go to the "
            + "same part); default: the row's idempotency key")
}

extension OptionReader {
    /// Reads `shard-key` (a column name); nil when not given or after reporting a problem (then `failed` is true).
    public func shardKey() -> (column: String?, failed: Bool) {
        guard let (text, node) = string("shard-key") else { return (nil, false) }
        let column = String(text.trimmingCharacters())
        guard !column.isEmpty, !column.contains("$(") else {
            error("'shard-key' names a column of the rows", at: node, hint: "write the column's name, e.g. shard-key: userId")
            return (nil, true)
        }
        return (column, false)
    }
}
