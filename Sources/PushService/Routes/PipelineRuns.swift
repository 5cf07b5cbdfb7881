import Engine
import Foundation
import HTTPTypes
import HubHTTP
import HubWire
import Hummingbird
import PipelineConfig
import PipelineCore
import RunFlow
import RunStore
import Synchronization

/// Pipelines over HTTP, through the same run flow as `pushline run`: `POST /v1/pipelines/{name}/runs` with
/// `{"parameters": {…}}` starts a journalled, locked run and answers 202 with its id as soon as it holds the lock;
/// `GET /v1/runs/{id}` reads it back from the run store. Parameters are checked against the pipeline's declarations
/// first (422 naming the field). A run of the same pipeline in progress is 409; the same run already completed is
/// answered 200 with that run (nothing is sent twice); an `Idempotency-Key` makes a retried POST return the first run.
final class PipelineRuns: Sendable {
    /// Pipelines callers with `admin` may run, by name.
    let pipelines: [String: ServedPipeline]
    /// Where runs write their console lines, and the environment they read.
    let console: Console
    /// The engine runs use.
    let engine: PipelineEngine
    let body: JSONBody
    let idempotency = IdempotencyKeys()
    /// The run store reads go through, kept open.
    let reader: RunStoreReader
    /// Runs started over HTTP and not yet ended, so a shutdown can wait for them.
    private let tasks = Mutex<[UUID: Task<Void, Never>]>([:])

    init(pipelines: [ServedPipeline], console: Console, engine: PipelineEngine, body: JSONBody) {
        self.pipelines = Dictionary(pipelines.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.console = console
        self.engine = engine
        self.body = body
        reader = RunStoreReader(environment: console.environment)
    }

    /// Waits until every run started over HTTP has ended.
    func waitForRuns() async {
        let running = tasks.withLock { Array($0.values) }
        for task in running { await task.value }
    }

    /// Closes the run store that reads use.
    func closeRunStore() async {
        await reader.close()
    }

    private func track(_ task: Task<PipelineRun.Outcome, any Error>) {
        let id = UUID()
        let watcher = Task {
            _ = await task.result
            _ = tasks.withLock { $0.removeValue(forKey: id) }
        }
        tasks.withLock { $0[id] = watcher }
    }

    /// `POST /v1/pipelines/{name}/runs`.
    func start(_ request: Request, name: String, caller: Caller, now: Double) async throws(Problem) -> Response {
        guard let served = pipelines[name] else {
            throw .notFound("there is no pipeline '\(name)'; see the service file's `pipelines:`")
        }
        let values = try await parameterValues(request, for: served)
        // The request as canonical JSON (keys sorted), so no two different requests share a digest.
        let digest = ContentDigest.hex(JSONText.encode(["pipeline": name, "parameters": JSONText.encode(values)]))
        let owner = caller.kind.rawValue + ":" + caller.name
        let key = request.headers[.idempotencyKey]
        if let key {
            guard (1...255).contains(key.utf8.count) else {
                throw .badRequest("Idempotency-Key must be 1 to 255 characters")
            }
            switch idempotency.lookup(key, caller: owner, digest: digest, now: now) {
            case .new: break
            case .mismatch:
                throw .unprocessable(
                    "this Idempotency-Key was used with a different request; use a new key for a new run")
            case .replay(let runID):
                return try await runResponse(id: runID, pipeline: name, status: .ok)
            }
        }
        let loaded = await LoadedPipeline.load(served.path, purpose: .run, console: console, parameters: values)
        guard let pipeline = loaded.pipeline, !loaded.diagnostics.hasErrors else {
            // Parameters were checked already, so what is left is the pipeline's own problem (an unset variable,
            // a missing input file): the operator's to fix, said without values.
            let errors = loaded.diagnostics.filter { $0.severity == .error }.prefix(5).map(\.message)
            throw Problem(
                .internalServerError, "Internal Server Error",
                "the pipeline cannot run: " + errors.joined(separator: "; "))
        }
        var run = PipelineRun(store: nil)
        do {
            run.trust = try HubTrust(environment: console.environment)
        } catch {
            throw Problem(
                .internalServerError, "Internal Server Error", "the pipeline cannot run: \(error.description)")
        }
        run.watchSignals = false
        let (started, continuation) = AsyncStream<RunRecord>.makeStream()
        run.onStart = { record in
            continuation.yield(record)
            continuation.finish()
        }
        let engine = engine
        let console = console
        let registry = loaded.registry
        let task = Task<PipelineRun.Outcome, any Error> { [run] in
            defer { continuation.finish() }
            return try await run.execute(pipeline, registry: registry, engine: engine, console: console) { _, _ in }
        }
        track(task)
        for await record in started {
            if let key { idempotency.remember(key, caller: owner, digest: digest, runID: record.id, now: now) }
            var response = try await runResponse(id: record.id, pipeline: name, status: .accepted)
            response.headers[.location] = "/v1/runs/\(record.id)"
            return response
        }
        switch await task.result {
        case .success(let outcome):
            // The same work completed before: nothing was sent. Answer with that run.
            if case .alreadyCompleted(let report) = outcome, let id = report.runId {
                if let key { idempotency.remember(key, caller: owner, digest: digest, runID: id, now: now) }
                return try await runResponse(id: id, pipeline: name, status: .ok)
            }
            throw Problem(.internalServerError, "Internal Server Error", "the run ended before it started")
        case .failure(RunFlowError.locked(_, let holder)):
            throw Problem(
                .conflict, "Conflict",
                "a run of '\(name)' is in progress" + (holder.map { " (pid \($0.pid) on \($0.host))" } ?? "")
                    + "; try again when it has ended", headers: [.retryAfter: "30"])
        case .failure(let error):
            let reason = (error as? RunFlowError)?.message ?? "the run store failed"
            throw Problem(.serviceUnavailable, "Service Unavailable", "the run could not start: \(reason)")
        }
    }

    /// `GET /v1/runs/{id}`.
    func show(id: String) async throws(Problem) -> Response {
        try await runResponse(id: id, pipeline: nil, status: .ok)
    }

    /// The run `id` (exactly; no prefixes over HTTP) as JSON.
    private func runResponse(id: String, pipeline: String?, status: HTTPResponse.Status) async throws(Problem)
        -> Response
    {
        guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), !id.isEmpty else {
            throw .notFound("there is no run '\(id.prefix(64))'")
        }
        do {
            guard let store = try await reader.store() else { throw Problem.notFound("there is no run '\(id)'") }
            // Exact ids only: a prefix that several runs share is not a run either.
            guard let record = try await store.run(matching: id), record.id == id else {
                throw Problem.notFound("there is no run '\(id)'")
            }
            let name =
                pipeline ?? pipelines.values.first { record.path != nil && RunNames.absolute($0.path) == record.path }?
                .name
                ?? record.pipeline
            var view = try await RunView.read(record, from: store, unknownLimit: 20)
            view.pipeline = name
            return .json(status, JSONText.encode(view))
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(.serviceUnavailable, "Service Unavailable", "the run store cannot be read")
        }
    }

    /// `{"parameters": {name: value}}` checked against the declarations: strings, whole numbers and booleans are
    /// taken as their text; an unknown name, a value that breaks its declaration or a missing required one is 422
    /// naming the field, and never echoes the value.
    private func parameterValues(_ request: Request, for served: ServedPipeline) async throws(Problem) -> [String:
        String]
    {
        // JSON always (415 otherwise), even for an empty body: a run must not be startable by a cross-site form.
        let bytes = try await body.bytes(of: request)
        guard !bytes.isEmpty else { return try checked([:], for: served) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw .badRequest(#"the body must be a JSON object: {"parameters": {"name": "value"}}"#)
        }
        for field in object.keys where field != "parameters" {
            throw Problem.field("\(field)", "unknown field; the body has `parameters` only")
        }
        guard object["parameters"] != nil else { return try checked([:], for: served) }
        guard let parameters = object["parameters"] as? [String: Any] else {
            throw Problem.field("parameters", "must be an object of names and values")
        }
        var values: [String: String] = [:]
        for name in parameters.keys.sorted() {
            // Each value alone through JSONDecoder, which tells true from 1 (JSONSerialization's NSNumber does not).
            guard
                let data = try? JSONSerialization.data(
                    withJSONObject: [parameters[name] as Any], options: [.fragmentsAllowed]),
                let value = try? JSONDecoder().decode([ParameterValue].self, from: data).first
            else { throw Problem.field("parameters.\(name)", "must be a string, a whole number or true/false") }
            values[name] = value.text
        }
        return try checked(values, for: served)
    }

    private func checked(_ values: [String: String], for served: ServedPipeline) throws(Problem) -> [String: String] {
        let names = served.parameters.map(\.name)
        for name in values.keys.sorted() where !names.contains(name) {
            throw Problem.field(
                "parameters.\(name)",
                "the pipeline has no parameter '\(name)'"
                    + (names.isEmpty ? "" : "; it has \(names.joined(separator: ", "))"))
        }
        for declaration in served.parameters {
            if let value = values[declaration.name] {
                if let problem = declaration.problem(with: value) {
                    throw Problem.field("parameters.\(declaration.name)", problem)
                }
            } else if declaration.defaultValue == nil, declaration.required || declaration.problem(with: "") != nil {
                // Left out, a parameter without a default is empty: one whose rules forbid that must be given.
                throw Problem.field("parameters.\(declaration.name)", "parameter '\(declaration.name)' is required")
            }
        }
        return values
    }
}

/// A parameter's value as JSON may give it: text, a whole number or a boolean, taken as its text.
struct ParameterValue: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            text = flag ? "true" : "false"
        } else if let number = try? container.decode(Int64.self) {
            text = String(number)
        } else {
            text = try container.decode(String.self)
        }
    }
}
