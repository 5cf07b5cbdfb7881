/// One `name=value` pair of a request URL's query.
struct QueryItem: Equatable {
    /// Written as is (names such as `$filter` and `$top` are literal in every SDK).
    let name: String
    /// The value as it goes on the wire.
    let encodedValue: String

    /// A value that is form-encoded (space as `+`).
    init(_ name: String, _ value: String) {
        self.name = name
        self.encodedValue = PercentCoding.formEncode(value)
    }

    /// A value that arrives already encoded (the service's continuation token): kept as is, except for the
    /// characters that would end or corrupt the query item.
    init(_ name: String, preEncoded value: String) {
        self.name = name
        self.encodedValue = PercentCoding.encodeQueryUnsafe(value)
    }
}
