import ArgumentParser
import Foundation

/// Parses `--properties` given as a JSON object string or `@path` to a JSON file.
///
/// NH template properties are strings; numbers and booleans are accepted as their JSON text,
/// nested values are rejected because NH would reject them too.
enum PropertiesArgument {
    static func parse(_ argument: String?) throws -> [String: String] {
        guard let argument else { return [:] }
        let text: String
        let source: String
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard let data = FileManager.default.contents(atPath: path), let contents = String(data: data, encoding: .utf8) else {
                throw ValidationError("cannot read properties file '\(path)'")
            }
            (text, source) = (contents, "properties file '\(path)'")
        } else {
            (text, source) = (argument, "--properties")
        }
        let values: [String: PropertyValue]
        do {
            values = try JSONDecoder().decode([String: PropertyValue].self, from: Data(text.utf8))
        } catch DecodingError.dataCorrupted {
            throw ValidationError("\(source) is not valid JSON; expected an object like '{\"message\":\"Hello\"}'")
        } catch DecodingError.typeMismatch(let type, let context) where type != [String: PropertyValue].self && !context.codingPath.isEmpty {
            let name = context.codingPath.first?.stringValue ?? "?"
            throw ValidationError("property '\(name)' in \(source) must be a string, number or boolean; NH template properties are text")
        } catch {
            throw ValidationError("\(source) must be a JSON object like '{\"message\":\"Hello\"}'")
        }
        return values.mapValues(\.text)
    }
}

/// One JSON property value, kept as the text NH would receive.
private struct PropertyValue: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let bool = try? container.decode(Bool.self) {
            text = bool ? "true" : "false"
        } else if let integer = try? container.decode(Int.self) {
            text = String(integer)
        } else if let number = try? container.decode(Double.self) {
            text = String(number)
        } else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "not a string, number or boolean"))
        }
    }
}
