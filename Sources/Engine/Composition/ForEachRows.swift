import PipelineCore
import RowReading

/// `for-each` of a step that works once per row, which the engine reads and opens for it: the step is handed a
/// `RowSource` with the columns known before the run, never a path to open.
enum ForEachRows: Sendable {
    /// No `for-each`: the step does its work once.
    case none
    /// Rows that opened: a file (a CSV's header read), or an earlier step's rows copied out for this run.
    case opened(RowSource)
    /// Rows only the run has: an earlier step's (`${steps.users.rows}`), or a path built from an output. `value` is
    /// resolved and opened when the step runs; until then the step is built with `standIn` (never read), which carries
    /// the producer's declared columns when it has them, so what the step reads is checked at build time.
    case waiting(value: ConfigNode, standIn: RowSource)
    /// Given but not usable: reported here, or an unresolved `${env:…}` reported by the loader. The step is built with
    /// `standIn` to report its other problems at once, then left out.
    case unusable(standIn: RowSource)

    /// The rows to build the step with now: the opened ones or a stand-in; nil without `for-each`.
    var source: RowSource? {
        switch self {
        case .none: nil
        case .opened(let source), .waiting(_, let source), .unusable(let source): source
        }
    }

    /// The file it names, when it names one (opened when the pipeline was built); nil for an earlier step's rows.
    var file: RowSource? {
        if case .opened(let source) = self { source } else { nil }
    }

    /// Reads `for-each` from `options` of a step of `kind`, opening a file now (relative to the pipeline, or to the
    /// current directory when a reference gave the path whole) and reporting a problem at its value. `declared` gives
    /// the columns an earlier step declares for a rows output, and how to name it.
    static func read(
        _ options: ConfigNode, of kind: StepKind, in context: BuildContext,
        declared: (OutputReference) -> KnownColumns?, _ diagnostics: DiagnosticCollector
    ) -> ForEachRows {
        guard kind.takesRows, let entry = options.entries?.first(where: { $0.key == BatchOptions.forEach.key }) else {
            return .none
        }
        let value = entry.value
        let written = value.scalar?.text ?? ""
        let standIn = RowSource(path: "", shown: written, format: RowSource.format(of: written) ?? .jsonl)
        if value.isNull {
            diagnostics.error(
                "'\(entry.key)' has no value", at: entry.keyLocation, step: kind.id,
                hint: "give `for-each:` a .csv, .jsonl or .json file, or an earlier step's rows (${steps.ID.rows})")
            return .unusable(standIn: standIn)
        }
        // An earlier step's output is unresolved until the step runs; any other unresolved value was reported.
        if let scalar = value.scalar, !value.deferredScalars.isEmpty {
            guard scalar.deferred?.count == 1, let reference = scalar.outputReferences.first else {
                return .waiting(value: value, standIn: standIn)
            }
            let shown = OutputReference(step: reference.step, output: reference.output).shown
            return .waiting(
                value: value, standIn: RowSource(path: "", shown: shown, format: .jsonl, columns: declared(reference)))
        }
        if value.containsUnresolved { return .unusable(standIn: standIn) }
        return open(value, of: kind, in: context, diagnostics).map(ForEachRows.opened) ?? .unusable(standIn: standIn)
    }

    /// Opens `value`, the `for-each` value with any references in it resolved: a file, or an earlier step's rows as
    /// the engine copied them out. Nil after reporting why it cannot be used.
    static func open(
        _ value: ConfigNode, of kind: StepKind, in context: BuildContext, _ diagnostics: DiagnosticCollector
    ) -> RowSource? {
        let entry = ConfigEntry(key: BatchOptions.forEach.key, keyLocation: value.location, value: value)
        let reader = OptionReader(
            entries: [entry], node: ConfigNode(.mapping([entry]), at: value.location), step: kind.id,
            diagnostics: diagnostics, specs: [BatchOptions.forEach.spec], context: context)
        guard let input = reader.value(BatchOptions.forEach) else { return nil }
        switch input {
        case .handed(let rows):
            // Checked against the columns the producer declared when the pipeline was built; read row by row now.
            let source = RowSource(path: rows.path ?? "", shown: rows.reference.shown, format: .jsonl)
            guard rows.path != nil else { return source }
            do { _ = try source.header() } catch {
                reader.error(error.message, at: value)
                return nil
            }
            return source
        case .file(let path):
            guard let format = RowSource.format(of: path) else {
                reader.error(
                    "for-each file \(value.scalar?.quoted ?? "") must end in .csv, .jsonl or .json", at: value,
                    hint:
                        ".csv: a header row, then one row per line; .jsonl: one JSON object per line; .json: an array of objects"
                )
                return nil
            }
            let resolved = value.scalar.map(context.path(of:)) ?? context.path(path)
            let file = RowSource(path: resolved, shown: FilePath.shown(resolved), format: format)
            do {
                let header = try file.header()
                return RowSource(
                    path: resolved, shown: file.shown, format: format, columns: header.map(KnownColumns.header))
            } catch {
                reader.error(error.message, at: value)
                return nil
            }
        }
    }
}

extension OutputReference {
    /// How messages name the rows: `steps.users.rows`.
    var shown: String { String(written.dropFirst(2).dropLast()) }
}
