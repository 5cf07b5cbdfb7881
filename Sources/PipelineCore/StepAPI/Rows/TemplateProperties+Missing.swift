import HubExpressions

extension TemplateProperties {
    /// Why a row that lacks `missing` (columns a step reads) cannot be used: the columns it does have, and the near one
    /// when one is missing (a query's `user_id as "userId"` read as `$(user_id)` is one edit away):
    /// "the row has no 'user_id'; did you mean 'userId'? (its columns: message, userId)".
    public func missingColumns(_ missing: [String]) -> String {
        let names = values.keys.sorted()
        let near = missing.count == 1 ? Suggestion.didYouMean(missing[0], in: names) : ""
        return "the row has no \(missing.map { "'\($0)'" }.joined(separator: ", "))\(near) "
            + "(its columns: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
    }
}
