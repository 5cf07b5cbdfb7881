import BatchEngine
import HubClient
import HubExpressions
import HubWire
import Logging
import PipelineCore
import RowReading
import RunStore

/// `register`: creates, patches or deletes installations — or creates and updates registrations — on a hub.
///
/// Devices come from the YAML, from a `.jsonl`, `.json` or `.csv` file, or from `for-each` rows that fill
/// `$(column)` in the YAML entries; files are streamed, never loaded whole. Every device is checked offline
/// first (platform, push-channel shape, tags): a bad YAML device is a build diagnostic, a bad row a failed
/// device naming `file:line`. Devices run with bounded concurrency and pace, each journalled so a resumed
/// run creates nothing twice; any failure fails the step at the end.
package struct RegisterStep: ForEachStep {
    /// The YAML key of this step.
    package static let id = "register"
    /// One line for docs.
    package static let summary =
        "Creates, patches or deletes installations (or upserts registrations) on a hub, from YAML or a streamed file."
    /// What `register` hands to later steps.
    package struct Outputs: DeclaredOutputs {
        /// `accepted`, `failed`, … `total`.
        package var counts = ItemCounts()
        /// `installation-ids`.
        @Output("installation-ids", "the ids of the installations written or deleted") package var installationIds =
            OutputList()
        /// `registration-ids`.
        @Output("registration-ids", "the ids of the registrations created or updated (new ones as the hub issued them)")
        package var registrationIds = OutputList()

        /// Nothing registered.
        package init() {}
    }

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- register: { hub: sports, installations: ../data/devices.jsonl, templates: [alert] }",
        """
        - register:
            hub: sports
            installations:
              - { installationId: ipad-1, platform: apns, pushChannel: 62BCD3484834B7E2, tags: [follows_RedSox] }
        """,
        "- register: { hub: sports, mode: patch, installations: ../data/devices.csv, add-tags: [location_Boston] }",
        "- register: { hub: sports, mode: delete, installations: ../data/retired.csv, concurrency: 4 }",
        """
        - register:
            hub: digest
            for-each: ${env:USERS}
            registrations:
              - { platform: fcmv1, handle: "$(token)", template: digest, tags: ["$UserId:{$(userId)}"] }
        """,
        """
        - register:
            hub: sports
            registrations:
              - { platform: fcmv1, handle: dGVzdC10b2tlbg, tags: ["$UserId:{alice}"], template: alert-fcm }
        """,
    ]

    /// Where the devices come from.
    enum Source: Sendable {
        /// Installations from the YAML, checked and prepared.
        case installations([DeviceWork])
        /// Installations streamed from a file, checked row by row with `plan`.
        case installationFile(DeviceFile, plan: InstallationPlan)
        /// Registrations from the YAML, checked and prepared.
        case registrations([DeviceWork])
        /// `for-each`: every row of a rows file makes one device of each entry.
        case rows(RowSource, entries: [DeviceTemplate])
    }

    /// The declared hub.
    package let hub: HubDeclaration

    /// What a `for-each` register reads of each row: the columns its entries use, its idempotency key's and its shard key.
    package var columnsRead: [String] {
        guard case .rows(_, let entries) = source else { return [] }
        return entries.flatMap(\.columns) + (idempotencyKey?.propertyNames ?? []) + (shardKey.map { [$0] } ?? [])
    }
    /// What happens to each installation.
    package let mode: RegisterMode
    /// Most requests in flight.
    package let concurrency: Int
    /// Retries and backoff for each request.
    package let policy: RetryPolicy
    /// Requests per second at most; nil for no cap.
    package let rate: Double?
    /// What the input check does with malformed rows of a device or rows file.
    package var badRows: BadRowPolicy = .stop
    /// Seconds a device done by a run of the pipeline keeps it from being done again; 0 for off.
    package var dedupeWindow: Int64 = BatchOptions.defaultDedupeWindow
    /// `for-each`: the declared idempotency key (`$(column)` text); nil: the device's content is the key.
    var idempotencyKey: TextTemplate?
    /// `for-each`: the column that places a row in a part of `--shard I/N`; nil for the device's key.
    var shardKey: String?
    /// The devices.
    let source: Source

    /// Creates the step directly (tests).
    init(
        hub: HubDeclaration, mode: RegisterMode = .put, concurrency: Int = BatchSettings().concurrency,
        policy: RetryPolicy = RetryPolicy(), rate: Double? = nil, source: Source
    ) {
        self.hub = hub
        self.mode = mode
        self.concurrency = concurrency
        self.policy = policy
        self.rate = rate
        self.source = source
    }

    /// Decodes and checks every option and every YAML device, and prechecks a device file.
    package static func build(_ options: RegisterOptions, reporting reader: OptionReader, in context: BuildContext)
        -> RegisterStep?
    {
        RegisterOptionsDecoder(values: options, options: reader, context: context).decode()
    }

    /// The devices of the entries, once per row of `rows`, whose values take the row's columns.
    package static func build(
        _ options: RegisterOptions, rows: RowSource, reporting reader: OptionReader, in context: BuildContext
    ) -> RegisterStep? {
        RegisterOptionsDecoder(values: options, options: reader, context: context, rows: rows).decode()
    }

    /// Installations and registrations need the Listen right (what a client app's key holds).
    package var access: [HubAccess] {
        [HubAccess(hub: hub, right: .listen, purpose: "register devices")]
    }

    /// Reads a device or rows file whole before anything is sent: counts its devices and finds the
    /// malformed rows (bad CSV or JSON, a missing field, a handle or tag that fails the offline checks).
    package func checkInput(in context: StepContext) async throws -> InputCheck? {
        guard let (next, shown) = try streamedDevices() else { return nil }
        var check = InputCheck(input: shown, policy: badRows)
        while let item = try next() {
            switch item {
            case .invalid(_, let reason): check.malformed(reason)
            case .work(let work): check.good(multiLine: work.origin.map(RowReader.spansLines) ?? false)
            }
        }
        return check
    }

    /// Sends every device through the shared batch runner, then reports each one's outcome; fails after all
    /// were tried if any failed.
    package func run(in context: StepContext) async throws -> StepResult {
        let session = try context.session(for: hub).with(policy: policy)
        var runner = BatchRunner(
            session: session, stepIndex: context.stepIndex, stepId: context.stepName ?? Self.id,
            concurrency: concurrency, rate: rate,
            control: context.batch, isDryRun: context.isDryRun, total: context.inputCheck?.records,
            dedupeWindow: Double(dedupeWindow), clock: context.clock)
        runner.keptItems = RegisterReport.keptResults
        runner.wording = BatchRunner.Wording(item: "device", thing: "registration")
        let next: () throws(StepFailure) -> DeviceItem?
        if let streamed = try streamedDevices() {
            next = streamed.next
        } else {
            let devices =
                switch source {
                case .installations(let devices), .registrations(let devices): devices
                case .installationFile, .rows: [DeviceWork]()
                }
            runner.total = devices.count
            var iterator = devices.makeIterator()
            next = { iterator.next().map(DeviceItem.work) }
        }
        var row = 0
        let scope = (pipeline: context.document.name, step: context.stepIndex)
        let outcome = await runner.collect { () throws(StepFailure) -> BatchItem? in
            guard let device = try next() else { return nil }
            row += 1
            return Self.item(device, row: row, session: session, scope: scope)
        }
        let isRegistrations = writtenDevices == .registrations
        let word = isRegistrations && mode != .delete ? RegisterMode.put : mode
        var report = RegisterReport(
            hub: hub.name, noun: isRegistrations ? "registration" : "installation",
            pastTense: word.pastTense, infinitive: word.infinitive,
            outcome: outcome)
        report.journalled = !context.isDryRun && context.batch.ledger?.isWritable == true
        report.dryRun = context.isDryRun
        context.logger.info(
            "register finished",
            metadata: [
                "hub": "\(hub.name)", "devices": "\(outcome.counts.total)", "failed": "\(outcome.counts.failed)",
            ])
        return try report.finish()
    }

    /// The devices of a file, streamed (its reader and how messages name it); nil for devices in the YAML.
    private func streamedDevices() throws(StepFailure) -> (next: () throws(StepFailure) -> DeviceItem?, shown: String)?
    {
        switch source {
        case .installations, .registrations:
            return nil
        case .installationFile(let file, let plan):
            do { return (try DeviceFileReader(file, plan: plan).next, file.shown) } catch {
                throw StepFailure(error.message(what: "device file", name: file.shown)).coded(.inputRejected)
            }
        case .rows(let rows, let entries):
            return (
                try RowDeviceReader(rows, entries: entries, key: idempotencyKey, shardKey: shardKey).next, rows.shown
            )
        }
    }

    /// A device as a batch item. Every request `register` makes is safe to repeat once its target is fixed
    /// (installation PUT, PATCH and DELETE name the installation, a registration PUT names its id; the one
    /// request that is not, asking for a new registration id, is followed by journalling the id before it is
    /// used), so devices are repeatable: one an earlier attempt left of unknown fate is done again. Only a
    /// registration without an id creates something new, so only it is held back by the dedupe window: an
    /// installation written again with the same content is harmless, and skipping it because an earlier run
    /// wrote that content could leave a later change in place.
    ///
    /// A declared key (`for-each` with `idempotency-key`) is scoped to the pipeline and step as a send's is.
    static func item(_ device: DeviceItem, row: Int, session: HubSession, scope: (pipeline: String, step: Int))
        -> BatchItem
    {
        switch device {
        case .invalid(let name, let reason):
            var item = BatchItem(row: row, origin: name, digest: "", work: .invalid(reason))
            item.label = name
            return item
        case .work(let work):
            // The content is encoded once for both the digest and the key (JSON encoding is most of a row's cost).
            let parts = work.contentParts
            let key =
                work.declaredKey.map { IdempotencyKey.scoped($0, pipeline: scope.pipeline, step: scope.step) }
                ?? IdempotencyKey.of("device", parts, hub: session)
            var item = BatchItem(
                row: row, origin: work.origin ?? work.device, digest: RowDigest.of(parts), work: .job(work),
                key: key, target: work.device)
            item.shardKey = work.shardValue
            item.label = work.device
            item.repeatable = true
            if case .register(let registration) = work.job {
                item.dedupes = registration.id == nil
            } else {
                item.dedupes = false
            }
            return item
        }
    }
}

extension RegisterStep: WritesDevices {
    /// Installations, or registrations (to write or to delete), as its entries say.
    package var writtenDevices: WrittenDevices {
        switch source {
        case .installations, .installationFile: .installations
        case .registrations: .registrations
        case .rows(_, let entries):
            entries.contains { if case .registration = $0.kind { true } else { false } }
                ? .registrations : .installations
        }
    }
}
