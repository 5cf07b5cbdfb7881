import ArgumentParser
import HubWire
import PipelineCore

/// `pushline sas`: prints an Authorization header value for a hub, signed offline.
struct SASCommand: AsyncParsableCommand {
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

            \(ExitStatus.helpText)
            """)

    @Option(help: "NH connection string (default: $NH_CONNECTION).")
    var connectionString: String?

    @Option(help: "The hub name (default: $NH_HUB, then the connection string's EntityPath).")
    var hub: String?

    @Option(help: "Base-URL override, e.g. http://127.0.0.1:8080/ for the local emulator.")
    var endpoint: String?

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
                throw ValidationError("--lifetime must be a duration from 1m to 365d such as 20m or 1h, found '\(lifetime)'")
            }
        }
        if let endpoint {
            let lowered = endpoint.lowercased()
            let host = lowered.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !host.isEmpty else {
                throw ValidationError("--endpoint must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/")
            }
        }
        if let hub, let problem = NHNames.hubNameProblem(hub) { throw ValidationError("--hub: \(problem)") }
    }

    func run() async throws {
        let console = Console.current
        guard let text = connectionString ?? console.environment["NH_CONNECTION"] else {
            throw CommandFailure("give --connection-string or set NH_CONNECTION")
        }
        let connection: ConnectionString
        do {
            connection = try ConnectionString(parsing: text)
        } catch {
            throw CommandFailure("invalid connection string: \(error.message)\(error.hint.map { " (\($0))" } ?? "")")
        }
        guard let hubName = hub ?? console.environment["NH_HUB"] ?? connection.entityPath else {
            throw CommandFailure("give --hub or set NH_HUB")
        }
        if let problem = NHNames.hubNameProblem(hubName) { throw CommandFailure("hub name: \(problem)") }
        let now = console.clock.epochSeconds
        let expiresAt = expiry ?? now + (lifetime.flatMap(ConfigDuration.seconds) ?? 3600)
        guard expiresAt > now, expiresAt - now <= Self.lifetimeRange.upperBound else {
            throw CommandFailure("--expiry must be in the future and at most 365 days ahead (now is \(now))")
        }
        let endpointOverride = endpoint.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        let resource = HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: endpointOverride)
        let token = SASSigner(keyName: connection.keyName, key: connection.key).token(forResource: resource, expiry: expiresAt)
        console.line(token.headerValue)
    }
}
