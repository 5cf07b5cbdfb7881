import Foundation
import HubWire
import PipelineConfig
import PipelineCore
import RunFlow

extension TestFileDecoder {
    /// `devices:`: installations inline, or a YAML or JSON file holding a list of them.
    func decodeDevices(_ node: ConfigNode, _ reader: OptionReader) -> [TestDevice] {
        var list = node
        if let file = node.scalar?.text, !node.isNull {
            let resolved = FilePath.resolve(file, against: FilePath.directory(of: path))
            let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:]))
            guard
                let root = loader.loadDataFile(
                    path: resolved, reference: node.location, what: "devices file", diagnostics: diagnostics)
            else { return [] }
            list = root
        }
        guard let items = list.items else {
            reader.error(
                "'devices' must be a list of installations or a file of them, found \(list.kindName)", at: list,
                hint: "e.g. - { installationId: alice-phone, platform: apns, pushChannel: TOKEN, tags: [user:alice] }")
            return []
        }
        var seen: [String: SourceLocation] = [:]
        return items.compactMap { item in
            let itemReader = OptionReader(
                item, specs: Keys.Device.specs, step: nil, what: "an installation", diagnostics: diagnostics)
            let keys = Keys.Device(reading: itemReader)
            if let node = keys.registration {
                if keys.installationId != nil || keys.platform != nil || keys.pushChannel != nil {
                    itemReader.error(
                        "a device is an installation or a registration, not both", at: item,
                        hint: "give either installationId, platform and pushChannel, or registration: { … }")
                }
                return decodeRegistration(node, at: item.location)
            }
            for (key, value) in [
                ("installationId", keys.installationId), ("platform", keys.platform), ("pushChannel", keys.pushChannel),
            ]
            where value == nil {
                itemReader.error(
                    "an installation needs '\(key)'", at: item,
                    hint: "installationId, platform and pushChannel, as NH's installations have; or registration: { … }"
                )
            }
            var templates: [String: InstallationTemplate] = [:]
            for entry in keys.templates?.entries ?? [] {
                let templateReader = OptionReader(
                    entry.value, specs: Keys.DeviceTemplate.specs, step: nil, what: "template '\(entry.key)'",
                    diagnostics: diagnostics)
                let template = Keys.DeviceTemplate(reading: templateReader)
                guard let body = template.body else { continue }
                templates[entry.key] = InstallationTemplate(
                    body: body,
                    headers: template.headers.isEmpty
                        ? nil : Dictionary(template.headers.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }),
                    tags: template.tags.isEmpty ? nil : template.tags.map(\.value))
            }
            guard let id = keys.installationId, let platform = keys.platform, let channel = keys.pushChannel else {
                return nil
            }
            if let first = seen[id] {
                itemReader.error(
                    "installation '\(id)' is already given at line \(first.line)", at: keys.$installationId.node ?? item
                )
            }
            seen[id] = item.location
            let installation = Installation(
                installationId: id, platform: platform, pushChannel: .handle(channel), userId: keys.userId,
                tags: keys.tags.isEmpty ? nil : keys.tags.map(\.value), templates: templates.isEmpty ? nil : templates)
            return TestDevice(kind: .installation(installation), location: item.location)
        }
    }

    private func decodeRegistration(_ node: ConfigNode, at location: SourceLocation) -> TestDevice? {
        let reader = OptionReader(
            node, specs: Keys.Registration.specs, step: nil, what: "a registration", diagnostics: diagnostics)
        let keys = Keys.Registration(reading: reader)
        guard let platformText = keys.platform, let handle = keys.handle else { return nil }
        guard let platform = PushPlatform(caseInsensitive: platformText),
            let kind = RegistrationDescription.Kind(platform: platform)
        else {
            reader.error(
                "unknown platform '\(platformText)'", at: keys.$platform.node ?? node,
                hint: "apns, fcmv1, wns, gcm, adm, baidu, mpns or browser")
            return nil
        }
        let registration = RegistrationDescription(
            kind: kind, isTemplate: keys.template != nil, handle: handle, tags: keys.tags.map(\.value),
            bodyTemplate: keys.template, templateName: keys.templateName,
            headers: keys.headers.map { RegistrationHeader(name: $0.key, value: $0.value) })
        return TestDevice(kind: .registration(registration), location: location)
    }
}
