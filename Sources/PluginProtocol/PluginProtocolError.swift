/// Something a plugin did that the protocol does not allow, said for the plugin's author.
package struct PluginProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    package var message: String
    /// What to fix.
    package var hint: String?

    /// Creates an error.
    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    package var description: String { message }
}
