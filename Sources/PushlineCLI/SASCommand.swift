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

    func validate() throws {
        if lifetime != nil, expiry != nil { throw ValidationError("give either --lifetime or --expiry, not both") }
        if let lifetime, ConfigDuration.seconds(lifetime) == nil {
            throw ValidationError("--lifetime must be a duration such as 90s, 20m or 1h, found '\(lifetime)'")
        }
        if let endpoint, !(endpoint.lowercased().hasPrefix("http://") || endpoint.lowercased().hasPrefix("https://")) {
            throw ValidationError("--endpoint must be an http:// or https:// URL")
        }
    }

    func run() async throws {
        let console = Console.current
        guard let text = connectionString ?? console.environment["NH_CONNECTION"] else {
            throw ValidationError("give --connection-string or set NH_CONNECTION")
        }
        let connection: ConnectionString
        do {
            connection = try ConnectionString(parsing: text)
        } catch {
            throw ValidationError("invalid connection string: \(error.message)\(error.hint.map { " (\($0))" } ?? "")")
        }
        guard let hubName = hub ?? console.environment["NH_HUB"] ?? connection.entityPath, !hubName.isEmpty else {
            throw ValidationError("give --hub or set NH_HUB")
        }
        let expiresAt = expiry ?? console.clock.epochSeconds + (lifetime.flatMap(ConfigDuration.seconds) ?? 3600)
        let endpointOverride = endpoint.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        let resource = HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: endpointOverride)
        let token = SASSigner(keyName: connection.keyName, key: connection.key).token(forResource: resource, expiry: expiresAt)
        console.line(token.headerValue)
    }
}
