import Foundation
import HubExpressions
import HubWire
import PipelineCore

/// Turns device records into jobs for one mode, checking each record offline first.
///
/// Shared by YAML devices (problems become diagnostics at the field) and file rows (problems become the
/// row's failure reason), so both are held to the same rules.
struct InstallationPlan: Sendable {
    /// A template to attach: its pipeline name, platform and the installation template built from it.
    struct Attachment: Sendable {
        let name: String
        let platform: PushPlatform
        let template: InstallationTemplate
    }

    /// Which field a problem is about, so a YAML diagnostic can point at it.
    enum Field: Equatable {
        case device, installationId, platform, pushChannel, tags
        case tag(Int)
        case userId, templates

        /// The key a diagnostic about the field points at; nil for the whole device.
        var key: String? {
            switch self {
            case .installationId: "installationId"
            case .platform: "platform"
            case .pushChannel: "pushChannel"
            case .userId: "userId"
            case .tags, .tag: "tags"
            case .device, .templates: nil
            }
        }

        /// The values a problem about the field depends on: a push channel is checked against the platform.
        var dependsOn: [String] {
            switch self {
            case .pushChannel: ["pushChannel", "platform"]
            case .installationId, .platform, .userId: key.map { [$0] } ?? []
            case .device, .tags, .tag, .templates: []
            }
        }
    }

    let mode: RegisterMode
    let attachments: [Attachment]
    let addTags: [String]
    let removeTags: [String]

    /// The job for `record`, or every problem found (then the job is nil).
    func plan(_ record: DeviceRecord) -> (job: DeviceJob?, problems: [(field: Field, message: String)]) {
        var problems: [(field: Field, message: String)] = []
        let id = record.installationId ?? ""
        if id.isEmpty {
            problems.append(
                (
                    .installationId,
                    record.installationId == nil ? "installationId is missing" : "installationId is empty"
                ))
        }
        if mode == .delete {
            return problems.isEmpty ? (.delete(id: id), []) : (nil, problems)
        }

        var platform: PushPlatform?
        if let text = record.platform {
            switch DeviceRules.platform(text) {
            case .success(let value): platform = value
            case .failure(let problem): problems.append((.platform, problem.message))
            }
        } else if mode == .put || record.pushChannel != nil || !attachments.isEmpty {
            let why =
                mode == .put
                ? ""
                : record.pushChannel != nil
                    ? " (needed to check pushChannel)" : " (needed to check the templates match)"
            problems.append((.platform, "platform is missing\(why)"))
        }
        if let channel = record.pushChannel {
            if let platform, let problem = platform.handleProblem(channel, what: "pushChannel") {
                problems.append((.pushChannel, problem))
            }
        } else if mode == .put {
            problems.append((.pushChannel, "pushChannel is missing"))
        }
        let tags = mode == .patch ? Self.union(record.tags, addTags) : record.tags
        for (position, message) in TagSyntax.problems(in: tags, limit: NHLimits.maxTagsPerInstallation) {
            let field: Field = position.map { $0 < record.tags.count ? .tag($0) : .device } ?? .tags
            problems.append((field, message))
        }
        if let userId = record.userId, let problem = UserIdSyntax.problem(with: userId) {
            problems.append((.userId, problem))
        }
        if let platform {
            for attachment in attachments where attachment.platform != platform {
                problems.append(
                    (
                        .platform,
                        "template '\(attachment.name)' is for \(attachment.platform.rawValue), but the device's platform is \(platform.rawValue)"
                    ))
            }
        }
        problems += templateProblems(record, platform: platform)
        guard problems.isEmpty else { return (nil, problems) }

        if mode == .put, let platform, let channel = record.pushChannel {
            var templates = Dictionary(
                attachments.map { ($0.name, $0.template) }, uniquingKeysWith: { _, last in last })
            templates.merge(record.templates ?? [:]) { attached, _ in attached }
            var installation = Installation(
                installationId: id, platform: platform.rawValue, pushChannel: .handle(channel),
                userId: record.userId, tags: tags.isEmpty ? nil : tags,
                templates: templates.isEmpty ? nil : templates)
            installation.pushVariables = record.pushVariables
            return (.put(installation), [])
        }
        let operations = patchOperations(record, tags: tags)
        guard !operations.isEmpty else {
            return (
                nil,
                [
                    (
                        .device,
                        "nothing to patch: give pushChannel, userId or tags, or the step's add-tags, remove-tags or templates"
                    )
                ]
            )
        }
        return (.patch(id: id, operations: operations), [])
    }

    /// A device's own templates (JSON rows): each body an NH template of the platform's format, no name the step
    /// attaches too; push variables only where a whole installation is written.
    private func templateProblems(_ record: DeviceRecord, platform: PushPlatform?) -> [(field: Field, message: String)]
    {
        var problems: [(field: Field, message: String)] = []
        if record.pushVariables != nil, mode != .put {
            problems.append((.templates, "pushVariables are written only with `mode: put` (the whole installation)"))
        }
        for (name, template) in (record.templates ?? [:]).sorted(by: { $0.key < $1.key }) {
            if attachments.contains(where: { $0.name == name }) {
                problems.append(
                    (.templates, "template '\(name)' is both the device's own and one the step attaches; rename one"))
                continue
            }
            do {
                let compiled = try CompiledTemplate(compiling: template.body)
                if let platform, (compiled.format == .xml) != platform.usesXML {
                    problems.append(
                        (
                            .templates,
                            "template '\(name)': \(platform.displayName) templates are \(platform.usesXML ? "XML" : "JSON")"
                        ))
                } else if platform == .fcmv1,
                    let problem = FcmV1Shape.problems(template: Array(template.body.utf8)).first
                {
                    problems.append((.templates, "template '\(name)': \(problem)"))
                }
            } catch {
                problems.append((.templates, "template '\(name)': \(error.message)"))
            }
        }
        return problems
    }

    /// JSON-Patch operations (nh-rest-api.md §3.1): set channel and user, add tags, remove tags, add templates.
    private func patchOperations(_ record: DeviceRecord, tags: [String]) -> [InstallationPatchOperation] {
        [
            record.pushChannel.map(InstallationPatchOperation.setPushChannel),
            record.userId.map(InstallationPatchOperation.setUserId),
        ]
        .compactMap { $0 } + tags.map(InstallationPatchOperation.addTag)
            + removeTags.map(InstallationPatchOperation.removeTag)
            + attachments.map { .addTemplate($0.name, $0.template) }
            + (record.templates ?? [:]).sorted { $0.key < $1.key }.map { .addTemplate($0.key, $0.value) }
    }

    /// `a` followed by the items of `b` it lacks.
    static func union(_ a: [String], _ b: [String]) -> [String] {
        var result = a
        for item in b where !result.contains(item) { result.append(item) }
        return result
    }
}
