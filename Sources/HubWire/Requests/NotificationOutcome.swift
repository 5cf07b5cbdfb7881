/// The body of a test ("debug") send response (nh-rest-api.md §5.5).
public struct NotificationOutcome: Sendable, Equatable {
    /// One `<RegistrationResult>`.
    public struct Result: Sendable, Equatable {
        /// `ApplicationPlatform`, e.g. `apple`, `gcm`, `windows`.
        public var platform: String
        /// `PnsHandle`.
        public var pnsHandle: String
        /// `RegistrationId`.
        public var registrationId: String
        /// `Outcome` text, e.g. `The Notification was successfully sent to the Push Notification System`.
        public var outcome: String

        /// Creates a result.
        public init(platform: String, pnsHandle: String, registrationId: String, outcome: String) {
            self.platform = platform
            self.pnsHandle = pnsHandle
            self.registrationId = registrationId
            self.outcome = outcome
        }
    }

    /// `Success` count.
    public var success: Int
    /// `Failure` count.
    public var failure: Int
    /// Per-registration results (at most 10 on the service).
    public var results: [Result]

    /// Creates an outcome.
    public init(success: Int, failure: Int, results: [Result]) {
        self.success = success
        self.failure = failure
        self.results = results
    }

    /// The §5.5 document: `<NotificationOutcome>` in the connect namespace with `xmlns:i`, then `Success`,
    /// `Failure` and `Results` (`<Results/>` when empty).
    public func xml() -> String {
        let items = results.map {
            "<RegistrationResult>" + XMLText.leaf("ApplicationPlatform", $0.platform)
                + XMLText.leaf("PnsHandle", $0.pnsHandle) + XMLText.leaf("RegistrationId", $0.registrationId)
                + XMLText.leaf("Outcome", $0.outcome) + "</RegistrationResult>"
        }
        return XMLNamespace.dataContractStartTag("NotificationOutcome")
            + XMLText.leaf("Success", String(success)) + XMLText.leaf("Failure", String(failure))
            + (items.isEmpty ? "<Results/>" : "<Results>" + items.joined() + "</Results>")
            + "</NotificationOutcome>"
    }

    /// Reads an outcome leniently: prefixes, whitespace and order do not matter; missing counts are 0 and
    /// missing result fields are empty. Throws for malformed XML, another root element, or a count that is not
    /// a whole number.
    public init(parsing xml: String) throws(RegistrationXMLError) {
        let root = try RegistrationXMLError.parse(xml)
        guard root.localName == "NotificationOutcome" else {
            throw RegistrationXMLError(message: "Expected <NotificationOutcome>, found <\(root.localName)>.")
        }
        success = try root.count(of: "Success") ?? 0
        failure = try root.count(of: "Failure") ?? 0
        results = (root.child("Results")?.children("RegistrationResult") ?? []).map {
            Result(
                platform: $0.trimmedText(of: "ApplicationPlatform") ?? "",
                pnsHandle: $0.trimmedText(of: "PnsHandle") ?? "",
                registrationId: $0.trimmedText(of: "RegistrationId") ?? "",
                outcome: $0.trimmedText(of: "Outcome") ?? "")
        }
    }
}
