import Foundation
import HubExpressions
import HubWire
import PipelineConfig
import PipelineCore
import TokenVerification

extension ServiceSettingsDecoder {
    func decodeNotify(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let reader = OptionReader(
            node, specs: NotifyKeys.specs, step: nil, what: "service.notify", diagnostics: diagnostics)
        let keys = NotifyKeys(reading: reader)
        settings.notifyPolicy = keys.who
        settings.notifyTemplates = templates(keys.templates, properties: Self.notifyProperties)
    }

    /// A `platform: template-name` mapping, each template declared, for that platform, using only `properties`.
    func templates(_ node: ConfigNode?, properties: [String]) -> [PushPlatform: TemplateDeclaration] {
        guard let node, let entries = node.entries else { return [:] }
        var found: [PushPlatform: TemplateDeclaration] = [:]
        let names = file.templates.map(\.name)
        for entry in entries {
            guard let platform = PushPlatform(caseInsensitive: entry.key) else {
                diagnostics.error(
                    "unknown platform '\(entry.key)'", at: entry.keyLocation,
                    hint: "platforms: \(PushPlatform.allCases.map(\.rawValue).joined(separator: ", "))")
                continue
            }
            guard let name = entry.value.scalar?.text else { continue }
            guard let template = file.templates.first(where: { $0.name == name }) else {
                diagnostics.error(
                    "unknown template '\(name)'\(Suggestion.didYouMean(name, in: names))", at: entry.value.location,
                    hint: names.isEmpty
                        ? "declare it under `templates:`" : "declared templates: \(names.joined(separator: ", "))")
                continue
            }
            guard template.platform == platform else {
                diagnostics.error(
                    "template '\(name)' is for \(template.platform.rawValue), not \(platform.rawValue)",
                    at: entry.value.location, hint: "name a \(platform.rawValue) template here")
                continue
            }
            let unknown = Set(template.body?.propertyNames ?? []).subtracting(properties).sorted()
            if !unknown.isEmpty {
                diagnostics.error(
                    "template '\(name)' uses \(unknown.map { "$(\($0))" }.joined(separator: ", ")), which this route does not give",
                    at: entry.value.location,
                    hint: "these templates may use \(properties.map { "$(\($0))" }.joined(separator: ", "))")
                continue
            }
            found[platform] = template
        }
        return found
    }

    func decodeLimits(_ node: ConfigNode, into settings: inout ServiceSettings) {
        let keys = LimitKeys(
            reading: OptionReader(
                node, specs: LimitKeys.specs, step: nil, what: "service.limits", diagnostics: diagnostics))
        settings.maxBodyBytes = keys.bodyBytes
        settings.perIdentityPerMinute = keys.perIdentity
        settings.perAddressPerMinute = keys.perAddress
        settings.failedSignInsPerMinute = keys.failedSignIns
    }
}
