import Foundation
import Logging

/// One JSON object per log line on standard error, for cron and systemd journals (`jq`-friendly):
/// `{"ts":"…","level":"info","msg":"progress","step":"2:send","accepted":"1200",…}`.
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata { fields[key] = "\(value)" }
        for (key, value) in event.metadata ?? [:] { fields[key] = "\(value)" }
        fields["ts"] = RunReport.timestamp(Date())
        fields["level"] = event.level.rawValue
        fields["msg"] = "\(event.message)"
        fields["logger"] = label
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(fields) else { return }
        data.append(0x0A)
        FileHandle.standardError.write(data)
    }
}
