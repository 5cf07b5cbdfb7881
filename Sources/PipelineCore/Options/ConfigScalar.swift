/// A scalar's text after `${env:…}` / `${file:…}` references were resolved, and how it was written.
public struct ConfigScalar: Sendable, Equatable {
    /// The resolved text.
    public var text: String
    /// The text as written in the file. Diagnostics quote this, so resolved secrets never appear.
    public var sourceText: String
    /// False for quoted and block scalars: YAML gives those no implicit type, they are always strings.
    public var isPlain: Bool
    /// True when a reference in the text could not be resolved; the text is then not meaningful
    /// and checks of its content are skipped (the reference itself was already reported).
    public var isUnresolved: Bool
    /// The pieces of a scalar that holds `${steps.ID.OUTPUT}` references, known only when the step runs; nil for
    /// every other scalar. Such a scalar is also unresolved, so build-time checks of its content are skipped.
    package var deferred: [DeferredPart]?
    /// The rows an earlier step handed on, when the scalar was a `${steps.ID.rows}` reference the engine resolved.
    package var handedRows: HandedRows?

    /// Creates a scalar.
    package init(
        text: String, sourceText: String? = nil, isPlain: Bool = true, isUnresolved: Bool = false,
        deferred: [DeferredPart]? = nil
    ) {
        self.text = text
        self.sourceText = sourceText ?? text
        self.isPlain = isPlain
        self.isUnresolved = isUnresolved || deferred != nil
        self.deferred = deferred
    }

    /// The step output references the scalar holds.
    package var outputReferences: [OutputReference] {
        (deferred ?? []).compactMap { if case .output(let reference) = $0 { reference } else { nil } }
    }

    /// True when the text was produced by at least one reference.
    public var hasReferences: Bool { text != sourceText || isUnresolved }

    /// True for YAML's null spellings in a plain scalar.
    public var isNull: Bool {
        isPlain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// What to show the user: the text as written, in single quotes.
    public var quoted: String { "'\(sourceText)'" }
}
