import Foundation
import PipelineCore
import RunJournal
import Testing

@Suite("Journal: runs")
struct RunTests {
    @Test("startRun gives unique ids made of the UTC start time and six hex digits")
    func startRunIDs() throws {
        try withTemporaryDirectory { directory in
            let journal = try Journal(path: directory + "/journal.sqlite")
            var ids: Set<String> = []
            for _ in 0..<200 {
                let run = try journal.startRun(identity: "abc", pipeline: "send.yaml", pid: 7, now: novemberMorning + 0.25)
                #expect(run.id.wholeMatch(of: #/20261122-041200-[0-9a-f]{6}/#) != nil, "\(run.id)")
                #expect(run.status == .running)
                #expect(run.startedAt == novemberMorning + 0.25)
                #expect(run.pid == 7 && run.resumes == 0 && run.endedAt == nil && run.exitCode == nil)
                ids.insert(run.id)
            }
            #expect(ids.count == 200)
            #expect(try journal.runs(limit: 1000).count == 200)
            let early = try journal.startRun(identity: "abc", pipeline: "p", pid: 1, now: 0)
            #expect(early.id.hasPrefix("19700101-000000-"))
        }
    }

    @Test("latestRun returns the newest run with the identity, or nil")
    func latestRun() throws {
        try withTemporaryDirectory { directory in
            let journal = try Journal(path: directory + "/journal.sqlite")
            _ = try journal.startRun(identity: "aaa", pipeline: "p", pid: 1, now: 100)
            let newest = try journal.startRun(identity: "aaa", pipeline: "p", pid: 2, now: 300)
            _ = try journal.startRun(identity: "aaa", pipeline: "p", pid: 3, now: 200)
            let other = try journal.startRun(identity: "bbb", pipeline: "p", pid: 4, now: 400)

            #expect(try journal.latestRun(identity: "aaa") == newest)
            #expect(try journal.latestRun(identity: "bbb") == other)
            #expect(try journal.latestRun(identity: "ccc") == nil)
        }
    }

    @Test("resumeRun marks the run running again and counts the resume")
    func resumeRun() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            try journal.finishRun(id: run.id, state: .interrupted, exitCode: 130, summary: "{}", now: novemberMorning + 5)

            let first = try journal.resumeRun(id: run.id, pid: 5000, now: novemberMorning + 60)
            #expect(first.status == .running)
            #expect(first.pid == 5000)
            #expect(first.resumes == 1)
            #expect(first.resumedAt == novemberMorning + 60)
            #expect(first.endedAt == nil && first.exitCode == nil && first.summary == nil)
            #expect(first.startedAt == run.startedAt && first.identity == run.identity)

            let second = try journal.resumeRun(id: run.id, pid: 5001, now: novemberMorning + 120)
            #expect(second.resumes == 2)
            #expect(try journal.run(matching: run.id) == second)

            let error = #expect(throws: JournalError.self) { try journal.resumeRun(id: "nope", pid: 1, now: 0) }
            #expect(error?.message.contains("no run nope") == true)
        }
    }

    @Test("finishRun stores the status, exit code, end time and summary")
    func finishRun() throws {
        try withTemporaryDirectory { directory in
            let (journal, run) = try journalWithRun(in: directory)
            let summary = #"{"accepted":10,"failed":2}"#
            try journal.finishRun(id: run.id, state: .partial, exitCode: 3, summary: summary, now: novemberMorning + 42)

            let stored = try #require(try journal.run(matching: run.id))
            #expect(stored.status == .partial)
            #expect(stored.exitCode == 3)
            #expect(stored.endedAt == novemberMorning + 42)
            #expect(stored.summary == summary)

            try journal.finishRun(id: run.id, state: .completed, exitCode: 0, summary: nil, now: novemberMorning + 50)
            let again = try #require(try journal.run(matching: run.id))
            #expect(again.status == .completed && again.exitCode == 0 && again.summary == nil)

            #expect(throws: JournalError.self) {
                try journal.finishRun(id: "missing", state: .failed, exitCode: 1, summary: nil, now: 0)
            }
            #expect(throws: JournalError.self) {
                try journal.finishRun(id: run.id, state: .running, exitCode: 0, summary: nil, now: 0)
            }
        }
    }

    @Test("runs(limit:) lists newest first, at most limit")
    func runsNewestFirst() throws {
        try withTemporaryDirectory { directory in
            let journal = try Journal(path: directory + "/journal.sqlite")
            let a = try journal.startRun(identity: "x", pipeline: "p", pid: 1, now: 1000)
            let c = try journal.startRun(identity: "y", pipeline: "p", pid: 1, now: 3000)
            let b = try journal.startRun(identity: "z", pipeline: "p", pid: 1, now: 2000)
            #expect(try journal.runs(limit: 10).map(\.id) == [c.id, b.id, a.id])
            #expect(try journal.runs(limit: 2).map(\.id) == [c.id, b.id])
            #expect(try journal.runs(limit: 0).isEmpty)
        }
    }

    @Test("run(matching:) finds an exact id or a unique prefix, and refuses an ambiguous prefix")
    func runMatching() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/journal.sqlite"
            let journal = try Journal(path: path)
            let first = try journal.startRun(identity: "x", pipeline: "p", pid: 1, now: novemberMorning)
            let second = try journal.startRun(identity: "x", pipeline: "p", pid: 1, now: novemberMorning + 1)
            let nextDay = try journal.startRun(identity: "x", pipeline: "p", pid: 1, now: novemberMorning + 86_400)

            #expect(try journal.run(matching: first.id) == first)
            #expect(try journal.run(matching: second.id) == second)
            #expect(try journal.run(matching: "20261123") == nextDay)
            #expect(try journal.run(matching: "20261122-041201") == second)
            #expect(try journal.run(matching: "2025") == nil)
            #expect(try journal.run(matching: "") == nil)
            #expect(try journal.run(matching: "2026112_") == nil, "LIKE wildcards are not wildcards here")

            let error = #expect(throws: JournalError.self) { try journal.run(matching: "20261122-0412") }
            let message = error?.message ?? ""
            #expect(message.contains("matches 2 runs"))
            #expect(message.contains(first.id) && message.contains(second.id))
            #expect(message.contains(path))
        }
    }
}
