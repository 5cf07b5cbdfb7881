/// What `register` does with each installation (`mode:`).
package enum RegisterMode: String, Sendable, CaseIterable {
    /// `PUT installations/{id}`: create, or overwrite the whole installation.
    case put
    /// `PATCH installations/{id}`: JSON-Patch the fields given (nh-rest-api.md §3.1).
    case patch
    /// `DELETE installations/{id}`.
    case delete

    /// The verb of the summary line: "registered 3 installations …".
    var pastTense: String {
        switch self {
        case .put: "registered"
        case .patch: "patched"
        case .delete: "deleted"
        }
    }

    /// The verb of the failure message: "could not register 2 of 5 installations …".
    var infinitive: String {
        switch self {
        case .put: "register"
        case .patch: "patch"
        case .delete: "delete"
        }
    }
}
