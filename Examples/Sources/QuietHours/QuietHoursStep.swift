import Foundation
import PushlineKit

/// `quiet-hours`: says whether it is now within the quiet hours of a time zone, so a later step can hold a
/// send back with `when: ${steps.ID.quiet} == false`.
public struct QuietHoursStep: Step {
    public static let id = "quiet-hours"
    public static let summary = "Says whether it is now within the quiet hours of a time zone (for a later step's `when:`)."
    public static let options = [
        OptionSpec("time-zone", .string, required: true, examples: ["Europe/Berlin", "America/New_York"],
                   "the audience's IANA time zone"),
        OptionSpec("from", .string, default: "21:00", "when quiet hours begin, local time (HH:MM)"),
        OptionSpec("until", .string, default: "08:00", "when they end, local time (HH:MM); the same as `from`: never quiet"),
    ]
    public static let outputs = [
        OutputSpec("quiet", .boolean, "true within quiet hours, else false"),
        OutputSpec("local-time", .string, "the time in the time zone when the step ran (HH:MM)"),
        OutputSpec("minutes-left", .integer, "minutes until quiet hours end (0 outside them)"),
    ]
    public static let examples = [
        "- id: hours\n  quiet-hours: { time-zone: Europe/Berlin, from: \"22:00\", until: \"07:00\" }",
    ]

    /// The audience's time zone.
    public let timeZone: TimeZone
    /// The quiet window.
    public let window: QuietWindow

    /// Reads and checks the options: every mistake is reported at its line and column, and nil means the step
    /// cannot be built.
    public static func build(_ options: OptionReader, in context: BuildContext) -> QuietHoursStep? {
        var zone: TimeZone?
        if let (name, node) = options.string("time-zone") {
            zone = TimeZone(identifier: name)
            if zone == nil {
                options.error("'\(name)' is not a time zone" + Suggestion.didYouMean(name, in: TimeZone.knownTimeZoneIdentifiers),
                              at: node, hint: "use an IANA name such as Europe/Berlin or America/New_York")
            }
        }
        let from = minute(of: "from", default: 21 * 60, in: options)
        let until = minute(of: "until", default: 8 * 60, in: options)
        guard let zone, let from, let until else { return nil }
        return QuietHoursStep(timeZone: zone, window: QuietWindow(from: from, until: until))
    }

    /// The minute of the day `HH:MM` under `key` names, the default when the key is absent, nil (reported) when it
    /// is not a time.
    static func minute(of key: String, default fallback: Int, in options: OptionReader) -> Int? {
        guard let (text, node) = options.string(key) else { return options.contains(key) ? nil : fallback }
        guard let minute = QuietWindow.minute(text) else {
            options.error("'\(key)' must be a time of day as HH:MM (00:00 to 23:59), found '\(text)'", at: node)
            return nil
        }
        return minute
    }

    public func run(in context: StepContext) async throws -> StepResult {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: context.clock.now())
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let left = window.minutesLeft(at: now)
        let localTime = String(format: "%02d:%02d", now / 60, now % 60)
        context.logger.debug("quiet hours checked", metadata: ["time-zone": "\(timeZone.identifier)", "local-time": "\(localTime)"])
        var result = StepResult(summary: left > 0 ? "quiet hours in \(timeZone.identifier) (\(localTime)), \(left) min left"
                                                  : "not quiet hours in \(timeZone.identifier) (\(localTime))")
        result.outputs = ["quiet": .boolean(left > 0), "local-time": .string(localTime), "minutes-left": .integer(left)]
        return result
    }
}
