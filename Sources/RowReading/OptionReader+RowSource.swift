import PipelineCore

extension OptionReader {
    /// Opens `for-each:`'s rows: a `.csv`, `.jsonl` or `.json` file that opens (and, for CSV, has a header), or an
    /// earlier step's rows; nil after reporting a problem.
    ///
    /// A path given whole by a reference (`${env:ROWS}`) is relative to the current directory, one written
    /// in the pipeline to the pipeline; rows are reported as `file:line` under the path as it can be opened.
    package func rowSource(_ input: RowInput, at node: ConfigNode, in context: BuildContext) -> RowSource? {
        switch input {
        case .handed(let rows): return rowSource(rows, at: node)
        case .file(let path): return rowSource(path, at: node, in: context)
        }
    }

    /// An earlier step's rows: the JSON Lines file the engine copied them to, one object per line, named in messages
    /// by the reference; not opened while the pipeline is built (no rows exist yet).
    private func rowSource(_ rows: HandedRows, at node: ConfigNode) -> RowSource? {
        let shown = String(rows.reference.written.dropFirst(2).dropLast())
        let source = RowSource(path: rows.path ?? "", shown: shown, format: .jsonl)
        if rows.path != nil {
            do { _ = try source.columns() } catch {
                self.error(error.message, at: node)
                return nil
            }
        }
        return source
    }

    private func rowSource(_ path: String, at node: ConfigNode, in context: BuildContext) -> RowSource? {
        guard let format = RowSource.format(of: path) else {
            error("for-each file \(node.scalar?.quoted ?? "") must end in .csv, .jsonl or .json", at: node,
                  hint: ".csv: a header row, then one row per line; .jsonl: one JSON object per line; .json: an array of objects")
            return nil
        }
        let resolved = node.scalar.map(context.path(of:)) ?? context.path(path)
        let source = RowSource(path: resolved, shown: FilePath.shown(resolved), format: format)
        do { _ = try source.columns() } catch {
            self.error(error.message, at: node)
            return nil
        }
        return source
    }

    /// Reports every column in `columns` that the CSV header of `source` lacks, with "did you mean"
    /// (JSON rows have no header; they are checked row by row).
    public func checkColumns(_ columns: [String], of source: RowSource) {
        guard let header = try? source.columns() else { return }
        let known = Set(header.map { $0.lowercased() })
        for column in columns where !known.contains(column.lowercased()) {
            error("the step reads column '\(column)', which the header of '\(source.shown)' does not have\(Suggestion.didYouMean(column, in: header))",
                  at: node("for-each") ?? node, hint: "columns: \(header.joined(separator: ", "))")
        }
    }
}
