import PipelineCore

/// `register`'s view of the run journal: what an earlier attempt of the run did with each device, and
/// the records that let a resumed run finish without creating anything twice.
///
/// Every request `register` makes is safe to repeat once its target is fixed: installation PUT, PATCH
/// and DELETE name the installation, and a registration PUT names its id. The one request that is not,
/// asking the hub for a new registration id, is followed by journalling that id before the registration
/// is written, so a resume upserts the same registration instead of creating a second. So unlike a
/// send, no device is left `unknown`: one whose fate an earlier attempt did not learn is done again.
struct DeviceLedger: Sendable {
    /// What the journal says about a device before it is sent.
    enum Prior: Equatable {
        /// Not reached before, or retriable: send it.
        case send
        /// Sent before without a known outcome, or failed retriably; a registration id was obtained then.
        case resend(registrationId: String)
        /// Done by an earlier attempt.
        case done(registrationId: String?)
        /// Failed earlier for a reason that sending again will not change.
        case failed(String)
        /// The journal holds a different device at this position.
        case differs
        /// Settled earlier as already done by another run (or row), or as a malformed row: the same again.
        case settled(ItemState, String)
    }

    let ledger: any ItemLedger
    /// The step's index in the pipeline.
    let stepIndex: Int
    /// True when the run resumes an earlier attempt (otherwise the journal cannot know the device).
    let isResume: Bool

    func key(_ row: Int) -> LedgerKey { LedgerKey(step: stepIndex, row: row) }

    func item(row: Int, origin: String, digest: String, idempotencyKey: String? = nil, target: String? = nil) -> LedgerItem {
        LedgerItem(key: key(row), stepId: RegisterStep.id, origin: origin, digest: digest, idempotencyKey: idempotencyKey, target: target)
    }

    /// What an earlier attempt did with the device at `row`.
    func prior(row: Int, digest: String) async throws(LedgerError) -> Prior {
        guard isResume, let entry = try await ledger.entry(key(row)) else { return .send }
        guard entry.digest == digest else { return .differs }
        switch entry.state {
        case .accepted:
            return .done(registrationId: entry.notificationId)
        case .failed where !entry.retriable:
            return .failed(entry.error ?? "failed in an earlier attempt")
        case .duplicate, .bad:
            return .settled(entry.state, entry.error ?? entry.state.rawValue)
        case .sending, .unknown, .failed, .pending:
            return entry.notificationId.map { .resend(registrationId: $0) } ?? .send
        }
    }

    /// Marks the device `sending`; a registration id from an earlier attempt is journalled in the same
    /// transaction, since it must survive this attempt being cut off too.
    func markSending(_ item: LedgerItem, registrationId: String?) async throws(LedgerError) {
        if let registrationId {
            try await ledger.markSending(item, creating: registrationId)
        } else {
            try await ledger.markSending([item])
        }
    }

    /// Journals the registration id the hub handed out for the device at `row`, before it is used.
    func assign(_ registrationId: String, row: Int) async throws(LedgerError) {
        try await ledger.assignId(registrationId, to: key(row))
    }
}
