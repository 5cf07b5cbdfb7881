/// The property values a template is rendered with. Names are looked up case-insensitively
/// (docs §7.2), so keys are case-folded once here rather than on every render.
public struct TemplateProperties: Sendable, Equatable {
    /// The values exactly as given.
    public let values: [String: String]
    /// Keys folded to ASCII lower case; on a case conflict the value of the smallest key wins,
    /// so the choice is at least deterministic (callers are expected to reject conflicts).
    let folded: [String: String]

    /// Wraps `values`; keys may use any case.
    public init(_ values: [String: String]) {
        self.values = values
        var folded: [String: String] = [:]
        folded.reserveCapacity(values.count)
        for (key, value) in values { folded[ASCII.lowercased(key)] = value }
        if folded.count != values.count {
            // Rare conflict: redo in descending key order so the smallest key is written last.
            for key in values.keys.sorted(by: >) { folded[ASCII.lowercased(key)] = values[key] }
        }
        self.folded = folded
    }

    /// The values of one row of a file, by columns whose folded names (`folded(_:)`) the caller worked out once and
    /// which differ from one another: a rows file makes one of these per row, so the names are not folded again each
    /// time. `row` has a value per name.
    public init(names: [String], foldedNames: [String], row: [String]) {
        var values = [String: String](minimumCapacity: names.count)
        var folded = [String: String](minimumCapacity: names.count)
        for index in names.indices where index < row.count {
            values[names[index]] = row[index]
            folded[foldedNames[index]] = row[index]
        }
        self.values = values
        self.folded = folded
    }

    /// `name` as lookups fold it: ASCII letters in lower case.
    public static func folded(_ name: String) -> String {
        ASCII.lowercased(name)
    }

    /// The value for `name`, ignoring ASCII case; `nil` when there is none.
    public subscript(name: String) -> String? {
        // A name without ASCII capitals is looked up as it is (no copy): callers that ask every row fold names once.
        folded[ASCII.lowercased(name)]
    }

    /// Every name that differs from another only in case, sorted. NH's behaviour for such
    /// bodies is unconfirmed (docs §7.4), so callers reject them rather than guess.
    public var caseConflicts: [String] {
        guard folded.count != values.count else { return [] }
        var groups: [String: [String]] = [:]
        for key in values.keys { groups[ASCII.lowercased(key), default: []].append(key) }
        return groups.values.filter { $0.count > 1 }.flatMap { $0 }.sorted()
    }

    /// Lookup by an already-folded key: the render path.
    @inline(__always)
    func value(forFoldedKey key: String) -> String? {
        folded[key]
    }

    /// Only the given values matter; `folded` is derived from them.
    public static func == (lhs: TemplateProperties, rhs: TemplateProperties) -> Bool {
        lhs.values == rhs.values
    }
}

extension TemplateProperties: ExpressibleByDictionaryLiteral {
    /// Allows `let p: TemplateProperties = ["message": "Hi"]`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
