import HubWire
import PipelineCore

/// An item that makes more than one request, or chooses its next request by the last answer: a
/// registration asks for an id, journals it, upserts it, and on 410 Gone asks again.
///
/// The runner admits, journals, paces, counts and reports the item as it does a single request; the job
/// only makes its requests through `requests` and says how it ended.
package protocol BatchJob: Sendable {
    /// Makes the item's requests. `reusing` is an id an earlier attempt (of this run, or another run that
    /// left the same item of unknown fate) journalled for it: upsert that rather than make another.
    func perform(_ requests: BatchRequests, reusing id: String?) async -> BatchJobResult
}

/// How a job ended.
package struct BatchJobResult: Sendable {
    /// Accepted, with the word the report uses (`created`, `updated`, `deleted`), or failed.
    package enum Outcome: Sendable {
        /// Every request answered as it should.
        case done(String)
        /// Not done: why (naming the request), what to do, whether trying again may help, and the stop it
        /// causes when every further item would fail the same way.
        case failed(reason: String, hint: String?, retriable: Bool, stop: BatchStop?)
    }

    /// How it ended.
    package var outcome: Outcome
    /// The id it made or used (kept in the journal, so a resume reuses it; a failed item keeps it too).
    package var id: String?

    /// Creates a result.
    package init(_ outcome: Outcome, id: String? = nil) {
        self.outcome = outcome
        self.id = id
    }
}

/// Why a job's request failed: the reason (naming the request), whether trying again may help, and the stop
/// it causes when the failure is the hub's.
package struct BatchJobFailure: Error, Sendable {
    /// Why, naming the request.
    package var reason: String
    /// The batch's stop, when every further item would fail the same way.
    package var stop: BatchStop?
    /// True when trying again may succeed: no answer, throttling, a server error.
    package var retriable: Bool

    /// Creates a failure.
    package init(reason: String, stop: BatchStop? = nil, retriable: Bool = false) {
        self.reason = reason
        self.stop = stop
        self.retriable = retriable
    }

    /// The job's outcome.
    package var outcome: BatchJobResult.Outcome { .failed(reason: reason, hint: nil, retriable: retriable, stop: stop) }
}
