/// Why a JSON-Patch could not be applied to an installation; an emulator answers 400 with `message`.
public struct InstallationPatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One sentence naming the operation, its path and what is wrong.
    public let message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    /// Equal to `message`.
    public var description: String { message }
}
