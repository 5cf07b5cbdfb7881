extension StepFailure {
    /// What kind of failure it is, in words that stay the same across releases (the message may be reworded): the
    /// report's `steps[].code`, for scripts and alerts. `area.reason`; a step may add codes of its own.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The code, e.g. `hub.refused`.
        public let rawValue: String

        /// A code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A code written as a literal.
        public init(stringLiteral value: String) { self.init(rawValue: value) }

        /// The code.
        public var description: String { rawValue }

        /// Anything a step reports without a code of its own.
        public static let failed: Code = "step.failed"
        /// The hub answered with a refusal (a status no retry changes: a key, a right, a missing resource).
        public static let hubRefused: Code = "hub.refused"
        /// The hub could not be reached, or its answer never came (connection, TLS, a timeout).
        public static let hubUnreachable: Code = "hub.unreachable"
        /// The step's input (rows, a device or handle file) was refused or could not be read; nothing was sent.
        public static let inputRejected: Code = "input.rejected"
        /// A value an earlier step hands on is missing or does not fit where it is used.
        public static let referenceUnavailable: Code = "reference.unavailable"
        /// With the values of earlier steps in, the step's options are invalid.
        public static let optionsInvalid: Code = "options.invalid"
        /// The run journal could not be written or read, so the step stopped rather than act without a record.
        public static let journalUnavailable: Code = "journal.unavailable"
        /// Rows an earlier step spooled cannot be read back as the run recorded them.
        public static let rowsUnavailable: Code = "rows.unavailable"
        /// What the step would send is invalid (a payload its template renders).
        public static let payloadInvalid: Code = "payload.invalid"
        /// The run was stopped (a signal) while the step worked.
        public static let stopped: Code = "run.stopped"
    }

    /// The engine's and the hub client's codes, with what each means (the report reference lists them).
    package static let coreCodes: [(Code, String)] = [
        (
            .hubRefused,
            "the hub answered with a refusal no retry changes (a key, a right, a missing resource, a bad request)"
        ),
        (.hubUnreachable, "the hub could not be reached, or its answer never came (connection, TLS, a timeout)"),
        (
            .inputRejected,
            "the step's input (rows, a device or handle file) was refused or could not be read; nothing was sent"
        ),
        (.payloadInvalid, "a payload the template renders is invalid for its platform"),
        (.optionsInvalid, "with the values of earlier steps in, the step's options are invalid"),
        (.referenceUnavailable, "a value an earlier step hands on is missing or does not fit where it is used"),
        (.rowsUnavailable, "rows an earlier step spooled cannot be read back as the run recorded them"),
        (
            .journalUnavailable,
            "the run journal could not be written or read; the step stopped rather than act without a record"
        ),
        (.stopped, "the run was stopped (a signal) while the step worked"),
        (.failed, "anything else"),
    ]

    /// This failure with `code`.
    public func coded(_ code: Code) -> StepFailure {
        var coded = self
        coded.code = code
        return coded
    }
}
