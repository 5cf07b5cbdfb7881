import FuzzSupport
import HubWire

/// Direct-batch bodies (multipart/mixed: a notification part and a JSON array of device handles), as the emulator
/// reads `POST messages/$batch?direct`. The first line is the Content-Type (with its boundary), the rest the body.
func fuzzOne(_ bytes: [UInt8]) {
    let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
    _ = try? DirectBatchRequest(parsing: body, contentType: contentType)
}
