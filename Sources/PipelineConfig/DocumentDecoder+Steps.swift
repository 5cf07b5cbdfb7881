import Engine
import Foundation
import PipelineCore

/// The `steps:` list: each entry is a mapping with one key naming the step's kind (its options under it) and, beside
/// it, an optional `id:`, `name:` and `when:`.
extension DocumentDecoder {
    func decodeSteps(_ node: ConfigNode?, parameters: [ParameterDeclaration] = [], values: [String: String] = [:])
        -> [StepInvocation]
    {
        guard let node else { return [] }
        guard let items = node.items else {
            diagnostics.error(
                "'steps' must be a list, found \(node.kindName)", at: node.location,
                hint: "write each step as `- kind: { options }`")
            return []
        }
        if items.isEmpty {
            diagnostics.warning("'steps' is empty; the pipeline does nothing", at: node.location)
        }
        var steps: [StepInvocation] = []
        var ids: [String: SourceLocation] = [:]
        for (offset, item) in items.enumerated() {
            guard let entries = item.entries, !entries.isEmpty else {
                diagnostics.error(
                    "each step must be a mapping with one key naming its kind, found \(item.kindName)",
                    at: item.location, hint: "write `- sign: { hub: sports }`; put options under the kind")
                continue
            }
            let entryKeys = StepEntryKeys.keys
            let others = entries.filter { !entryKeys.contains($0.key) }
            guard let kind = others.first else {
                diagnostics.error(
                    "this step has no key naming its kind, only \(entries.map { "'\($0.key)'" }.joined(separator: ", "))",
                    at: item.location,
                    hint: "add the step's kind beside them, with its options: `send: { hub: main, … }`")
                continue
            }
            var step = StepInvocation(
                index: offset + 1, kind: kind.key, location: kind.keyLocation, options: kind.value,
                strays: Array(others.dropFirst()))
            // The kind is read above; what is left beside it is declared by `StepEntryKeys`.
            let beside = ConfigNode(.mapping(entries.filter { entryKeys.contains($0.key) }), at: item.location)
            let keys = StepEntryKeys(
                reading: OptionReader(
                    beside, specs: StepEntryKeys.specs, step: nil, what: "a step entry", diagnostics: diagnostics))
            step.id = decodeStepId(keys.id, seen: &ids)
            if let name = keys.name { refuseOutputReferences(in: name, section: "a step's 'name'") }
            step.name = decodeStepName(keys.name)
            step.condition = decodeCondition(keys.when, parameters: parameters, values: values) ?? .success
            step.conditionLocation = keys.when?.location
            steps.append(step)
        }
        return steps
    }

    /// A step's `id:`: letters, digits, `-` and `_`, unique in the file.
    private func decodeStepId(_ node: ConfigNode?, seen: inout [String: SourceLocation]) -> String? {
        guard let node else { return nil }
        guard let id = node.scalar?.text, DeclaredName.isValid(id) else {
            diagnostics.error(
                "a step's 'id' must be letters, digits, '-' and '_', found \(node.scalar.map { "'\($0.text)'" } ?? node.kindName)",
                at: node.location, hint: "later steps refer to it by this id, e.g. `id: digest`")
            return nil
        }
        if let first = seen[id] {
            diagnostics.error(
                "step id '\(id)' is already the id of the step at line \(first.line)", at: node.location,
                hint: "give each step its own id")
            return nil
        }
        seen[id] = node.location
        return id
    }

    /// A step's `name:`: one line of text.
    private func decodeStepName(_ node: ConfigNode?) -> String? {
        guard let node else { return nil }
        guard let name = node.scalar?.text, name.contains(where: { !$0.isWhitespace }),
            !name.contains(where: \.isNewline)
        else {
            diagnostics.error(
                "a step's 'name' must be one line of text, found \(node.scalar == nil ? node.kindName : "an empty or multi-line text")",
                at: node.location, hint: "e.g. `name: tell the on-call channel`")
            return nil
        }
        return name
    }

    /// A step's `when:`: one of the condition words.
    private func decodeCondition(_ node: ConfigNode?, parameters: [ParameterDeclaration], values: [String: String])
        -> StepCondition?
    {
        guard let node else { return nil }
        guard let scalar = node.scalar, !scalar.isNull else {
            diagnostics.error(
                "'when' must be success, failure, always or an expression, found \(node.kindName)", at: node.location,
                hint: "e.g. `when: failure` or `when: ${steps.digest.failed} > 0`")
            return nil
        }
        let word = scalar.sourceText.trimmingCharacters(in: .whitespaces)
        if let keyword = StepCondition(keyword: word) { return keyword }
        // One bare word is a misspelt keyword far more often than an expression.
        if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }),
            ConditionStatus(rawValue: word) == nil, word != "true", word != "false"
        {
            diagnostics.error(
                "'when' must be success, failure, always or an expression, found '\(word)'\(Suggestion.didYouMean(word, in: StepCondition.keywords))",
                at: node.location,
                hint:
                    "success (the default) runs the step when every earlier step succeeded, failure when one failed, always either way"
            )
            return nil
        }
        // Parsed as written: parameters and variables are read here, step outputs when the step is about to run.
        let environment = options.environment
        let parser = ConditionParser(
            parameter: { name in
                guard let declaration = parameters.first(where: { $0.name == name }), let value = values[name] else {
                    return nil
                }
                switch declaration.kind {
                case .integer: return Int(value).map(ConditionValue.integer) ?? .string(value)
                case .boolean: return .boolean(value == "true")
                case .string: return .string(value)
                }
            },
            environment: { environment[$0] })
        switch parser.parse(scalar.sourceText) {
        case .success(let expression):
            return .expression(expression, written: scalar.sourceText)
        case .failure(let error):
            diagnostics.error(
                "'when' is not a valid condition: \(error.message) (character \(error.column))", at: node.location,
                hint: error.hint
                    ?? "write success, failure, always, or an expression such as ${steps.digest.failed} > 0 || ${param:channel} == \"ios\""
            )
            return nil
        }
    }
}
