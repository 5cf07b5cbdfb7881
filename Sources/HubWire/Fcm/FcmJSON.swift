import Foundation

/// A JSON value as FCM payloads are read here: enough to tell a string from a number or a boolean (which
/// `JSONSerialization` does not keep apart on every platform) and to write the value back.
enum FcmJSON: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// Any other number, as a decimal: a Double would turn 18446744073709551616 into 1.8446744073709552e+19.
    case number(Decimal)
    case string(String)
    case array([FcmJSON])
    case object([String: FcmJSON])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Decimal.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([FcmJSON].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: FcmJSON].self))
        }
    }

    /// Parses `text`; nil when it is not JSON.
    static func parse(_ bytes: some Collection<UInt8>) -> FcmJSON? {
        try? JSONDecoder().decode(FcmJSON.self, from: Data(bytes))
    }

    /// The object's members, when it is one.
    var object: [String: FcmJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The string, when it is one.
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// What the value is, in the words a message uses.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Compact JSON text with sorted keys, so a translation is the same on every run and platform.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return Self.format(value)
        case .string(let value): return Self.quote(value)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { Self.quote($0.key) + ":" + $0.value.text }.joined(
                    separator: ",") + "}"
        }
    }

    /// The value as FCM v1's string-only `data` holds it: strings as they are, other values as their JSON text.
    var dataString: String? {
        switch self {
        case .null: nil
        case .string(let value): value
        default: text
        }
    }

    static func format(_ value: Decimal) -> String {
        value.description
    }

    static func quote(_ value: String) -> String {
        JSONText.quote(value)
    }
}
