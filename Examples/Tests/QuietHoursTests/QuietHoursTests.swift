import Foundation
import PushlineKit
import QuietHours
import Testing

@Suite("quiet-hours: the window")
struct QuietWindowTests {
    @Test("a window across midnight is quiet up to, not including, its end; an empty window is never quiet")
    func minutesLeft() throws {
        let night = QuietWindow(
            from: try #require(QuietWindow.minute("22:00")), until: try #require(QuietWindow.minute("07:00")))
        #expect(night.minutesLeft(at: 21 * 60 + 59) == 0)
        #expect(night.minutesLeft(at: 22 * 60) == 9 * 60)
        #expect(night.minutesLeft(at: 0) == 7 * 60)
        #expect(night.minutesLeft(at: 6 * 60 + 59) == 1)
        #expect(night.minutesLeft(at: 7 * 60) == 0)
        let lunch = QuietWindow(from: 12 * 60, until: 13 * 60)
        #expect(lunch.minutesLeft(at: 12 * 60 + 30) == 30)
        #expect(lunch.minutesLeft(at: 23 * 60) == 0)
        #expect((0..<1440).allSatisfy { QuietWindow(from: 600, until: 600).minutesLeft(at: $0) == 0 })
    }

    @Test(
        "only HH:MM within a day is a time",
        arguments: ["24:00", "7:00", "07:60", "07-00", "0700", "", "aa:bb", "０７:００"])
    func notATime(_ text: String) {
        #expect(QuietWindow.minute(text) == nil)
    }
}

/// The step through the commands an operator runs, in this package's own pushline.
@Suite("quiet-hours: in my-pushline", .serialized)
final class QuietHoursCommandTests: Sendable {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    let pipeline = root + "/pipelines/evening-reminder.yaml"
    let scratch = NSTemporaryDirectory() + "my-pushline-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        // What the pipeline reads, and a journal of the test's own (never the user's). Every test sets the same.
        setenv(
            "NH_CONNECTION",
            "Endpoint=sb://example.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=c2FtcGxl", 1)
        setenv("NH_HUB", "reminders", 1)
        setenv("PUSHLINE_JOURNAL", scratch + "/journal.sqlite", 1)
    }

    deinit { try? FileManager.default.removeItem(atPath: scratch) }

    func pushline(_ arguments: [String]) async -> Int32 {
        await Pushline.run(arguments, adding: [QuietHoursStep.self])
    }

    func report(_ arguments: [String]) async throws -> (status: Int32, steps: [[String: Any]]) {
        let path = scratch + "/report-\(UUID().uuidString).json"
        let status = await pushline(arguments + ["--report", path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (status, try #require(object["steps"] as? [[String: Any]]))
    }

    @Test("the example validates, and the plain pushline's steps are all still there")
    func validates() async {
        #expect(await pushline(["validate", pipeline]) == 0)
        #expect(await pushline(["steps"]) == 0)
    }

    @Test("a time zone that does not exist, or a time that is not HH:MM, stops validate (exit 2)")
    func badOptions() async throws {
        let text = try String(contentsOfFile: pipeline, encoding: .utf8)
        for (good, bad) in [
            ("time-zone: Europe/Berlin", "time-zone: Europe/Berlni"),
            ("from: \"${param:quiet-from}\"", "from: \"22h\""),
        ] {
            let path = scratch + "/bad-\(UUID().uuidString).yaml"
            try text.replacingOccurrences(of: good, with: bad).write(toFile: path, atomically: true, encoding: .utf8)
            #expect(await pushline(["validate", path]) == 2, "\(bad)")
        }
    }

    @Test(
        "outside quiet hours the reminder is sent; within them it is held back",
        arguments: [("00:00", "00:00", false), ("00:00", "23:59", true)])
    func holdsBack(from: String, until: String, quiet: Bool) async throws {
        let run = try await report([
            "run", pipeline, "--dry-run", "--param", "quiet-from=\(from)", "--param", "quiet-until=\(until)",
        ])
        #expect(run.status == 0)
        let hours = try #require(run.steps.first { ($0["step"] as? String) == "quiet-hours" }, "\(run.steps)")
        let send = try #require(run.steps.first { ($0["step"] as? String) == "send" }, "\(run.steps)")
        #expect((hours["outputs"] as? [String: Any])?["quiet"] as? Bool == quiet, "\(hours)")
        #expect((send["status"] as? String) == (quiet ? "skipped" : "succeeded"), "\(send)")
    }
}
