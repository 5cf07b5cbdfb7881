import ArgumentParser
import Foundation
import HubExpressions
import HubWire
import PipelineConfig
import PipelineCore
import RunFlow

/// `pushline render`: renders a template offline, exactly as NH would for a device.
struct RenderCommand: AsyncParsableCommand, EnvironmentFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a template offline with properties; print the payload a device would receive.",
        discussion: """
            Renders a template file (--file) or a template declared in a pipeline (PIPELINE --template NAME). \
            The payload alone goes to standard output; findings (invalid JSON/XML, over the platform's size \
            limit, properties the template uses but were not given) go to standard error.

            EXAMPLES:
              pushline render --file templates/alert.apns.json --properties '{"message":"Red Sox win!"}'
              pushline render --file templates/toast.wns.xml --properties @props.json
              pushline render pipelines/seed-tutorial.yaml --template genericTemplate --properties '{"message":"Hi"}'

            \(ExitStatus.help([
                .init("0", "rendered with no error finding (warnings go to standard error)"),
                .init("2", "an invalid template, properties or option, or a payload with an error finding "
                    + "(invalid JSON or XML, over the platform's size limit)"),
            ]))
            """)

    @Argument(help: "A pipeline file declaring the template (use with --template).")
    var pipeline: String?

    @OptionGroup var settings: EnvironmentFileOption

    @Option(help: "A template file (JSON or XML).")
    var file: String?

    @Option(help: "The name of a template declared in PIPELINE.")
    var template: String?

    @Option(help: "Properties as a JSON object, or @path to a JSON file.")
    var properties: String?

    @Option(
        help:
            "Platform whose size limit applies to --file (apns, fcmv1, gcm, wns, …); inferred from names like alert.apns.json."
    )
    var platform: String?

    func validate() throws {
        switch (pipeline, file, template) {
        case (nil, .some, nil), (.some, nil, .some): break
        case (.some, .some, _): throw ValidationError("give either --file or a PIPELINE with --template, not both")
        case (.some, nil, nil): throw ValidationError("with a PIPELINE, name the template with --template NAME")
        case (nil, nil, .some): throw ValidationError("--template needs the PIPELINE that declares it")
        default: throw ValidationError("give --file TEMPLATE, or PIPELINE --template NAME")
        }
        if let platform, PushPlatform(caseInsensitive: platform) == nil {
            throw ValidationError(
                "unknown platform '\(platform)'; use one of \(PushPlatform.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    func run() async throws {
        let console = Console.current
        let values = try PropertiesArgument.parse(properties, console: console)
        let (compiled, platform, name) = try await loadTemplate(console)
        let props = TemplateProperties(values)
        guard props.caseConflicts.isEmpty else {
            throw CommandFailure(
                "properties \(props.caseConflicts.map { "'\($0)'" }.joined(separator: ", ")) are given more than once in different letter case"
            )
        }
        let rendering = TemplateRendering(compiled, properties: props, platform: platform)
        // The payload exactly as rendered; a newline is added only so the shell prompt starts on its own line.
        console.out(rendering.payload.hasSuffix("\n") ? rendering.payload : rendering.payload + "\n")
        for finding in rendering.findings {
            let position = finding.line.map { "rendered payload \($0):\(finding.column ?? 1): " } ?? ""
            console.errorLine("\(finding.severity.rawValue): \(name): \(position)\(finding.message)")
        }
        if rendering.error != nil { throw ExitStatus.exit(ExitStatus.invalidInput) }
    }

    /// The compiled template, the platform whose limit applies, and a name for messages.
    private func loadTemplate(_ console: Console) async throws -> (CompiledTemplate, PushPlatform?, String) {
        if let file {
            let collector = DiagnosticCollector()
            let text: String
            do {
                text = try TextFile.read(file, limit: Self.maxTemplateBytes)
            } catch {
                throw CommandFailure(error.message(what: "template file", name: file))
            }
            collector.register(source: text, for: file)
            do {
                let compiled = try CompiledTemplate(compiling: text)
                return (
                    compiled, platform.flatMap(PushPlatform.init(caseInsensitive:)) ?? Self.inferPlatform(file),
                    "template '\(file)'"
                )
            } catch {
                collector.error(
                    error.message, at: SourceLocation(file: file, line: error.line, column: error.column),
                    hint: error.hint)
                for diagnostic in collector.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
                throw ExitStatus.exit(ExitStatus.invalidInput)
            }
        }
        // Only the declarations matter here; a problem in an unrelated step must not stop a preview.
        let loaded = await LoadedPipeline.load(pipeline ?? "", purpose: .validate, console: console)
        guard let document = loaded.document else {
            for diagnostic in loaded.diagnostics { console.err(DiagnosticPrinter.format(diagnostic)) }
            throw ExitStatus.exit(ExitStatus.invalidInput)
        }
        let name = template ?? ""
        guard let declared = document.template(name) else {
            let names = document.templates.map(\.name)
            throw CommandFailure(
                "'\(pipeline ?? "")' declares no template '\(name)'\(Suggestion.didYouMean(name, in: names))\(names.isEmpty ? "" : "; declared: \(names.joined(separator: ", "))")"
            )
        }
        guard let body = declared.body else {
            // Show what stopped the template from loading (an error in it, or an unset reference).
            for diagnostic in loaded.diagnostics where diagnostic.location?.line != nil {
                console.err(DiagnosticPrinter.format(diagnostic))
            }
            throw CommandFailure("template '\(name)' could not be loaded; see the diagnostics above")
        }
        return (body, declared.platform, "template '\(declared.name)'")
    }

    /// Largest template file read.
    static let maxTemplateBytes = 256 * 1024

    /// `alert.apns.json` → apns: the naming convention of the bundled templates.
    static func inferPlatform(_ path: String) -> PushPlatform? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.split(separator: ".").dropFirst().lazy.compactMap { PushPlatform(caseInsensitive: String($0)) }
            .first
    }
}
