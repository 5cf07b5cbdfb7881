import HubExpressions
import PipelineCore

extension DocumentDecoder {
    func decodeAudiences(_ node: ConfigNode?) -> [AudienceDeclaration] {
        guard
            let entries = sectionEntries(
                node, section: "audiences", example: "boston-fans: \"follows_RedSox && location_Boston\"")
        else { return [] }
        return entries.map { entry in
            AudienceDeclaration(
                name: entry.key, location: entry.keyLocation,
                expression: tagExpression(entry.value, what: "audience '\(entry.key)'", step: nil))
        }
    }

    /// Parses a tag expression written in a scalar and checks NH's limits, reporting at the exact column.
    func tagExpression(_ node: ConfigNode, what: String, step: String?) -> TagExpression? {
        guard let scalar = node.scalar, !node.isNull else {
            diagnostics.error(
                "\(what) must be a tag expression, found \(node.kindName)", at: node.location, step: step,
                hint: "e.g. \"(follows_RedSox || follows_Cardinals) && location_Boston\"")
            return nil
        }
        guard !scalar.isUnresolved else { return nil }
        do {
            let expression = try TagExpression(parsing: scalar.text)
            if let violation = expression.limitViolation() {
                report(violation, in: node, what: what, step: step)
                return nil
            }
            return expression
        } catch {
            report(error, in: node, what: what, step: step)
            return nil
        }
    }

    private func report(_ error: TagExpressionError, in node: ConfigNode, what: String, step: String?) {
        if let scalar = node.scalar, scalar.hasReferences {
            // The parser's message quotes the offending tag, which came from the environment: say where
            // it is, not what it is.
            diagnostics.error(
                "\(what): \(scalar.quoted) is not a valid tag expression (problem at character \(error.column))",
                at: node.location, step: step, hint: error.hint)
            return
        }
        diagnostics.error(
            "\(what): \(error.message)", at: location(ofColumn: error.column, in: node), step: step, hint: error.hint)
    }

    /// The location of a text column inside a single-line scalar, through any quoting escapes.
    /// References change offsets, so for those the scalar's own location is used.
    func location(ofColumn column: Int, in node: ConfigNode) -> SourceLocation {
        guard let scalar = node.scalar, !scalar.hasReferences, !scalar.text.contains("\n") else { return node.location }
        return ScalarPlace.location(
            line: 1, column: column, text: scalar.text, at: node.location, sourceLine: sourceLine) ?? node.location
    }

    /// Line `line` (1-based) of the pipeline file.
    func sourceLine(_ line: Int) -> Substring? {
        line >= 1 && line <= sourceLines.count ? sourceLines[line - 1] : nil
    }
}
