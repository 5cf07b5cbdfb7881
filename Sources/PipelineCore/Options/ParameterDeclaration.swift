import Foundation

/// A `parameters:` entry: a value a run is given (`pushline run --param name=value`, or a request body to
/// `pushline serve`) and its steps use as `${param:name}`.
public struct ParameterDeclaration: Sendable, Equatable {
    /// What a value must be.
    public enum Kind: String, Sendable, CaseIterable {
        /// Any text (the default).
        case string
        /// A whole number, optionally signed.
        case integer
        /// `true` or `false`.
        case boolean
    }

    /// The name steps use.
    public var name: String
    /// Where it is declared.
    public var location: SourceLocation
    /// What a value must be.
    public var kind: Kind = .string
    /// A regular expression the whole value must match.
    public var pattern: String?
    /// The only values accepted, when given.
    public var allowed: [String] = []
    /// The value when none is given; nil when one must be given (or when it is optional and empty).
    public var defaultValue: String?
    /// True when a run must give a value (a default makes this false).
    public var required = false
    /// What it is for, for people (`validate`, the service's OpenAPI document).
    public var description: String?

    /// Creates a declaration.
    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }

    /// Why `value` is not acceptable; nil when it is. Says what is expected, never more of the value than a
    /// person needs to find it.
    public func problem(with value: String) -> String? {
        switch kind {
        case .string: break
        case .integer:
            if Int64(value) == nil { return "parameter '\(name)' must be a whole number, found '\(Self.shown(value))'" }
        case .boolean:
            if value != "true" && value != "false" { return "parameter '\(name)' must be true or false, found '\(Self.shown(value))'" }
        }
        if !allowed.isEmpty, !allowed.contains(value) {
            return "parameter '\(name)' must be one of \(allowed.joined(separator: ", ")), found '\(Self.shown(value))'"
        }
        if let pattern, value.wholeMatch(ofPattern: pattern) == false {
            return "parameter '\(name)' must match \(pattern), found '\(Self.shown(value))'"
        }
        return nil
    }

    /// A value as a message shows it: at most 40 characters.
    static func shown(_ value: String) -> String {
        value.count > 40 ? String(value.prefix(40)) + "…" : value
    }
}

extension ParameterDeclaration {
    /// Whether `pattern` is a regular expression a declaration can use.
    public static func isValidPattern(_ pattern: String) -> Bool {
        "".wholeMatch(ofPattern: pattern) != nil
    }
}

extension String {
    /// Whether the whole string matches `pattern`; nil when the pattern is not a valid regular expression.
    fileprivate func wholeMatch(ofPattern pattern: String) -> Bool? {
        guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return nil }
        return expression.firstMatch(in: self, range: NSRange(startIndex..., in: self)) != nil
    }
}
