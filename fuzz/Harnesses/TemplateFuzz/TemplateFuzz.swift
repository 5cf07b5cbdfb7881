import FuzzSupport
import HubExpressions

/// The NH template language: compile a template (before the first NUL), then render it with properties read
/// from the rest (`name=value` lines). Oracle: the payload is well-formed, whatever the values.
func fuzzOne(_ bytes: [UInt8]) {
    let (source, rest) = split(bytes)
    guard let template = try? CompiledTemplate(compiling: String(decoding: source, as: UTF8.self)) else { return }
    var values: [String: String] = [:]
    for line in String(decoding: rest, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).prefix(64)
    {
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
    }
    // Every referenced name gets a value too, hostile ones included, so rendering reaches each expression.
    for (index, name) in template.propertyNames.enumerated() where values[name] == nil {
        values[name] = ["\"}<&>'\\", "1e309", "", "ünïcödé \u{0}\u{1F}", "-0"][index % 5]
    }
    let properties = TemplateProperties(values)
    _ = template.render(properties)
    // The compiler admits expressions only where their values can be escaped (inside JSON strings, XML text and
    // attribute values), so whatever the values, a compiled template renders well-formed JSON or XML.
    let rendering = TemplateRendering(template, properties: properties, byteLimit: nil)
    if let error = rendering.error {
        fatalError("\(template.source.debugDescription) with \(values) renders a malformed payload: \(error.message)")
    }
}
