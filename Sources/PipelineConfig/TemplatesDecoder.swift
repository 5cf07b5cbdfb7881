import HubExpressions
import HubWire
import PipelineCore

/// `templates:` (in a pipeline file and a service file): each template's platform, body (inline or a file), headers and tags.
struct TemplatesDecoder {
    /// The file being decoded: where paths resolve, where diagnostics go.
    let document: DocumentDecoder
    private var diagnostics: DiagnosticCollector { document.diagnostics }
    private var directory: String { document.directory }

    /// The keys of one template.
    struct TemplateKeys: DeclaredOptions {
        /// `platform`, as written (any case; checked where it is read, with "did you mean").
        @Key(
            OptionKey.text("platform", required: true, "device platform the template is for")
                .documented(as: .anyCaseOf(PushPlatform.allCases.map(\.rawValue))))
        var platform: String?
        /// `body`.
        @Key(
            .node(
                OptionSpec(
                    "body", .string, required: true,
                    "the template: inline JSON/XML, or a path to a template file relative to the pipeline file")))
        var body: ConfigNode?
        /// `headers`.
        @Key(.stringMap("headers", "headers registered with the template, e.g. apns-push-type, X-WNS-Type"))
        var headers: [(key: String, value: String)]
        /// `tags`.
        @Key(.stringList("tags", "tags registered with the template")) var tags: [(value: String, node: ConfigNode)]

        init() {}
    }

    static var keys: [OptionSpec] { TemplateKeys.specs }

    /// Largest template file read; NH payloads are a few KB, so anything bigger is a wrong path.
    static let maxTemplateFileBytes = 256 * 1024

    func decode(_ node: ConfigNode?) -> [TemplateDeclaration] {
        guard
            let entries = document.sectionEntries(
                node, section: "templates", example: "alert: { platform: apns, body: ../templates/alert.apns.json }")
        else { return [] }
        return entries.compactMap { decodeTemplate($0) }
    }

    private func decodeTemplate(_ entry: ConfigEntry) -> TemplateDeclaration? {
        let what = "template '\(entry.key)'"
        let reader = OptionReader(
            entry.value, specs: Self.keys, step: nil, what: what, diagnostics: diagnostics)
        if entry.key.count > NHLimits.maxTemplateNameLength {
            diagnostics.error(
                "\(what): name is longer than \(NHLimits.maxTemplateNameLength) characters", at: entry.keyLocation)
        }
        var platform: PushPlatform?
        let keys = TemplateKeys(reading: reader)
        if let text = keys.platform, let node = keys.$platform.node {
            platform = PushPlatform(caseInsensitive: text)
            if platform == nil {
                let names = PushPlatform.allCases.map(\.rawValue)
                reader.error(
                    "\(what): unknown platform \(node.scalar?.quoted ?? "")\(Suggestion.didYouMean(text, in: names))",
                    at: node,
                    hint: "platforms: \(names.joined(separator: ", "))")
            }
            if platform == .gcm {
                // NH accepts gcm sends and registrations still, so nothing else would say it: they reach nobody.
                diagnostics.warning(
                    "\(what): legacy FCM (gcm) was retired by Google on 20 June 2024; NH delivers nothing to gcm devices",
                    at: node.location,
                    hint: "use `platform: fcmv1` with the payload inside \"message\" "
                        + "(pushline fcmv1 translate FILE writes it); pushline fcmv1 move RUN moves registered devices")
            }
        }
        let headers = Dictionary(keys.headers, uniquingKeysWith: { _, last in last })
        var tags: [String] = []
        for (tag, node) in keys.tags {
            if let problem = TagSyntax.problem(with: tag) {
                let message =
                    node.scalar?.hasReferences == true
                    ? "\(what): \(node.scalar?.quoted ?? "") is not a valid tag" : "\(what): invalid tag: \(problem)"
                reader.error(message, at: node, hint: "tags may contain only letters, digits and _ @ # . : -")
            } else {
                tags.append(tag)
            }
        }
        if platform == .wns, !headers.keys.contains(where: { $0.lowercased() == "x-wns-type" }) {
            diagnostics.error(
                "\(what): WNS templates need an X-WNS-Type header", at: entry.keyLocation,
                hint: "add `headers: { X-WNS-Type: wns/toast }` (or wns/tile, wns/badge, wns/raw)")
        }
        let (body, bodyFile) = keys.body.map { compileBody($0, what: what) } ?? (nil, nil)
        guard let platform else { return nil }
        if let body, body.format == .xml, !platform.usesXML {
            diagnostics.error(
                "\(what): \(platform.displayName) templates are JSON, but the body is XML", at: entry.keyLocation)
        } else if let body, body.format == .json, platform.usesXML {
            diagnostics.error(
                "\(what): \(platform.displayName) templates are XML, but the body is JSON", at: entry.keyLocation)
        } else if let body, platform == .fcmv1 {
            // NH accepts these; Google refuses every device's send.
            for problem in FcmV1Shape.problems(template: Array(body.source.utf8)) {
                diagnostics.error(
                    "\(what): \(problem)", at: entry.keyLocation,
                    hint:
                        "FCM v1 refuses it for every device although NH accepts the send; a legacy body's v1 form: pushline fcmv1 translate FILE"
                )
            }
        }
        return TemplateDeclaration(
            name: entry.key, location: entry.keyLocation, platform: platform, body: body,
            bodyFile: bodyFile, headers: headers, tags: tags)
    }

    /// Compiles an inline body or the file it names; errors point into the YAML or into the file.
    private func compileBody(_ node: ConfigNode, what: String) -> (CompiledTemplate?, String?) {
        guard let scalar = node.scalar else {
            diagnostics.error(
                "\(what): 'body' must be a string (inline template or file path), found \(node.kindName)",
                at: node.location, hint: "quote inline JSON: body: '{\"aps\":{\"alert\":\"$(message)\"}}'")
            return (nil, nil)
        }
        guard !scalar.isUnresolved else { return (nil, nil) }
        let trimmed = scalar.text.drop { $0.isWhitespace }
        guard !trimmed.isEmpty else {
            diagnostics.error(
                "\(what): 'body' is empty", at: node.location,
                hint: "write the template inline, or give the path of a template file")
            return (nil, nil)
        }
        if let first = trimmed.first, first == "{" || first == "[" || first == "<" {
            do {
                return (try CompiledTemplate(compiling: scalar.text), nil)
            } catch {
                diagnostics.error(
                    "\(what): \(error.message)", at: inlineLocation(of: error, in: node), hint: error.hint)
                return (nil, nil)
            }
        }
        let path = FilePath.resolve(scalar.text, against: directory)
        let shown = scalar.hasReferences ? scalar.sourceText : path
        guard
            let text = SourceText.read(
                path, name: shown, limit: Self.maxTemplateFileBytes, what: "template file",
                at: node.location, diagnostics: diagnostics)
        else { return (nil, path) }
        diagnostics.register(source: text, for: path)
        do {
            return (try CompiledTemplate(compiling: text), path)
        } catch {
            diagnostics.error(
                "\(what): \(error.message)", at: SourceLocation(file: path, line: error.line, column: error.column),
                hint: error.hint)
            return (nil, path)
        }
    }

    /// Maps a position inside an inline template to the YAML file (`ScalarPlace`); the scalar itself where it does
    /// not map line for line.
    private func inlineLocation(of error: TemplateError, in node: ConfigNode) -> SourceLocation {
        guard let scalar = node.scalar, !scalar.hasReferences else { return node.location }
        return ScalarPlace.location(
            line: error.line, column: error.column, text: scalar.text, at: node.location,
            sourceLine: document.sourceLine)
            ?? node.location
    }
}
