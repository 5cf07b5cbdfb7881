import ArgumentParser
import Foundation
import HubHTTP
import HubWire
import PipelineCore
import RunFlow

/// The options every hub command shares: which hub, with which key.
struct HubOptions: ParsableArguments {
    @Option(
        help:
            "NH connection string (default: $NH_CONNECTION). Prefer the variable: command lines are visible to other users."
    )
    var connectionString: String?

    @Option(help: "The hub name (default: $NH_HUB, then the connection string's EntityPath).")
    var hub: String?

    @Option(help: "Base-URL override, e.g. http://127.0.0.1:8080/ for the local emulator.")
    var endpoint: String?

    @OptionGroup var settings: EnvironmentFileOption

    @Flag(help: "Print every request sent to the hub (Authorization redacted) and its answer to standard error.")
    var trace = false

    func validate() throws {
        if let endpoint {
            let lowered = endpoint.lowercased()
            let host = lowered.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !host.isEmpty else {
                throw ValidationError(
                    "--endpoint must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/")
            }
        }
        if let hub, let problem = NHNames.hubNameProblem(hub) { throw ValidationError("--hub: \(problem)") }
    }

    /// The connection string, hub name and endpoint override, from the options or the environment.
    func resolve(_ console: Console) throws -> (connection: ConnectionString, hub: String, endpoint: String?) {
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
        return (connection, hubName, endpoint.map { $0.hasSuffix("/") ? $0 : $0 + "/" })
    }

    /// Runs `body` with a client for the hub these options name: one HTTP client (and one cached
    /// token) for all of the command's requests, shut down however `body` ends.
    func withClient(_ console: Console, _ body: (HubClient) async throws -> Void) async throws {
        let (connection, hubName, override) = try resolve(console)
        let clock = console.clock
        let tokens = SASTokenProvider(
            signer: connection.signer,
            resource: HubAddress.sasResource(connection: connection, hub: hubName, endpointOverride: override),
            lifetime: 3600, now: { clock.epochSeconds })
        let executor = HTTP1Client(trust: try console.hubTrust())
        var transport: any HubTransport = RetryingTransport(executor: executor)
        if trace { transport = TracingTransport(transport, sink: HubTraceOutput.sink(console)) }
        let client = HubClient(
            endpoint: HubEndpoint(connection: connection, hub: hubName, endpointOverride: override),
            tokens: tokens, transport: transport, console: console)
        do {
            try await body(client)
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }
}

extension HubOptions {
    /// Sends the one request `request` makes for the hub and prints the response's body (a `get`).
    func printBody(of request: (HubEndpoint) throws -> HubRequest) async throws {
        let console = Console.current
        try await withClient(console) { client in
            console.line(try await client.perform(request(client.endpoint)).bodyText)
        }
    }

    /// Sends the one request `request` makes for the hub and prints `done` and the hub's name (a `delete`, a `cancel`).
    func perform(_ request: (HubEndpoint) throws -> HubRequest, saying done: String) async throws {
        let console = Console.current
        try await withClient(console) { client in
            _ = try await client.perform(request(client.endpoint))
            console.line("\(done) on hub '\(client.endpoint.hub)'")
        }
    }
}

/// Sends one request for a command and turns failures into exit code 1 with NH's reason.
struct HubClient {
    let endpoint: HubEndpoint
    let tokens: SASTokenProvider
    let transport: any HubTransport
    let console: Console

    /// The response to `request` (2xx, or a status in `accepting`); any other outcome prints
    /// `error: …` with a hint and exits 1.
    func perform(_ request: HubRequest, accepting: Set<Int> = []) async throws -> HubResponse {
        let provider = tokens
        let result: TransportResult
        do {
            result = try await transport.execute(
                request, authorization: { provider.token().headerValue }, policy: RetryPolicy())
        } catch {
            console.errorLine("error: \(error.message)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
        let response = result.response
        guard (200..<300).contains(response.status) || accepting.contains(response.status) else {
            let failure = HubFailure.classify(response, for: request, now: Date().timeIntervalSince1970)
            console.errorLine("error: \(request.summary): \(failure.message)")
            if let hint = failure.hint { console.errorLine("  hint: \(hint)") }
            throw ExitStatus.exit(ExitStatus.failure)
        }
        return response
    }
}
