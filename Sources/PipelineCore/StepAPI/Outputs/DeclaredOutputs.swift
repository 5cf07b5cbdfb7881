/// Outputs declared together, with their values: a step's whole set (`DeclaredOutputs`), or a group several steps
/// share (the item counts of a batch step).
public protocol OutputSet: Sendable {
    /// Every output, in order.
    static var outputSpecs: [OutputSpec] { get }
    /// The values, by output name; an output without a value (an optional left nil) is absent.
    var outputs: StepOutputs { get }
}

/// A step's outputs as one Swift type: each a property wrapped in `@Output` (its name, one line of meaning, and
/// how a trace carries it), or a stored group of outputs (an `OutputSet`). The declarations are derived from the
/// type, and the step sets typed fields, so a misspelt or mistyped output does not compile:
///
/// ```swift
/// struct Outputs: DeclaredOutputs {
///     @Output("quiet", "true within quiet hours") var quiet = false
///     @Output("minutes-left", "minutes until quiet hours end") var minutesLeft = 0
///     init() {}
/// }
/// ```
public protocol DeclaredOutputs: OutputSet {
    /// Every output at its initial value.
    init()
}

extension DeclaredOutputs {
    /// The `@Output` properties and the groups' outputs, in declaration order.
    public static var outputSpecs: [OutputSpec] {
        Mirror(reflecting: Self()).children.flatMap { child -> [OutputSpec] in
            if let output = child.value as? any DeclaredOutput { return [output.spec] }
            if let group = child.value as? any OutputSet { return type(of: group).outputSpecs }
            return []
        }
    }

    /// The values of the `@Output` properties and of the groups.
    public var outputs: StepOutputs {
        var values: StepOutputs = [:]
        for child in Mirror(reflecting: self).children {
            if let output = child.value as? any DeclaredOutput {
                if let value = output.value { values[output.spec.name] = value }
            } else if let group = child.value as? any OutputSet {
                values.merge(group.outputs) { kept, _ in kept }
            }
        }
        return values
    }
}

/// One output of a `DeclaredOutputs` type: `@Output("cancelled", "how many were cancelled") var cancelled = 0`.
@propertyWrapper
public struct Output<Value: OutputConvertible>: Sendable, DeclaredOutput {
    /// The value handed on.
    public var wrappedValue: Value
    /// The declaration.
    public let spec: OutputSpec

    /// An output named `name` as later steps write it, with one line of meaning; `traced` carries it on the step's
    /// span (see `OutputSpec.traced(as:count:)`).
    public init(wrappedValue: Value, _ name: String, _ summary: String, traced: OutputTrace? = nil) {
        self.wrappedValue = wrappedValue
        let spec = OutputSpec(name, Value.outputType, summary)
        self.spec = traced.map { spec.traced(as: $0.attribute, count: $0.count) } ?? spec
    }

    var value: OutputValue? { wrappedValue.outputValue }
}

/// How a step's span carries an output.
public struct OutputTrace: Sendable {
    let attribute: String?
    let count: String?

    /// As `pushline.output.NAME`.
    public static let span = OutputTrace(attribute: nil, count: nil)

    /// As `attribute`; a list's length as `count`.
    public static func attribute(_ attribute: String, count: String? = nil) -> OutputTrace {
        OutputTrace(attribute: attribute, count: count)
    }
}

/// An `@Output`, whatever its type.
protocol DeclaredOutput: Sendable {
    var spec: OutputSpec { get }
    var value: OutputValue? { get }
}

/// A Swift type an output can hold.
public protocol OutputConvertible: Sendable {
    /// The output type it is declared as.
    static var outputType: OutputSpec.ValueType { get }
    /// The value handed on; nil for none.
    var outputValue: OutputValue? { get }
}

extension Int: OutputConvertible {
    public static var outputType: OutputSpec.ValueType { .integer }
    public var outputValue: OutputValue? { .integer(self) }
}

extension String: OutputConvertible {
    public static var outputType: OutputSpec.ValueType { .string }
    public var outputValue: OutputValue? { .string(self) }
}

extension Bool: OutputConvertible {
    public static var outputType: OutputSpec.ValueType { .boolean }
    public var outputValue: OutputValue? { .boolean(self) }
}

extension Array: OutputConvertible where Element == String {
    public static var outputType: OutputSpec.ValueType { .list }
    public var outputValue: OutputValue? { .list(self, total: count) }
}

extension SpooledRows: OutputConvertible {
    public static var outputType: OutputSpec.ValueType { .rows }
    public var outputValue: OutputValue? { .rows(self) }
}

extension Optional: OutputConvertible where Wrapped: OutputConvertible {
    public static var outputType: OutputSpec.ValueType { Wrapped.outputType }
    public var outputValue: OutputValue? { self?.outputValue }
}

/// A list output that may hold only its first values (a step whose journal keeps the rest): `total` counts them all.
public struct OutputList: Sendable, Equatable, OutputConvertible {
    /// The values handed on.
    public var values: [String]
    /// How many there are in all.
    public var total: Int

    /// A list of `values`, of `total` in all (by default, all of them).
    public init(_ values: [String] = [], total: Int? = nil) {
        self.values = values
        self.total = total ?? values.count
    }

    public static var outputType: OutputSpec.ValueType { .list }
    public var outputValue: OutputValue? { .list(values, total: total) }
}

extension StepResult {
    /// Hands `outputs` on to later steps (and the report).
    public mutating func handOn(_ outputs: some OutputSet) { self.outputs = outputs.outputs }
}

extension StepFailure {
    /// Hands `outputs` on, as far as the step got (a `when: always` step reads them).
    public mutating func handOn(_ outputs: some OutputSet) { self.outputs = outputs.outputs }
}
