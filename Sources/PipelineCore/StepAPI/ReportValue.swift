/// A JSON value for reports, with object keys kept in the order steps wrote them.
public indirect enum ReportValue: Sendable, Equatable, Encodable {
    /// A string.
    case string(String)
    /// An integer.
    case int(Int)
    /// A boolean.
    case bool(Bool)
    /// JSON null.
    case null
    /// An array.
    case array([ReportValue])
    /// An object; keys in order.
    case object([ReportField])

    /// Encodes as plain JSON.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .int(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .bool(let value):
            var c = encoder.singleValueContainer()
            try c.encode(value)
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .array(let values):
            var c = encoder.unkeyedContainer()
            for value in values { try c.encode(value) }
        case .object(let fields):
            var c = encoder.container(keyedBy: StringCodingKey.self)
            for field in fields { try c.encode(field.value, forKey: StringCodingKey(field.key)) }
        }
    }
}

/// One key of a `ReportValue.object`.
public struct ReportField: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: ReportValue

    /// Creates a field.
    public init(_ key: String, _ value: ReportValue) {
        self.key = key
        self.value = value
    }
}
