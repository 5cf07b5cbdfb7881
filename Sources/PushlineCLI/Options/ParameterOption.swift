import ArgumentParser

/// `--param NAME=VALUE`, repeatable: values for the pipeline's `parameters:`, checked against their
/// declarations when the pipeline loads (a cron line passes them as a service request's body would).
struct ParameterOption: ParsableArguments {
    @Option(
        name: .customLong("param"), parsing: .singleValue,
        help: ArgumentHelp(
            "A value for one of the pipeline's parameters (repeatable); steps use it as ${param:NAME}.",
            valueName: "name=value"))
    var given: [String] = []

    /// The values by name. Throws a usage error for a value without `=` or a name given twice.
    func values() throws -> [String: String] {
        var values: [String: String] = [:]
        for text in given {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--param takes NAME=VALUE, found '\(text)'")
            }
            let name = String(text[..<equals])
            guard values[name] == nil else { throw ValidationError("--param \(name) is given twice") }
            values[name] = String(text[text.index(after: equals)...])
        }
        return values
    }
}
