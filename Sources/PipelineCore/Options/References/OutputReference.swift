/// `${steps.ID.OUTPUT}` or `${steps.ID.OUTPUT[N]}`: a value an earlier step hands on, used in a later step's options.
package struct OutputReference: Sendable, Equatable, Hashable {
    /// The `id:` of the step that produces the value.
    package let step: String
    /// The output's name.
    package let output: String
    /// An index into a list output (0 is the first); nil for the whole value.
    package var index: Int? = nil

    /// A reference to `output` of step `step`, or to item `index` of it.
    package init(step: String, output: String, index: Int? = nil) {
        self.step = step
        self.output = output
        self.index = index
    }

    /// As written: `${steps.schedule.notification-ids[0]}`.
    package var written: String { "${steps.\(step).\(output)\(index.map { "[\($0)]" } ?? "")}" }

    /// The inside of `${…}` after `steps.`, or why it is not a reference: `schedule.notification-ids[0]`.
    package static func parse(_ text: Substring) -> Result<OutputReference, ReferenceSyntaxError> {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .failure(
                ReferenceSyntaxError("write ${steps.ID.OUTPUT}: the id of an earlier step and one of its outputs"))
        }
        let step = parts[0]
        guard step.allSatisfy(Self.isIdCharacter) else {
            return .failure(ReferenceSyntaxError("'\(step)' is not a step id (letters, digits, - and _)"))
        }
        var output = parts[1]
        var index: Int?
        if let open = output.firstIndex(of: "[") {
            guard output.last == "]",
                let number = Int(output[output.index(after: open)..<output.index(before: output.endIndex)]), number >= 0
            else {
                return .failure(ReferenceSyntaxError("an index is a whole number from 0 in brackets, e.g. [0]"))
            }
            index = number
            output = output[..<open]
        }
        guard !output.isEmpty, output.allSatisfy(Self.isIdCharacter) else {
            return .failure(ReferenceSyntaxError("'\(output)' is not an output name (letters, digits, - and _)"))
        }
        return .success(OutputReference(step: String(step), output: String(output), index: index))
    }

    /// Letters, digits, `-` and `_`: what step ids and output names are made of.
    package static func isIdCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}

/// Why `${steps.…}` does not parse.
package struct ReferenceSyntaxError: Error, Sendable, Equatable {
    /// What is wrong and how to write it.
    package let message: String

    init(_ message: String) { self.message = message }
}

/// A scalar that holds step output references, in pieces: the text between them (other references already
/// resolved) and the references, put together when the step runs.
package enum DeferredPart: Sendable, Equatable {
    /// Text as it stands.
    case text(String)
    /// A value an earlier step hands on.
    case output(OutputReference)
}
