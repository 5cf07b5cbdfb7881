import Foundation
import HubWire
import PipelineCore

/// `sign`: creates a SAS token provider for a hub and leaves it for the steps that talk to the hub.
///
/// The provider signs offline (no network) and renews its token before expiry, so one `sign` serves
/// a long batch. Reports show only the redacted token; the signature never leaves the process.
package struct SignStep: Step {
    /// The YAML key of this step.
    package static let id = "sign"
    /// One line for docs.
    package static let summary = "Signs a SAS token for a hub (offline) and keeps it, renewed before expiry, for later steps."
    /// Shortest and longest token lifetimes accepted.
    package static let lifetimeRange: ClosedRange<Int64> = 60...(365 * 86400)
    /// The default token lifetime in seconds (1 hour).
    package static let defaultLifetime: Int64 = 3600

    /// The keys of `sign`, each declared once.
    package enum Keys {
        /// `hub`.
        package static let hub = OptionKey<String>.hub("the declared hub to sign for")
        /// `lifetime`.
        package static let lifetime = OptionKey<Int64>.duration(
            "lifetime", in: lifetimeRange, default: defaultLifetime, examples: ["20m", "1h30m", "7d"],
            "how long each token is valid; tokens are renewed 2 minutes before they expire")
    }

    /// The keys `sign` accepts.
    package static let options = [Keys.hub.spec, Keys.lifetime.spec]
    /// What `sign` hands to later steps (never the token: it is a secret).
    package static let outputs = [
        OutputSpec("expires", .string, "when the first token expires, UTC (later tokens are signed before each expires)"),
    ]

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

    /// Decodes `hub` and `lifetime`.
    package static func build(_ options: OptionReader, in context: BuildContext) -> SignStep? {
        SignOptionsDecoder(options: options, context: context).decode()
    }

    /// Signs the first token and registers the provider under the hub's name.
    package func run(in context: StepContext) async throws -> StepResult {
        guard let connection = hub.connection, let hubName = hub.hubName else {
            throw StepFailure("hub '\(hub.name)' has no usable connection string or hub name",
                              hint: "set the environment variables its `connection:` and `hub:` reference").coded(.optionsInvalid)
        }
        let resource = HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: hub.endpoint)
        let clock = context.clock
        let provider = SASTokenProvider(
            signer: SASSigner(keyName: connection.keyName, key: connection.key), resource: resource,
            lifetime: lifetime, now: { clock.epochSeconds })
        let token = provider.token()
        context.state.setTokenProvider(provider, forHub: hub.name)
        let expires = RunReport.timestamp(Date(timeIntervalSince1970: TimeInterval(token.expiry)))
        context.logger.info("signed token", metadata: ["hub": "\(hub.name)", "policy": "\(connection.keyName)", "expires": "\(expires)"])
        var result = StepResult(
            summary: "signed a token for hub '\(hub.name)' (\(hubName)) with policy '\(connection.keyName)', valid \(ConfigDuration.format(lifetime)) until \(expires)",
            lines: ["resource: \(resource)", "authorization: \(token.redacted)"],
            data: .object([
                ReportField("hub", .string(hub.name)), ReportField("hubName", .string(hubName)),
                ReportField("resource", .string(resource)), ReportField("policy", .string(connection.keyName)),
                ReportField("expiresAt", .string(expires)), ReportField("lifetimeSeconds", .int(Int(lifetime))),
            ]))
        result.outputs = ["expires": .string(expires)]
        return result
    }
}
