/// What a step writes to its hub's devices, so the commands that read a run's items afterwards (`devices dead`,
/// `fcmv1 move`) know what each item of the step is without reading the step's options again.
package enum WrittenDevices: Sendable, Equatable {
    /// Installations (by installation id).
    case installations
    /// Registrations (by registration id).
    case registrations
}

/// A step that creates, changes or deletes devices on its hub.
package protocol WritesDevices {
    /// What its items are.
    var writtenDevices: WrittenDevices { get }
}

extension BuiltStep {
    /// What the step writes to its hub's devices; nil for a step that writes none (or whose options wait for earlier
    /// steps' outputs and do not build with sample values).
    package var writtenDevices: WrittenDevices? {
        if let writer = step as? any WritesDevices { return writer.writtenDevices }
        return ((step as? DeferredStep)?.sample as? any WritesDevices)?.writtenDevices
    }
}
