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

    /// Creates a failure.
    package init(_ message: String, hint: String? = nil, stderr: [String] = []) {
        self.message = message
        self.hint = hint
        self.stderr = stderr
    }

    init(_ error: PluginProtocolError, stderr: [String]) {
        self.init("protocol error: " + error.message, hint: error.hint ?? "see the plugin protocol reference (docs/plugin-protocol.md)", stderr: stderr)
    }
}
