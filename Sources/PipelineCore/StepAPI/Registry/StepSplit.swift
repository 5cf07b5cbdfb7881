import Foundation

/// A spelling an earlier release accepted in which a key of one step did another step's work
/// (`send: { outcomes: { wait: 10m } }`): that work is now a step of its own, right after. The step that took the work
/// over declares the split; the registry reads the old form as the two steps, with a warning that shows the new step and
/// carries the edits `pushline validate --fix` makes to the file, all together or none.
public struct StepSplit: Sendable {
    /// The kind the old spelling is written as.
    public let kind: String
    /// The key that did the other step's work; its value is a mapping of the new step's keys.
    public let key: String
    /// The kind the work now is.
    public let newKind: String
    /// Keys of the old step the new one takes as they are (the hub).
    public let shared: [String]
    /// The new step's key that names the old step by its `id:`.
    public let naming: String
    /// The outputs that moved with the work: a later step's references to them read the new step.
    public let outputs: [String]

    /// Declares a split.
    public init(kind: String, key: String, newKind: String, shared: [String], naming: String, outputs: [String]) {
        self.kind = kind
        self.key = key
        self.newKind = newKind
        self.shared = shared
        self.naming = naming
        self.outputs = outputs
    }

    /// True when `invocation` is written in the old spelling.
    package func applies(to invocation: StepInvocation) -> Bool {
        invocation.kind == kind && invocation.options.entries?.contains { $0.key == key } == true
    }
}

/// The old step without the key, the new step after it, and what a later step's reference to a moved output now names.
package struct SplitStep {
    /// The old step, without the key (and with an `id:` when it had none).
    package var old: StepInvocation
    /// The new step.
    package var new: StepInvocation
    /// The id whose moved outputs now belong to `newId`.
    package var oldId: String
    /// The new step's id.
    package var newId: String
    /// The outputs that moved.
    package var outputs: Set<String>
    /// The edits of the file, without those of later steps' references.
    package var fixes: [FixIt]
    /// The new step as the file would have it, for the warning.
    package var shown: String

    /// `reference` as it reads now: a moved output of the old step is the new step's.
    package func moved(_ reference: OutputReference) -> OutputReference {
        guard reference.step == oldId, outputs.contains(reference.output) else { return reference }
        return OutputReference(step: newId, output: reference.output, index: reference.index)
    }
}

extension StepSplit {
    /// `invocation` as two steps; `ids` are the ids the file uses, which the new ones are kept apart from. A value of
    /// the key that is not a mapping of the new step's keys is an error: nothing it said is dropped unread.
    package func split(_ invocation: StepInvocation, ids: inout Set<String>, _ diagnostics: DiagnosticCollector)
        -> SplitStep
    {
        let entries = invocation.options.entries ?? []
        let moved = entries.first { $0.key == key }
        if let value = moved?.value, value.entries == nil, !value.isNull {
            diagnostics.error(
                "'\(key)' must be a mapping such as { wait: 10m }, found \(value.kindName)", at: value.location,
                step: newKind,
                hint: "write its keys as the `\(newKind)` step has them")
        }
        var old = invocation
        old.options = ConfigNode(.mapping(entries.filter { $0.key != key }), at: invocation.options.location)
        let oldId = invocation.id ?? Self.unused("\(kind)-\(invocation.index)", in: &ids)
        old.id = oldId
        let newId = Self.unused("\(oldId)-\(newKind)", in: &ids)
        var newEntries = entries.filter { shared.contains($0.key) }
        let at = moved?.keyLocation ?? invocation.location
        newEntries.append(
            ConfigEntry(key: naming, keyLocation: at, value: ConfigNode(.scalar(ConfigScalar(text: oldId)), at: at)))
        newEntries += moved?.value.entries ?? []
        let new = StepInvocation(
            index: invocation.index + 1, kind: newKind, location: at, options: ConfigNode(.mapping(newEntries), at: at),
            id: newId, condition: invocation.condition)
        let flow =
            "{ " + newEntries.map { "\($0.key): \(Self.text(of: $0.value) ?? "…")" }.joined(separator: ", ") + " }"
        let when = invocation.condition == .success ? "" : ", with its `when:`"
        let named = invocation.id == nil ? " (`id: \(oldId)`)" : ""
        return SplitStep(
            old: old, new: new, oldId: oldId, newId: newId, outputs: Set(outputs), fixes: [],
            shown: "the \(kind)\(named), then `- \(newKind): \(flow)`\(when)"
        ).withFixes(for: invocation, removing: moved, flow: flow, addsId: invocation.id == nil, split: self)
    }

    /// `base`, or `base-2`, `base-3`, … whichever the file does not use yet (then it does).
    private static func unused(_ base: String, in ids: inout Set<String>) -> String {
        var candidate = base
        var number = 2
        while ids.contains(candidate) {
            candidate = "\(base)-\(number)"
            number += 1
        }
        ids.insert(candidate)
        return candidate
    }

    /// A value as it can be written on one line: a scalar as written (quoted unless plain), a flow mapping of scalars;
    /// nil for anything else.
    static func text(of node: ConfigNode) -> String? {
        if let scalar = node.scalar {
            guard !scalar.sourceText.contains("\n") else { return nil }
            if scalar.isPlain { return scalar.sourceText }
            return "\""
                + scalar.sourceText.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"") + "\""
        }
        guard let entries = node.entries else { return nil }
        var parts: [String] = []
        for entry in entries {
            guard let value = text(of: entry.value) else { return nil }
            parts.append("\(entry.key): \(value)")
        }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}

extension SplitStep {
    /// With the edits that make the file say what the registry read: the key out of the old step, an `id:` for the old
    /// step when it had none, the new step after the old one. None when the file is not written in a shape they can be
    /// made to with certainty (a value over several lines, a comment between the keys): the warning says what to write.
    fileprivate func withFixes(
        for invocation: StepInvocation, removing moved: ConfigEntry?, flow: String, addsId: Bool, split: StepSplit
    ) -> SplitStep {
        var copy = self
        // A value that is not a mapping of the new step's keys was reported: nothing is rewritten over it.
        guard let moved, moved.value.entries != nil, let removal = Self.removal(of: moved, from: invocation),
            let last = Self.lastLine(of: invocation)
        else { return copy }
        let dash = max(1, invocation.location.column - 2)
        let indent = String(repeating: " ", count: dash - 1)
        var inserted = ""
        if addsId { inserted += "\(indent)  id: \(oldId)\n" }
        inserted += "\(indent)- id: \(newId)\n"
        switch invocation.condition {
        case .success: break
        case .failure, .always: inserted += "\(indent)  when: \(invocation.condition.written)\n"
        case .expression(_, let written):
            inserted += "\(indent)  when: '\(written.replacingOccurrences(of: "'", with: "''"))'\n"
        }
        inserted += "\(indent)  \(split.newKind): \(flow)\n"
        let file = invocation.location.file
        copy.fixes =
            removal + [FixIt(at: SourceLocation(file: file, line: last + 1, column: 1), replacing: "", with: inserted)]
        return copy
    }

    /// The edit that takes `moved` out of the old step's options, when its text can be known from its nodes.
    private static func removal(of moved: ConfigEntry, from invocation: StepInvocation) -> [FixIt]? {
        let entries = invocation.options.entries ?? []
        guard let position = entries.firstIndex(where: { $0.key == moved.key }) else { return nil }
        let key = moved.keyLocation
        let sameLine = entries.filter { $0.keyLocation.line == key.line && $0.key != moved.key }
        if let value = StepSplit.text(of: moved.value), moved.value.location.line == key.line {
            let written = "\(moved.key): \(value)"
            if !sameLine.isEmpty {
                // Inside a flow mapping: with the comma before it, or after it when it comes first.
                if position > 0, entries[position - 1].keyLocation.line == key.line {
                    return [
                        FixIt(
                            at: SourceLocation(file: key.file, line: key.line, column: key.column - 2),
                            replacing: ", \(written)", with: "")
                    ]
                }
                return [FixIt(at: key, replacing: "\(written), ", with: "")]
            }
            // Its own line of a block mapping.
            return [
                FixIt(
                    at: SourceLocation(file: key.file, line: key.line, column: 1),
                    replacing: String(repeating: " ", count: key.column - 1) + written + "\n", with: "")
            ]
        }
        // A block mapping under the key, one `key: value` per line.
        guard sameLine.isEmpty, let inner = moved.value.entries, !inner.isEmpty else { return nil }
        var lines = [String(repeating: " ", count: key.column - 1) + "\(moved.key):"]
        for (offset, entry) in inner.enumerated() {
            guard entry.keyLocation.line == key.line + 1 + offset, let value = StepSplit.text(of: entry.value),
                entry.value.scalar != nil
            else { return nil }
            lines.append(String(repeating: " ", count: entry.keyLocation.column - 1) + "\(entry.key): \(value)")
        }
        return [
            FixIt(
                at: SourceLocation(file: key.file, line: key.line, column: 1),
                replacing: lines.joined(separator: "\n") + "\n", with: "")
        ]
    }

    /// The last line the step is written on; nil when a value of it may run over more lines than its start says (a
    /// block or folded scalar).
    private static func lastLine(of invocation: StepInvocation) -> Int? {
        var last = max(invocation.location.line, invocation.conditionLocation?.line ?? 0)
        func visit(_ node: ConfigNode) -> Bool {
            last = max(last, node.location.line)
            if let scalar = node.scalar {
                return !scalar.sourceText.contains("\n") && (scalar.isPlain || !scalar.text.contains("\n"))
            }
            for entry in node.entries ?? [] {
                last = max(last, entry.keyLocation.line)
                if !visit(entry.value) { return false }
            }
            for item in node.items ?? [] where !visit(item) { return false }
            return true
        }
        guard visit(invocation.options) else { return nil }
        for stray in invocation.strays {
            last = max(last, stray.keyLocation.line)
            guard visit(stray.value) else { return nil }
        }
        return last
    }
}
