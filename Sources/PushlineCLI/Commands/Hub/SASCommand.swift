import ArgumentParser
import HubWire
import PipelineCore
import RunFlow

/// `pushline sas`: prints an Authorization header value for a hub, signed offline.
struct SASCommand: AsyncParsableCommand, HubCommand {
    static let configuration = CommandConfiguration(
        commandName: "sas",
        abstract: "Print a SAS Authorization header value for a hub (signed offline, nothing else on stdout).",
        discussion: """
            The token signs https://<namespace>.servicebus.windows.net/<hub> (or the --endpoint base URL plus the \
            hub), exactly as the Notification Hubs REST tutorials do. Prefer the NH_CONNECTION environment \
            variable to --connection-string: command lines are visible to other users of the machine.

            EXAMPLES:
              NH_CONNECTION='Endpoint=sb://…' pushline sas --hub myhub --lifetime 20m
              curl -H "Authorization: $(pushline sas --hub myhub)" …

            \(ExitStatus.help([.ok, .init("2", "an invalid connection string, hub name, lifetime or expiry")]))
            """)

    @OptionGroup var hub: HubOptions

    @Option(help: "Token lifetime, e.g. 20m or 1h (default 1h).")
    var lifetime: String?

    @Option(help: "Absolute expiry in seconds since the Unix epoch (instead of --lifetime).")
    var expiry: Int64?

    /// The same bounds as the `sign` step: shorter tokens expire mid-request, longer ones are a risk.
    static let lifetimeRange: ClosedRange<Int64> = 60...(365 * 86400)

    func validate() throws {
        if lifetime != nil, expiry != nil { throw ValidationError("give either --lifetime or --expiry, not both") }
        if let lifetime {
            guard let seconds = ConfigDuration.seconds(lifetime), Self.lifetimeRange.contains(seconds) else {
                throw ValidationError(
                    "--lifetime must be a duration from 1m to 365d such as 20m or 1h, found '\(lifetime)'")
            }
        }
    }

    func run() async throws {
        let console = Console.current
        let (connection, hubName, endpointOverride) = try hub.resolve(console)
        let now = console.clock.epochSeconds
        let expiresAt = expiry ?? now + (lifetime.flatMap(ConfigDuration.seconds) ?? 3600)
        guard expiresAt > now, expiresAt - now <= Self.lifetimeRange.upperBound else {
            throw CommandFailure("--expiry must be in the future and at most 365 days ahead (now is \(now))")
        }
        let resource = HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: endpointOverride)
        let token = SASSigner(keyName: connection.keyName, key: connection.key).token(
            forResource: resource, expiry: expiresAt)
        console.line(token.headerValue)
    }
}
