/// A spelling of a step that an earlier release accepted: an entry of `kind` that has the key `key` is now a step
/// of `newKind`, with some keys renamed (`send: { cancel: ID }` is `cancel: { notification-ids: ID }`). The step
/// that took the old spelling over declares it; the registry reads the old form as the new one with a warning that
/// shows the new form and carries the edits, which `pushline validate --fix` applies to the file.
public struct StepMigration: Sendable {
    /// The kind the old spelling is written as.
    public let kind: String
    /// The key that marks the old spelling.
    public let key: String
    /// The kind it now is.
    public let newKind: String
    /// Keys renamed on the way, old to new.
    public let renamed: [String: String]

    /// Declares an old spelling.
    public init(kind: String, key: String, newKind: String, renamed: [String: String] = [:]) {
        self.kind = kind
        self.key = key
        self.newKind = newKind
        self.renamed = renamed
    }

    /// True when `invocation` is written in the old spelling.
    package func applies(to invocation: StepInvocation) -> Bool {
        invocation.kind == kind && invocation.options.entries?.contains { $0.key == key } == true
    }

    /// `invocation` in the new spelling; the warning (with its edits) goes to `diagnostics`.
    package func migrate(_ invocation: StepInvocation, _ diagnostics: DiagnosticCollector) -> StepInvocation {
        var migrated = invocation
        let entries = invocation.options.entries ?? []
        let renamedEntries = entries.map { entry in
            ConfigEntry(key: renamed[entry.key] ?? entry.key, keyLocation: entry.keyLocation, value: entry.value)
        }
        migrated.kind = newKind
        migrated.options = ConfigNode(.mapping(renamedEntries), at: invocation.options.location)
        var fixes = [FixIt(at: invocation.location, replacing: kind, with: newKind)]
        fixes += entries.compactMap { entry in
            renamed[entry.key].map { FixIt(at: entry.keyLocation, replacing: entry.key, with: $0) }
        }
        let shown = renamedEntries.map { "\($0.key): \($0.value.scalar?.sourceText ?? "…")" }.joined(separator: ", ")
        diagnostics.warning(
            "`\(kind):` with `\(key):` is now a step of its own: `\(newKind): { \(shown) }`", at: invocation.location,
            step: newKind,
            hint:
                "`pushline validate --fix \(invocation.location.file)` rewrites it; the old form stops working in a later release",
            fixes: fixes)
        return migrated
    }
}
