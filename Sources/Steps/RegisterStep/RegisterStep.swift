import BatchEngine
import HubWire
import PipelineCore
import RowReading

/// `register`: creates, patches or deletes installations — or creates and updates registrations — on a hub.
///
/// Devices come from the YAML, from a `.jsonl`, `.json` or `.csv` file, or from `for-each` rows that fill
/// `$(column)` in the YAML entries; files are streamed, never loaded whole. Every device is checked offline
/// first (platform, push-channel shape, tags): a bad YAML device is a build diagnostic, a bad row a failed
/// device naming `file:line`. Devices run with bounded concurrency and pace, each journalled so a resumed
/// run creates nothing twice; any failure fails the step at the end.
public struct RegisterStep: Step {
    /// The YAML key of this step.
    public static let id = "register"
    /// One line for docs.
    public static let summary = "Creates, patches or deletes installations (or upserts registrations) on a hub, from YAML or a streamed file."
    /// Default and accepted range of `concurrency`.
    public static let defaultConcurrency = 16
    /// Accepted range of `concurrency`.
    public static let concurrencyRange = 1...256

    /// The keys `register` accepts.
    public static let options: [OptionSpec] = [
        OptionSpec("hub", .reference("hub"), required: true, "the declared hub to register with"),
        OptionSpec("installations", .anyOf([.path, .list(.mapping(installationKeys))]),
                   "the installations: a list of { installationId, platform, pushChannel, tags, userId } mappings, "
                       + "or a .jsonl, .json (array) or .csv file of them, streamed; give this or `registrations`"),
        OptionSpec("registrations", .list(.mapping(registrationKeys)),
                   "registrations to create or update: a list of { platform, handle, tags, template, id } mappings "
                       + "(without id, a new id is requested first); give this or `installations`"),
        OptionSpec("templates", .stringList,
                   "declared templates to attach to every installation; each must be for the installation's platform"),
        OptionSpec("mode", .oneOf(RegisterMode.allCases.map(\.rawValue)), default: "put",
                   "put creates or overwrites each installation, patch changes only what is given, delete removes it"),
        OptionSpec("add-tags", .stringList, "patch mode: tags to add to every installation"),
        OptionSpec("remove-tags", .stringList, "patch mode: tags to remove from every installation"),
        OptionSpec("concurrency", .integer, default: "\(defaultConcurrency)",
                   "most requests in flight at once (\(concurrencyRange.lowerBound) to \(concurrencyRange.upperBound))"),
        OptionSpec("rate", .string, examples: ["200"], "most requests per second (e.g. 200), shared by the parts of a sharded run; slows down by itself when the hub throttles"),
        OptionSpec("for-each", .path,
                   "a .csv (header row), .jsonl or .json (array) file of rows, streamed: each row registers every device listed, "
                       + "with `$(column)` in their values taking the row's"),
        BadRowPolicy.option,
        OptionSpec("dedupe-window", .duration, default: ConfigDuration.format(OptionSpec.defaultDedupeWindow), examples: ["12h", "0"],
                   "a registration without an id (each makes a new one) that a run of this pipeline made this recently with the "
                       + "same handle, tags and template is not made again (reported as already sent); 0 turns it off; "
                       + "installations and registrations by id are always written"),
    ] + OptionSpec.retryPolicy

    /// The keys of one installation (YAML mapping, JSON object or CSV column).
    public static let installationKeys: [OptionSpec] = [
        OptionSpec("installationId", .string, "the installation's id (required)"),
        OptionSpec("platform", .anyCaseOf(DeviceRules.platforms.map(\.rawValue)), "the device platform (required for put)"),
        OptionSpec("pushChannel", .string,
                   "the PNS handle: APNs token (hex), FCM token, or WNS channel URI (https); required for put"),
        OptionSpec("tags", .stringList, "tags (at most 60); in CSV one cell separated by `|`"),
        OptionSpec("userId", .string, "the user id, targetable as $UserId:{id}"),
    ]

    /// The keys of one registration.
    public static let registrationKeys: [OptionSpec] = [
        OptionSpec("platform", .anyCaseOf(DeviceRules.platforms.map(\.rawValue)), required: true, "the device platform"),
        OptionSpec("handle", .string, required: true, "the PNS handle, as for an installation's pushChannel"),
        OptionSpec("tags", .stringList, "tags (at most 60, the template's tags included)"),
        OptionSpec("template", .reference("template"), "a declared template: makes this a template registration"),
        OptionSpec("id", .string, "an existing registration id to update; without it a new id is requested"),
    ]

    /// Examples as they appear under `steps:`.
    public static let examples = [
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
    public let hub: HubDeclaration
    /// What happens to each installation.
    public let mode: RegisterMode
    /// Most requests in flight.
    public let concurrency: Int
    /// Retries and backoff for each request.
    public let policy: RetryPolicy
    /// Requests per second at most; nil for no cap.
    public let rate: Double?
    /// What the input check does with malformed rows of a device or rows file.
    public var badRows: BadRowPolicy = .stop
    /// Seconds a device done by a run of the pipeline keeps it from being done again; 0 for off.
    public var dedupeWindow: Int64 = OptionSpec.defaultDedupeWindow
    /// The devices.
    let source: Source

    /// Creates the step directly (tests).
    init(
        hub: HubDeclaration, mode: RegisterMode = .put, concurrency: Int = RegisterStep.defaultConcurrency,
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
    public static func build(_ options: OptionReader, in context: BuildContext) -> RegisterStep? {
        RegisterOptionsDecoder(options: options, context: context).decode()
    }

    /// Installations and registrations need the Listen right (what a client app's key holds).
    public var access: [HubAccess] {
        [HubAccess(hub: hub, right: .listen, purpose: "register devices")]
    }

    /// Reads a device or rows file whole before anything is sent: counts its devices and finds the
    /// malformed rows (bad CSV or JSON, a missing field, a handle or tag that fails the offline checks).
    public func checkInput(in context: StepContext) async throws -> InputCheck? {
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
    public func run(in context: StepContext) async throws -> StepResult {
        let session = try context.session(for: hub).with(policy: policy)
        var runner = BatchRunner(session: session, stepIndex: context.stepIndex, stepId: context.stepName ?? Self.id, concurrency: concurrency, rate: rate,
                                 control: context.batch, isDryRun: context.isDryRun, total: context.inputCheck?.records,
                                 dedupeWindow: Double(dedupeWindow), clock: context.clock)
        runner.keptItems = RegisterReport.keptResults
        runner.wording = BatchRunner.Wording(item: "device", thing: "registration")
        let next: () throws(StepFailure) -> DeviceItem?
        if let streamed = try streamedDevices() {
            next = streamed.next
        } else {
            let devices = switch source {
            case .installations(let devices), .registrations(let devices): devices
            case .installationFile, .rows: [DeviceWork]()
            }
            runner.total = devices.count
            var iterator = devices.makeIterator()
            next = { iterator.next().map(DeviceItem.work) }
        }
        var row = 0
        let outcome = await runner.collect { () throws(StepFailure) -> BatchItem? in
            guard let device = try next() else { return nil }
            row += 1
            return Self.item(device, row: row, session: session)
        }
        let isRegistrations = switch source {
        case .registrations: true
        case .rows(_, let entries): entries.contains { if case .registration = $0.kind { true } else { false } }
        case .installations, .installationFile: false
        }
        var report = RegisterReport(
            hub: hub.name, noun: isRegistrations ? "registration" : "installation",
            pastTense: isRegistrations ? "registered" : mode.pastTense, infinitive: isRegistrations ? "register" : mode.infinitive,
            outcome: outcome)
        report.journalled = !context.isDryRun && context.batch.ledger?.isWritable == true
        report.dryRun = context.isDryRun
        context.logger.info("register finished", metadata: [
            "hub": "\(hub.name)", "devices": "\(outcome.counts.total)", "failed": "\(outcome.counts.failed)",
        ])
        return try report.finish()
    }

    /// The devices of a file, streamed (its reader and how messages name it); nil for devices in the YAML.
    private func streamedDevices() throws(StepFailure) -> (next: () throws(StepFailure) -> DeviceItem?, shown: String)? {
        switch source {
        case .installations, .registrations:
            return nil
        case .installationFile(let file, let plan):
            do { return (try DeviceFileReader(file, plan: plan).next, file.shown) } catch {
                throw StepFailure(error.message(what: "device file", name: file.shown))
            }
        case .rows(let rows, let entries):
            return (try RowDeviceReader(rows, entries: entries).next, rows.shown)
        }
    }

    /// A device as a batch item. Every request `register` makes is safe to repeat once its target is fixed
    /// (installation PUT, PATCH and DELETE name the installation, a registration PUT names its id; the one
    /// request that is not, asking for a new registration id, is followed by journalling the id before it is
    /// used), so devices are repeatable: one an earlier attempt left of unknown fate is done again. Only a
    /// registration without an id creates something new, so only it is held back by the dedupe window: an
    /// installation written again with the same content is harmless, and skipping it because an earlier run
    /// wrote that content could leave a later change in place.
    static func item(_ device: DeviceItem, row: Int, session: HubSession) -> BatchItem {
        switch device {
        case .invalid(let name, let reason):
            var item = BatchItem(row: row, origin: name, digest: "", work: .invalid(reason))
            item.label = name
            return item
        case .work(let work):
            // The content is encoded once for both the digest and the key (JSON encoding is most of a row's cost).
            let parts = work.contentParts
            var item = BatchItem(row: row, origin: work.origin ?? work.device, digest: RowDigest.of(parts), work: .job(work),
                                 key: IdempotencyKey.of("device", parts, hub: session), target: work.device)
            item.label = work.device
            item.repeatable = true
            if case .register(let registration) = work.job { item.dedupes = registration.id == nil } else { item.dedupes = false }
            return item
        }
    }
}
