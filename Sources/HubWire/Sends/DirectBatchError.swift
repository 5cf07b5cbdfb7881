/// Why a direct batch send body could not be read; an emulator answers 400 with `message`.
public struct DirectBatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One sentence saying what is wrong and, where it helps, what was expected.
    public let message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    /// Equal to `message`.
    public var description: String { message }
}
