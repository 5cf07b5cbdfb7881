import PipelineCore
import RunFlow

extension TestFileDecoder {
    /// `mocks:`: a mapping of step ids to `{ rows, outputs }` or `{ error }`.
    func decodeMocks(_ node: ConfigNode, _ reader: OptionReader) -> [StepMock] {
        guard let entries = node.entries else {
            reader.error("'mocks' must be a mapping of step ids, found \(node.kindName)", at: node)
            return []
        }
        return entries.compactMap { entry in
            let mockReader = OptionReader(
                entry.value, specs: Keys.Mock.specs, step: nil, what: "the mock of '\(entry.key)'",
                diagnostics: diagnostics)
            let keys = Keys.Mock(reading: mockReader)
            if keys.error != nil, keys.rows != nil || keys.outputs != nil {
                mockReader.error(
                    "a mock gives either `error` or `rows` and `outputs`, not both", at: entry.value,
                    hint: "a failing step hands on nothing")
            }
            var rows: [[String: String]] = []
            if let list = keys.rows {
                for item in list.items ?? [] {
                    guard let fields = item.entries else {
                        mockReader.error(
                            "a row must be a mapping of columns to values, found \(item.kindName)", at: item)
                        continue
                    }
                    rows.append(
                        Dictionary(
                            fields.map { field in
                                (field.key, field.value.scalar?.text ?? JSONValue(field.value).compact)
                            }, uniquingKeysWith: { $1 }))
                }
                if list.items == nil {
                    mockReader.error("'rows' must be a list of rows, found \(list.kindName)", at: list)
                }
            }
            var outputs: [(String, JSONValue)] = []
            if let mapping = keys.outputs {
                guard let fields = mapping.entries else {
                    mockReader.error(
                        "'outputs' must be a mapping of output names, found \(mapping.kindName)", at: mapping)
                    return nil
                }
                outputs = fields.map { ($0.key, JSONValue($0.value)) }
            }
            return StepMock(
                step: entry.key, location: entry.keyLocation, rows: rows, outputs: outputs, error: keys.error)
        }
    }
}
