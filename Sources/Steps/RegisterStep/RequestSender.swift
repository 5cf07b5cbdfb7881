import HubWire
import PipelineCore

/// Sends one device's requests in order, numbering them for the dry-run log, and turns answers into results.
struct RequestSender {
    /// Why a request failed, and whether the failure is the hub's (so no further device should start).
    struct Failure: Error {
        let reason: String
        let stop: RunStop?
        /// True when trying again may succeed: no answer, throttling, a server error.
        var retriable = false
    }

    /// Every status comes back as a response, so this code, not `perform`, decides what a failure is
    /// (a 410 is a cue to get a new registration id, not an error).
    private static let everyStatus = Set(100..<600)

    let runner: RegisterRunner
    /// The device's position in the source.
    let device: Int
    private var sent = 0

    init(runner: RegisterRunner, device: Int) {
        self.runner = runner
        self.device = device
    }

    private var endpoint: HubEndpoint { runner.session.endpoint }

    /// One request whose success is `outcome`: PUT, PATCH or DELETE of an installation.
    mutating func simple(_ request: HubRequest, _ work: DeviceWork, _ outcome: DeviceResult.Outcome) async -> DeviceResult {
        switch await send(request) {
        case .success: return DeviceResult(device: work.device, outcome: outcome)
        case .failure(let failure): return .failed(work.device, failure.reason, stop: failure.stop, retriable: failure.retriable)
        }
    }

    /// A registration as the notify-users tutorial's backend does it: without an id, `POST registrationIDs`
    /// and take the id from `Location`; then `PUT registrations/{id}`. On 410 Gone (the id is no longer
    /// accepted, nh-rest-api.md §4.4) get a new id and retry once.
    mutating func register(_ job: RegistrationJob, _ work: DeviceWork) async -> DeviceResult {
        var id: String
        var isNew = false
        var goneBefore = false
        if let given = job.id ?? job.journalledId {
            // A journalled id was handed out for this device by an earlier attempt: upserting it again
            // cannot create a second registration.
            (id, isNew) = (given, job.id == nil)
        } else {
            switch await newRegistrationID() {
            case .success(let fresh): (id, isNew) = (fresh, true)
            case .failure(let failure): return .failed(work.device, failure.reason, stop: failure.stop, retriable: failure.retriable)
            }
        }
        while true {
            let request = HubRequests.upsertRegistration(job.description, id: id, at: endpoint)
            let response: HubResponse
            switch await send(request, allowing: [410]) {
            case .success(let answer): response = answer
            case .failure(let failure):
                var result = DeviceResult.failed(work.device, failure.reason, stop: failure.stop, retriable: failure.retriable)
                result.registrationId = id
                return result
            }
            guard response.status == 410 else {
                return DeviceResult(device: work.device, outcome: isNew ? .created : .updated, registrationId: id)
            }
            if goneBefore {
                var result = DeviceResult.failed(
                    work.device, "\(request.summary): the hub answered 410 Gone for a new registration id too; giving up")
                result.registrationId = id
                return result
            }
            goneBefore = true
            switch await newRegistrationID() {
            case .success(let fresh): (id, isNew) = (fresh, true)
            case .failure(let failure): return .failed(work.device, failure.reason, stop: failure.stop, retriable: failure.retriable)
            }
        }
    }

    /// `POST registrationIDs`; the id is the last path segment of `Location`, before the query.
    private mutating func newRegistrationID() async -> Result<String, Failure> {
        let request = HubRequests.createRegistrationID(at: endpoint)
        switch await send(request) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let response):
            guard let location = response.header("Location"),
                let id = NotificationLocation.notificationId(fromLocation: location), !id.isEmpty
            else {
                return .failure(Failure(reason: "\(request.summary): the hub answered without a registration id in the Location header", stop: nil))
            }
            // Journalled before it is used, so a resume upserts this registration rather than making another.
            if let journal = runner.journal {
                do throws(LedgerError) { try await journal.assign(id, row: device + 1) } catch {
                    let failure = error.stepFailure
                    return .failure(Failure(reason: failure.message, stop: RunStop(message: failure.message, hint: failure.hint),
                                            retriable: true))
                }
            }
            return .success(id)
        }
    }

    /// Sends `request`; a 2xx, or a status in `allowed`, is the response; anything else is a failure.
    private mutating func send(_ request: HubRequest, allowing allowed: Set<Int> = []) async -> Result<HubResponse, Failure> {
        sent += 1
        runner.log?.record(request, key: RequestLog.Key(device: device, request: sent))
        let hub = runner.session.hub.name
        let result: TransportResult
        // A dry run sends nothing, so there is nothing to pace.
        if runner.log == nil { await runner.governor.acquire() }
        do {
            result = try await runner.session.perform(request, accepting: Self.everyStatus)
        } catch {
            await runner.governor.finished(throttled: false)
            // No answer at all. `perform` names the hub; the device's reason need not repeat it.
            let prefix = "hub '\(hub)': "
            let message = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            let unreachable = Self.field("outcome", in: error.data) == .string("unreachable")
            return .failure(Failure(reason: "\(request.summary): \(message)",
                                    stop: unreachable ? RunStop(message: error.message, hint: error.hint) : nil, retriable: true))
        }
        let response = result.response
        await runner.governor.finished(throttled: result.throttles > 0 || response.status == 429)
        if response.isSuccess || allowed.contains(response.status) { return .success(response) }
        let failure = HubFailure.classify(response, for: request, now: runner.clock.now().timeIntervalSince1970)
        let stop = Self.isHubWide(failure) ? RunStop(message: "hub '\(hub)': \(failure.message)", hint: failure.hint) : nil
        return .failure(Failure(reason: "\(request.summary): \(failure.message)", stop: stop, retriable: failure.isRetriable))
    }

    /// Failures every further request would share: the token or key is refused, or the hub does not exist.
    private static func isHubWide(_ failure: HubFailure) -> Bool {
        switch failure.kind {
        case .invalidSignature, .expiredToken, .unauthorized, .missingRight: true
        case .notFound: failure.detail?.contains("No service is hosted") == true
        default: false
        }
    }

    private static func field(_ key: String, in value: ReportValue) -> ReportValue? {
        guard case .object(let fields) = value else { return nil }
        return fields.first { $0.key == key }?.value
    }
}
