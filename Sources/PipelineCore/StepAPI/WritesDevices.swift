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
