import ArgumentParser
import Foundation
import HubWire
import PipelineCore
import RunFlow

/// `pushline notification show ID` and `pushline notification outcomes`: what became of a notification after the hub
/// accepted it, and what each outcome NH reports means.
struct NotificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notification",
        abstract: "Read a notification's delivery outcome from the hub's telemetry.",
        subcommands: [Show.self, Outcomes.self])

    struct Show: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a notification's state and per-platform outcome counts (NH's per-message telemetry).",
            discussion: """
                A 201 from the hub means it accepted the notification; this shows what happened next: the state
                (Enqueued, Processing, then Completed, Abandoned, NoTargetFound or Cancelled), and per platform how many
                devices the PNS accepted (Success) or refused and why (ExpiredChannel, BadChannel, …). Telemetry needs a
                Standard tier hub and a key with Manage. `pushline notification outcomes` explains every outcome.

                EXAMPLES:
                  pushline notification show 6e9d23c1de384136a66896084005c3e9-20261127130009-36275743-3
                  pushline notification show ID --wait 2m --format json

                \(ExitStatus.help([.ok,
                    .init("1", "the hub keeps no telemetry for it (a Free or Basic hub, an unknown id), or refused the request"),
                    .usage,
                    .init("3", "with --wait: the outcome was not final when the wait ended (the state so far is shown)")]))
                """)

        @OptionGroup var hub: HubOptions
        @Argument(help: "The notification id (the last segment of the send's Location; `pushline send` prints it).")
        var id: String
        @Option(help: "text or json.") var format: OutputFormat = .text
        @Option(
            help:
                "Ask again, waiting longer each time, until the outcome is final or this much time has passed (e.g. 90s, 10m)."
        )
        var wait: String?

        func validate() throws {
            if let wait, ConfigDuration.seconds(wait) == nil {
                throw ValidationError("--wait must be a duration such as 90s or 10m, found '\(wait)'")
            }
        }

        func run() async throws {
            let console = Console.current
            let deadline = Date().addingTimeInterval(Double(wait.flatMap(ConfigDuration.seconds) ?? 0))
            try await hub.withClient(console) { client in
                var poll = TelemetryPoll()
                while true {
                    let request = HubRequests.notificationDetails(id: id, at: client.endpoint)
                    let response = try await client.perform(request, accepting: [403, 404])
                    let now = Date()
                    switch response.status {
                    case 403:
                        try Self.refused(response, request: request, hub: client.endpoint.hub, console: console)
                    case 404:
                        if let delay = poll.nextDelay(now: now, deadline: deadline) {
                            try await Task.sleep(for: .seconds(delay))
                            continue
                        }
                        console.errorLine(
                            "error: hub '\(client.endpoint.hub)' has no telemetry for notification '\(id)'")
                        console.errorLine(
                            "  hint: NH keeps telemetry only for ids it issued; a new notification's can take a while to appear: "
                                + "try again in 10 s, or use --wait 2m")
                        throw ExitStatus.exit(ExitStatus.failure)
                    default:
                        let details: NotificationDetails
                        do throws(RegistrationXMLError) {
                            details = try NotificationDetails(parsing: response.bodyText)
                        } catch {
                            console.errorLine(
                                "error: \(request.summary): the hub's answer is not NotificationDetails XML: \(error.message)"
                            )
                            throw ExitStatus.exit(ExitStatus.failure)
                        }
                        if !details.state.isFinal, let delay = poll.nextDelay(now: now, deadline: deadline) {
                            try await Task.sleep(for: .seconds(delay))
                            continue
                        }
                        let view = NotificationView(details: details, hub: client.endpoint.hub)
                        console.line(format == .json ? view.json() : view.text())
                        if wait != nil, !details.state.isFinal { throw ExitStatus.exit(ExitStatus.partial) }
                        return
                    }
                }
            }
        }

        /// A 403: below Standard, NH says the SKU lacks the feature; an empty 403 is a key without Manage.
        static func refused(_ response: HubResponse, request: HubRequest, hub: String, console: Console) throws -> Never
        {
            if response.refusesForTier {
                let detail = NHErrorBody(parsing: response.bodyText)?.message ?? ""
                console.errorLine(
                    "hub '\(hub)' keeps no per-message telemetry: that needs the Standard tier, and this hub is Free or Basic"
                )
                console.errorLine(
                    "  hint: upgrade the hub to Standard to see outcomes; sends still work (NH: \(detail))")
            } else {
                let failure = HubFailure.classify(response, for: request, now: Date().timeIntervalSince1970)
                console.errorLine("error: \(request.summary): \(failure.message)")
                if let hint = failure.hint { console.errorLine("  hint: \(hint)") }
            }
            throw ExitStatus.exit(ExitStatus.failure)
        }
    }
}
