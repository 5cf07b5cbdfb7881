import HubExpressions
import PipelineCore

/// One `installations:` or `registrations:` entry of a `for-each` register: its values are `$(column)`
/// text, and each row of the rows file makes a device of it.
///
/// A value that renders empty counts as not given, as an empty CSV cell does in a device file, so
/// optional columns (`userId`, `tags`, a registration's `id`) can be left blank row by row, or left out
/// of a JSON row. A column the device's identity or channel reads must be in every row.
struct DeviceTemplate: Sendable {
    /// What the entry makes, and the checks its devices pass.
    enum Kind: Sendable {
        case installation(InstallationPlan)
        case registration(RegistrationPlan)
    }

    /// The value sample rows use when the build checks the entry's fixed values.
    static let sampleValue = "sample"

    let kind: Kind
    /// Field key (`installationId`, `platform`, `pushChannel`, `userId`, `handle`, `id`) → text.
    let fields: [String: TextTemplate]
    /// `tags`, each as text.
    let tags: [TextTemplate]

    /// Every column the entry reads, as first written.
    var columns: [String] {
        var seen = Set<String>()
        return (fields.keys.sorted().compactMap { fields[$0] } + tags).flatMap(\.propertyNames)
            .filter { seen.insert($0.lowercased()).inserted }
    }

    /// Fields whose columns may be missing from a row (then the value is not given).
    static let optionalFields: Set<String> = ["userId", "id"]

    /// The columns a row must have: those read by the id, platform, channel or handle.
    var requiredColumns: [String] {
        var seen = Set<String>()
        return fields.keys.sorted().filter { !Self.optionalFields.contains($0) }.compactMap { fields[$0] }.flatMap(
            \.propertyNames
        )
        .filter { seen.insert($0.lowercased()).inserted }
    }

    /// A row with every column the entry reads set to `sampleValue`.
    var sampleRow: TemplateProperties {
        TemplateProperties(Dictionary(columns.map { ($0, Self.sampleValue) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The value of `key` for `row`; nil when not given or empty.
    func value(_ key: String, _ row: TemplateProperties) -> String? {
        guard let text = fields[key]?.render(row), !text.isEmpty else { return nil }
        return text
    }

    /// True when the field a problem is about has no references, so the problem holds for every row.
    func isFixed(_ key: String) -> Bool { fields[key]?.isConstant ?? true }

    /// True when tag `position` has no references.
    func isFixedTag(_ position: Int) -> Bool { position < tags.count ? tags[position].isConstant : true }

    /// The installation fields `row` gives.
    func record(for row: TemplateProperties) -> DeviceRecord {
        DeviceRecord(
            installationId: value("installationId", row), platform: value("platform", row),
            pushChannel: value("pushChannel", row),
            tags: tags.map { $0.render(row) }.filter { !$0.isEmpty }, userId: value("userId", row))
    }

    /// The device `row` makes, or why it cannot be registered (the reason starts with `origin`).
    func device(for row: TemplateProperties, origin: String) -> DeviceItem {
        let missing = requiredColumns.filter { row[$0] == nil }
        if !missing.isEmpty {
            return .invalid(device: origin, reason: "\(origin): \(row.missingColumns(missing))")
        }
        let tagValues = tags.map { $0.render(row) }.filter { !$0.isEmpty }
        switch kind {
        case .installation(let plan):
            let record = record(for: row)
            let (job, problems) = plan.plan(record)
            guard let job, let id = record.installationId else {
                return .invalid(
                    device: record.installationId ?? origin,
                    reason: "\(origin): " + problems.map(\.message).joined(separator: "; "))
            }
            return .work(DeviceWork(device: id, origin: origin, job: job))
        case .registration(let plan):
            let (work, problems) = plan.plan(
                platform: value("platform", row), handle: value("handle", row), tags: tagValues,
                id: value("id", row))
            guard let work else {
                let reason =
                    problems.isEmpty ? "the template did not compile" : problems.map(\.message).joined(separator: "; ")
                return .invalid(device: origin, reason: "\(origin): \(reason)")
            }
            return .work(DeviceWork(device: work.device, origin: origin, job: work.job))
        }
    }
}
