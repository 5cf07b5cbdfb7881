import HubWire

/// Sends NH requests for steps and commands. `HubHTTP` implements it over HTTP/1.1 on SwiftNIO; tests
/// and dry runs use their own. Steps get it through `StepContext` and never build an HTTP client.
public protocol HubTransport: Sendable {
    /// Sends `request`, retrying as `policy` allows, with the Authorization value from
    /// `authorization` (asked anew for every attempt, so a renewed token is used).
    ///
    /// Returns the final response whatever its status (classify it with `HubFailure.classify`),
    /// or throws when no usable response came back.
    func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult

    /// Where a batch runs its work when it prefers the transport's own thread (the HTTP client's event loop):
    /// requests are then handed to the client and their answers come back without a thread switch. Nil to
    /// run on the shared pool.
    var preferredExecutor: (any TaskExecutor)? { get }
}

extension HubTransport {
    public var preferredExecutor: (any TaskExecutor)? { nil }
}

/// The final response and what it took to get it.
public struct TransportResult: Sendable, Equatable {
    /// The last response received.
    public var response: HubResponse
    /// Attempts made (1 when the first one answered for good).
    public var attempts: Int
    /// Wall time from the first attempt to the last response, in milliseconds.
    public var elapsedMs: Int
    /// The TrackingId sent with the request (the same on every attempt).
    public var trackingId: String
    /// Throttling answers (429, 403 with Retry-After) met on the way, so a batch can slow down.
    public var throttles: Int

    /// Creates a result.
    public init(response: HubResponse, attempts: Int, elapsedMs: Int, trackingId: String, throttles: Int = 0) {
        self.response = response
        self.attempts = attempts
        self.elapsedMs = elapsedMs
        self.trackingId = trackingId
        self.throttles = throttles
    }
}

/// No usable response: the hub could not be reached, or a send's fate is unknown.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why.
    public enum Kind: Sendable, Equatable {
        /// Nothing was sent: connection refused, DNS, connect timeout (after the allowed retries).
        case unreachable
        /// The request may have been accepted: timeout or reset after writing, or 500/504 on a send.
        /// Not retried unless the policy says so; reported as `unknown`.
        case ambiguous
        /// The request cannot be written as built (a header value with a line break, from a row): nothing was sent,
        /// and sending it again would not help. The item's own failure; the batch goes on.
        case unsendable
    }

    /// Why.
    public let kind: Kind
    /// What happened, for people (never holds the Authorization value).
    public let message: String
    /// Attempts made.
    public let attempts: Int
    /// The TrackingId sent.
    public let trackingId: String

    /// Creates an error.
    public init(kind: Kind, message: String, attempts: Int, trackingId: String) {
        self.kind = kind
        self.message = message
        self.attempts = attempts
        self.trackingId = trackingId
    }

    /// The message.
    public var description: String { message }
}
