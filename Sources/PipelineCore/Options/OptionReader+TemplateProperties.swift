import HubExpressions

/// The template property keys, shared by every step that renders templates.
package enum PropertyOptions {
    /// `properties`: inline, name to text.
    package static let properties = OptionKey<ConfigNode>.node(
        OptionSpec(
            "properties", .stringMap, examples: ["{ message: \"Red Sox win!\" }"],
            "template properties, e.g. { message: \"Red Sox win!\" }")
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
    /// only in letter case are an error (NH matches names case-insensitively, so which one it uses is unclear); so is
    /// a property the template uses that is not given (the payload would carry it empty: never what was meant); a
    /// property given that the template does not use, named like one it does (`mesage` → `message`), is a warning at
    /// its key. False after an error.
    package func checkProperties(_ names: some Collection<String>, for template: TemplateDeclaration) -> Bool {
        let properties = TemplateProperties(Dictionary(names.map { ($0, "") }, uniquingKeysWith: { first, _ in first }))
        if !properties.caseConflicts.isEmpty {
            let conflicting = properties.caseConflicts.map { "'\($0)'" }.joined(separator: ", ")
            error(
                "properties \(conflicting) differ only in letter case", at: node,
                hint: "NH matches property names case-insensitively; keep one spelling")
        }
        let used = template.body?.propertyNames ?? []
        let usedNames = TemplateProperties(Dictionary(used.map { ($0, "") }, uniquingKeysWith: { first, _ in first }))
        let given = Array(names)
        // With `properties:` misspelled (`propertis:`), that error says it all: none would be "missing" besides.
        let misspelled =
            isMisspelled(PropertyOptions.properties.key) || isMisspelled(PropertyOptions.propertiesFile.key)
        let missing = misspelled ? [] : used.filter { properties[$0] == nil }
        for name in missing {
            let near = Suggestion.didYouMean(name, in: given.filter { usedNames[$0] == nil })
            error(
                "template '\(template.name)' uses property '\(name)', which is not given; the payload would carry it empty",
                at: node,
                hint: "add `\(name):` under properties" + (near.isEmpty ? "" : " (one given is named like it\(near))"))
        }
        // A property the template does not use is fine (one set of properties may serve several templates), unless it is
        // a misspelling of one the template does use: that is said at its key.
        let entries = self.node(PropertyOptions.properties.key)?.entries ?? []
        for name in given.sorted() where usedNames[name] == nil {
            guard let meant = Suggestion.closest(to: name, in: used) else { continue }
            let location =
                entries.first { $0.key == name }?.keyLocation ?? self.node(PropertyOptions.properties.key)?.location
                ?? node.location
            diagnostics.warning(
                "property '\(name)' is used by template '\(template.name)' nowhere; did you mean '\(meant)'?",
                at: location, step: step, hint: "the template uses \(used.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return properties.caseConflicts.isEmpty && missing.isEmpty
    }
}

/// The template property keys as a group of a step's declared options: `@KeyGroup var properties: PropertyKeys`.
package struct PropertyKeys: DeclaredOptions {
    /// `properties`, as written.
    @Key(PropertyOptions.properties) package var inline: ConfigNode?
    /// `properties-file`.
    @Key(PropertyOptions.propertiesFile) package var file: String?

    /// Neither key.
    package init() {}

    /// Name → text, from the mapping or the file (nil after reporting a problem; empty when neither is given).
    package func values(reporting reader: OptionReader, in context: BuildContext) -> [String: String]? {
        // A refused `properties-file` was reported; reading none instead would report every property as missing.
        if $file.isRefused { return nil }
        return PropertiesDecoder(options: reader, context: context).decode(inline: inline, file: $file.node)
    }
}

/// Reads `properties:` or `properties-file:` into name → text, reporting non-text values.
struct PropertiesDecoder {
    let options: OptionReader
    let context: BuildContext

    /// The properties, or nil after reporting a problem.
    func decode(inline: ConfigNode?, file: ConfigNode?) -> [String: String]? {
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
            options.error(
                "\(what) must be a mapping of property names to text, found \(node.kindName)", at: node,
                hint: "e.g. { message: \"Hello\", badge: \"3\" }")
            return nil
        }
        var result: [String: String] = [:]
        var valid = true
        for entry in entries {
            guard let scalar = entry.value.scalar else {
                options.error(
                    "property '\(entry.key)' must be text, found \(entry.value.kindName)", at: entry.value,
                    hint: "NH template properties are strings; serialise structured values yourself")
                valid = false
                continue
            }
            result[entry.key] = entry.value.isNull ? "" : scalar.text
        }
        return valid ? result : nil
    }
}
