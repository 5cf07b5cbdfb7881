import HubWire
import PipelineCore

/// The keys of one installation under `installations:`, each declared once (a device file's JSON fields and CSV
/// columns have the same names). With `for-each` every text is `$(column)` text, rendered per row.
struct InstallationEntry: DeclaredOptions {
    /// `installationId`.
    @Key(.text("installationId", "the installation's id (required)")) var installationId: String?
    /// `platform`, checked where the device is planned (with `for-each` it may be a column).
    @Key(
        OptionKey.text("platform", "the device platform (required for put)").documented(
            as: .anyCaseOf(DeviceRules.platforms.map(\.rawValue))))
    var platform: String?
    /// `pushChannel`.
    @Key(
        .text(
            "pushChannel", "the PNS handle: APNs token (hex), FCM token, or WNS channel URI (https); required for put"))
    var pushChannel: String?
    /// `tags`.
    @Key(.stringList("tags", "tags (at most 60); in CSV one cell separated by `|`")) var tags:
        [(value: String, node: ConfigNode)]
    /// `userId`.
    @Key(.text("userId", "the user id, targetable as $UserId:{id}")) var userId: String?

    init() {}

    /// The text values given, by key, with where each was written.
    var texts: [(key: String, text: String, node: ConfigNode)] {
        OptionSource.given([
            ($installationId, installationId), ($platform, platform), ($pushChannel, pushChannel), ($userId, userId),
        ])
    }

    /// Where a problem about `field` points: the value when given, else the whole device (`item`).
    func node(for field: InstallationPlan.Field, item: ConfigNode) -> ConfigNode {
        let source: OptionSource? =
            switch field {
            case .installationId: $installationId
            case .platform: $platform
            case .pushChannel: $pushChannel
            case .userId: $userId
            case .tags, .tag: $tags
            case .device, .templates: nil
            }
        if case .tag(let position) = field, position < tags.count { return tags[position].node }
        return source?.node ?? item
    }
}

/// The keys of one registration under `registrations:`.
struct RegistrationEntry: DeclaredOptions {
    /// `platform`, checked where the registration is planned.
    @Key(
        OptionKey.text("platform", required: true, "the device platform").documented(
            as: .anyCaseOf(DeviceRules.platforms.map(\.rawValue))))
    var platform: String?
    /// `handle`.
    @Key(.text("handle", required: true, "the PNS handle, as for an installation's pushChannel")) var handle: String?
    /// `tags`.
    @Key(.stringList("tags", "tags (at most 60, the template's tags included)")) var tags:
        [(value: String, node: ConfigNode)]
    /// `template`: the declaration it names.
    @Key(.template("template", "a declared template: makes this a template registration")) var template:
        TemplateDeclaration?
    /// `id`.
    @Key(.text("id", "an existing registration id to update; without it a new id is requested")) var id: String?

    init() {}

    /// The text values given, by key, with where each was written.
    var texts: [(key: String, text: String, node: ConfigNode)] {
        OptionSource.given([($platform, platform), ($handle, handle), ($id, id)])
    }

    /// Where a problem about `field` points: the value when given, else the whole registration (`item`).
    func node(for field: RegistrationPlan.Field, item: ConfigNode) -> ConfigNode {
        let source: OptionSource? =
            switch field {
            case .registration: nil
            case .platform: $platform
            case .handle: $handle
            case .tags, .tag: $tags
            case .template: $template
            case .id: $id
            }
        if case .tag(let position) = field, position < tags.count { return tags[position].node }
        return source?.node ?? item
    }
}

/// A registration to delete (`mode: delete`): its id alone.
struct RegistrationDeleteEntry: DeclaredOptions {
    /// `id`.
    @Key(.text("id", required: true, "the registration id to delete")) var id: String?

    init() {}
}

extension OptionSource {
    /// The values of `keys` that were given, each with its key and where it was written.
    static func given(_ keys: [(source: OptionSource, text: String?)]) -> [(
        key: String, text: String, node: ConfigNode
    )] {
        keys.compactMap { source, text in
            guard let text, let node = source.node else { return nil }
            return (source.key, text, node)
        }
    }
}
