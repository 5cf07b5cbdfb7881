import HubWire

/// One HTTP attempt, without retries. The retry loop is written once, over this, so it can be
/// tested with a scripted executor and no network.
package protocol HTTPExecutor: Sendable {
    /// Sends the request once with these extra headers (Authorization, TrackingId, User-Agent).
    func perform(_ request: HubRequest, extraHeaders: [HubHeader]) async -> AttemptOutcome

    /// The executor that runs the client's I/O, when work placed on it saves thread switches; nil for none.
    var preferredExecutor: (any TaskExecutor)? { get }
}

extension HTTPExecutor {
    package var preferredExecutor: (any TaskExecutor)? { nil }
}

/// What one attempt produced.
package enum AttemptOutcome: Sendable, Equatable {
    /// A response (any status).
    case response(HubResponse)
    /// Nothing reached the server: connection refused, DNS failure, connect timeout.
    case notSent(String)
    /// The request was (or may have been) written, but no response came: timeout or reset.
    case noResponse(String)
}
