import Engine
import Foundation
import PipelineConfig
import PipelineTesting
import PushService
import RunFlow

/// docs/reference/files.md: every key of pipeline and service files, read from the JSON Schemas Pushline writes
/// (which come from the same option lists `validate` checks against), so the page cannot say what the loader does not.
enum FileKeysReference {
    static func markdown() -> String {
        var text = """
            # Pipeline, service and test files

            Every key of a pipeline file, of a service file (`pushline serve`) and of a test file (`pushline test`, see
            [testing pipelines](../testing-pipelines.md)), with its type and meaning, written from
            the JSON Schemas Pushline generates (`pushline reference files`; a test fails when this page is stale). The
            steps' own keys are in [the steps reference](steps.md). Any value may be a reference: `${env:NAME}`,
            `${file:PATH}`, `${param:NAME}`.

            ## Pipeline files


            """
        text += section(PipelineSchema(registry: Console.current.steps).json, path: "", skip: ["steps"])
        text +=
            "`steps` is the list of steps to run, in order; each is `- KIND: { options }`, optionally with `id:` and `when:` "
            + "([every step](steps.md)).\n\n## Service files\n\n"
        text += section(PipelineSchema(serviceKeys: ServiceSettingsDecoder.serviceKeys).json, path: "", skip: ["steps"])
        text += "## Test files\n\n"
        text += section(
            PipelineSchema(fileKeys: TestFileKeys.specs, title: "", description: "").json, path: "", skip: [])
        return text.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }

    /// A table of an object schema's keys, then a table per key whose value is an object (or a map of objects).
    private static func section(_ json: String, path: String, skip: Set<String>) -> String {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return "" }
        return table(root, path: path, skip: skip, definitions: root["$defs"] as? [String: Any] ?? [:])
    }

    private static func table(_ schema: [String: Any], path: String, skip: Set<String>, definitions: [String: Any])
        -> String
    {
        guard let properties = schema["properties"] as? [String: Any] else { return "" }
        let required = Set(schema["required"] as? [String] ?? [])
        var text = "| key | type | required | meaning |\n|---|---|---|---|\n"
        var nested: [(String, [String: Any])] = []
        for key in properties.keys.sorted() where !skip.contains(key) {
            guard let property = properties[key] as? [String: Any] else { continue }
            let description = (property["description"] as? String ?? "").replacingOccurrences(of: "|", with: "\\|")
                .replacingOccurrences(of: "\n", with: " ")
            text +=
                "| `\(key)` | \(type(property, definitions: definitions)) | \(required.contains(key) ? "yes" : "") | \(description) |\n"
            for variant in variants(property) {
                if variant["properties"] != nil {
                    nested.append(("\(path)\(key)", variant))
                } else if let values = variant["additionalProperties"] as? [String: Any], values["properties"] != nil {
                    nested.append(("\(path)\(key).<name>", values))
                } else if let item = variant["items"] as? [String: Any] {
                    // A list of mappings (a test file's cases, runs and expectations): one table for its items.
                    for itemVariant in variants(item) where itemVariant["properties"] != nil {
                        nested.append(("\(path)\(key)[]", itemVariant))
                    }
                }
            }
        }
        text += "\n"
        for (name, object) in nested {
            text += "### `\(name)`\n\n" + table(object, path: name + ".", skip: [], definitions: definitions)
        }
        return text
    }

    /// The non-null alternatives of a property.
    private static func variants(_ schema: [String: Any]) -> [[String: Any]] {
        if let choices = schema["anyOf"] as? [[String: Any]] {
            return choices.flatMap(variants).filter { $0["type"] as? String != "null" }
        }
        return [schema]
    }

    /// A short type: text, number, yes/no, list, map of names, or what a reference names.
    private static func type(_ schema: [String: Any], definitions: [String: Any]) -> String {
        var names: [String] = []
        for variant in variants(schema) {
            let name: String
            if let reference = variant["$ref"] as? String {
                let definition = String(reference.split(separator: "/").last ?? "")
                name =
                    switch definition {
                    case "reference": ""
                    case "row-value": "a row's value"
                    default: definition
                    }
            } else if let enumeration = variant["enum"] as? [Any] {
                name = enumeration.map { "`\($0)`" }.joined(separator: ", ")
            } else if variant["const"] != nil {
                name = ""
            } else {
                switch variant["type"] as? String {
                // A pattern spells out a form the meaning describes (a duration, any case of a word).
                case "string": name = "text"
                case "integer": name = "whole number"
                case "number": name = "number"
                case "boolean": name = "true or false"
                case "array": name = "list"
                case "object": name = variant["properties"] != nil ? "mapping" : "map of names"
                // No type at all: any value (what a test file expects).
                case nil where variant.keys.allSatisfy({ ["description", "title", "examples"].contains($0) }):
                    name = "any value"
                default: name = ""
                }
            }
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names.joined(separator: " or ")
    }
}
