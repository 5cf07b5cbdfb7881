import HubWire

/// A transport that passes every request to another and reports it, redacted, to `sink`.
///
/// It wraps the real transport, so what it reports is exactly what was sent; the signature never reaches
/// the sink.
package struct TracingTransport: HubTransport {
    private let inner: any HubTransport
    private let sink: @Sendable (HubTrace) -> Void

    /// Traces `inner`'s requests to `sink` (called once per request, after its final answer).
    package init(_ inner: any HubTransport, sink: @escaping @Sendable (HubTrace) -> Void) {
        self.inner = inner
        self.sink = sink
    }

    /// The wrapped transport's.
    package var preferredExecutor: (any TaskExecutor)? { inner.preferredExecutor }

    /// Sends `request` through the wrapped transport and reports it, with its final answer or failure.
    package func execute(
        _ request: HubRequest, authorization: @escaping @Sendable () -> String, policy: RetryPolicy
    ) async throws(TransportError) -> TransportResult {
        let lines = request.dryRunLines(redactedAuthorization: Self.shown(authorization()))
        do {
            let result = try await inner.execute(request, authorization: authorization, policy: policy)
            sink(
                HubTrace(
                    requestLines: lines, status: result.response.status, location: result.response.header("Location"),
                    attempts: result.attempts))
            return result
        } catch {
            sink(
                HubTrace(requestLines: lines, status: nil, location: nil, attempts: error.attempts, failure: "\(error)")
            )
            throw error
        }
    }

    /// The Authorization value with its signature redacted; a value with nothing recognisable to redact
    /// is hidden whole, since what it holds is unknown.
    static func shown(_ authorization: String) -> String {
        let redacted = SecretRedaction.redact(authorization)
        return redacted == authorization ? "<redacted>" : redacted
    }
}
