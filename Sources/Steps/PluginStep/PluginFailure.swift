import PipelineCore
import PluginProtocol

/// Why a conversation with a plugin ended badly: what the host saw, and the plugin's last stderr lines.
package struct PluginFailure: Error, Sendable, Equatable {
    /// What happened, e.g. "the plugin did not answer within 10 s".
    package var message: String
    /// What to fix.
    package var hint: String?
    /// Its last stderr lines (secrets of its environment redacted).
    package var stderr: [String]
    /// True when the plugin itself answered with this error (it kept the protocol; it is not stopped at once).
    package var answered = false
    /// True when the plugin was stopped because its run was (SIGINT or SIGTERM to pushline): the run resumes it.
    package var stoppedWithTheRun = false
    /// True when it ended before the run request was written to the plugin: it cannot have done anything.
    package var beforeRunRequest = false
    /// True when it was stopped at its time limit mid-conversation.
    package var timedOut = false
    /// True when the plugin broke the protocol (a line that is not JSON, an output it did not declare, …).
    package var brokeProtocol = false

    /// Creates a failure.
    package init(_ message: String, hint: String? = nil, stderr: [String] = []) {
        self.message = message
        self.hint = hint
        self.stderr = stderr
    }

    init(_ error: PluginProtocolError, stderr: [String]) {
        self = .brokenProtocol(
            error.message, hint: error.hint ?? "see the plugin protocol reference (docs/plugin-protocol.md)",
            stderr: stderr)
    }

    /// The plugin broke the protocol: the message says so first, and the failure's code is `plugin.protocol`.
    static func brokenProtocol(_ message: String, hint: String? = nil, stderr: [String] = []) -> PluginFailure {
        var failure = PluginFailure("protocol error: " + message, hint: hint, stderr: stderr)
        failure.brokeProtocol = true
        return failure
    }
}

extension PluginFailure {
    /// The step failure's code: the plugin's own error, a protocol error, its time limit, or anything else.
    var code: StepFailure.Code {
        if answered { return .pluginError }
        if brokeProtocol { return .pluginProtocol }
        if timedOut { return .pluginTimeout }
        return .pluginFailed
    }
}

extension PluginStep {
    /// The codes a plugin step's failure has, with what each means.
    package static let failureCodes: [(StepFailure.Code, String)] = [
        (.pluginError, "a plugin answered with an error (it says it did nothing)"),
        (
            .pluginProtocol,
            "a plugin broke the protocol (a line that is not JSON, an output it did not declare, a row without a declared column)"
        ),
        (.pluginTimeout, "a plugin did not finish within its `timeout:`"),
        (.pluginFailed, "a plugin would not start, crashed or exited without answering"),
    ]
}

extension StepFailure.Code {
    /// The plugin answered with an error: it says it did nothing.
    static let pluginError: Self = "plugin.error"
    /// The plugin broke the protocol (a line that is not JSON, an undeclared output, a row without a declared column).
    static let pluginProtocol: Self = "plugin.protocol"
    /// The plugin did not finish within its `timeout:` (or `describe` within its own limit).
    static let pluginTimeout: Self = "plugin.timeout"
    /// The plugin would not start, crashed or exited without answering.
    static let pluginFailed: Self = "plugin.failed"
}
