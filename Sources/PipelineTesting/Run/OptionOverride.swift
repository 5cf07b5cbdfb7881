import PipelineCore

/// A test's replacement for a step's option: rows in place of its `for-each`, a database in place of a query's
/// `database`. The step is named by its id, or by its kind when the pipeline has one step of that kind.
struct OptionOverride {
    /// The step as the test names it.
    var step: String
    /// Where the test gives it.
    var location: SourceLocation
    /// The option replaced.
    var key: String
    /// The file it now names.
    var path: String
    /// What is given, for messages: "rows", "a database".
    var what: String

    /// Applies `overrides` to `document`; returns the values replaced (what was reported about them no longer holds)
    /// and the problems: a step the pipeline does not have, or one without the option, is a failure, never ignored.
    static func apply(_ overrides: [OptionOverride], to document: inout PipelineDocument, run: String)
        -> (replaced: [ConfigNode], problems: [TestFailure])
    {
        var problems: [TestFailure] = []
        var replaced: [ConfigNode] = []
        for override in overrides {
            let ofKind = document.steps.indices.filter { document.steps[$0].kind == override.step }
            let found =
                document.steps.firstIndex { $0.id == override.step } ?? (ofKind.count == 1 ? ofKind.first : nil)
            guard let index = found else {
                let names = document.steps.map { $0.id ?? $0.kind }
                problems.append(
                    TestFailure(
                        run: run, location: override.location,
                        message:
                            "\(override.what) \(override.what == "rows" ? "are" : "is") given for step '\(override.step)', which the pipeline does not have"
                            + (ofKind.count > 1
                                ? " by id (it has \(ofKind.count) \(override.step) steps: give the one meant an id)"
                                : Suggestion.didYouMean(override.step, in: names)),
                        detail: "its steps: "
                            + document.steps.map { step in step.id.map { "\($0) (\(step.kind))" } ?? step.kind }
                            .joined(separator: ", ")))
                continue
            }
            let options = document.steps[index].options
            guard var entries = options.entries, let at = entries.firstIndex(where: { $0.key == override.key }) else {
                problems.append(
                    TestFailure(
                        run: run, location: override.location,
                        message:
                            "\(override.what) \(override.what == "rows" ? "are" : "is") given for step '\(override.step)', which has no `\(override.key):` to replace"
                    ))
                continue
            }
            let location = entries[at].value.location
            replaced.append(entries[at].value)
            entries[at].value = ConfigNode(.scalar(ConfigScalar(text: override.path, isPlain: false)), at: location)
            document.steps[index].options = ConfigNode(.mapping(entries), at: options.location)
        }
        return (replaced, problems)
    }
}
