import Foundation
import PushlineKit

/// `quiet-hours`: says whether it is now within the quiet hours of a time zone, so a later step can hold a
/// send back with `when: ${steps.ID.quiet} == false`.
public struct QuietHoursStep: DeclaredStep {
    public static let id = "quiet-hours"
    public static let summary =
        "Says whether it is now within the quiet hours of a time zone (for a later step's `when:`)."
    public static let examples = [
        "- id: hours\n  quiet-hours: { time-zone: Europe/Berlin, from: \"22:00\", until: \"07:00\" }"
    ]

    /// The keys of `quiet-hours`, each declared once: its spelling, type, default and meaning (what `pushline steps`,
    /// the JSON Schema and editors show), and how its value is read and checked.
    public struct Options: DeclaredOptions {
        /// `time-zone`: an IANA time zone, with "did you mean" for a misspelt one.
        @Key(.timeZone("time-zone", examples: ["Europe/Berlin", "America/New_York"], "the audience's IANA time zone"))
        public var timeZone: TimeZone?
        /// `from`: when quiet hours begin.
        @Key(.timeOfDay("from", default: 21 * 60, "when quiet hours begin, local time (HH:MM)"))
        public var from: Int
        /// `until`: when they end.
        @Key(.timeOfDay("until", default: 8 * 60, "when they end, local time (HH:MM); the same as `from`: never quiet"))
        public var until: Int

        public init() {}
    }

    /// What `quiet-hours` hands to later steps: each output a typed field, so a misspelt or mistyped one does not
    /// compile.
    public struct Outputs: DeclaredOutputs {
        @Output("quiet", "true within quiet hours, else false") public var quiet = false
        @Output("local-time", "the time in the time zone when the step ran (HH:MM)") public var localTime = ""
        @Output("minutes-left", "minutes until quiet hours end (0 outside them)") public var minutesLeft = 0

        public init() {}
    }

    /// The audience's time zone.
    public let timeZone: TimeZone
    /// The quiet window.
    public let window: QuietWindow

    /// Builds the step from its options, already read and checked against their declarations: a refused value was
    /// reported at its line and column, and nil means the step cannot be built.
    public static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext)
        -> QuietHoursStep?
    {
        guard let zone = options.timeZone, !options.$from.isRefused, !options.$until.isRefused else { return nil }
        return QuietHoursStep(timeZone: zone, window: QuietWindow(from: options.from, until: options.until))
    }

    public func run(in context: StepContext) async throws -> StepResult {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: context.clock.now())
        let now = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let left = window.minutesLeft(at: now)
        let localTime = String(format: "%02d:%02d", now / 60, now % 60)
        context.logger.debug(
            "quiet hours checked", metadata: ["time-zone": "\(timeZone.identifier)", "local-time": "\(localTime)"])
        var result = StepResult(
            summary: left > 0
                ? "quiet hours in \(timeZone.identifier) (\(localTime)), \(left) min left"
                : "not quiet hours in \(timeZone.identifier) (\(localTime))")
        var outputs = Outputs()
        outputs.quiet = left > 0
        outputs.localTime = localTime
        outputs.minutesLeft = left
        result.handOn(outputs)
        return result
    }
}

/// The kinds of key `quiet-hours` reads, beside the ready-made ones (`.text`, `.integer(_:in:)`, `.duration`, …).
extension OptionKey where Value == TimeZone {
    /// An IANA time zone, required, with "did you mean" for a misspelt one.
    static func timeZone(_ key: String, examples: [String], _ summary: String) -> OptionKey {
        OptionKey(OptionSpec(key, .string, required: true, examples: examples, summary)) { options, node in
            guard let name = options.string(key)?.value else { return nil }
            guard let zone = TimeZone(identifier: name) else {
                options.error(
                    "'\(name)' is not a time zone" + Suggestion.didYouMean(name, in: TimeZone.knownTimeZoneIdentifiers),
                    at: node, hint: "use an IANA name such as Europe/Berlin or America/New_York")
                return nil
            }
            return zone
        }
    }
}

extension OptionKey where Value == Int {
    /// A time of day, `HH:MM`, read as the minute of the day.
    static func timeOfDay(_ key: String, default minute: Int, _ summary: String) -> OptionKey {
        OptionKey(
            OptionSpec(key, .string, default: String(format: "%02d:%02d", minute / 60, minute % 60), summary),
            default: minute
        ) { options, node in
            guard let text = options.string(key)?.value else { return nil }
            guard let minute = QuietWindow.minute(text) else {
                options.error("'\(key)' must be a time of day as HH:MM (00:00 to 23:59), found '\(text)'", at: node)
                return nil
            }
            return minute
        }
    }
}
