import Logging
import PipelineCore
import PluginProtocol

/// What the loader does with a pipeline's `plugins:`: asks each plugin what it is, to register its step kind, and
/// has each plugin step's options checked by its plugin after the host's own checks.
package enum PluginSteps {
    /// The step kind of each declared plugin, from its `describe` answer. A plugin named like a step already
    /// registered (`registered`), or one that cannot say what it is, is an error at its declaration (with its last
    /// stderr lines).
    package static func kinds(for document: PipelineDocument, registered: Set<String>, diagnostics: DiagnosticCollector)
        async -> [StepKind]
    {
        var kinds: [StepKind] = []
        for declaration in document.plugins {
            if registered.contains(declaration.name) {
                diagnostics.error(
                    "plugin '\(declaration.name)' has the name of a step built into pushline", at: declaration.location,
                    hint: "name the plugin something else, e.g. '\(declaration.name)-plugin'")
                continue
            }
            let host = PluginHost(declaration: declaration, directory: document.directory)
            let description: PluginDescription
            do {
                description = try await host.describe()
            } catch {
                diagnostics.error(
                    "plugin '\(declaration.name)' (\(declaration.shownCommand)) did not say what it is: \(error.message)",
                    at: declaration.commandLocation,
                    hint: ([error.hint].compactMap { $0 } + error.stderr.map { "stderr: \($0)" }).joined(
                        separator: "\n"))
                continue
            }
            kinds.append(kind(host, description))
        }
        return kinds
    }

    /// The kind a described plugin gives.
    static func kind(_ host: PluginHost, _ description: PluginDescription) -> StepKind {
        let summary =
            description.summary
            + (description.effects == .external ? " (external effects: a dry run does not run it)" : "")
        return StepKind(
            id: host.declaration.name, summary: summary, options: description.options, outputs: description.outputs,
            examples: description.examples, origin: host.declaration.shownCommand
        ) { reader, _ in
            let errorsBefore = reader.diagnostics.errorCount
            let options = PluginOptions.read(reader)
            guard reader.diagnostics.errorCount == errorsBefore else { return nil }
            return PluginStep(host: host, description: description, options: options)
        }
    }

    /// Has each plugin of `kinds` (those that said what they are) check the options of its steps, as written, and
    /// reports its findings at the value they name, its secret options' values hidden.
    package static func check(_ document: PipelineDocument, kinds: [StepKind], diagnostics: DiagnosticCollector) async {
        for invocation in document.steps {
            guard let kind = kinds.first(where: { $0.id == invocation.kind }),
                let declaration = document.plugins.first(where: { $0.name == invocation.kind })
            else { continue }
            let written = PluginOptions.written(invocation.options)
            var host = PluginHost(declaration: declaration, directory: document.directory)
            host.optionSecrets = PluginOptions.secretValues(written, specs: kind.options)
            let problems: [(path: [PluginValue], message: String, hint: String?)]
            do {
                problems = try await host.check(written)
            } catch {
                diagnostics.error(
                    "plugin '\(declaration.name)' could not check the options: \(error.message)",
                    at: invocation.location,
                    step: invocation.kind,
                    hint: ([error.hint].compactMap { $0 } + error.stderr.map { "stderr: \($0)" }).joined(
                        separator: "\n"))
                continue
            }
            let redact = PluginRedaction(declaration, options: host.optionSecrets)
            for problem in problems {
                let (node, keyLocation) = PluginOptions.node(at: problem.path, in: invocation.options)
                let place = problem.path.compactMap(\.rowText).joined(separator: ".")
                diagnostics.error(
                    redact((place.isEmpty ? "" : "'\(place)': ") + problem.message),
                    at: problem.path.isEmpty ? (keyLocation ?? invocation.location) : node.location,
                    step: invocation.kind, hint: problem.hint.map { redact($0) })
            }
        }
    }
}
