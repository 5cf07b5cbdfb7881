import PipelineCore

extension DocumentDecoder {
    /// The keys of one parameter.
    struct ParameterKeys: DeclaredOptions {
        /// `type`.
        @Key(.choice("type", default: ParameterDeclaration.Kind.string, "what a value must be")) var kind:
            ParameterDeclaration.Kind
        /// `pattern`.
        @Key(.text("pattern", examples: ["\"[a-z0-9_-]{1,64}\""], "a regular expression the whole value must match"))
        var pattern: String?
        /// `allowed`.
        @Key(.stringList("allowed", examples: ["[apns, fcmv1]"], "the only values accepted")) var allowed:
            [(value: String, node: ConfigNode)]
        /// `default`.
        @Key(.text("default", "the value when none is given (then the parameter is optional)")) var defaultValue:
            String?
        /// `required`.
        @Key(.flag("required", "a run must give a value (`--param name=value`)")) var required: Bool
        /// `description`.
        @Key(.text("description", "what the parameter is for")) var description: String?

        init() {}
    }

    static var parameterKeys: [OptionSpec] { ParameterKeys.specs }

    /// `parameters:`: each a mapping of the keys above; a default must itself be a valid value.
    func decodeParameters(_ node: ConfigNode?) -> [ParameterDeclaration] {
        guard
            let entries = sectionEntries(
                node, section: "parameters", example: "user: { pattern: \"[a-z0-9]{1,32}\", required: true }")
        else { return [] }
        return entries.compactMap(decodeParameter)
    }

    private func decodeParameter(_ entry: ConfigEntry) -> ParameterDeclaration? {
        var declaration = ParameterDeclaration(name: entry.key, location: entry.keyLocation)
        if !DeclaredName.isValid(entry.key) {
            diagnostics.error(
                "parameter name '\(entry.key)' may hold only letters, digits, _ and -", at: entry.keyLocation,
                hint: "steps use it as ${param:NAME}")
            return nil
        }
        // `user:` alone declares an optional text parameter.
        guard !entry.value.isNull else { return declaration }
        let reader = OptionReader(
            entry.value, specs: Self.parameterKeys, step: nil, what: "parameter '\(entry.key)'",
            diagnostics: diagnostics)
        let keys = ParameterKeys(reading: reader)
        declaration.kind = keys.kind
        if let pattern = keys.pattern, let node = keys.$pattern.node {
            if !ParameterDeclaration.isValidPattern(pattern) {
                reader.error(
                    "parameter '\(entry.key)': 'pattern' is not a valid regular expression", at: node,
                    hint: "e.g. \"[a-z0-9_-]{1,64}\"; the whole value must match")
            } else {
                declaration.pattern = pattern
            }
        }
        declaration.allowed = keys.allowed.map(\.value)
        declaration.description = keys.description
        declaration.required = keys.required
        if let value = keys.defaultValue, let node = keys.$defaultValue.node {
            if declaration.required {
                reader.error(
                    "parameter '\(entry.key)' is required, so a default would never be used", at: node,
                    hint: "remove `default:` or `required: true`")
            } else if let problem = declaration.problem(with: value) {
                reader.error("the default of \(problem)", at: node)
            } else {
                declaration.defaultValue = value
            }
        }
        return declaration
    }

    /// The value of every parameter, as given or by default, after checking what was given: a name the
    /// pipeline does not declare, a value that breaks its rules, and (for a run) a required one missing
    /// are errors. A `validate` without values checks the declarations and their uses only.
    func parameterValues(_ declarations: [ParameterDeclaration], section: ConfigNode?) -> [String: String] {
        let at = section?.location ?? SourceLocation(file: file, line: 1, column: 1)
        let names = declarations.map(\.name)
        for name in options.parameters.keys.sorted() where !names.contains(name) {
            diagnostics.error(
                "the pipeline has no parameter '\(name)'\(Suggestion.didYouMean(name, in: names))", at: at,
                hint: names.isEmpty ? "declare it under `parameters:`" : "declared: \(names.joined(separator: ", "))")
        }
        var values: [String: String] = [:]
        for declaration in declarations {
            if let given = options.parameters[declaration.name] {
                if let problem = declaration.problem(with: given) {
                    diagnostics.error(
                        problem + " (as given)", at: declaration.location, hint: Self.hint(for: declaration))
                } else {
                    values[declaration.name] = given
                }
            } else if let value = declaration.defaultValue {
                values[declaration.name] = value
            } else if !declaration.required, declaration.problem(with: "") == nil {
                values[declaration.name] = ""
            } else if options.purpose == .run {
                // Required, or empty would break its own rules (a pattern, allowed values, a type): it must be given.
                diagnostics.error(
                    "parameter '\(declaration.name)' is required and was not given", at: declaration.location,
                    hint: "pass --param \(declaration.name)=VALUE")
            }
        }
        return values
    }

    private static func hint(for declaration: ParameterDeclaration) -> String? {
        declaration.description.map { "'\(declaration.name)': \($0)" }
    }
}
