import PipelineCore
import Yams

/// Turns YAML text into `ConfigNode`s with marks, or diagnostics.
struct YAMLComposer {
    let file: String
    let options: LoaderOptions
    let diagnostics: DiagnosticCollector
    let references: ReferenceResolver

    /// The root node, or nil after reporting why there is none.
    func compose(_ text: String) -> ConfigNode? {
        if let location = NestingGuard.firstViolation(in: text, limit: options.maxDepth, file: file) {
            diagnostics.error(
                "nesting is deeper than \(options.maxDepth) levels", at: location,
                hint: "pipelines need only a few levels; is this the right file?")
            return nil
        }
        let root: Node?
        do {
            // The basic resolver tags every scalar `str`: values are typed by the options that read
            // them, so the default resolver's regular expressions (compiled on first use, about a
            // third of a cold `validate`) would buy nothing.
            // An empty constructor and UTF-8 named outright: nodes are never turned into Swift values
            // here, and the defaults rebuild Yams' constructor tables and read the whole process
            // environment (`YAMS_DEFAULT_ENCODING`) for every file.
            root = try Yams.compose(yaml: text, .basic, Constructor([:], [:], [:]), .utf8)
        } catch let error as YamlError {
            diagnostics.report(YAMLErrorTranslator.diagnostic(for: error, file: file, text: text))
            return nil
        } catch {
            diagnostics.error("cannot parse YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
            return nil
        }
        guard let root else {
            diagnostics.error(
                "pipeline file is empty", at: SourceLocation(file: file, line: 1, column: 1),
                hint: "start with `version: 1` and a `steps:` list")
            return nil
        }
        var budget = options.maxNodes
        return convert(root, depth: 0, budget: &budget)
    }

    private func location(_ node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    private func convert(_ node: Node, depth: Int, budget: inout Int) -> ConfigNode? {
        budget -= 1
        guard budget >= 0 else {
            if budget == -1 {
                diagnostics.error(
                    "document expands to more than \(options.maxNodes) values (are aliases nested many times?)",
                    at: location(node), hint: "remove the `*alias` repetition")
            }
            return nil
        }
        guard depth <= options.maxDepth else {
            diagnostics.error("nesting is deeper than \(options.maxDepth) levels", at: location(node))
            return nil
        }
        switch node {
        case .scalar(let scalar):
            let text = references.resolve(scalar.string, at: location(node), isPlain: scalar.style == .plain)
            return ConfigNode(.scalar(text), at: location(node))
        case .alias:
            // Yams resolves aliases while composing; an unresolved one is a parser-level error.
            diagnostics.error("unresolved alias", at: location(node))
            return nil
        case .sequence(let sequence):
            var items: [ConfigNode] = []
            for item in sequence {
                guard let converted = convert(item, depth: depth + 1, budget: &budget) else {
                    if budget < 0 { return nil } else { continue }
                }
                items.append(converted)
            }
            return ConfigNode(.sequence(items), at: location(node))
        case .mapping(let mapping):
            var entries: [ConfigEntry] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    diagnostics.error(
                        "mapping keys must be plain names, found \(Self.kindName(of: key))",
                        at: location(key), hint: "write `name: value`")
                    continue
                }
                guard let converted = convert(value, depth: depth + 1, budget: &budget) else {
                    if budget < 0 { return nil } else { continue }
                }
                entries.append(ConfigEntry(key: keyScalar.string, keyLocation: location(key), value: converted))
            }
            return ConfigNode(.mapping(entries), at: location(node))
        }
    }

    private static func kindName(of node: Node) -> String {
        if case .mapping = node { return "a mapping" }
        return "a list"
    }
}
