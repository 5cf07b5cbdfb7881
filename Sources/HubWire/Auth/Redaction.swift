/// Shared placeholder for secrets in every human-readable rendering of HubWire values.
enum Redaction {
    /// Written instead of a key or signature; spelled once so tests and callers can match it.
    static let placeholder = "<redacted>"
}
