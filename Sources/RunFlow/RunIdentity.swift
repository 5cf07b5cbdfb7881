import Engine
import Foundation
import HubExpressions
import HubWire
import PipelineCore

/// What makes two runs "the same run": the pipeline (its name and text), the values its references resolved to,
/// and the content of every file its steps read but their `for-each` files (data, like a query's rows). Starting the same run again resumes it (or, when
/// it completed, does nothing); change any of these and it is a new run.
package enum RunIdentity {
    /// A hex digest over the document and the input files its steps name in `.path` options.
    package static func digest(of pipeline: Pipeline, registry: StepRegistry) -> String {
        let document = pipeline.document
        // Paths resolve exactly as the steps resolved them when they were built.
        let paths = BuildContext(document: document, loadDataFile: { _, _, _, _ in nil })
        var text = "pushline-run-v1\n"
        // Who the pipeline is, not where its file lies: the same pipeline read from another checkout or mount
        // (another machine, another pod) is the same run, which resumes there; its locks keep the two from sending at
        // once. A file without `name:` keeps the line runs had before names existed (its file name), so a run
        // recorded by an earlier pushline still resumes.
        if let name = document.declaredName {
            text += "name \(name)\n"
        } else {
            text +=
                "file \(FilePath.lastComponent(of: FilePath.normalize(document.absolutePath ?? absolute(document.file))))\n"
        }
        // The text the loader read (a file changed since then is not this run).
        text += "content \(document.contentDigest ?? ContentDigest.hex(fileAt: document.file) ?? "-")\n"
        for hub in document.hubs {
            // The connection string itself goes in only as a digest; the identity is stored in the journal.
            let connection = hub.connection.map { "\($0.endpoint);\($0.keyName);\($0.key)" } ?? "-"
            text += "hub \(hub.name) \(hub.hubName ?? "-") \(hub.endpoint ?? "-") \(ContentDigest.hex(connection))\n"
        }
        // What references resolved to outside the steps: audiences and templates (`${env:}`, `${param:}`) and the
        // parameter values themselves, so the same file for another user or another environment is another run.
        for audience in document.audiences {
            text += "audience \(audience.name) \(audience.expression?.source.debugDescription ?? "-")\n"
        }
        for template in document.templates {
            let headers = template.headers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: ",")
            text +=
                "template \(template.name) \(template.platform.rawValue) \(ContentDigest.hex(template.body?.source ?? "-")) "
                + "\(headers.debugDescription) \(template.tags.joined(separator: ",").debugDescription)\n"
        }
        for (name, value) in document.parameterValues.sorted(by: { $0.key < $1.key }) {
            text += "param \(name) \(ContentDigest.hex(value))\n"
        }
        for step in document.steps {
            text += "step \(step.index) \(step.kind) \(canonical(step.options))\n"
            let specs = registry.kind(for: step.kind)?.options ?? []
            for entry in step.options.entries ?? [] {
                // A `for-each` file is data, read afresh by every new run (its path is in the options above): a run
                // cut off keeps a copy of what it read, and a new run's rows are compared once read.
                guard entry.key != BatchOptions.forEach.key,
                    specs.contains(where: { $0.key == entry.key && $0.type.acceptsPath }),
                    let scalar = entry.value.scalar
                else { continue }
                let resolved = paths.path(of: scalar)
                text += "input \(entry.key) \(ContentDigest.hex(fileAt: resolved) ?? "-")\n"
            }
        }
        return ContentDigest.hex(text)
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The node as resolved text, structure included, so `a: [b]` and `a: b` differ.
    private static func canonical(_ node: ConfigNode) -> String {
        if let entries = node.entries {
            return "{" + entries.map { "\($0.key.debugDescription):\(canonical($0.value))" }.joined(separator: ",")
                + "}"
        }
        if let items = node.items { return "[" + items.map(canonical).joined(separator: ",") + "]" }
        return node.scalar.map { $0.text.debugDescription } ?? "~"
    }
}
