/// Something a plugin did that the protocol does not allow, said for the plugin's author.
public struct PluginProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public var message: String
    /// What to fix.
    public var hint: String?

    /// Creates an error.
    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    public var description: String { message }
}
