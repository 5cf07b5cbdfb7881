/// One value a step hands to later steps, declared beside its options: the reference, `pushline steps` and
/// the schema describe it, and the engine keeps what the step produced under its name.
public struct OutputSpec: Sendable, Equatable {
    /// The kinds of value an output holds.
    public enum ValueType: String, Sendable, Equatable, CaseIterable {
        /// A whole number (a count).
        case integer
        /// Text.
        case string
        /// True or false (whether something happened), for `when:` and for text as `true`/`false`.
        case boolean
        /// A list of text (ids).
        case list
        /// Rows (a query's): each a set of named fields, kept in the run store; only a `for-each` takes them.
        case rows

        /// How the type reads in documentation.
        public var documentation: String {
            switch self {
            case .integer: "integer"
            case .string: "string"
            case .boolean: "boolean"
            case .list: "list of strings"
            case .rows: "rows"
            }
        }
    }

    /// The output's name, as later steps write it.
    public let name: String
    /// What it holds.
    public let type: ValueType
    /// One line saying what it is.
    public let summary: String
    /// For rows whose columns are the same every run (a plugin declares them): those columns; nil when they vary.
    public let columns: [String]?
    /// The attribute the step's span carries this output as (`traced(as:count:)`); nil for an output a span does not carry.
    public private(set) var spanAttribute: String?
    /// For a list carried by a span: the attribute that carries how many values it holds (the span lists the first 20).
    public private(set) var spanCountAttribute: String?

    /// Declares an output; `columns` only for rows whose columns are fixed.
    public init(_ name: String, _ type: ValueType, _ summary: String, columns: [String]? = nil) {
        self.name = name
        self.type = type
        self.summary = summary
        self.columns = type == .rows ? columns : nil
    }

    /// This output, carried by the step's span as `attribute` (a count or a state an operator follows in traces; a
    /// list as its first values, with `count` holding how many there are), by default `pushline.output.NAME`. Only
    /// values a report shows, never a secret.
    public func traced(as attribute: String? = nil, count: String? = nil) -> OutputSpec {
        var traced = self
        traced.spanAttribute = attribute ?? "pushline.output.\(name)"
        traced.spanCountAttribute = type == .list ? count : nil
        return traced
    }
}

/// A value a step produced for one of its declared outputs.
public enum OutputValue: Sendable, Equatable {
    /// A whole number.
    case integer(Int)
    /// Text.
    case string(String)
    /// True or false.
    case boolean(Bool)
    /// A list. `total` counts every value the step produced; `values` holds them all, or the first ones when the
    /// step keeps only those (its journal has the rest), so a later step can tell a partial list from a whole one.
    case list([String], total: Int)
    /// Rows spooled into the run store (or, in a dry run, a file of this process).
    case rows(SpooledRows)

    /// The value's type.
    public var type: OutputSpec.ValueType {
        switch self {
        case .integer: .integer
        case .string: .string
        case .boolean: .boolean
        case .list: .list
        case .rows: .rows
        }
    }

    /// As the JSON report writes it: a list that holds only its first values says how many there were.
    public var report: ReportValue {
        switch self {
        case .integer(let value): .int(value)
        case .string(let value): .string(value)
        case .boolean(let value): .bool(value)
        case .list(let values, let total) where values.count == total: .array(values.map(ReportValue.string))
        case .list(let values, let total):
            .object([ReportField("first", .array(values.map(ReportValue.string))), ReportField("total", .int(total))])
        case .rows(let rows): rows.report
        }
    }
}

/// What a step produced, by output name.
public typealias StepOutputs = [String: OutputValue]
