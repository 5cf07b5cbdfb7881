import Logging

/// Logging setup for the executables (`pushline`, `serve`): the process-wide handler and loggers by level name.
package enum PushlineLogging {
    /// The level names accepted by `--log-level`.
    package static let levelNames = Logger.Level.allCases.map(\.rawValue)

    /// Installs the process-wide handler on standard error, so stdout stays for output: plain lines
    /// on a terminal, one JSON object per line otherwise (cron, systemd). Call once, from the executable.
    package static func bootstrapStandardError(json: Bool) {
        if json {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        } else {
            LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
        }
    }

    /// A logger for `label` at the named level, or nil for an unknown level name.
    package static func logger(label: String, level: String) -> Logger? {
        guard let level = Logger.Level(rawValue: level) else { return nil }
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }
}
