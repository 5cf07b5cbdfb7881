import ArgumentParser
import Foundation
import HubExpressions
import HubWire
import PipelineCore
import RunFlow

/// `pushline send`: one notification, by hand, as the seed tutorial sends it from Postman.
struct SendCommand: AsyncParsableCommand, HubCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one notification and print its id (or the test outcome).",
        discussion: """
            EXAMPLES:
              pushline send --format template --tags 12345 --body '{"message":"Hello from Postman!"}'
              pushline send --format apple --tags 'username:alice' --body @alert.json --header apns-push-type:alert
              pushline send --format template --broadcast --body @props.json --schedule 'in 2h'
              pushline send --format template --tags 12345 --body '{"message":"Hi"}' --test

            \(ExitStatus.help([.ok, .hubFailed, .usage]))
            """)

    @OptionGroup var hub: HubOptions
    @Option(
        help: "template, or a native format: apple, fcmv1, gcm, windows, windowsphone, adm, baidu, browser, xiaomi.")
    var format: String
    @Option(help: "A tag expression (checked against NH's limits).") var tags: String?
    @Flag(help: "Send to every device.") var broadcast = false
    @Option(help: "A device handle to send to directly (native formats).") var direct: String?
    @Option(help: "The body: JSON text, or @path to a file.") var body: String
    @Option(help: "A platform header as name:value (repeatable), e.g. apns-push-type:alert.") var header: [String] = []
    @Option(help: "Send later: a UTC time (2026-11-23T08:00:00Z) or a delay (in 2h), at most 7 days ahead.")
    var schedule: String?
    @Flag(help: "NH test send: per-device outcome for at most 10 devices.") var test = false

    func validate() throws {
        guard [tags != nil, broadcast, direct != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --tags, --broadcast and --direct")
        }
        let formats = ["template"] + PushPlatform.allCases.map(\.notificationFormat)
        guard formats.contains(format) else {
            throw ValidationError("--format must be one of \(formats.joined(separator: ", "))")
        }
        if direct != nil, format == "template" { throw ValidationError("direct sends need a native --format") }
        if test, direct != nil || schedule != nil {
            throw ValidationError("--test works with --tags or --broadcast, not scheduled or direct")
        }
    }

    func run() async throws {
        let console = Console.current
        let target: NotificationRequest.Target
        if let tags {
            let expression: TagExpression
            do { expression = try TagExpression(parsing: tags) } catch {
                throw CommandFailure("--tags: \(error.message) (column \(error.column))")
            }
            if let violation = expression.limitViolation() { throw CommandFailure("--tags: \(violation.message)") }
            target = .tags(tags)
        } else if let direct {
            target = .direct(direct)
        } else {
            target = .broadcast
        }
        let payload: String
        if body.hasPrefix("@") {
            do { payload = try TextFile.read(String(body.dropFirst()), limit: NHLimits.maxRequestBytes) } catch {
                throw CommandFailure(error.message(what: "body file", name: String(body.dropFirst())))
            }
        } else {
            payload = body
        }
        var headers: [HubHeader] = []
        for item in header {
            guard let colon = item.firstIndex(of: ":") else {
                throw CommandFailure("--header '\(item)' must be name:value")
            }
            headers.append(
                HubHeader(
                    String(item[..<colon]),
                    String(item[item.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        let now = console.clock.now().timeIntervalSince1970
        var scheduleTime: Double?
        if let schedule {
            let text = schedule.trimmingCharacters(in: .whitespaces)
            scheduleTime =
                text.lowercased().hasPrefix("in ")
                ? ConfigDuration.seconds(String(text.dropFirst(3))).map { now + Double($0) }
                : ScheduleTime.parse(text)
            guard let time = scheduleTime, time > now, time - now <= Double(NHLimits.maxScheduleAheadSeconds) else {
                throw CommandFailure("--schedule must be a future UTC time or a delay (in 2h), at most 7 days ahead")
            }
        }
        let notification = NotificationRequest(
            format: format, body: Array(payload.utf8), target: target, headers: headers,
            test: test, scheduleTime: scheduleTime)
        try await hub.withClient(console) { client in
            let response = try await client.perform(HubRequests.send(notification, at: client.endpoint))
            if test, let outcome = try? NotificationOutcome(parsing: response.bodyText) {
                console.line("test send: \(outcome.success) succeeded, \(outcome.failure) failed")
                for result in outcome.results {
                    console.line("  \(result.platform) \(result.pnsHandle): \(result.outcome)")
                }
            } else if let id = response.header("Location").flatMap(NotificationLocation.notificationId(fromLocation:)) {
                console.line(id)
            } else {
                console.line("accepted (the hub's tier returns no notification id)")
            }
        }
    }
}
