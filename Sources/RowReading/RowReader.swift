import Foundation
import HubExpressions
import HubWire
import PipelineCore

/// Streams a `RowSource` as rows of column → text, or problems located at `file:line`.
///
/// A malformed row (bad CSV, wrong field count, not a JSON object, a non-text value) is reported
/// and reading goes on with the next one; only a file that cannot be read at all, or a bad CSV
/// header, stops it.
public final class RowReader {
    /// One row, or why it cannot be used; `number` counts rows (1-based, the CSV header excluded),
    /// `line` is where the row starts in the file.
    public enum Item: Sendable {
        /// A row, on lines `line` through `through` (the same line unless a quoted CSV field spans lines).
        case row(number: Int, line: Int, values: TemplateProperties, digest: String, through: Int)
        /// A malformed row.
        case problem(number: Int, line: Int, message: String)
    }

    /// The CSV header (nil for JSON formats).
    public let columns: [String]?
    /// The columns as lookups fold them, worked out once (the header has no two that differ only in case).
    private let foldedColumns: [String]
    private let records: RecordStream
    private var number = 0
    /// False for a reader whose rows' digests nobody reads (the input check before a send): each row's `digest` is empty.
    private let digests: Bool

    init(_ source: RowSource, digests: Bool = true) throws {
        self.digests = digests
        records = try RecordStream(
            path: RowFiles.path(of: source.path), format: source.format, maxBytes: RowSource.maxRowBytes,
            elements: "rows")
        guard source.format == .csv else {
            columns = nil
            foldedColumns = []
            return
        }
        switch try records.next() {
        case nil:
            throw RowSourceError(
                "for-each file '\(source.shown)' is empty; a CSV file starts with a header row naming the columns")
        case .problem(let message, let line)?:
            throw RowSourceError("\(source.shown):\(line): the header row is malformed: \(message)")
        case .fields(let names, let line, _)?:
            if let problem = Self.headerProblem(names) { throw RowSourceError("\(source.shown):\(line): \(problem)") }
            columns = names
            foldedColumns = names.map(TemplateProperties.folded)
            records.expect(fields: names.count)
        case .json?:
            columns = nil
            foldedColumns = []
        }
    }

    /// How reports name a row: `rows.csv:42`, or `rows.csv:42-44` for a record whose quoted field spans lines.
    public static func origin(_ shown: String, line: Int, through: Int) -> String {
        through > line ? "\(shown):\(line)-\(through)" : "\(shown):\(line)"
    }

    /// True when `origin` (as `origin(_:line:through:)` wrote it, perhaps followed by ` (device 2)`) names a
    /// record that spans several lines.
    public static func spansLines(_ origin: String) -> Bool {
        origin.range(of: #":[0-9]+-[0-9]+( \(device [0-9]+\))?$"#, options: .regularExpression) != nil
    }

    /// Duplicate or empty column names make rows ambiguous.
    static func headerProblem(_ names: [String]) -> String? {
        var seen: Set<String> = []
        for (position, name) in names.enumerated() {
            if name.isEmpty { return "column \(position + 1) of the header has no name" }
            guard seen.insert(name.lowercased()).inserted else { return "the header names column '\(name)' twice" }
        }
        return nil
    }

    /// The next row or problem; nil at the end of the file.
    public func next() throws(TextFile.Failure) -> Item? {
        guard let record = try records.next() else { return nil }
        number += 1
        switch record {
        case .problem(let message, let line):
            return .problem(number: number, line: line, message: message)
        case .json(let bytes, let line):
            return Self.object(bytes, number: number, line: line)
        case .fields(let fields, let line, let through):
            let columns = columns ?? []
            guard fields.count == columns.count else {
                return .problem(
                    number: number, line: line,
                    message: "the row has \(fields.count) fields; the header has \(columns.count)")
            }
            return .row(
                number: number, line: line,
                values: TemplateProperties(names: columns, foldedNames: foldedColumns, row: fields),
                digest: digests ? RowDigest.of(fields) : "", through: through)
        }
    }

    /// A JSON object whose values are text, numbers, booleans or null (taken as their text).
    static func object(_ bytes: [UInt8], number: Int, line: Int) -> Item {
        let object: [String: RowValue]
        do {
            object = try JSONDecoder().decode([String: RowValue].self, from: Data(bytes))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            let key = context.codingPath[0].stringValue
            return .problem(
                number: number, line: line,
                message: "'\(key)' holds a list or an object; for-each values are text, numbers or booleans")
        } catch DecodingError.typeMismatch {
            return .problem(number: number, line: line, message: "the row is not a JSON object")
        } catch {
            return .problem(number: number, line: line, message: "the row is not valid JSON")
        }
        var values: [String: String] = [:]
        var parts: [String] = []
        for key in object.keys.sorted() {
            let text = object[key]?.text ?? ""
            values[key] = text
            parts += [key, text]
        }
        return .row(
            number: number, line: line, values: TemplateProperties(values), digest: RowDigest.of(parts), through: line)
    }
}

/// One JSON value of a row, as text: numbers keep their digits, booleans read `true`/`false`, null is empty.
struct RowValue: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = ""
            return
        }
        if let string = try? container.decode(String.self) {
            text = string
            return
        }
        if let bool = try? container.decode(Bool.self) {
            text = bool ? "true" : "false"
            return
        }
        if let integer = try? container.decode(Int64.self) {
            text = String(integer)
            return
        }
        text = String(try container.decode(Double.self))
    }
}
