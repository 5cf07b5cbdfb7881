import Foundation
import HubWire
import PipelineCore

/// Loads pipeline files into `PipelineDocument`s, reporting every problem with `file:line:column`.
///
/// The loader checks everything that does not depend on step types: YAML syntax and hostile input,
/// `version`, the top-level keys, hubs (connection strings), audiences (tag expressions and NH's
/// limits) and templates (files, syntax, platform rules). Steps are decoded later by the registry.
public struct PipelineLoader: Sendable {
    /// How strict to be and where references come from.
    public var options: LoaderOptions

    /// Creates a loader.
    public init(options: LoaderOptions) {
        self.options = options
    }

    /// Loads the file at `path`. Returns nil when the file could not be turned into a document at all;
    /// a document may still come back with errors reported (so step checks can run too).
    public func load(path: String, diagnostics: DiagnosticCollector) -> PipelineDocument? {
        guard
            let text = SourceText.read(
                path, limit: options.maxFileBytes, what: "pipeline file", at: nil,
                diagnostics: diagnostics)
        else { return nil }
        return load(text: text, file: path, diagnostics: diagnostics)
    }

    /// Loads pipeline text that claims to come from `file` (used for relative paths and locations).
    public func load(text: String, file: String, diagnostics: DiagnosticCollector) -> PipelineDocument? {
        let text = text.contains(bytes: "\r\n") ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
        diagnostics.register(source: text, for: file)
        let directory = FilePath.directory(of: file)
        guard text.utf8.count <= options.maxFileBytes else {
            diagnostics.error(
                "pipeline file is \(text.utf8.count) bytes; the limit is \(options.maxFileBytes) bytes",
                at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
        var references = ReferenceResolver(options: options, directory: directory, diagnostics: diagnostics)
        if text.contains(bytes: "${param:") {
            references.parameters = parameters(in: text, file: file, directory: directory)
        }
        let composer = YAMLComposer(file: file, options: options, diagnostics: diagnostics, references: references)
        guard let root = composer.compose(text) else { return nil }
        var decoder = DocumentDecoder(
            file: file, directory: directory, options: options, diagnostics: diagnostics,
            sourceLines: text.lines)
        guard var document = decoder.decode(root) else { return nil }
        // Stamped here, once: the run's identity and lock use what the loader read, not a second read.
        document.absolutePath = URL(fileURLWithPath: file).standardizedFileURL.path
        document.contentDigest = ContentDigest.hex(text)
        return document
    }
}

extension PipelineLoader {
    /// The parameters `text` declares and the values they take, read from a first, quiet pass over the file
    /// (nothing reported: the real pass reports everything once), so that
    /// `${param:…}` anywhere in the file resolves to the value the run was given or the default.
    func parameters(in text: String, file: String, directory: String) -> (declared: [String], values: [String: String])
    {
        let quiet = DiagnosticCollector()
        // `${env:}` and `${file:}` resolve here too, so a default written as one is its value, not its text.
        let first = ReferenceResolver(options: options, directory: directory, diagnostics: quiet)
        guard let root = YAMLComposer(file: file, options: options, diagnostics: quiet, references: first).compose(text)
        else { return ([], [:]) }
        let decoder = DocumentDecoder(
            file: file, directory: directory, options: options, diagnostics: quiet, sourceLines: [])
        let declarations = decoder.decodeParameters(root["parameters"])
        return (declarations.map(\.name), decoder.parameterValues(declarations, section: root["parameters"]))
    }
}

extension PipelineLoader {
    /// Reads a JSON or YAML data file (JSON is parsed as YAML, which accepts it) into nodes with marks.
    /// References are resolved only when asked: data files hold data, configuration files may hold
    /// `${env:}`/`${file:}` like pipelines.
    public func loadDataFile(
        path: String, name: String? = nil, reference: SourceLocation?, what: String = "data file",
        resolvingReferences: Bool = false, diagnostics: DiagnosticCollector
    ) -> ConfigNode? {
        guard
            let text = SourceText.read(
                path, name: name, limit: options.maxFileBytes, what: what, at: reference,
                diagnostics: diagnostics)
        else { return nil }
        diagnostics.register(source: text, for: path)
        let references = ReferenceResolver(
            options: options, directory: FilePath.directory(of: path), diagnostics: diagnostics,
            resolves: resolvingReferences)
        return YAMLComposer(file: path, options: options, diagnostics: diagnostics, references: references).compose(
            text)
    }
}

extension PipelineLoader {
    /// Parses JSON or YAML data given as text (e.g. a `--properties` argument) into nodes; `name`
    /// stands in for the file name in diagnostics. With `resolvingReferences`, `${env:}` and `${file:}` (relative to
    /// `directory`) resolve as in a pipeline (a step's options given on the command line or in an example).
    public func loadData(
        text: String, name: String, resolvingReferences: Bool = false, directory: String = ".",
        diagnostics: DiagnosticCollector
    ) -> ConfigNode? {
        diagnostics.register(source: text, for: name)
        var literal = options
        if !resolvingReferences { literal.environment = [:] }
        let references = ReferenceResolver(
            options: literal, directory: directory, diagnostics: diagnostics, resolves: resolvingReferences)
        return YAMLComposer(file: name, options: options, diagnostics: diagnostics, references: references).compose(
            text)
    }
}
