import HubExpressions
import HubWire
import PipelineCore

/// Turns a registration's fields into a job, checking them offline first.
///
/// Shared by YAML registrations (problems become diagnostics at the field) and `for-each` rows (problems
/// become the row's failure reason), so both are held to the same rules.
struct RegistrationPlan: Sendable {
    /// Which field a problem is about, so a YAML diagnostic can point at it.
    enum Field: Equatable {
        case registration, platform, handle, tags
        case tag(Int)
        case template, id
    }

    /// A problem with one field.
    struct Problem: Equatable {
        let field: Field
        let message: String
        var hint: String?
    }

    /// The declared template that makes these template registrations; nil for native ones.
    let template: TemplateDeclaration?

    /// The job, or every problem found (then the job is nil). Nil with no problem when the template's body
    /// did not compile (that was reported where the template is declared).
    func plan(platform platformText: String?, handle: String?, tags: [String], id: String?) -> (
        work: DeviceWork?, problems: [Problem]
    ) {
        var problems: [Problem] = []
        var platform: PushPlatform?
        if let platformText {
            switch DeviceRules.platform(platformText) {
            case .success(let value): platform = value
            case .failure(let problem): problems.append(Problem(field: .platform, message: problem.message))
            }
        } else {
            problems.append(Problem(field: .platform, message: "platform is missing"))
        }
        if let platform, let handle, let problem = platform.handleProblem(handle, what: "handle") {
            problems.append(Problem(field: .handle, message: problem))
        } else if handle == nil {
            problems.append(Problem(field: .handle, message: "handle is missing"))
        }
        if let template, let platform, template.platform != platform {
            problems.append(
                Problem(
                    field: .template,
                    message:
                        "template '\(template.name)' is for \(template.platform.rawValue), but the registration's platform is \(platform.rawValue)",
                    hint: "use a template declared with `platform: \(platform.rawValue)`"))
        }
        // A registration has one tag list; the template's tags go on it.
        let allTags = InstallationPlan.union(tags, template?.tags ?? [])
        for (position, message) in TagSyntax.problems(in: allTags, limit: NHLimits.maxTagsPerInstallation) {
            problems.append(
                Problem(field: position.map { $0 < tags.count ? .tag($0) : .tags } ?? .tags, message: message))
        }
        if id?.isEmpty == true {
            problems.append(
                Problem(field: .id, message: "'id' is empty", hint: "leave `id` out to get a new registration id"))
        }
        guard problems.isEmpty, let platform, let kind = RegistrationDescription.Kind(platform: platform), let handle
        else { return (nil, problems) }
        if let template, template.body == nil { return (nil, []) }
        let headers = (template?.headers ?? [:]).sorted { $0.key < $1.key }.map {
            RegistrationHeader(name: $0.key, value: $0.value)
        }
        let description = RegistrationDescription(
            kind: kind, isTemplate: template != nil, handle: handle, tags: allTags,
            bodyTemplate: template?.body?.source,
            templateName: template?.name, headers: headers)
        return (
            DeviceWork(
                device: id ?? handle, origin: nil, job: .register(RegistrationJob(description: description, id: id))),
            []
        )
    }
}
