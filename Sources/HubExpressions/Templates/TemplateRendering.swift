/// The one way Pushline renders a template for a device and checks the payload: the `render` step,
/// `send` with a pipeline template, and `pushline render` all go through here, so they find the same
/// problems in the same words.
public struct TemplateRendering: Sendable, Equatable {
    /// The payload as NH would render it.
    public let payload: String
    /// What is wrong with it or with the properties: the payload's lint findings (invalid JSON or XML, over
    /// the platform's size limit), then warnings for properties the template uses that are not given (NH
    /// renders them as empty strings) and for properties given twice in different letter case (NH matches
    /// names case-insensitively, so which one wins is unclear).
    public let findings: [LintFinding]

    /// Renders `template` with `properties` and checks the result against `byteLimit` (the platform's) and the
    /// platform's own shape (`shapeProblems`: what its push service would refuse, each an error).
    public init(
        _ template: CompiledTemplate, properties: TemplateProperties, byteLimit: Int?, limitName: String? = nil,
        shapeProblems: (String) -> [String] = { _ in [] }
    ) {
        let payload = template.render(properties)
        var findings = TemplateLint.check(payload, format: template.format, byteLimit: byteLimit, limitName: limitName)
        findings += shapeProblems(payload).map { LintFinding(severity: .error, message: $0) }
        for name in template.propertyNames where properties[name] == nil {
            findings.append(
                LintFinding(
                    severity: .warning,
                    message: "property '\(name)' is used but not given; it renders as an empty string"))
        }
        if !properties.caseConflicts.isEmpty {
            let names = properties.caseConflicts.map { "'\($0)'" }.joined(separator: ", ")
            findings.append(
                LintFinding(
                    severity: .warning,
                    message: "properties \(names) differ only in letter case; NH matches names case-insensitively"))
        }
        self.payload = payload
        self.findings = findings
    }

    /// The first error finding, when the payload would be rejected or misread.
    public var error: LintFinding? { findings.first { $0.severity == .error } }
    /// The warnings.
    public var warnings: [LintFinding] { findings.filter { $0.severity == .warning } }
}
