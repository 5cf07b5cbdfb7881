/// One JSON-Patch operation of `PATCH installations/{id}` (nh-rest-api.md §3.1).
///
/// `value` is always a JSON *string* on the wire; a template is sent as stringified JSON.
public struct InstallationPatchOperation: Codable, Sendable, Equatable {
    /// The operations NH supports (RFC 6902 `move`, `copy` and `test` are not among them).
    public enum Op: String, Codable, Sendable {
        /// Set a value; on tags, union.
        case add
        /// Delete a value.
        case remove
        /// Documented as remove followed by add.
        case replace
    }

    /// What to do.
    public var op: Op
    /// A JSON pointer such as `/tags` or `/templates/{name}/body`.
    public var path: String
    /// The value as a string; nil (left out of the JSON) for `remove`.
    public var value: String?

    /// Creates an operation.
    public init(op: Op, path: String, value: String? = nil) {
        self.op = op
        self.path = path
        self.value = value
    }
}
