import Foundation
import PipelineCore
import RunStore
import Testing

@testable import SQLiteRunStore

/// How the journal keeps items small: hex text stored as bytes (`CompactText`), row origins as a file id and a line
/// (`OriginFiles`). Whatever is stored, every item reads back exactly as it was written.
@Suite struct CompactStorageTests {
    @Test(
        "hex text is stored as bytes and decodes to exactly the text written",
        arguments: [
            ("36b7b00cb2cfe9f0", false, 10),  // a row digest: 16 digits in 8 bytes
            ("9165555e87ba4e4ab1980a49f00979d9-1", false, 19),  // the emulator's notification id: a varint
            // NH's: 16 bytes and three varints
            ("73622a22797441e4b434e8c2c14112ce-20181107001834-33331921-18", false, 30),
            ("9165555e87ba4e4ab1980a49f00979d9-0-18446744073709551615", false, 29),  // the smallest and largest numbers
            ("9165555e87ba4e4ab1980a49f00979d9-01", false, 21),  // a leading zero stays text
            ("9165555e87ba4e4ab1980a49f00979d9-18446744073709551616", false, 39),  // as does a number past 64 bits
            ("9165555e87ba4e4ab1980a49f00979d9-1-", false, 21),  // and an empty one
            ("request:cd1e11b25b24cef239f7432f0d2eb82c-7", true, 20),  // keys keep their rest as text
            ("request:cd1e11b25b24cef239f7432f0d2eb82c", true, 18),  // default keys
            ("device:ffeeddccbbaa99887766554433221100", true, 18),
            ("0123456789abcdef0", false, 11),  // an odd run keeps its last digit as text
        ])
    func compacts(_ text: String, _ key: Bool, _ bytes: Int) throws {
        let stored = try #require(CompactText.encode(text, forKey: key))
        #expect(stored.count == bytes)
        #expect(CompactText.decode(stored) == text)
        if key {
            let indexed = try #require(CompactText.keyIndexBytes(text))
            #expect(
                withUnsafeBytes(of: indexed.bigEndian, Array.init) == Array(stored[2..<6]), "what the key index holds")
        }
    }

    @Test(
        "what would not get shorter, or must stay searchable as text, stays text",
        arguments: [
            ("d1", false), ("digest-7", false), ("36B7B00CB2CFE9F0", false), ("0123456789abcde", false),
            ("digest/step1:digest-u0203", true), ("request:short", true), ("cd1e11b25b24cef239f7432f0d2eb82c", true),
            ("request:cd1e11b25b24cef239f7432f0d2eb82c", false),
        ])
    func keepsText(_ text: String, _ key: Bool) {
        #expect(CompactText.encode(text, forKey: key) == nil)
        if key { #expect(CompactText.keyIndexBytes(text) == nil) }
    }

    @Test("any text round-trips: random mixes of hex digits, prefixes and other characters")
    func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["request:", "device:", "", "-", "é", "\u{0}", "0", "f", "A", ":", "/"]
        for _ in 0..<2_000 {
            var text = pieces.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                text +=
                    Bool.random(using: &generator)
                    ? String("0123456789abcdef".randomElement(using: &generator)!)
                    : pieces.randomElement(using: &generator)!
            }
            let indexed = CompactText.keyIndexBytes(text).map { withUnsafeBytes(of: $0.bigEndian, Array.init) }
            #expect(
                indexed == CompactText.encode(text, forKey: true).map { Array($0[2..<6]) }, "\(text.debugDescription)")
            for key in [false, true] {
                guard let stored = CompactText.encode(text, forKey: key) else { continue }
                #expect(CompactText.decode(stored) == text, "\(text.debugDescription)")
                #expect(stored.count < text.utf8.count, "compacted only when shorter: \(text.debugDescription)")
            }
        }
    }

    @Test("only origins of the form file:line with a plain decimal line are coded")
    func splitsOrigins() {
        #expect(OriginFiles.split("/srv/digest/rows.csv:42")! == ("/srv/digest/rows.csv", 42))
        #expect(OriginFiles.split("C:/rows.csv:7")! == ("C:/rows.csv", 7))
        for text in [
            "rows.csv:0042", "rows.csv:0", "rows.csv:", ":12", "step 2", "rows.csv:99999999999", "rows.csv:-1",
            "rows.csv:1x",
        ] {
            #expect(OriginFiles.split(text) == nil, "\(text)")
        }
    }

    @Test("a journal stores row origins as file and line, hex as bytes, and reads every item back as written")
    func journalRoundTrip() async throws {
        try await withJournalAndRun { journal, first, path in
            let origins = [
                "/srv/releases/2026-11-25/rows.csv:2", "/srv/releases/2026-11-25/rows.csv:3", "step 2", "rows.csv:0042",
                "/srv/other/devices.json:1",
            ]
            let items = origins.enumerated().map { index, origin in
                LedgerItem(
                    key: LedgerKey(step: 1, row: index + 1), stepId: "send", origin: origin,
                    digest: "36b7b00cb2cfe9f\(index)",
                    idempotencyKey: index == 2
                        ? "digest/step1:u\(index)" : "request:cd1e11b25b24cef239f7432f0d2eb8\(index)c",
                    target: "$UserId:{u\(index)}")
            }
            let ledger = journal.ledger(run: first.id)
            try await ledger.markSending(items)
            try await ledger.record(
                items.map {
                    LedgerOutcome(
                        item: $0, state: .accepted, notificationId: "9165555e87ba4e4ab1980a49f00979d9-\($0.key.row)")
                })

            let read = try await journal.items(run: first.id, states: [], limit: 10)
            #expect(read.map(\.origin) == origins)
            #expect(read.map(\.digest) == items.map(\.digest))
            #expect(read.map(\.idempotencyKey) == items.map(\.idempotencyKey))
            #expect(read.map(\.notificationId) == (1...5).map { "9165555e87ba4e4ab1980a49f00979d9-\($0)" })
            #expect(try await ledger.entry(LedgerKey(step: 1, row: 1))?.digest == "36b7b00cb2cfe9f0")

            var stored: [String] = []
            try SQLiteConnection(path: path).query(
                "SELECT typeof(origin) || ' ' || typeof(digest) || ' ' || typeof(idempotency_key) FROM items ORDER BY row"
            ) {
                (row) throws(RunStoreError) in stored.append(row.text(0) ?? "")
            }
            // Lines one past their rows are stored as that distance (an INTEGER); a line before its row as file and line.
            #expect(
                stored == [
                    "integer integer blob", "integer integer blob", "text integer text", "text integer blob",
                    "blob integer blob",
                ])

            // Another process (another connection) reads the files it did not add; keys and origins are found as written.
            let other = try Journal(path: path)
            #expect(try await other.items(run: first.id, states: [], limit: 1).first?.origin == origins[0])
            let second = try await other.startRun(identity: "j", pipeline: "digest", pid: 2, now: 2000)
            let prior = try await other.ledger(run: second.id).priorSend(
                key: items[1].idempotencyKey!, since: 0, excluding: LedgerKey(step: 1, row: 1))
            #expect(
                prior?.runId == first.id && prior?.origin == origins[1]
                    && prior?.notificationId == "9165555e87ba4e4ab1980a49f00979d9-2")
            #expect(try await other.find(origins[4], pipeline: nil, since: nil, limit: 5).map(\.item.key.row) == [5])
            #expect(try await other.find(origins[1], pipeline: nil, since: nil, limit: 5).map(\.item.key.row) == [2])
            #expect(
                try await other.find("/srv/releases/2026-11-25/rows.csv:4", pipeline: nil, since: nil, limit: 5).isEmpty
            )
            #expect(
                try await other.find("rows.csv:0042", pipeline: nil, since: nil, limit: 5).map(\.item.key.row) == [4])
            await #expect(
                try other.find(items[0].idempotencyKey!, pipeline: nil, since: nil, limit: 5).map(\.item.key.row) == [1]
            )
            #expect(
                try await other.find("/srv/releases/2026-11-25/rows.csv:9", pipeline: nil, since: nil, limit: 5).isEmpty
            )
        }
    }

    @Test("a file added in a transaction that rolls back is forgotten, not used for the next item")
    func rollbackForgetsTheFile() async throws {
        try await withJournalAndRun { journal, run, path in
            let item = LedgerItem(
                key: LedgerKey(step: 1, row: 1), stepId: "send", origin: "/srv/a/rows.csv:2", digest: "d")
            try await journal.withConnection { (connection) throws(RunStoreError) in
                let failed = #expect(throws: RunStoreError.self) {
                    try connection.transaction { () throws(RunStoreError) in
                        _ = try connection.originFiles.stored(item.origin, row: 1, connection)
                        throw RunStoreError("the write failed")
                    }
                }
                #expect(failed?.message == "the write failed")
            }
            try await journal.ledger(run: run.id).markSending([item])
            #expect(try await journal.items(run: run.id, states: [], limit: 1).first?.origin == "/srv/a/rows.csv:2")
        }
    }
}
