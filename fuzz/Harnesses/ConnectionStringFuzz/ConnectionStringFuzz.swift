import FuzzSupport
import HubWire

/// NH connection strings (`Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…`). Oracle: a string that
/// parses never shows its key in its description.
func fuzzOne(_ bytes: [UInt8]) {
    guard let connection = try? ConnectionString(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
    for shown in [String(describing: connection), String(reflecting: connection)] {
        precondition(
            !shown.contains("SharedAccessKey=\(connection.key)") || connection.key.isEmpty,
            "the description shows the key: \(shown)")
    }
}
