/// One header of a template registration: `<ApnsHeader>`, `<WnsHeader>` or `<MpnsHeader>` with
/// `<Header>` and `<Value>` (nh-rest-api.md §4.2).
public struct RegistrationHeader: Sendable, Equatable {
    /// The header name, e.g. `apns-push-type` or `X-WNS-Type`.
    public var name: String
    /// The value, which may be a template expression.
    public var value: String

    /// Creates a header.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
