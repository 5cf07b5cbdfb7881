import Engine
import Foundation
import HubEmulator
import HubWire
import Logging
import PipelineCore
import RunFlow
import SQLiteRunStore
import Synchronization

/// One case's world: its clock, its emulator (made at the first run that loads, hosting every hub the pipeline
/// declares, all under one fresh key), its scratch folder and journal, and what the runs printed. Runs of a case go
/// through one session in order.
final class CaseSession: Sendable {
    /// The base URL the pipeline's hubs are pointed at. Nothing is ever sent there: the executor answers in-process.
    static let hubBase = "http://emulator.pushline.test/"
    /// The policy every hub of the case's emulator has.
    static let policy = "DefaultFullSharedAccessSignature"

    let file: PipelineTestFile
    let testCase: TestCase
    let steps: StepRegistry
    let baseEnvironment: [String: String]
    let scratch: String
    let clock = TestClock()
    let key = EmulatorConfiguration.generateKey()
    /// Every request of the case's runs that reached the hub.
    let log = ExchangeLog()
    /// Which requests a fault with a rate below 1 hits: seeded by the case's name, so the case meets the same faults
    /// in every run (when it sends one request at a time; concurrent requests take their turns as they come).
    let dice: FaultDice
    private let state = Mutex<(emulator: Emulator?, output: String)>((nil, ""))

    init(file: PipelineTestFile, testCase: TestCase, steps: StepRegistry, baseEnvironment: [String: String]) {
        self.file = file
        self.testCase = testCase
        self.steps = steps
        self.baseEnvironment = baseEnvironment
        dice = FaultDice(seed: UInt64(ContentName.of(testCase.name), radix: 16) ?? 0)
        scratch =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushline-test-\(UUID().uuidString)"
            ).path
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    /// Removes the scratch folder (the journal with it).
    func close() {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// The connection string of the case's emulator: every hub the pipeline declares is pointed at it.
    var connectionString: String {
        "Endpoint=\(Self.hubBase);SharedAccessKeyName=\(Self.policy);SharedAccessKey=\(key)"
    }

    /// What the runs printed so far.
    var output: String { state.withLock { $0.output } }

    /// Appends to what the runs printed.
    func print(_ text: String) {
        state.withLock { $0.output += text }
    }

    /// The emulator, once a run made it.
    var emulator: Emulator? { state.withLock { $0.emulator } }

    /// The emulator for a run of a pipeline that declares `hubs`: made at the first run, the devices put in its first
    /// hub through its own REST API (a device the hub refuses is a failure at the device). Nil after reporting why
    /// it could not be made.
    func emulator(hosting hubs: [String], failures: inout [TestFailure], run: String) async -> Emulator? {
        if let emulator { return emulator }
        let names = hubs.isEmpty ? ["myhub"] : hubs
        let policy = AccessPolicy(name: Self.policy, key: key, rights: [.listen, .manage, .send])
        let configuration = EmulatorConfiguration(
            namespace: "local", hubs: names.map { EmulatorConfiguration.Hub(name: $0, policies: [policy]) })
        let made: Emulator
        do {
            made = try await Emulator(configuration: configuration, now: { [clock] in clock.now() })
        } catch {
            failures.append(
                TestFailure(
                    run: run, location: testCase.location, message: "the case's emulator did not start: \(error)"))
            return nil
        }
        let client = InProcessEmulator(made, faults: [], latency: nil)
        let connection: ConnectionString
        do { connection = try ConnectionString(parsing: connectionString) } catch {
            failures.append(TestFailure(run: run, location: testCase.location, message: "\(error)"))
            return nil
        }
        let endpoint = HubEndpoint(connection: connection, hub: names[0], endpointOverride: nil)
        let token = SASSigner(keyName: Self.policy, key: key).token(
            forResource: "https://local.servicebus.windows.net/",
            expiry: Int64(clock.now().timeIntervalSince1970) + 3600)
        for device in testCase.devices {
            var requests: [HubRequest] = []
            switch device.kind {
            case .installation(let installation):
                requests = [HubRequests.putInstallation(installation, at: endpoint)]
            case .registration(let registration):
                // A registration id first, as NH's clients do; the description under it.
                let create = HubRequests.createRegistrationID(at: endpoint)
                let answer = await client.answer(
                    method: create.method.rawValue, url: create.url,
                    headers: create.headers + [HubHeader("Authorization", token.headerValue)], body: create.body)
                if case .response(201, let headers, _) = answer,
                    let location = headers.first(where: { $0.name.lowercased() == "location" })?.value
                {
                    requests = [
                        HubRequests.upsertRegistration(registration, id: ExchangeLog.id(in: location), at: endpoint)
                    ]
                } else {
                    requests = [create]
                }
            }
            for request in requests {
                let answer = await client.answer(
                    method: request.method.rawValue, url: request.url,
                    headers: request.headers + [HubHeader("Authorization", token.headerValue)], body: request.body)
                guard case .response(let status, _, _) = answer, (200..<300).contains(status) else {
                    var detail = "no answer"
                    if case .response(let status, _, let body) = answer {
                        let text = String(decoding: body, as: UTF8.self)
                        detail = "\(status): " + (NHErrorBody(parsing: text)?.detail ?? text)
                    }
                    failures.append(
                        TestFailure(
                            run: run, location: device.location, message: "the hub refused \(device.shown) (\(detail))")
                    )
                    continue
                }
            }
        }
        state.withLock { $0.emulator = made }
        return made
    }

    /// A scratch file holding `rows` as JSON Lines, for a step's `for-each`. The same rows get the same file, so a run
    /// given them again is the same run, as `pushline run` over an unchanged file is.
    func rowsFile(_ rows: [JSONValue], step: String) -> String {
        let text = rows.map(\.compact).joined(separator: "\n") + (rows.isEmpty ? "" : "\n")
        let path = scratch + "/rows-\(step.filter { $0.isLetter || $0.isNumber })-\(ContentName.of(text)).jsonl"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        }
        return path
    }

    /// A scratch SQLite database holding `tables`, for a `query` step's `database`; the same tables get the same file.
    func databaseFile(_ tables: [SQLiteFixture.Table], step: String) throws -> String {
        let text = tables.map { "\($0.name)|\($0.columns)|\($0.rows)" }.joined(separator: "\n")
        let path = scratch + "/tables-\(step.filter { $0.isLetter || $0.isNumber })-\(ContentName.of(text)).sqlite"
        if !FileManager.default.fileExists(atPath: path) { try SQLiteFixture.create(at: path, tables: tables) }
        return path
    }

    /// The journal every run of the case shares.
    var journal: String { scratch + "/journal.sqlite" }

    /// A logger that says nothing: what a run says is in its report.
    static let quietLogger = Logger(label: "pushline.test") { _ in SwiftLogNoOpLogHandler() }
}
