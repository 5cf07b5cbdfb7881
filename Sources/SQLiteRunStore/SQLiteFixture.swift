import CSQLite
import Foundation
import RunStore

/// A SQLite database made from tables of rows: what `pushline test` gives a `query` step in place of the app's
/// database. Each column is declared with the type its values have (INTEGER, REAL, else TEXT), so comparisons in a
/// query behave as they do against a table declared that way.
package enum SQLiteFixture {
    /// One value of a row.
    package enum Value: Sendable, Equatable {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null
    }

    /// One table: its name, its columns and its rows (a value per column, in order).
    package struct Table: Sendable {
        package var name: String
        package var columns: [String]
        package var rows: [[Value]]

        package init(name: String, columns: [String], rows: [[Value]]) {
            self.name = name
            self.columns = columns
            self.rows = rows
        }
    }

    /// Writes `tables` into a new database at `path` (which must not exist yet).
    package static func create(at path: String, tables: [Table]) throws(RunStoreError) {
        let connection = try SQLiteConnection(path: path)
        for table in tables {
            let types = table.columns.indices.map { column in
                let values = table.rows.map { $0.indices.contains(column) ? $0[column] : .null }.filter { $0 != .null }
                if !values.isEmpty, values.allSatisfy({ if case .integer = $0 { true } else { false } }) {
                    return "INTEGER"
                }
                if !values.isEmpty, values.allSatisfy({ if case .text = $0 { false } else { true } }) { return "REAL" }
                return "TEXT"
            }
            let columns = zip(table.columns, types).map { "\(quoted($0)) \($1)" }.joined(separator: ", ")
            try connection.executeScript("CREATE TABLE \(quoted(table.name)) (\(columns))", doing: "creating a table")
            let insert =
                "INSERT INTO \(quoted(table.name)) VALUES (\(table.columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))"
            for row in table.rows {
                try connection.execute(insert) { (statement) throws(RunStoreError) in
                    for (index, value) in row.enumerated() where index < table.columns.count {
                        let position = Int32(index + 1)
                        switch value {
                        case .integer(let number): try statement.bind(position, number)
                        case .real(let number): try statement.bind(position, number)
                        case .text(let text): try statement.bind(position, text)
                        case .null: try statement.bind(position, nil as String?)
                        }
                    }
                }
            }
        }
    }

    /// An SQL identifier, quoted.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
