import Foundation
import HubWire
import PipelineCore

/// A declared hub ready to talk to: where requests go, the token provider and the transport.
///
/// Steps send through `perform`, which turns every failure into a `StepFailure` naming the hub
/// and saying what to do; the engine then adds the step and its YAML location.
package struct HubSession: Sendable {
    /// The declared hub.
    package let hub: HubDeclaration
    /// Where requests go.
    package let endpoint: HubEndpoint
    /// The SAS token source (the `sign` step's, or one made on first use).
    package let tokens: SASTokenProvider
    /// The transport (a recorder in dry runs).
    package let transport: any HubTransport
    /// Retry rules.
    package let policy: RetryPolicy

    /// Sends `request`; a non-2xx answer or no answer becomes a `StepFailure` with NH's reason.
    package func perform(_ request: HubRequest, accepting extra: Set<Int> = []) async throws(StepFailure)
        -> TransportResult
    {
        let provider = tokens
        let result: TransportResult
        do {
            result = try await transport.execute(
                request, authorization: { provider.token().headerValue }, policy: policy)
        } catch {
            let (hint, outcome): (String, String) =
                switch error.kind {
                case .ambiguous:
                    (
                        "check the hub (telemetry, the device) before sending again; `retry-ambiguous: true` resends automatically",
                        "unknown"
                    )
                case .unreachable: ("check the hub's endpoint and the network", "unreachable")
                case .unsendable: (Self.unsendableHint, "unsendable")
                }
            throw StepFailure(
                "hub '\(hub.name)': \(error.message)", hint: hint,
                data: .object([
                    ReportField("trackingId", .string(error.trackingId)),
                    ReportField("attempts", .int(error.attempts)),
                    ReportField("outcome", .string(outcome)),
                ])
            )
            .coded(error.kind == .unsendable ? .payloadInvalid : .hubUnreachable)
        }
        let status = result.response.status
        guard (200..<300).contains(status) || extra.contains(status) else {
            let failure = HubFailure.classify(result.response, for: request, now: Date().timeIntervalSince1970)
            // NH's own words (e.g. which resource a 404 is about) follow when the message does not already show them.
            throw StepFailure(
                "hub '\(hub.name)': \(request.summary): \(failure.messageWithDetail)", hint: failure.hint,
                data: .object([
                    ReportField("status", .int(status)),
                    ReportField("trackingId", .string(failure.trackingId ?? result.trackingId)),
                    ReportField("attempts", .int(result.attempts)),
                ])
            )
            .coded(.hubRefused)
        }
        return result
    }

    /// What to do about a request that cannot be written.
    static let unsendableHint =
        "the value comes from the row or the pipeline: remove the line break or control character (or leave the header out)"

    /// A session for `hub` outside a pipeline run (`pushline serve`): a token provider of its own with a one-hour
    /// lifetime, renewed before it expires.
    package init(hub: HubDeclaration, transport: any HubTransport, policy: RetryPolicy, clock: WallClock)
        throws(StepFailure)
    {
        guard let connection = hub.connection, let hubName = hub.hubName else {
            throw StepFailure(
                "hub '\(hub.name)' has no usable connection string or hub name",
                hint: "set the environment variables its `connection:` and `hub:` reference"
            ).coded(.optionsInvalid)
        }
        let provider = SASTokenProvider(
            signer: connection.signer,
            resource: HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: hub.endpoint),
            lifetime: 3600, now: { clock.epochSeconds })
        self.init(
            hub: hub, endpoint: HubEndpoint(connection: connection, hub: hubName, endpointOverride: hub.endpoint),
            tokens: provider, transport: transport, policy: policy)
    }

    init(
        hub: HubDeclaration, endpoint: HubEndpoint, tokens: SASTokenProvider, transport: any HubTransport,
        policy: RetryPolicy
    ) {
        self.hub = hub
        self.endpoint = endpoint
        self.tokens = tokens
        self.transport = transport
        self.policy = policy
    }

    /// The same session with other retry rules (a step's own `retries` and `retry-ambiguous`).
    package func with(policy: RetryPolicy) -> HubSession {
        HubSession(hub: hub, endpoint: endpoint, tokens: tokens, transport: transport, policy: policy)
    }

    /// The Authorization value as a dry run shows it: signature replaced by `<redacted>`.
    package var redactedAuthorization: String { tokens.token().redacted }
}

extension StepContext {
    /// A session for a declared hub: the `sign` step's token provider, or a new one with the default
    /// lifetime (1 h) when the pipeline has no `sign` step for this hub.
    package func session(for hub: HubDeclaration) throws(StepFailure) -> HubSession {
        guard let connection = hub.connection, let hubName = hub.hubName else {
            throw StepFailure(
                "hub '\(hub.name)' has no usable connection string or hub name",
                hint: "set the environment variables its `connection:` and `hub:` reference"
            ).coded(.optionsInvalid)
        }
        let provider: SASTokenProvider
        if let signed = state.tokenProvider(forHub: hub.name) {
            provider = signed
        } else {
            let clock = self.clock
            provider = SASTokenProvider(
                signer: connection.signer,
                resource: HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: hub.endpoint),
                lifetime: 3600, now: { clock.epochSeconds })
            state.setTokenProvider(provider, forHub: hub.name)
        }
        return HubSession(
            hub: hub, endpoint: HubEndpoint(connection: connection, hub: hubName, endpointOverride: hub.endpoint),
            tokens: provider, transport: transport, policy: retryPolicy)
    }
}
