import Foundation
import PipelineConfig
import PipelineCore
import RunFlow

/// Parses `--properties` given as a JSON object string or `@path` to a JSON (or YAML) file.
///
/// Parsed with the same loader as pipeline data files, so number text is kept as written (`1.0`
/// stays `1.0`), duplicate keys are errors, and problems come with a line and column.
enum PropertiesArgument {
    /// Largest properties file read.
    static let maxFileBytes = 1 << 20

    static func parse(_ argument: String?, console: Console) throws -> [String: String] {
        guard let argument else { return [:] }
        let text: String
        let name: String
        if argument.hasPrefix("@") {
            name = String(argument.dropFirst())
            do {
                text = try TextFile.read(name, limit: maxFileBytes)
            } catch {
                throw CommandFailure(error.message(what: "properties file", name: name))
            }
        } else {
            (text, name) = (argument, "--properties")
        }
        let collector = DiagnosticCollector()
        let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:]))
        let node = loader.loadData(text: text, name: name, diagnostics: collector)
        for diagnostic in collector.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
        guard let node, !collector.hasErrors else { throw CommandFailure("\(name) is not a valid JSON object") }
        guard let entries = node.entries else {
            throw CommandFailure("\(name) must be a JSON object like '{\"message\":\"Hello\"}', found \(node.kindName)")
        }
        var properties: [String: String] = [:]
        for entry in entries {
            guard let scalar = entry.value.scalar else {
                throw CommandFailure(
                    "property '\(entry.key)' in \(name) must be a string, number or boolean, found \(entry.value.kindName); NH template properties are text"
                )
            }
            properties[entry.key] = entry.value.isNull ? "" : scalar.text
        }
        return properties
    }
}
