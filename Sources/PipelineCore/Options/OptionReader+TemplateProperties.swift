import HubExpressions

/// The template property keys, shared by every step that renders templates.
package enum PropertyOptions {
    /// `properties`: inline, name to text.
    package static let properties = OptionKey<ConfigNode>.node(
        OptionSpec("properties", .stringMap, examples: ["{ message: \"Red Sox win!\" }"], "template properties, e.g. { message: \"Red Sox win!\" }")
    ).excluding(["properties-file"], hint: "keep the properties in one place: the file, or `properties:`")
    /// `properties-file`: a JSON or YAML file of them.
    package static let propertiesFile = OptionKey<String>.path(
        "properties-file", "a JSON or YAML file holding a mapping of properties (instead of `properties`)")

    /// Both keys.
    package static let specs = [properties.spec, propertiesFile.spec]
}

extension OptionReader {
    /// The build-time half of the one render-and-lint path (`TemplateRendering` is the run-time half), so
    /// `render` and `send` with a pipeline template say the same before anything runs: properties that differ
    /// only in letter case are an error (NH matches names case-insensitively, so which one it uses is unclear);
    /// a property the template uses that is not given is a warning (it renders as an empty string). False
    /// after an error.
    package func checkProperties(_ names: some Collection<String>, for template: TemplateDeclaration) -> Bool {
        let properties = TemplateProperties(Dictionary(names.map { ($0, "") }, uniquingKeysWith: { first, _ in first }))
        if !properties.caseConflicts.isEmpty {
            let conflicting = properties.caseConflicts.map { "'\($0)'" }.joined(separator: ", ")
            error("properties \(conflicting) differ only in letter case", at: node,
                  hint: "NH matches property names case-insensitively; keep one spelling")
        }
        for name in template.body?.propertyNames ?? [] where properties[name] == nil {
            diagnostics.warning("template '\(template.name)' uses property '\(name)', which is not given; it renders as an empty string",
                                at: node.location, step: step, hint: "add `\(name):` under properties")
        }
        return properties.caseConflicts.isEmpty
    }

    /// Reads `properties:` or `properties-file:` into name → text (nil after reporting a problem;
    /// empty when neither is given). YAML numbers and booleans are taken as their text.
    package func templateProperties(in context: BuildContext) -> [String: String]? {
        PropertiesDecoder(options: self, context: context).decode()
    }
}

/// Reads `properties:` or `properties-file:` into name → text, reporting non-text values.
struct PropertiesDecoder {
    let options: OptionReader
    let context: BuildContext

    /// The properties, or nil after reporting a problem.
    func decode() -> [String: String]? {
        let inline = options.node(PropertyOptions.properties)
        let file = options.node(PropertyOptions.propertiesFile)
        // Both given was reported when the options were read.
        if inline != nil, file != nil { return nil }
        if let inline { return values(of: inline, what: "'properties'") }
        guard let file else { return [:] }
        guard let path = file.scalar?.text, !path.isEmpty else {
            options.error("'properties-file' must be a path, found \(file.kindName)", at: file)
            return nil
        }
        let resolved = context.path(path)
        let shown = file.scalar?.hasReferences == true ? file.scalar?.sourceText ?? resolved : resolved
        guard let node = context.loadDataFile(resolved, shown, file.location, options.diagnostics) else { return nil }
        return values(of: node, what: "properties file '\(shown)'")
    }

    /// NH template properties are strings; YAML numbers and booleans are taken as their text.
    private func values(of node: ConfigNode, what: String) -> [String: String]? {
        guard let entries = node.entries else {
            options.error("\(what) must be a mapping of property names to text, found \(node.kindName)", at: node,
                          hint: "e.g. { message: \"Hello\", badge: \"3\" }")
            return nil
        }
        var result: [String: String] = [:]
        var valid = true
        for entry in entries {
            guard let scalar = entry.value.scalar else {
                options.error("property '\(entry.key)' must be text, found \(entry.value.kindName)", at: entry.value,
                              hint: "NH template properties are strings; serialise structured values yourself")
                valid = false
                continue
            }
            result[entry.key] = entry.value.isNull ? "" : scalar.text
        }
        return valid ? result : nil
    }
}
