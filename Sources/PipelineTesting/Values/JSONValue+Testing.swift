import Foundation
import HubWire
import PipelineCore
import RunFlow

extension JSONValue {
    /// The value a YAML node writes, read as YAML 1.2's core schema does: plain `true`/`false`, `null`/`~`/nothing,
    /// and numbers are themselves; anything quoted is text.
    package init(_ node: ConfigNode) {
        switch node.value {
        case .mapping(let entries):
            self = .object(Dictionary(entries.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { $1 }))
        case .sequence(let items):
            self = .array(items.map(JSONValue.init))
        case .scalar(let scalar):
            guard scalar.isPlain else {
                self = .string(scalar.text)
                return
            }
            if scalar.isNull {
                self = .null
            } else if ["true", "True", "TRUE"].contains(scalar.text) {
                self = .bool(true)
            } else if ["false", "False", "FALSE"].contains(scalar.text) {
                self = .bool(false)
            } else if let integer = Int(scalar.text) {
                self = .integer(integer)
            } else if let number = Double(scalar.text), scalar.text.contains(where: \.isNumber),
                !scalar.text.lowercased().hasPrefix("0x")
            {
                self = .number(number)
            } else {
                self = .string(scalar.text)
            }
        }
    }

    /// A report value (a step's outputs) as JSON.
    package init(_ value: ReportValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .int(let number): self = .integer(number)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let fields):
            self = .object(Dictionary(fields.map { ($0.key, JSONValue($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }

    /// The value at a dotted path (`aps.alert`, `items.0.id`): object keys, and list indexes from 0; text that holds
    /// a JSON object (a rendered payload) is looked into.
    package func value(at path: String) -> JSONValue? {
        var current = self
        for part in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            switch current {
            case .object(let fields):
                guard let next = fields[part] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(part), items.indices.contains(index) else { return nil }
                current = items[index]
            case .string(let text):
                // A payload handed on as text is looked into as the JSON it holds.
                guard let parsed = JSONValue(parsing: text), case .object = parsed else { return nil }
                guard let next = parsed.value(at: part) else { return nil }
                current = next
            default:
                return nil
            }
        }
        return current
    }

    /// True when `self` holds everything `expected` gives: an object's keys recursively (others may be there), a
    /// list's items in order and no more, scalars equal (a whole number equals its integer).
    package func contains(_ expected: JSONValue) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            return wanted.allSatisfy { key, value in actual[key]?.contains(value) ?? false }
        case (.array(let actual), .array(let wanted)):
            return actual.count == wanted.count && zip(actual, wanted).allSatisfy { $0.contains($1) }
        default:
            return self.matches(expected)
        }
    }

    /// Equal, with `3` and `3.0` the same number and text compared to a number or boolean by its written form
    /// (a YAML `10` for the header text "10").
    package func matches(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.string(let text), .object), (.string(let text), .array):
            // A payload handed on as text, expected as the JSON it is.
            return JSONValue(parsing: text).map { $0.matches(other) } ?? false
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): return Double(a) == b
        case (.string(let text), .integer(let number)), (.integer(let number), .string(let text)):
            return text == String(number)
        case (.string(let text), .bool(let flag)), (.bool(let flag), .string(let text)):
            return text == String(flag)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map(value.matches) ?? false }
        default: return self == other
        }
    }

    /// True for an object or a list.
    package var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }

    /// Pretty-printed with sorted keys, for diffs: the same value always reads the same.
    package var pretty: String { JSONText.encode(self) }

    /// On one line with sorted keys.
    package var compact: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "\(self)" }
        return String(decoding: data, as: UTF8.self)
    }
}
