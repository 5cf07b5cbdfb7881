import Foundation
import HubWire
import Logging
import PipelineCore

/// `sign`: creates a SAS token provider for a hub and leaves it for the steps that talk to the hub.
///
/// The provider signs offline (no network) and renews its token before expiry, so one `sign` serves
/// a long batch. Reports show only the redacted token; the signature never leaves the process.
package struct SignStep: DeclaredStep {
    /// The YAML key of this step.
    package static let id = "sign"
    /// One line for docs.
    package static let summary =
        "Signs a SAS token for a hub (offline) and keeps it, renewed before expiry, for later steps."
    /// Shortest and longest token lifetimes accepted.
    package static let lifetimeRange: ClosedRange<Int64> = 60...(365 * 86400)
    /// The default token lifetime in seconds (1 hour).
    package static let defaultLifetime: Int64 = 3600

    /// What `sign` hands to later steps (never the token: it is a secret).
    package struct Outputs: DeclaredOutputs {
        /// `expires`.
        @Output("expires", "when the first token expires, UTC (later tokens are signed before each expires)") package
            var expires = ""

        /// Nothing yet.
        package init() {}
    }

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- sign: { hub: sports }",
        "- sign: { hub: sports, lifetime: 20m }",
    ]

    /// The declared hub.
    package let hub: HubDeclaration
    /// Token lifetime in seconds.
    package let lifetime: Int64

    /// Creates the step directly (tests, programmatic use).
    package init(hub: HubDeclaration, lifetime: Int64 = SignStep.defaultLifetime) {
        self.hub = hub
        self.lifetime = lifetime
    }

    /// The keys of `sign`, each declared once.
    package struct Options: DeclaredOptions {
        /// `hub`.
        @Key(.hub("the declared hub to sign for")) package var hub: HubDeclaration?
        /// `lifetime`, in seconds.
        @Key(
            .duration(
                "lifetime", in: lifetimeRange, default: defaultLifetime, examples: ["20m", "1h30m", "7d"],
                "how long each token is valid; tokens are renewed 2 minutes before they expire"))
        package var lifetime: Int64

        /// Every key at its default.
        package init() {}
    }

    /// Checks that the hub is declared.
    package static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext) -> SignStep?
    {
        guard let hub = options.hub, !options.$lifetime.isRefused else { return nil }
        return SignStep(hub: hub, lifetime: options.lifetime)
    }

    /// Signs the first token and registers the provider under the hub's name.
    package func run(in context: StepContext) async throws -> StepResult {
        guard let connection = hub.connection, let hubName = hub.hubName else {
            throw StepFailure(
                "hub '\(hub.name)' has no usable connection string or hub name",
                hint: "set the environment variables its `connection:` and `hub:` reference"
            ).coded(.optionsInvalid)
        }
        let resource = HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: hub.endpoint)
        let clock = context.clock
        let provider = SASTokenProvider(
            signer: SASSigner(keyName: connection.keyName, key: connection.key), resource: resource,
            lifetime: lifetime, now: { clock.epochSeconds })
        let token = provider.token()
        context.state.setTokenProvider(provider, forHub: hub.name)
        let expires = Timestamp.iso8601(Date(timeIntervalSince1970: TimeInterval(token.expiry)))
        context.logger.info(
            "signed token",
            metadata: ["hub": "\(hub.name)", "policy": "\(connection.keyName)", "expires": "\(expires)"])
        var result = StepResult(
            summary:
                "signed a token for hub '\(hub.name)' (\(hubName)) with policy '\(connection.keyName)', valid \(ConfigDuration.format(lifetime)) until \(expires)",
            lines: ["resource: \(resource)", "authorization: \(token.redacted)"],
            data: .object([
                ReportField("hub", .string(hub.name)), ReportField("hubName", .string(hubName)),
                ReportField("resource", .string(resource)), ReportField("policy", .string(connection.keyName)),
                ReportField("expiresAt", .string(expires)), ReportField("lifetimeSeconds", .int(Int(lifetime))),
            ]))
        var outputs = Outputs()
        outputs.expires = expires
        result.handOn(outputs)
        return result
    }
}
