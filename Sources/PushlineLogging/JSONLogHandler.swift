import Foundation
import Logging
import PipelineCore

/// One JSON object per log line on standard error, for cron and systemd journals (`jq`-friendly):
/// `{"ts":"…","level":"info","msg":"progress","step":"2:send","accepted":1200,"rate":61.5,…}`: a value logged as a
/// number or a boolean is one in the JSON, so `jq 'select(.failed > 0)'` works; everything else is text.
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: Field] = [:]
        for (key, value) in metadata { fields[key] = Field(value) }
        for (key, value) in event.metadata ?? [:] { fields[key] = Field(value) }
        fields["ts"] = .text(Timestamp.iso8601(Date()))
        fields["level"] = .text(event.level.rawValue)
        fields["msg"] = .text("\(event.message)")
        fields["logger"] = .text(label)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(fields) else { return }
        data.append(0x0A)
        FileHandle.standardError.write(data)
    }
}

/// A log line's value in JSON: numbers and booleans as themselves, the rest as text.
enum Field: Encodable, Equatable {
    case text(String)
    case integer(Int)
    case number(Double)
    case flag(Bool)

    init(_ value: Logger.MetadataValue) {
        switch value {
        case .stringConvertible(let convertible as Int): self = .integer(convertible)
        case .stringConvertible(let convertible as Double) where convertible.isFinite: self = .number(convertible)
        case .stringConvertible(let convertible as Bool): self = .flag(convertible)
        default: self = .text("\(value)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .flag(let flag): try container.encode(flag)
        }
    }
}
