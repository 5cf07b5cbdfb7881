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
            return TestDevice(installation: installation, location: item.location)
        }
    }
}
