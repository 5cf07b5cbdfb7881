import PipelineCore

/// The values of earlier steps' outputs, put into the value of a key that holds `${steps.ID.OUTPUT}` references just
/// before the key is read.
///
/// Rows given whole (`for-each: ${steps.users.rows}`) become the rows handed on, typed, with their columns; a whole
/// list (`direct: ${steps.lookup.handles}`) becomes a list; anything else becomes text where the reference was, which
/// the key reads as it reads any value (a payload property is escaped by the template engine, never spliced into JSON
/// or XML). The value keeps the reference's place and its text as written, so messages quote the reference there.
struct OutputSubstitution: ReferenceValues {
    /// The outputs to take values from.
    let outputs: EarlierOutputs
    /// How messages name the step whose options these are.
    let consumer: String
    /// The file each rows reference is read from (its spool, copied out); rows without one have no file yet (a step
    /// built with samples before the run).
    let rowFiles: [OutputReference: String]

    /// Substitutes with `outputs` for the step `consumer` names.
    init(outputs: EarlierOutputs, consumer: String, rowFiles: [OutputReference: String] = [:]) {
        self.outputs = outputs
        self.consumer = consumer
        self.rowFiles = rowFiles
    }

    /// `node` with every reference replaced by its value; throws when a value is missing or does not fit.
    func resolve(_ node: ConfigNode) throws(StepFailure) -> ConfigNode {
        switch node.value {
        case .scalar(let scalar):
            guard let parts = scalar.deferred else { return node }
            if parts.count == 1, case .output(let reference) = parts[0],
                case .rows(let rows) = try outputs.value(of: reference, for: consumer)
            {
                var scalar = ConfigScalar(text: reference.written, sourceText: reference.written, isPlain: false)
                scalar.handedRows = HandedRows(reference: reference, path: rowFiles[reference], columns: rows.columns)
                return ConfigNode(.scalar(scalar), at: node.location)
            }
            if parts.count == 1, case .output(let reference) = parts[0], reference.index == nil,
                case .list(let values, let total) = try outputs.value(of: reference, for: consumer)
            {
                try complete(values, total, reference)
                return ConfigNode(
                    .sequence(
                        values.map {
                            ConfigNode(
                                .scalar(ConfigScalar(text: $0, sourceText: reference.written, isPlain: false)),
                                at: node.location)
                        }), at: node.location)
            }
            var text = ""
            for part in parts {
                switch part {
                case .text(let piece): text += piece
                case .output(let reference): text += try self.text(of: reference)
                }
            }
            return ConfigNode(
                .scalar(ConfigScalar(text: text, sourceText: scalar.sourceText, isPlain: false)), at: node.location)
        case .mapping(let entries):
            var replaced: [ConfigEntry] = []
            for entry in entries {
                replaced.append(
                    ConfigEntry(key: entry.key, keyLocation: entry.keyLocation, value: try resolve(entry.value)))
            }
            return ConfigNode(.mapping(replaced), at: node.location)
        case .sequence(let items):
            var replaced: [ConfigNode] = []
            for item in items { replaced.append(try resolve(item)) }
            return ConfigNode(.sequence(replaced), at: node.location)
        }
    }

    /// One value as text: a count, a text, or one item of a list.
    private func text(of reference: OutputReference) throws(StepFailure) -> String {
        let value = try outputs.value(of: reference, for: consumer)
        switch (value, reference.index) {
        case (.integer(let number), nil): return String(number)
        case (.string(let text), nil): return text
        case (.boolean(let value), nil): return value ? "true" : "false"
        case (.list(let values, let total), let index?):
            guard index < total else {
                throw StepFailure(
                    "\(consumer) uses \(reference.written), but '\(reference.output)' of step '\(reference.step)' holds \(total) item\(total == 1 ? "" : "s")",
                    hint: total == 0
                        ? "the step produced none; give this step a `when:` that checks for them" : "indexes start at 0"
                ).coded(.referenceUnavailable)
            }
            guard index < values.count else {
                throw StepFailure(
                    "\(consumer) uses \(reference.written), but only the first \(values.count) of the \(total) items of '\(reference.output)' are handed on",
                    hint: "the run journal has them all (`pushline runs show ID`)"
                ).coded(.referenceUnavailable)
            }
            return values[index]
        case (.rows, _):
            throw StepFailure(
                "\(consumer) uses \(reference.written), rows, inside other text",
                hint: "rows go whole into a `for-each`"
            ).coded(.referenceUnavailable)
        case (.list, nil):
            throw StepFailure(
                "\(consumer) uses \(reference.written), a list, where one value goes",
                hint:
                    "pick one item, e.g. \(OutputReference(step: reference.step, output: reference.output, index: 0).written)"
            ).coded(.referenceUnavailable)
        case (_, .some):
            throw StepFailure(
                "\(consumer) uses \(reference.written), but '\(reference.output)' is not a list",
                hint: "remove the index"
            ).coded(.referenceUnavailable)
        }
    }

    /// A list passes whole only when it holds every item (a partial list would drop some silently).
    private func complete(_ values: [String], _ total: Int, _ reference: OutputReference) throws(StepFailure) {
        guard values.count == total else {
            throw StepFailure(
                "\(consumer) uses \(reference.written), but only the first \(values.count) of its \(total) items are handed on; none was used",
                hint: "a list output passes whole up to \(values.count) items; the run journal has them all"
            ).coded(.referenceUnavailable)
        }
    }
}
