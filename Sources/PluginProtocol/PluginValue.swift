import Foundation
import HubWire

/// A JSON value of a plugin message: what options are sent as and what results carry.
package indirect enum PluginValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([PluginValue])
    case object([String: PluginValue])

    /// The value of a decoded JSON text.
    package static func parse(_ text: some StringProtocol) throws(PluginProtocolError) -> PluginValue {
        do {
            return try JSONDecoder().decode(PluginValue.self, from: Data(text.utf8))
        } catch {
            throw PluginProtocolError(
                "a line is not JSON: \(Self.excerpt(text))",
                hint: "write one JSON object per line on stdout, and logs on stderr")
        }
    }

    /// The value as one line of JSON (keys sorted, so the same value is always the same text).
    package var json: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let number): "\(number)"
        case .number(let number): number.isFinite ? "\(number)" : "null"
        case .string(let text): Self.quote(text)
        case .array(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.keys.sorted().map { Self.quote($0) + ":" + fields[$0]!.json }.joined(separator: ",") + "}"
        }
    }

    /// A field of an object.
    package subscript(key: String) -> PluginValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The text of a string.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A scalar as row text: a string as is, a number as written, a flag as `true`/`false`; nil for null, and
    /// for a list or an object (not a row value).
    package var rowText: String? {
        switch self {
        case .string(let text): text
        case .integer(let number): "\(number)"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    static func quote(_ text: String) -> String {
        JSONRowLine.string(text)
    }

    /// The start of a line, for messages.
    package static func excerpt(_ text: some StringProtocol) -> String {
        let line = String(text.prefix(80))
        return "'" + line + (text.count > 80 ? "…" : "") + "'"
    }
}

extension PluginValue: Decodable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([PluginValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: PluginValue].self))
        }
    }
}
