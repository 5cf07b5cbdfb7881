/// Rewriting the `${steps.ID.OUTPUT}` references a step's options and `when:` hold: an output that moved to another step
/// when a former spelling was read (`StepSplit`) is read from where it is now.
extension ConfigNode {
    /// This node with every reference `replace` changes changed, and where each changed reference is written (its
    /// scalar's place, the reference's column in it when known).
    package func replacingOutputReferences(_ replace: (OutputReference) -> OutputReference) -> (
        node: ConfigNode, changed: [FixIt]
    ) {
        switch value {
        case .scalar(var scalar):
            guard let parts = scalar.deferred else { return (self, []) }
            var fixes: [FixIt] = []
            scalar.deferred = parts.map { part in
                guard case .output(let reference) = part else { return part }
                let now = replace(reference)
                guard now != reference else { return part }
                if let offset = scalar.sourceText.unicodeScalars.offset(of: reference.written) {
                    // A quoted scalar starts at its quote.
                    let column = location.column + offset + (scalar.isPlain ? 0 : 1)
                    fixes.append(
                        FixIt(
                            at: SourceLocation(file: location.file, line: location.line, column: column),
                            replacing: reference.written, with: now.written))
                }
                return .output(now)
            }
            return (ConfigNode(.scalar(scalar), at: location), fixes)
        case .mapping(let entries):
            var fixes: [FixIt] = []
            let replaced = entries.map { entry in
                let (node, changed) = entry.value.replacingOutputReferences(replace)
                fixes += changed
                return ConfigEntry(key: entry.key, keyLocation: entry.keyLocation, value: node)
            }
            return (ConfigNode(.mapping(replaced), at: location), fixes)
        case .sequence(let items):
            var fixes: [FixIt] = []
            let replaced = items.map { item in
                let (node, changed) = item.replacingOutputReferences(replace)
                fixes += changed
                return node
            }
            return (ConfigNode(.sequence(replaced), at: location), fixes)
        }
    }
}

extension StepCondition {
    /// This condition with every reference `replace` changes changed, and the edits of its text written at `location`.
    package func replacingOutputReferences(
        _ replace: (OutputReference) -> OutputReference, at location: SourceLocation?
    ) -> (StepCondition, [FixIt]) {
        guard case .expression(let expression, let written) = self else { return (self, []) }
        let changed = expression.outputReferences.filter { replace($0) != $0 }
        guard !changed.isEmpty else { return (self, []) }
        var fixes: [FixIt] = []
        if let location {
            var searched = Substring.UnicodeScalarView(written.unicodeScalars)
            var consumed = 0
            for reference in changed {
                guard let offset = String(searched).unicodeScalars.offset(of: reference.written) else { continue }
                fixes.append(
                    FixIt(
                        at: SourceLocation(
                            file: location.file, line: location.line, column: location.column + consumed + offset),
                        replacing: reference.written, with: replace(reference).written))
                let skip = offset + reference.written.unicodeScalars.count
                searched = searched.dropFirst(skip)
                consumed += skip
            }
        }
        return (.expression(expression.replacingOutputReferences(replace), written: written), fixes)
    }
}

extension ConditionExpression {
    /// This expression with every reference `replace` changes changed.
    package func replacingOutputReferences(_ replace: (OutputReference) -> OutputReference) -> ConditionExpression {
        switch self {
        case .output(let reference): .output(replace(reference))
        case .not(let inner): .not(inner.replacingOutputReferences(replace))
        case .and(let left, let right):
            .and(left.replacingOutputReferences(replace), right.replacingOutputReferences(replace))
        case .or(let left, let right):
            .or(left.replacingOutputReferences(replace), right.replacingOutputReferences(replace))
        case .compare(let comparison, let left, let right):
            .compare(comparison, left.replacingOutputReferences(replace), right.replacingOutputReferences(replace))
        case .constant, .status: self
        }
    }
}

extension String.UnicodeScalarView {
    /// The offset, in Unicode scalars, of the first `text` in this view.
    fileprivate func offset(of text: String) -> Int? {
        let needle = Array(text.unicodeScalars)
        let haystack = Array(self)
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
