import PipelineCore
import RunFlow
import SQLiteRunStore

extension TestFileDecoder {
    /// `tables:`: by step id, tables of rows (mappings of column to value) a SQLite database is made of.
    func decodeTables(_ node: ConfigNode, _ reader: OptionReader) -> [DatabaseOverride] {
        guard let steps = node.entries else {
            reader.error(
                "'tables' must be a mapping of step ids to tables, found \(node.kindName)", at: node,
                hint: "e.g. tables: { unread: { users: [{ user_id: alice, unread: 3 }] } }")
            return []
        }
        return steps.compactMap { step in
            guard let tables = step.value.entries else {
                reader.error(
                    "the tables of '\(step.key)' must be a mapping of table names to rows, found \(step.value.kindName)",
                    at: step.value)
                return nil
            }
            let made = tables.compactMap { table -> SQLiteFixture.Table? in
                guard let rows = table.value.items else {
                    reader.error(
                        "table '\(table.key)' must be a list of rows, found \(table.value.kindName)", at: table.value)
                    return nil
                }
                guard !rows.isEmpty else {
                    // Its columns are the keys of its rows: a table without rows has none.
                    reader.error(
                        "table '\(table.key)' has no rows, so no columns", at: table.value,
                        hint: "to test a query that selects nothing, give rows it filters out")
                    return nil
                }
                var columns: [String] = []
                for row in rows {
                    guard let fields = row.entries else {
                        reader.error("a row must be a mapping of columns to values, found \(row.kindName)", at: row)
                        continue
                    }
                    for field in fields where !columns.contains(field.key) { columns.append(field.key) }
                }
                let values = rows.compactMap(\.entries).map { fields in
                    columns.map { column in fields.first { $0.key == column }.map { Self.value(of: $0.value) } ?? .null
                    }
                }
                return SQLiteFixture.Table(name: table.key, columns: columns, rows: values)
            }
            return DatabaseOverride(step: step.key, location: step.keyLocation, source: .tables(made))
        }
    }

    /// A YAML value as SQLite stores it: numbers as numbers, true and false as 1 and 0, nothing as NULL.
    static func value(of node: ConfigNode) -> SQLiteFixture.Value {
        switch JSONValue(node) {
        case .integer(let number): .integer(Int64(number))
        case .number(let number): .real(number)
        case .bool(let flag): .integer(flag ? 1 : 0)
        case .null: .null
        case .string(let text): .text(text)
        case let other: .text(other.compact)
        }
    }
}
