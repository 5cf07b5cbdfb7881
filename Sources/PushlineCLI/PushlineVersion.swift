/// Pushline's version, as `pushline --version` prints it.
package enum PushlineVersion {
    /// Semantic version of this build. Raised by hand with each release; the pipeline file format has its
    /// own `version:` (1), which changes only when old files stop meaning the same thing.
    package static let current = "0.7.0"
}
