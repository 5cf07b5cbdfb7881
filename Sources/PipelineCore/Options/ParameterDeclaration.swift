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

    /// Why `value` is not acceptable; nil when it is. Says what is expected, never the value: a parameter may
    /// carry something that must not reach a log or a report.
    public func problem(with value: String) -> String? {
        switch kind {
        case .string: break
        case .integer:
            if Int64(value) == nil { return "parameter '\(name)' must be a whole number; the value given is not" }
        case .boolean:
            if value != "true" && value != "false" {
                return "parameter '\(name)' must be true or false; the value given is not"
            }
        }
        if !allowed.isEmpty, !allowed.contains(value) {
            return "parameter '\(name)' must be one of \(allowed.joined(separator: ", ")); the value given is not"
        }
        if let pattern, value.wholeMatch(ofPattern: pattern) == false {
            return "parameter '\(name)' must match \(pattern); the value given does not"
        }
        return nil
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
        // Compiled alone first, so a pattern cannot close the group that anchors it (`a)|(b`); `\A` and `\z`
        // anchor the whole value (`$` would also match before a final newline).
        guard (try? NSRegularExpression(pattern: pattern)) != nil,
            let expression = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z")
        else { return nil }
        return expression.firstMatch(in: self, range: NSRange(startIndex..., in: self)) != nil
    }
}
