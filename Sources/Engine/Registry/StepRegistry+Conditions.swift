import PipelineCore

/// Load-time checks of `when:` expressions: every output they read exists and comes earlier, and every operator
/// gets the types it compares.
extension StepRegistry {
    /// Reports what is wrong with `invocation`'s `when:` expression at the `when:` value.
    func checkCondition(of invocation: StepInvocation, steps: [StepInvocation], _ diagnostics: DiagnosticCollector) {
        guard case .expression(let expression, _) = invocation.condition else { return }
        let location = invocation.conditionLocation ?? invocation.location
        guard let type = type(of: expression, invocation, steps, location, diagnostics), type != .boolean else {
            return
        }
        diagnostics.error(
            "'when' must come to true or false, but \(expression.written) is \(type.withArticle)", at: location,
            hint: type == .integer
                ? "compare it, e.g. \(expression.written) > 0" : "compare it, e.g. \(expression.written) == \"…\"")
    }

    /// The expression's type, or nil after reporting a problem inside it.
    private func type(
        of expression: ConditionExpression, _ invocation: StepInvocation, _ steps: [StepInvocation],
        _ location: SourceLocation, _ diagnostics: DiagnosticCollector
    ) -> ConditionType? {
        func inner(_ expression: ConditionExpression) -> ConditionType? {
            type(of: expression, invocation, steps, location, diagnostics)
        }
        func boolean(_ operand: ConditionExpression, for operation: String) -> Bool {
            guard let type = inner(operand) else { return false }
            guard type == .boolean else {
                diagnostics.error(
                    "'when': \(operation) takes true or false, but \(operand.written) is \(type.withArticle)",
                    at: location,
                    hint: "compare it first, e.g. \(operand.written) \(type == .integer ? "> 0" : "== \"…\"")")
                return false
            }
            return true
        }
        switch expression {
        case .constant(let value, _):
            return value.type
        case .output(let reference):
            guard
                let output = producedOutput(
                    reference, for: invocation, steps: steps, at: location, step: invocation.kind, diagnostics)
            else { return nil }
            switch (output.type, reference.index) {
            case (.rows, _):
                diagnostics.error(
                    "'when': \(reference.written) is rows, which a condition cannot read", at: location,
                    hint: "a query's rows are counted in its `count`, e.g. ${steps.\(reference.step).count} > 0")
                return nil
            case (.list, nil): return .list
            case (.list, .some): return .string
            case (_, .some):
                diagnostics.error(
                    "'when': '\(reference.output)' of step '\(reference.step)' is not a list; remove the index",
                    at: location,
                    hint: "write \(OutputReference(step: reference.step, output: reference.output).written)")
                return nil
            case (.integer, nil): return .integer
            case (.string, nil): return .string
            case (.boolean, nil): return .boolean
            }
        case .status:
            return .boolean
        case .not(let operand):
            return boolean(operand, for: "!") ? .boolean : nil
        case .and(let left, let right), .or(let left, let right):
            let operation = if case .and = expression { "&&" } else { "||" }
            let fine = [boolean(left, for: operation), boolean(right, for: operation)].allSatisfy { $0 }
            return fine ? .boolean : nil
        case .compare(let comparison, let left, let right):
            guard let leftType = inner(left), let rightType = inner(right) else { return nil }
            if comparison.isOrdering, leftType != .integer || rightType != .integer {
                let other = leftType != .integer ? left : right
                diagnostics.error(
                    "'when': \(comparison.rawValue) compares numbers, but \(other.written) is \((leftType != .integer ? leftType : rightType).withArticle)",
                    at: location, hint: "use == or != for text and true/false")
                return nil
            }
            guard leftType == rightType else {
                diagnostics.error(
                    "'when' compares \(left.written) (\(leftType.withArticle)) with \(right.written) (\(rightType.withArticle))",
                    at: location,
                    hint: leftType == .list || rightType == .list
                        ? "a list compares only with [] (empty), e.g. \(leftType == .list ? left.written : right.written) != []"
                        : "compare values of one type: a count with a number, text with quoted text")
                return nil
            }
            if leftType == .list, ![left, right].contains(where: { if case .constant = $0 { true } else { false } }) {
                diagnostics.error(
                    "'when' compares two lists, \(left.written) and \(right.written)", at: location,
                    hint: "a list compares only with [] (empty), e.g. \(left.written) != []")
                return nil
            }
            return .boolean
        }
    }
}
