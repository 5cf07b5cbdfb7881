import PipelineCore

/// Two step types registered under one id.
package struct StepRegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The id claimed twice.
    package let duplicateID: String

    /// A sentence for the developer who wired the registry.
    package var description: String { "step id '\(duplicateID)' is registered twice" }
}
