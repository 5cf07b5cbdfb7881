import Foundation

/// Reads a JSON or YAML data file (e.g. `properties-file:`) into nodes with locations, or reports why not.
///
/// Injected because only `PipelineConfig` may parse YAML; steps stay free of the YAML library.
/// `name` is how messages show the path (the text as written when it came from a reference).
public typealias DataFileLoader =
    @Sendable (
        _ path: String, _ name: String, _ reference: SourceLocation, _ diagnostics: DiagnosticCollector
    ) -> ConfigNode?

/// What a step sees while it is being built: the document's declarations, to resolve names.
public struct BuildContext: Sendable {
    /// The loaded pipeline.
    public let document: PipelineDocument
    /// Reads data files named by options.
    public let loadDataFile: DataFileLoader

    /// Creates a context.
    public init(document: PipelineDocument, loadDataFile: @escaping DataFileLoader) {
        self.document = document
        self.loadDataFile = loadDataFile
    }

    /// A declared template named by an item of a list (`templates: [alert, toast]`), reporting an unknown name
    /// at `node` with "did you mean".
    public func template(named name: String, at node: ConfigNode, in options: OptionReader) -> TemplateDeclaration? {
        report(
            name, at: node, in: options, kind: "template", names: document.templates.map(\.name),
            lookup: document.template)
    }

    /// Resolves a path written in the pipeline against the pipeline's directory.
    public func path(_ relative: String) -> String {
        FilePath.resolve(relative, against: document.directory)
    }

    /// The path a scalar names: written in the pipeline, it is relative to the pipeline's directory;
    /// given whole by a reference (`${env:ROWS}`), it is relative to the current directory, as any
    /// path an operator passes to a command.
    public func path(of scalar: ConfigScalar) -> String {
        if scalar.hasReferences, scalar.sourceText.hasPrefix("${"), scalar.sourceText.hasSuffix("}"),
            scalar.sourceText.dropFirst(2).firstIndex(of: "$") == nil
        {
            return FilePath.resolve(scalar.text, against: FileManager.default.currentDirectoryPath)
        }
        return path(scalar.text)
    }

    /// The hub `name` (written at `node`) names, or nil after reporting an unknown name.
    func hub(named name: String, at node: ConfigNode, in options: OptionReader) -> HubDeclaration? {
        report(name, at: node, in: options, kind: "hub", names: document.hubs.map(\.name), lookup: document.hub)
    }

    /// The declaration `name` (written at `node`) names, or nil after reporting an unknown name.
    private func report<T>(
        _ name: String, at node: ConfigNode, in options: OptionReader, kind: String, names: [String],
        lookup: (String) -> T?
    ) -> T? {
        if let found = lookup(name) { return found }
        if node.scalar?.hasReferences == true {
            // Quote the reference, never the value it resolved to.
            options.error(
                "\(kind) \(node.scalar?.quoted ?? "") names no declared \(kind)", at: node,
                hint: names.isEmpty ? "no \(kind)s are declared" : "declared: \(names.joined(separator: ", "))")
            return nil
        }
        let declared = names.isEmpty ? "no \(kind)s are declared" : "declared: \(names.joined(separator: ", "))"
        options.error(
            "unknown \(kind) '\(node.scalar?.sourceText ?? name)'\(Suggestion.didYouMean(name, in: names))", at: node,
            hint: "\(declared); declare it under `\(kind)s:`")
        return nil
    }
}
