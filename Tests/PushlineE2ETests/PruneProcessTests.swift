import CommandTestSupport
import Foundation
import Testing

/// How long the journal keeps what: `pushline runs prune` and a pipeline's `retention:`, against the real emulator and
/// both stores. A run whose dedupe window has not passed is kept (its sends still hold back the same notifications);
/// one without a window goes.
extension BatchRunProcessTests {
    /// The ids of `runs list`, newest first.
    func runIds(_ scratch: Scratch, _ connection: String) async throws -> [String] {
        let list = try PushlineProcess(["runs", "list"], environment: environment(scratch, connection))
        #expect(try await list.waitForExit() == 0, "\(list.stdout)")
        return list.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }.filter
        { $0.count > 15 }
    }

    func prune(_ arguments: [String], _ scratch: Scratch, _ connection: String) async throws -> String {
        let prune = try PushlineProcess(["runs", "prune"] + arguments, environment: environment(scratch, connection))
        #expect(try await prune.waitForExit() == 0, "\(prune.stdout)")
        return prune.stdout
    }

    @Test(arguments: JournalKind.all)
    func pruneKeepsWhatTheWindowNeedsAndRetentionRemovesTheRest(_ kind: JournalKind) async throws {
        let scratch = try await Scratch(users: 20, journal: kind)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        // The digest, with its default 12 h window.
        let (status, counts, output) = try await runToEnd(try checkout(scratch, "a"), scratch, connection)
        #expect(status == 0 && counts["accepted"] == 20, "\(output)")
        let digest = try #require(try await runIds(scratch, connection).first)

        // Another pipeline without a window, keeping its runs for no time: each run prunes the one before it.
        let news = try checkout(scratch, "b", extra: "name: news\nretention: 0s\n")
        try (try String(contentsOfFile: news, encoding: .utf8) + "      dedupe-window: \"0\"\n").write(
            toFile: news, atomically: true, encoding: .utf8)
        let (firstStatus, _, firstOutput) = try await runToEnd(news, scratch, connection)
        #expect(firstStatus == 0 && !firstOutput.contains("retention: removed"), "\(firstOutput)")
        let firstNews = try #require(try await runIds(scratch, connection).first)
        try (try String(contentsOfFile: news, encoding: .utf8) + "# the second edition\n").write(
            toFile: news, atomically: true, encoding: .utf8)
        let (secondStatus, _, secondOutput) = try await runToEnd(news, scratch, connection)
        #expect(
            secondStatus == 0 && secondOutput.contains("retention: removed 1 run of news older than 0s (20 items)"),
            "\(secondOutput)")
        let ids = try await runIds(scratch, connection)
        let secondNews = try #require(ids.first)
        #expect(ids.count == 2 && ids.contains(digest) && !ids.contains(firstNews), "\(ids)")

        // By hand: a dry run says what would go and keeps everything; the digest stays for its window.
        let dry = try await prune(["--older-than", "0s", "--dry-run"], scratch, connection)
        #expect(
            dry.contains("would remove 1 run (20 items, 0 skip ranges); nothing was removed (--dry-run)")
                && dry.contains(secondNews)
                && dry.contains("1 within their dedupe window"), "\(dry)")
        #expect(try await runIds(scratch, connection).count == 2)
        let onlyDigest = try await prune(["--older-than", "0s", "--pipeline", "digest"], scratch, connection)
        #expect(onlyDigest.contains("removed 0 runs"), "\(onlyDigest)")
        let pruned = try await prune(["--older-than", "0s", "--format", "json"], scratch, connection)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(pruned.utf8)) as? [String: Any], "\(pruned)")
        #expect(json["removed"] as? [String] == [secondNews] && json["items"] as? Int == 20, "\(pruned)")
        #expect(try await runIds(scratch, connection) == [digest])

        // What the window keeps still holds: the digest run again from another checkout sends nothing.
        let (again, rerun, rerunOutput) = try await runToEnd(
            try checkout(scratch, "c", extra: "name: digest\n"), scratch, connection)
        #expect(again == 0 && rerun["duplicates"] == 20, "\(rerun) \(rerunOutput)")
        let delivered = try await deliveries(base)
        #expect(
            delivered.count == 20 && delivered.values.allSatisfy { $0 == 3 },
            "the digest once, news twice: \(delivered)")
        #expect(try await emulator.stop() == 0)
    }
}
