import Foundation
import Logging

/// swift-otel's own messages (a collector that does not answer, a setting it could not read), as Pushline writes
/// warnings: one line on standard error, warnings and worse only, and without swift-otel's metadata, which holds
/// the raw values of the `OTEL_*` variables it read (`OTEL_EXPORTER_OTLP_HEADERS` carries a collector's API key).
struct TelemetryDiagnostics: LogHandler {
    /// Metadata that holds no setting's value, kept on the line.
    static let shownKeys: Set<String> = ["error", "error.type"]

    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning
    let write: @Sendable (String) -> Void

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // The level swift-otel sets from OTEL_LOG_LEVEL may be lower; Pushline's floor stays.
        guard event.level >= .warning else { return }
        let message = event.message
        let merged = self.metadata.merging(event.metadata ?? [:]) { _, new in new }
        let shown = merged.filter { Self.shownKeys.contains($0.key) }.sorted { $0.key < $1.key }.map {
            "\($0.key): \($0.value)"
        }
        write("pushline: warning: tracing: \(message)" + (shown.isEmpty ? "" : " (\(shown.joined(separator: ", ")))"))
    }

    /// A logger that writes through `write`.
    static func logger(_ write: @escaping @Sendable (String) -> Void) -> Logger {
        Logger(label: "pushline.telemetry") { _ in TelemetryDiagnostics(write: write) }
    }
}
