#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading JSON-Patch string values, and the tag-list arithmetic the patch semantics need.
enum PatchValue {
    /// One tag, or a JSON array of tags sent as a string (`"[\"a\",\"b\"]"`, as the docs allow).
    static func tags(_ value: String) throws(PatchProblem) -> [String] {
        let tags: [String]
        if value.trimmingWhitespace().hasPrefix("[") {
            tags = try decode([String].self, from: value, expected: "a tag or a JSON array of tags")
        } else {
            tags = [value]
        }
        guard !tags.contains(where: \.isEmpty) else { throw PatchProblem("a tag cannot be empty") }
        return tags
    }

    /// A handle string, or a stringified `{endpoint,p256dh,auth}` object for browsers.
    static func pushChannel(_ value: String) throws(PatchProblem) -> PushChannel {
        guard !value.trimmingWhitespace().isEmpty else { throw PatchProblem("the push channel cannot be empty") }
        guard value.trimmingWhitespace().hasPrefix("{") else { return .handle(value) }
        return try decode(
            PushChannel.self, from: value,
            expected: "a handle, or a browser subscription as stringified JSON {endpoint,p256dh,auth}")
    }

    /// Decodes a stringified JSON value; the problem names what was expected and what was wrong.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from value: String,
        expected: String
    ) throws(PatchProblem) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(value.utf8))
        } catch let error as DecodingError {
            throw PatchProblem("the value must be \(expected) (\(describe(error)))")
        } catch {
            throw PatchProblem("the value must be \(expected)")
        }
    }

    /// `existing` followed by the tags of `added` it lacks, in order.
    static func union(_ existing: [String]?, _ added: [String]) -> [String] {
        var result = existing ?? []
        for tag in added where !result.contains(tag) {
            result.append(tag)
        }
        return result
    }

    /// `tags` without `tag`; nil once nothing is left, so the property disappears from the JSON.
    static func removing(_ tag: String, from tags: [String]?) -> [String]? {
        let rest = (tags ?? []).filter { $0 != tag }
        return rest.isEmpty ? nil : rest
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "the top level" : context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context): return "wrong type at \(path(context))"
        case .valueNotFound(_, let context): return "null at \(path(context))"
        case .dataCorrupted: return "not valid JSON"
        @unknown default: return "not readable"
        }
    }
}
