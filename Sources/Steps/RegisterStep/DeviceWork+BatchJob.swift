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
            result = await single(
                HubRequests.putInstallation(installation, at: requests.endpoint), done: "created", requests)
        case .patch(let id, let operations):
            result = await single(
                HubRequests.patchInstallation(id: id, operations: operations, at: requests.endpoint), done: "updated",
                requests)
        case .delete(let id):
            result = await single(
                HubRequests.deleteInstallation(id: id, at: requests.endpoint), done: "deleted", requests)
        case .register(let registration):
            result = await register(registration, reusing: id, requests)
        case .deleteRegistration(let id):
            // Gone already (deleted by its app, or by an earlier attempt whose answer was lost) is what was asked.
            switch await requests.expect(HubRequests.deleteRegistration(id: id, at: requests.endpoint), allowing: [404])
            {
            case .success(let response):
                result = BatchJobResult(.done(response.status == 404 ? "already gone" : "deleted"))
            case .failure(let failure): result = BatchJobResult(failure.outcome)
            }
        }
        // Reasons about a file row name the row, whatever went wrong with it.
        guard let origin, case .failed(let reason, let hint, let retriable, let stop) = result.outcome,
            !reason.hasPrefix(origin)
        else {
            return result
        }
        result.outcome = .failed(reason: "\(origin): \(reason)", hint: hint, retriable: retriable, stop: stop)
        return result
    }

    /// Every status comes back as an exchange, so this code decides what a failure is (a 410 is a cue to get
    /// a new registration id, not an error).
    private func single(_ request: HubRequest, done word: String, _ requests: BatchRequests) async -> BatchJobResult {
        switch await requests.expect(request) {
        case .success: BatchJobResult(.done(word))
        case .failure(let failure): BatchJobResult(failure.outcome)
        }
    }

    /// Without an id: `POST registrationIDs`, the id taken from `Location` and journalled before it is used;
    /// then `PUT registrations/{id}`. On 410 Gone (the id is no longer accepted, nh-rest-api.md §4.4) a new
    /// id, once. An id an earlier attempt journalled is upserted again: that cannot create a second registration.
    private func register(_ registration: RegistrationJob, reusing journalled: String?, _ requests: BatchRequests) async
        -> BatchJobResult
    {
        var id: String
        var isNew = false
        var goneBefore = false
        // The journalled id wins over the given one: after a 410 the registration lives under the new id, and a
        // resume that upserted the given id again would meet the 410 again and make a third.
        if let given = journalled ?? registration.id {
            (id, isNew) = (given, given != registration.id)
        } else {
            switch await Self.newRegistrationID(requests) {
            case .success(let fresh): (id, isNew) = (fresh, true)
            case .failure(let failure): return BatchJobResult(failure.outcome)
            }
        }
        while true {
            let request = HubRequests.upsertRegistration(registration.description, id: id, at: requests.endpoint)
            let response: HubResponse
            switch await requests.expect(request, allowing: [410]) {
            case .success(let answer): response = answer
            case .failure(let failure): return BatchJobResult(failure.outcome, id: id)
            }
            guard response.status == 410 else { return BatchJobResult(.done(isNew ? "created" : "updated"), id: id) }
            if goneBefore {
                return BatchJobResult(
                    .failed(
                        reason:
                            "\(request.summary): the hub answered 410 Gone for a new registration id too; giving up",
                        hint: nil, retriable: false, stop: nil), id: id)
            }
            goneBefore = true
            switch await Self.newRegistrationID(requests) {
            case .success(let fresh): (id, isNew) = (fresh, true)
            case .failure(let failure): return BatchJobResult(failure.outcome)
            }
        }
    }

    /// `POST registrationIDs`; the id is the last path segment of `Location`, before the query.
    private static func newRegistrationID(_ requests: BatchRequests) async -> Result<String, BatchJobFailure> {
        let request = HubRequests.createRegistrationID(at: requests.endpoint)
        switch await requests.expect(request) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let response):
            guard let location = response.header("Location"),
                let id = NotificationLocation.notificationId(fromLocation: location), !id.isEmpty
            else {
                return .failure(
                    BatchJobFailure(
                        reason: "\(request.summary): the hub answered without a registration id in the Location header")
                )
            }
            // Journalled before it is used, so a resume upserts this registration rather than making another.
            if let failure = await requests.keep(id: id) { return .failure(failure) }
            return .success(id)
        }
    }
}
