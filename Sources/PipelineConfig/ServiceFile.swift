import Foundation
import PipelineCore

/// A `pushline serve` file as the loader reads it: the hubs and templates, checked exactly as a pipeline's are,
/// and the `service:` section left as nodes for the service to decode (as steps decode their own options).
public struct ServiceFile: Sendable {
    /// The path it was read from.
    public var file: String
    /// Its directory, for relative paths (the users file, template files).
    public var directory: String
    /// What the service is for.
    public var description: String?
    /// Declared hubs.
    public var hubs: [HubDeclaration] = []
    /// Declared templates.
    public var templates: [TemplateDeclaration] = []
    /// The `service:` mapping, with marks; nil when it is missing (already reported).
    public var service: ConfigNode?

    /// An empty service file read from `file`.
    public init(file: String, directory: String) {
        self.file = file
        self.directory = directory
    }
}

extension PipelineLoader {
    /// Loads a service file. Returns nil when the file could not be read as YAML at all; otherwise the file comes
    /// back with every problem of its hubs and templates reported, and the `service:` section for its own decoder.
    public func loadService(path: String, diagnostics: DiagnosticCollector) -> ServiceFile? {
        guard
            let read = SourceText.read(
                path, limit: options.maxFileBytes, what: "service file", at: nil,
                diagnostics: diagnostics)
        else { return nil }
        let text = read.contains(bytes: "\r\n") ? read.replacingOccurrences(of: "\r\n", with: "\n") : read
        diagnostics.register(source: text, for: path)
        let directory = FilePath.directory(of: path)
        let references = ReferenceResolver(options: options, directory: directory, diagnostics: diagnostics)
        let composer = YAMLComposer(file: path, options: options, diagnostics: diagnostics, references: references)
        guard let root = composer.compose(text) else { return nil }
        let decoder = DocumentDecoder(
            file: path, directory: directory, options: options, diagnostics: diagnostics,
            sourceLines: text.lines)
        return decoder.decodeService(root)
    }

    /// True when the YAML text is a service file (it has a top-level `service:` key), not a pipeline: how
    /// `validate` tells the two apart.
    public static func isServiceFile(text: String) -> Bool {
        // On bytes: a Character split of every file was a thirtieth of a cold `pushline validate`.
        let key = Array("service:".utf8)
        return text.utf8.split(separator: UInt8(ascii: "\n")).contains { $0.starts(with: key) }
    }
}

extension DocumentDecoder {
    /// The keys of a service file.
    struct ServiceFileKeys: DeclaredOptions {
        /// `version`.
        @Key(DocumentDecoder.version("service file format version; must be 1")) var version: Int?
        /// `description`.
        @Key(DocumentDecoder.description("what the service is for")) var description: String?
        /// `hubs`.
        @Key(DocumentDecoder.hubsSection) var hubs: ConfigNode?
        /// `templates`.
        @Key(
            .node(
                OptionSpec(
                    "templates", .namedMappings(TemplatesDecoder.keys),
                    "named templates the service renders (platform, body, headers)")))
        var templates: ConfigNode?
        /// `service`: read by the service's own decoder.
        @Key(
            .node(
                OptionSpec(
                    "service", .mapping([]), required: true,
                    "what `pushline serve` listens on, who may call it and what it sends")))
        var service: ConfigNode?

        init() {}
    }

    static var serviceTopLevelKeys: [OptionSpec] { ServiceFileKeys.specs }

    func decodeService(_ root: ConfigNode) -> ServiceFile? {
        guard let reader = topLevel(root, what: "a service file", keys: Self.serviceTopLevelKeys, body: "service")
        else { return nil }
        let keys = ServiceFileKeys(reading: reader)
        var service = ServiceFile(file: file, directory: directory)
        service.description = keys.description
        service.hubs = decodeHubs(keys.hubs)
        service.templates = TemplatesDecoder(document: self).decode(keys.templates)
        service.service = keys.service
        return service
    }
}
