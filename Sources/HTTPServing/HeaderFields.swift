/// Header fields in the order they were written; names compare without case.
public struct HeaderFields: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One field.
    public struct Field: Sendable, Equatable {
        /// Its name.
        public let name: HeaderName
        /// Its value.
        public let value: String
    }

    private var fields: [Field]

    /// No fields.
    public init() { fields = [] }

    /// Fields in the given order.
    public init(dictionaryLiteral elements: (HeaderName, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`; setting replaces every value of `name` (nil removes them).
    public subscript(name: HeaderName) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            fields.removeAll { $0.name == name }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of `name`, in order.
    public func values(_ name: HeaderName) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Adds a field, keeping any with the same name.
    public mutating func append(_ name: HeaderName, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields, with credential values replaced by `<redacted>`: a printed request never shows a secret.
    public var description: String {
        "["
            + fields.map { field in
                let value = HeaderName.credentials.contains(field.name) ? "<redacted>" : field.value
                return "\(field.name.rawName): \(value)"
            }.joined(separator: ", ") + "]"
    }
}
