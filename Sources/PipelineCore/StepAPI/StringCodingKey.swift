/// A coding key for any string: report fields, and JSON objects whose unknown keys are named in errors.
public struct StringCodingKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    /// The key `string`.
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
