import PipelineCore

extension BuiltStep {
    /// What the step writes to its hub's devices; nil for a step that writes none (or whose options wait for earlier
    /// steps' outputs and do not build with sample values).
    package var writtenDevices: WrittenDevices? {
        if let writer = step as? any WritesDevices { return writer.writtenDevices }
        return ((step as? DeferredStep)?.sample as? any WritesDevices)?.writtenDevices
    }
}
