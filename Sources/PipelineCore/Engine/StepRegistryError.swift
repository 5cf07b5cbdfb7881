/// Two step types registered under one id.
public struct StepRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id claimed twice.
    public let duplicateID: String

    /// A sentence for the developer who wired the registry.
    public var description: String { "step id '\(duplicateID)' is registered twice" }
}
