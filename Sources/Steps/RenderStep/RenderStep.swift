import HubExpressions
import HubWire
import PipelineCore

/// `render`: renders a declared template offline with given properties, exactly as NH would for a
/// device, and lints the result (well-formed JSON/XML, within the platform's size limit).
package struct RenderStep: DeclaredStep {
    /// The YAML key of this step.
    package static let id = "render"
    /// One line for docs.
    package static let summary =
        "Renders a template offline with properties and lints the payload a device would receive."

    /// What `render` hands to later steps.
    package struct Outputs: DeclaredOutputs {
        /// `payload`.
        @Output("payload", "the payload a device would receive, as rendered") package var payload = ""
        /// `bytes`.
        @Output("bytes", "the payload's size in bytes (UTF-8)") package var bytes = 0
        /// `platform`.
        @Output("platform", "the template's platform (apns, fcmv1, wns, …)") package var platform = ""

        /// Nothing rendered.
        package init() {}
    }

    /// Examples as they appear under `steps:`.
    package static let examples = [
        "- render: { template: alert, properties: { message: \"Red Sox win!\" } }",
        "- render: { template: alert, properties-file: ../data/alert-properties.json }",
    ]

    /// The declared template.
    package let template: TemplateDeclaration
    /// The compiled body.
    package let body: CompiledTemplate
    /// The properties to render with.
    package let properties: TemplateProperties

    /// Creates the step directly (tests, programmatic use).
    package init(template: TemplateDeclaration, body: CompiledTemplate, properties: TemplateProperties) {
        self.template = template
        self.body = body
        self.properties = properties
    }

    /// Decodes the template reference and the properties, and warns about properties the template
    /// uses but nobody gives (NH renders those as empty strings, usually a mistake).
    package static func build(_ options: Options, reporting reader: OptionReader, in context: BuildContext)
        -> RenderStep?
    {
        let template = options.template
        let values = options.properties.values(reporting: reader, in: context)
        guard let template, let body = template.body, let values else { return nil }
        guard reader.checkProperties(values.keys, for: template) else { return nil }
        return RenderStep(template: template, body: body, properties: TemplateProperties(values))
    }

    /// The keys of `render`, each declared once, with the shared property keys.
    package struct Options: DeclaredOptions {
        /// `template`.
        @Key(.template("template", required: true, "the declared template to render")) package var template:
            TemplateDeclaration?
        /// `properties` or `properties-file`.
        @KeyGroup package var properties: PropertyKeys

        /// Every key at its default.
        package init() {}
    }

    /// Renders and lints; an error finding fails the step, with the payload shown.
    package func run(in context: StepContext) async throws -> StepResult {
        let platform = template.platform
        let rendering = TemplateRendering(body, properties: properties, platform: platform)
        let payload = rendering.payload
        let findings = rendering.findings
        context.state.setRenderedPayload(payload, forTemplate: template.name)
        let size = payload.utf8.count
        let limitText = platform.payloadLimit.map { " of \($0)" } ?? ""
        // Template files end with a newline; it is part of the payload but not worth a blank report line.
        var payloadLines = payload.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if payloadLines.count > 1, payloadLines.last?.isEmpty == true { payloadLines.removeLast() }
        let lines =
            payloadLines
            + findings.map(\.description)
        let data = ReportValue.object([
            ReportField("template", .string(template.name)), ReportField("platform", .string(platform.rawValue)),
            ReportField("bytes", .int(size)), ReportField("payload", .string(payload)),
            ReportField("findings", .array(findings.map { .string($0.description) })),
        ])
        if findings.contains(where: { $0.severity == .error }) {
            throw StepFailure(
                "template '\(template.name)' renders an invalid \(platform.displayName) payload",
                hint: "fix the template or the properties; the payload is shown below", lines: lines, data: data
            ).coded(.payloadInvalid)
        }
        var result = StepResult(
            summary: "rendered template '\(template.name)' for \(platform.displayName): \(size) bytes\(limitText)",
            lines: lines, data: data)
        var outputs = Outputs()
        outputs.payload = payload
        outputs.bytes = size
        outputs.platform = platform.rawValue
        result.handOn(outputs)
        return result
    }
}
