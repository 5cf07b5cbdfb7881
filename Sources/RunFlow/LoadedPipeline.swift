import Engine
import PipelineConfig
import PipelineCore
import PluginStep

/// Loads and builds one pipeline file the same way for every command.
package struct LoadedPipeline {
    /// The document, when the file could be read at all.
    package let document: PipelineDocument?
    /// The runnable pipeline, when there was no error.
    package let pipeline: Pipeline?
    /// Everything reported, in order.
    package let diagnostics: [Diagnostic]
    /// The step registry the pipeline was built with.
    package let registry: StepRegistry

    /// Loads `path` for `purpose` with the given parameter values, then decodes every step; no hub or database is
    /// contacted. The pipeline's plugins are asked what they are and to check their steps' options (cheap
    /// conversations without effects). `${env:}` reads `environment` (the process's when nil). The steps are the
    /// console's (`registry` for others). `adjust` changes the document before its steps are built (`pushline test`
    /// gives a step other rows that way) and returns the values it replaced.
    package static func load(
        _ path: String, purpose: LoaderOptions.Purpose, console: Console,
        environment: [String: String]? = nil, parameters: [String: String] = [:],
        registry: StepRegistry? = nil, adjusting adjust: ((inout PipelineDocument) -> [ConfigNode])? = nil
    ) async -> LoadedPipeline {
        let base = registry ?? console.steps
        let collector = DiagnosticCollector()
        var options = LoaderOptions(purpose: purpose, environment: environment ?? console.environment)
        options.parameters = parameters
        let loader = PipelineLoader(options: options)
        var document = loader.load(path: path, diagnostics: collector)
        if var loaded = document, let adjust {
            // What was reported inside a value the adjustment replaced (a reference that did not resolve) is taken
            // back: the value is no longer read. Only inside it: a key beside it on the same line keeps its problems.
            let replaced = adjust(&loaded)
            collector.withdraw { diagnostic in
                guard let location = diagnostic.location else { return false }
                return replaced.contains { node in
                    // A scalar's written text, and its quotes when it has them.
                    let width = (node.scalar?.sourceText.count ?? 0) + (node.scalar?.isPlain == false ? 2 : 0)
                    return node.location.file == location.file && node.location.line == location.line
                        && (node.location.column...(node.location.column + max(width - 1, 0))).contains(location.column)
                }
            }
            document = loaded
        }
        // Steps are checked even when declarations had errors, so one pass reports everything.
        var registry = base
        var described: [StepKind] = []
        if let document, !document.plugins.isEmpty {
            described = await PluginSteps.kinds(for: document, registered: Set(base.ids), diagnostics: collector)
            registry = (try? base.adding(described)) ?? base
        }
        var pipeline = document.flatMap {
            registry.build($0, diagnostics: collector) { path, name, reference, diagnostics in
                loader.loadDataFile(path: path, name: name, reference: reference, diagnostics: diagnostics)
            }
        }
        if let document, !described.isEmpty {
            // Only plugins that said what they are: one that did not was reported once, at its declaration.
            await PluginSteps.check(document, kinds: described, diagnostics: collector)
            if collector.hasErrors { pipeline = nil }
        }
        return LoadedPipeline(
            document: document, pipeline: pipeline, diagnostics: collector.diagnostics, registry: registry)
    }
}
