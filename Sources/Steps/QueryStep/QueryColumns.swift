/// Rules the result's columns must follow to become rows.
enum QueryColumns {
    /// Why the columns cannot name row fields (a name used twice, an empty one); nil when they can.
    static func problem(_ columns: [String]) -> String? {
        var seen: Set<String> = []
        for (position, name) in columns.enumerated() {
            if name.isEmpty { return "column \(position + 1) of the result has no name; give it one with AS" }
            guard seen.insert(name.lowercased()).inserted else {
                return "the result has two columns named '\(name)'; rows need distinct names (select … AS another_name)"
            }
        }
        return nil
    }
}
