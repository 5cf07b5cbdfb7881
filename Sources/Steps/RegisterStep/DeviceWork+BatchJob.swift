import BatchEngine
import HubWire
import PipelineCore

/// A device's requests, made through the shared batch runner: one PUT, PATCH or DELETE of an installation,
/// or a registration as the notify-users tutorial's backend makes it.
extension DeviceWork: BatchJob {
    func perform(_ requests: BatchRequests, reusing id: String?) async -> BatchJobResult {
        var result: BatchJobResult
        switch job {
        case .put(let installation):
            result = await single(HubRequests.putInstallation(installation, at: requests.endpoint), done: "created", requests)
        case .patch(let id, let operations):
            result = await single(HubRequests.patchInstallation(id: id, operations: operations, at: requests.endpoint), done: "updated", requests)
        case .delete(let id):
            result = await single(HubRequests.deleteInstallation(id: id, at: requests.endpoint), done: "deleted", requests)
        case .register(let registration):
            result = await register(registration, reusing: id, requests)
        }
        // Reasons about a file row name the row, whatever went wrong with it.
        guard let origin, case .failed(let reason, let hint, let retriable, let stop) = result.outcome, !reason.hasPrefix(origin) else {
            return result
        }
        result.outcome = .failed(reason: "\(origin): \(reason)", hint: hint, retriable: retriable, stop: stop)
        return result
    }

    /// Every status comes back as an exchange, so this code decides what a failure is (a 410 is a cue to get
    /// a new registration id, not an error).
    private func single(_ request: HubRequest, done word: String, _ requests: BatchRequests) async -> BatchJobResult {
        switch await Self.send(request, requests) {
        case .success: BatchJobResult(.done(word))
        case .failure(let failure): BatchJobResult(failure.outcome)
        }
    }

    /// Without an id: `POST registrationIDs`, the id taken from `Location` and journalled before it is used;
    /// then `PUT registrations/{id}`. On 410 Gone (the id is no longer accepted, nh-rest-api.md §4.4) a new
    /// id, once. An id an earlier attempt journalled is upserted again: that cannot create a second registration.
    private func register(_ registration: RegistrationJob, reusing journalled: String?, _ requests: BatchRequests) async -> BatchJobResult {
        var id: String
        var isNew = false
        var goneBefore = false
        if let given = registration.id ?? journalled {
            (id, isNew) = (given, registration.id == nil)
        } else {
            switch await Self.newRegistrationID(requests) {
            case .success(let fresh): (id, isNew) = (fresh, true)
            case .failure(let failure): return BatchJobResult(failure.outcome)
            }
        }
        while true {
            let request = HubRequests.upsertRegistration(registration.description, id: id, at: requests.endpoint)
            let response: HubResponse
            switch await Self.send(request, requests, allowing: [410]) {
            case .success(let answer): response = answer
            case .failure(let failure): return BatchJobResult(failure.outcome, id: id)
            }
            guard response.status == 410 else { return BatchJobResult(.done(isNew ? "created" : "updated"), id: id) }
            if goneBefore {
                return BatchJobResult(.failed(reason: "\(request.summary): the hub answered 410 Gone for a new registration id too; giving up",
                                              hint: nil, retriable: false, stop: nil), id: id)
            }
            goneBefore = true
            switch await Self.newRegistrationID(requests) {
            case .success(let fresh): (id, isNew) = (fresh, true)
            case .failure(let failure): return BatchJobResult(failure.outcome)
            }
        }
    }

    /// Why a request failed, and the stop it causes when the failure is the hub's.
    private struct Failure: Error {
        let reason: String
        var stop: BatchStop?
        /// True when trying again may succeed: no answer, throttling, a server error.
        var retriable = false

        var outcome: BatchJobResult.Outcome { .failed(reason: reason, hint: nil, retriable: retriable, stop: stop) }
    }

    /// `POST registrationIDs`; the id is the last path segment of `Location`, before the query.
    private static func newRegistrationID(_ requests: BatchRequests) async -> Result<String, Failure> {
        let request = HubRequests.createRegistrationID(at: requests.endpoint)
        switch await send(request, requests) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let response):
            guard let location = response.header("Location"), let id = NotificationLocation.notificationId(fromLocation: location), !id.isEmpty
            else {
                return .failure(Failure(reason: "\(request.summary): the hub answered without a registration id in the Location header"))
            }
            // Journalled before it is used, so a resume upserts this registration rather than making another.
            do throws(LedgerError) { try await requests.journal(id: id) } catch {
                let failure = error.stepFailure
                return .failure(Failure(reason: failure.message, stop: BatchStop(.journal, message: failure.message, hint: failure.hint),
                                        retriable: true))
            }
            return .success(id)
        }
    }

    /// Sends `request`; a 2xx, or a status in `allowed`, is the response; anything else is a failure, which
    /// stops the batch when every further request would meet it too (the shared `stopsBatch` rule).
    private static func send(_ request: HubRequest, _ requests: BatchRequests, allowing allowed: Set<Int> = []) async -> Result<HubResponse, Failure> {
        let hub = requests.session.hub.name
        switch await requests.send(request, allowing: allowed) {
        case .answered(let result):
            return .success(result.response)
        case .noAnswer(let error):
            let stop = error.stopsBatch
                ? BatchStop(.hub, message: "hub '\(hub)': \(error.message)", hint: "check the hub's endpoint and the network") : nil
            return .failure(Failure(reason: "\(request.summary): \(error.message)", stop: stop, retriable: true))
        case .refused(let failure, _):
            let stop = failure.stopsBatch ? BatchStop(.hub, message: "hub '\(hub)': \(failure.message)", hint: failure.hint) : nil
            return .failure(Failure(reason: "\(request.summary): \(failure.message)", stop: stop, retriable: failure.isRetriable))
        }
    }
}
