import Foundation
import PipelineCore
import RunStore
import TestSupport
import Testing

@testable import PostgresRunStore

/// What only the PostgreSQL store has: logins, reachability, its schema, and the fence on a lost lock. The
/// behaviour both stores share is the contract suite in `RunStoreTests`.
@Suite(
    "PostgresStore against a real server",
    .enabled(
        if: TestPostgres.isEnabled,
        "needs PUSHLINE_TEST_POSTGRES (.ci/postgres.sh start DIR)"))
struct PostgresStoreTests {
    @Test("a wrong password is a configuration error (exit 78) that names the store and never the password")
    func wrongPassword() async throws {
        let admin = try #require(TestPostgres.adminURL)
        let wrong =
            admin.replacingOccurrences(
                of: #"://pushline:[^@]*@"#, with: "://pushline:not-the-password-42@", options: .regularExpression)
            // Room to connect while every suite starts at once on a small machine.
            + (admin.contains("?") ? "&" : "?") + "connect_timeout=60"
        let error = await #expect(throws: RunStoreError.self) {
            _ = try await PostgresStore.open(wrong, environment: [:])
        }
        #expect(error?.kind == .configuration)
        #expect(error?.message.contains("rejected the login") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("postgres://pushline@127.0.0.1") == true)
        #expect(error?.message.contains("not-the-password-42") == false)

        let unknownDatabase = try TestPostgres.url(database: "no_such_database")
        let missing = await #expect(throws: RunStoreError.self) {
            _ = try await PostgresStore.open(unknownDatabase, environment: [:])
        }
        #expect(missing?.kind == .configuration)
        #expect(missing?.message.contains("no_such_database") == true)
    }

    // A hang would be stopped by the time limit; the error's kind shows the refusal was understood.
    @Test("a server that is not there is 'unavailable' (exit 75, retried), not a hang", .timeLimit(.minutes(1)))
    func unreachable() async throws {
        let port = try Server.closedPort()
        let error = await #expect(throws: RunStoreError.self) {
            _ = try await PostgresStore.open(
                "postgres://pushline:pw@127.0.0.1:\(port)/db?connect_timeout=2", environment: [:])
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true)
    }

    @Test(
        "the schema is created once when several processes open an empty database at once, and reads back its version")
    func concurrentCreation() async throws {
        try await Server.withDatabase { url in
            let stores = try await withThrowingTaskGroup(of: PostgresStore?.self) { group in
                for _ in 0..<6 { group.addTask { try await PostgresStore.open(url, environment: [:]) } }
                return try await group.reduce(into: [PostgresStore]()) { if let store = $1 { $0.append(store) } }
            }
            #expect(stores.count == 6)
            let run = try await stores[0].startRun(identity: "i", pipeline: "/p.yaml", pid: 1, now: 1000)
            #expect(try await stores[5].latestRun(identity: "i") == run)
            for store in stores { await store.close() }
            #expect(
                try await TestPostgres.query(
                    "SELECT value FROM pushline.meta WHERE key = 'schema_version'", database: url)
                    == "\(PostgresSchema.version)")
        }
    }

    @Test("a database written by a newer pushline is refused and left as it was; someone else's 'pushline' schema too")
    func newerSchema() async throws {
        try await Server.withDatabase { url in
            let store = try #require(try await PostgresStore.open(url, environment: [:]))
            await store.close()
            _ = try await TestPostgres.query(
                "UPDATE pushline.meta SET value = '99' WHERE key = 'schema_version'", database: url)
            let error = await #expect(throws: RunStoreError.self) {
                _ = try await PostgresStore.open(url, environment: [:])
            }
            #expect(error?.kind == .configuration)
            #expect(error?.message.contains("schema version 99") == true)
            #expect(
                try await TestPostgres.query(
                    "SELECT value FROM pushline.meta WHERE key = 'schema_version'", database: url)
                    == "99")
        }
        try await Server.withDatabase { url in
            _ = try await TestPostgres.query(
                "CREATE SCHEMA pushline; CREATE TABLE pushline.runs (x int)", database: url)
            let error = await #expect(throws: RunStoreError.self) {
                _ = try await PostgresStore.open(url, environment: [:])
            }
            #expect(error?.message.contains("not a pushline run store") == true)
        }
    }

    @Test("opening to read only creates nothing: an empty database has no store yet")
    func readOnlyOpen() async throws {
        try await Server.withDatabase { url in
            let opened = try await PostgresStore.open(url, environment: [:], create: false)
            #expect(opened == nil)
            let schemas = try await TestPostgres.query(
                "SELECT count(*) FROM pg_namespace WHERE nspname = 'pushline'", database: url)
            #expect(schemas == "0")
        }
    }

    @Test("a lock check that cannot ask the store throws instead of answering 'free'", .timeLimit(.minutes(1)))
    func lockCheckWithoutTheStore() async throws {
        try await Server.withDatabase { url in
            let store = try #require(try await PostgresStore.open(url, environment: [:]))
            await store.close()
            let error = await #expect(throws: RunStoreError.self) {
                _ = try await store.isLocked(pipeline: "/srv/pipelines/digest.yaml")
            }
            #expect(error?.kind == .unavailable)
        }
    }

    @Test(
        "a call cut short by a pause of this process, and a lock lost in one, say so rather than that the store is down"
    )
    func pausedProcess() {
        let pauses = ProcessPauses()
        let started = ContinuousClock.now
        let down = PostgresFailure.storeError(
            StoreDeadline(limit: .seconds(42), started: started), location: "postgres://p@db/x",
            doing: "writing the ledger", pauses: pauses)
        #expect(
            down.message.contains("got no answer within 42.0 seconds; it is down or unreachable"), "\(down.message)")
        pauses.observe(previous: started, now: started + .seconds(41) + .milliseconds(250))
        let paused = PostgresFailure.storeError(
            StoreDeadline(limit: .seconds(42), started: started), location: "postgres://p@db/x",
            doing: "writing the ledger", pauses: pauses)
        #expect(paused.kind == .unavailable)
        #expect(
            paused.message.hasPrefix(
                "writing the ledger in the run store at postgres://p@db/x was cut short: this process did not run "
                    + "for 41 s (it was stopped with SIGSTOP, its machine was frozen, or it had no CPU) while it waited, so the store may well be up."
            ),
            "\(paused.message)")
        #expect(!paused.message.contains("down or unreachable"))
        let lost = PostgresFailure.lostLock(location: "postgres://p@db/x", pauses: pauses)
        #expect(
            lost.message.hasPrefix(
                "this run lost its lock in the run store at postgres://p@db/x: another process took it over, "
                    + "after this process did not run for 41 s"), "\(lost.message)")
        #expect(lost.message.contains("This run sends nothing more"))
        #expect(lost.hint?.contains("the run that took the lock over sends the rest") == true)
        #expect(paused.hint?.hasPrefix("find what stopped this process") == true)
        #expect(!PostgresFailure.lostLock(location: "l", pauses: ProcessPauses()).message.contains("did not run"))
    }

    @Test("the lock dies with its holder's connection; the holder that lost it is fenced out of every ledger write")
    func fencedAfterTakeover() async throws {
        try await Server.withDatabase { url in
            let first = try #require(
                try await PostgresStore.open(url + "&application_name=holder-one", environment: [:]))
            let second = try #require(try await PostgresStore.open(url, environment: [:]))
            defer {
                Task {
                    await first.close()
                    await second.close()
                }
            }
            let pipeline = "/srv/pipelines/digest.yaml"
            guard
                case .acquired(let lock) = try await first.lock(
                    pipeline: pipeline, holder: LockHolder(pid: 11, host: "node-a", startedAt: 1000))
            else {
                Issue.record("a free lock was not taken")
                return
            }
            let run = try await first.startRun(identity: "i", pipeline: pipeline, pid: 11, now: 1000)
            let ledger = first.ledger(for: run, lock: lock)
            try await ledger.markSending([
                LedgerItem(key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "rows.csv:1", digest: "d1")
            ])

            guard
                case .held(let holder) = try await second.lock(
                    pipeline: pipeline, holder: LockHolder(pid: 22, host: "node-b", startedAt: 2000))
            else {
                Issue.record("a held lock was taken twice")
                return
            }
            #expect(holder == LockHolder(pid: 11, host: "node-a", startedAt: 1000))

            // The first holder's lock connection dies (its node vanished, a network split): the server frees the lock.
            _ = try await TestPostgres.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = 'holder-one (run lock)'
                """, database: url)
            var taken: (any RunLock)?
            let deadline = ContinuousClock.now + .seconds(30)
            while taken == nil, ContinuousClock.now < deadline {
                if case .acquired(let lock) = try await second.lock(
                    pipeline: pipeline, holder: LockHolder(pid: 22, host: "node-b", startedAt: 2000))
                {
                    taken = lock
                } else {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            let takeover = try #require(taken, "the lock of a dead connection was freed")
            #expect(try await second.isLocked(pipeline: pipeline))

            // The first process is only slow: its next write is refused, so two processes never record side by side.
            let refused = await #expect(throws: LedgerError.self) {
                try await ledger.record([
                    LedgerOutcome(
                        item: LedgerItem(
                            key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "rows.csv:1",
                            digest: "d1"), state: .accepted)
                ])
            }
            #expect(refused?.message.contains("lost its lock") == true, "\(refused?.message ?? "")")
            // So is a claim, whose fence is checked in the call that takes its keys' locks.
            var claiming = LedgerItem(
                key: LedgerKey(step: 0, row: 2), stepId: "send", origin: "rows.csv:2", digest: "d2",
                idempotencyKey: "k2")
            claiming.claimsKey = true
            let refusedClaim = await #expect(throws: LedgerError.self) {
                try await ledger.markSending([claiming], claim: KeyClaim(since: 0))
            }
            #expect(refusedClaim?.message.contains("lost its lock") == true, "\(refusedClaim?.message ?? "")")
            #expect(try await second.ledger(for: run, lock: takeover).entry(LedgerKey(step: 0, row: 2)) == nil)
            #expect(
                try await second.ledger(for: run, lock: takeover).entry(LedgerKey(step: 0, row: 1))?.state == .sending,
                "the refused write left nothing behind")
            try await second.ledger(for: run, lock: takeover).record([
                LedgerOutcome(
                    item: LedgerItem(
                        key: LedgerKey(step: 0, row: 1), stepId: "send", origin: "rows.csv:1", digest: "d1"),
                    state: .unknown)
            ])
            // Nor may it end or restart the run its successor now sends.
            let ended = await #expect(throws: RunStoreError.self) {
                try await first.finishRun(
                    id: run.id, state: .interrupted, exitCode: 130, summary: nil, now: 1100, lock: lock)
            }
            #expect(ended?.message.contains("lost its lock") == true)
            await #expect(throws: RunStoreError.self) {
                _ = try await first.resumeRun(id: run.id, pid: 11, now: 1100, lock: lock)
            }
            #expect(
                try await second.run(matching: run.id)?.status == .running, "the run is left as its new holder has it")
            _ = try await second.resumeRun(id: run.id, pid: 22, now: 2000, lock: takeover)
            try await second.finishRun(
                id: run.id, state: .partial, exitCode: 3, summary: nil, now: 2100, lock: takeover)
            #expect(try await second.run(matching: run.id)?.status == .partial)
            await takeover.release()
            await lock.release()
            #expect(try await !first.isLocked(pipeline: pipeline))
        }
    }
}

/// What the suites here add to the shared test server.
enum Server {
    /// Runs `body` with the URL of a new, empty database, dropped afterwards.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let name = TestPostgres.uniqueName("pushline_pg_")
        try await TestPostgres.createDatabase(name)
        defer { _ = try? TestPostgres.queryWaiting("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        try await body(try TestPostgres.url(database: name))
    }

    /// A loopback port nothing listens on.
    static func closedPort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
