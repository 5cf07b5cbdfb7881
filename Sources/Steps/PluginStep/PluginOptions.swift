import PipelineCore
import PluginProtocol

/// A plugin step's options as the plugin receives them: each key the plugin declared, read by its declared type (so
/// the host reports a wrong type at its `file:line:column` before the plugin sees it), as JSON.
enum PluginOptions {
    /// The options of `reader`, typed; a key with a wrong value is reported through the reader and left out.
    static func read(_ reader: OptionReader) -> PluginValue {
        var fields: [String: PluginValue] = [:]
        for spec in reader.specs where reader.node(spec.key) != nil {
            let key = spec.key
            switch spec.type {
            case .integer:
                if let (text, node) = reader.string(key) {
                    if let number = Int(text) {
                        fields[key] = .integer(number)
                    } else {
                        reader.error(
                            "'\(key)' must be a whole number, found \(node.scalar?.quoted ?? node.kindName)", at: node)
                    }
                }
            case .number:
                if let (text, node) = reader.string(key) {
                    if let number = Double(text), number.isFinite {
                        fields[key] = .number(number)
                    } else {
                        reader.error(
                            "'\(key)' must be a number, found \(node.scalar?.quoted ?? node.kindName)", at: node)
                    }
                }
            case .boolean:
                if let flag = reader.bool(key) { fields[key] = .bool(flag) }
            case .duration:
                if let seconds = reader.duration(key, in: 0...Int64(Int32.max)) { fields[key] = .integer(Int(seconds)) }
            case .stringList:
                if let list = reader.stringList(key) { fields[key] = .array(list.map { .string($0.value) }) }
            case .stringMap:
                if let map = reader.stringMap(key) {
                    fields[key] = .object(
                        Dictionary(map.map { ($0.key, PluginValue.string($0.value)) }) { _, last in last })
                }
            default:
                if let (text, _) = reader.string(key) { fields[key] = .string(text) }
            }
        }
        return .object(fields)
    }

    /// The text of every value of a secret option in `options` (typed or as written): a string, a list's items, a
    /// map's values.
    static func secretValues(_ options: PluginValue, specs: [OptionSpec]) -> [String] {
        func texts(_ value: PluginValue) -> [String] {
            switch value {
            case .array(let items): items.flatMap(texts)
            case .object(let fields): fields.values.flatMap(texts)
            default: value.rowText.map { [$0] } ?? []
            }
        }
        return specs.filter(\.isSecret).flatMap { spec in options[spec.key].map(texts) ?? [] }
    }

    /// `node` as the plugin's `check` sees it: written values (a reference to an earlier step's output as written,
    /// since its value is not known yet), scalars as text.
    static func written(_ node: ConfigNode) -> PluginValue {
        switch node.value {
        case .scalar(let scalar):
            if scalar.isNull { return .null }
            return .string(scalar.deferred != nil || scalar.isUnresolved ? scalar.sourceText : scalar.text)
        case .mapping(let entries):
            return .object(Dictionary(entries.map { ($0.key, written($0.value)) }) { _, last in last })
        case .sequence(let items):
            return .array(items.map(written))
        }
    }

    /// The node a `check` problem's path names (`["segment"]`, `["fields", 2]`, `["headers", "X-Key"]`): as deep as
    /// the path goes in `node`.
    static func node(at path: [PluginValue], in node: ConfigNode) -> (node: ConfigNode, keyLocation: SourceLocation?) {
        var current = node
        var keyLocation: SourceLocation?
        for part in path {
            switch part {
            case .string(let key):
                guard let entry = current.entries?.first(where: { $0.key == key }) else {
                    return (current, keyLocation)
                }
                keyLocation = entry.keyLocation
                current = entry.value
            case .integer(let index):
                guard let items = current.items, items.indices.contains(index) else { return (current, keyLocation) }
                keyLocation = nil
                current = items[index]
            default:
                return (current, keyLocation)
            }
        }
        return (current, keyLocation)
    }
}
