import Foundation
import HTTPTypes
import HubEmulator
import HubHTTP
import HubWire
import PasswordHashing
import PipelineConfig
import PipelineCore
import PushService
import RunFlow
import Synchronization
import Testing
import TokenVerification

/// A real emulator on a loopback port and a `PushServer` in front of it, with users alice, bob and carol
/// (cost-4 bcrypt hashes, so tests stay quick) and one API key. Requests go straight to the server's router, from any
/// peer address a test names; the HTTP layer has its own tests.
struct ServiceHarness {
    static let passwords = ["alice": "alice-pass-1", "bob": "bob-pass-2", "carol": "carol-pass-3"]
    static let apiKey = "k-sender-0123456789abcdef"
    static let adminKey = "k-admin-fedcba9876543210"
    /// A key inside alice's app (the official sample's apps send one): it manages alice's devices.
    static let aliceDeviceKey = "k-alice-phone-55555555"
    static let hubKey = "Hk1Ey2Fo3Rt4He5Se6Rv7Ic8Ey9Ou0Lo1Ok2At3ThA="
    static let users: UserDirectory = UserDirectory(
        hashes: passwords.mapValues { PasswordHash.make($0, cost: 4) })

    let emulator: Emulator
    let served: EmbeddedEmulator
    let server: PushServer
    let client: InProcessClient
    let executor: HTTP1Client
    let lines: LineLog
    /// The run journal the served pipelines' runs are kept in.
    var journal = ""

    /// Settings as the example service file has them, adjusted by `adjust`.
    static func settings(port: Int, key: String = hubKey, _ adjust: (inout ServiceSettings) -> Void = { _ in }) throws
        -> ServiceSettings
    {
        let connection = try ConnectionString(
            parsing: "Endpoint=sb://local.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=\(key)")
        let hub = HubDeclaration(
            name: "users", location: SourceLocation(file: "service.yaml", line: 1, column: 1),
            connection: connection, hubName: "myhub", endpoint: "http://127.0.0.1:\(port)/")
        var settings = ServiceSettings(hub: hub)
        settings.usersFile = "users.htpasswd"
        settings.apiKeys = [
            .init(name: "backend", digest: ContentDigest.hex(apiKey), scopes: [.send]),
            .init(name: "ops", digest: ContentDigest.hex(adminKey), scopes: [.admin]),
            .init(
                name: "alice-phone", digest: ContentDigest.hex(aliceDeviceKey), scopes: [.register, .send],
                user: "alice"),
        ]
        settings.allowedTags = TagPattern("(topic|lang)_[a-z0-9_]{1,40}")
        settings.maxTags = 5
        let example = try exampleSettings()
        settings.notifyTemplates = example.notifyTemplates
        settings.requestTemplates = example.requestTemplates
        settings.silentRequestTemplates = example.silentRequestTemplates
        adjust(&settings)
        return settings
    }

    /// The settings of `pipelines/notify-users.service.yaml` (its templates are what the tests use).
    static func exampleSettings(filePath: String = #filePath) throws -> ServiceSettings {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("pipelines/notify-users.service.yaml").path
        let diagnostics = DiagnosticCollector()
        let environment = [
            "NH_CONNECTION":
                "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=\(hubKey)",
            "NH_HUB": "myhub", "PUSHLINE_USERS": "users.htpasswd", "PUSHLINE_API_KEY": apiKey,
        ]
        let file = try #require(
            PipelineLoader(options: LoaderOptions(purpose: .run, environment: environment))
                .loadService(path: path, diagnostics: diagnostics), "\(diagnostics.diagnostics)")
        let settings = try #require(ServiceSettingsDecoder(file: file, diagnostics: diagnostics).decode())
        #expect(!diagnostics.hasErrors, "\(diagnostics.diagnostics)")
        return settings
    }

    static func emulatorConfiguration(faults: [FaultRule] = []) -> EmulatorConfiguration {
        EmulatorConfiguration(
            namespace: "local",
            hubs: [
                .init(
                    name: "myhub",
                    policies: [AccessPolicy(name: "Full", key: hubKey, rights: [.listen, .manage, .send])])
            ], faults: faults)
    }

    /// Runs `body` with a fresh emulator and server; both stop afterwards. Tests of the rate limits pass a fixed clock:
    /// the buckets refill with the server's clock, and on a loaded machine a few calls can span a refill.
    static func with(
        port: Int = 0, faults: [FaultRule] = [], pipelines: [(name: String, text: String)] = [],
        bearer: BearerTokens? = nil,
        clock: WallClock = .system, _ adjust: @escaping (inout ServiceSettings) -> Void = { _ in },
        _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let emulator = try await Emulator(configuration: emulatorConfiguration(faults: faults))
        let served = try await EmbeddedEmulator.start(emulator, port: port)
        let executor = HTTP1Client()
        let lines = LineLog()
        do {
            let settings = try settings(port: served.port, adjust)
            // Pipelines run over HTTP against this emulator, journalled in a scratch directory.
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushline-serve-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let environment = [
                "NH_CONNECTION":
                    "Endpoint=http://127.0.0.1:\(served.port)/;SharedAccessKeyName=Full;SharedAccessKey=\(hubKey)",
                "NH_HUB": "myhub", "PUSHLINE_JOURNAL": scratch + "/journal.sqlite",
            ]
            let console = Console(
                out: { lines.append("out: " + $0) }, err: { lines.append("err: " + $0) }, environment: environment,
                clock: .system)
            var servedPipelines: [ServedPipeline] = []
            for (name, text) in pipelines {
                let path = scratch + "/\(name).yaml"
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                let loaded = await LoadedPipeline.load(path, purpose: .validate, console: console)
                #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
                servedPipelines.append(
                    ServedPipeline(name: name, path: path, parameters: loaded.document?.parameters ?? []))
            }
            let server = try PushServer(
                settings: settings, users: users, transport: RetryingTransport(executor: executor), clock: clock,
                log: AccessLog(json: true) { lines.append($0) }, pipelines: servedPipelines, runConsole: console,
                bearer: bearer)
            try await body(
                ServiceHarness(
                    emulator: emulator, served: served, server: server, client: InProcessClient(server),
                    executor: executor, lines: lines,
                    journal: scratch + "/journal.sqlite"))
        } catch {
            await served.stop()
            await executor.shutdown()
            throw error
        }
        await served.stop()
        await executor.shutdown()
    }

    /// One request as `user` (HTTP Basic with the user's password), as an API key, or anonymous.
    func call(
        _ method: HTTPRequest.Method, _ target: String, as user: String? = nil, password: String? = nil,
        apiKey: String? = nil, headers extra: HTTPFields = [:], body: String? = nil, peer: String = "127.0.0.1"
    ) async -> Answer {
        var headers = extra
        if let user {
            let secret = password ?? Self.passwords[user] ?? ""
            headers[.authorization] = "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
        }
        if let apiKey { headers[HTTPField.Name("apikey")!] = apiKey }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let (response, bytes) = await client.answer(
            HTTPRequest(
                method: method, scheme: "http", authority: "127.0.0.1:8088", path: target, headerFields: headers),
            body: Array((body ?? "").utf8), peerIP: peer)
        // A HEAD answer is the GET answer's head alone: the server drops the body on the way out.
        let text = method == .head ? "" : String(decoding: bytes, as: UTF8.self)
        return Answer(status: Int(response.status.code), headers: response.headerFields, text: text)
    }

    /// Registers a device for `user` the seed way (POST for an id, PUT the registration); returns the id.
    @discardableResult
    func register(_ user: String, handle: String, platform: String = "apns", tags: [String] = []) async throws -> String
    {
        let created = await call(.post, "/api/register?handle=\(handle)", as: user)
        #expect(created.status == 200, "\(created)")
        let id = try #require(try JSONDecoder().decode(String?.self, from: Data(created.text.utf8)))
        let tagList = tags.map { "\"\($0)\"" }.joined(separator: ",")
        let put = await call(
            .put, "/api/register/\(id)", as: user,
            body: #"{"Platform":"\#(platform)","Handle":"\#(handle)","Tags":[\#(tagList)]}"#)
        #expect(put.status == 200, "\(put)")
        return id
    }

    /// What the emulator delivered, by device handle.
    func deliveries() async -> [Delivery] { await emulator.deliveries() }

    /// The status of a request made straight to the hub, signed with the hub's Full key (what an operator's tool does).
    func hubStatus(_ request: HubRequest) async -> Int? {
        let resource = "http://127.0.0.1:\(served.port)/myhub"
        let token = SASSigner(keyName: "Full", key: Self.hubKey).token(
            forResource: resource, expiry: Int64(Date().timeIntervalSince1970) + 600)
        let outcome = await executor.perform(request, extraHeaders: [HubHeader("Authorization", token.headerValue)])
        guard case .response(let response) = outcome else { return nil }
        return response.status
    }
}

/// A response as the tests read it.
struct Answer: Sendable, CustomStringConvertible {
    let status: Int
    let headers: HTTPFields
    let text: String

    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
    var detail: String { json?["detail"] as? String ?? "" }
    var description: String { "\(status) \(headers) \(text)" }
}

/// Lines the access log wrote.
final class LineLog: Sendable {
    private let stored = Mutex<[String]>([])
    func append(_ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.withLock { $0 } }
}

/// A 64-hex-digit APNs device token from `seed`.
func apnsToken(_ seed: Int) -> String {
    let hex = String(seed, radix: 16, uppercase: true)
    return String(repeating: "A", count: 64 - hex.count) + hex
}

extension HTTPField.Name {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let apiKey = HTTPField.Name("apikey")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
