import RunStore

/// Why a live run did not start.
public enum RunFlowError: Error, Sendable, Equatable {
    /// Another run of the pipeline holds its lock (exit 75); its holder when known.
    case locked(pipeline: String, holder: LockHolder?)
    /// The run store cannot be opened, read or written: exit 78 when it is set up wrongly, 75 when it cannot be
    /// reached now, 1 otherwise.
    case store(String, kind: RunStoreError.Kind)

    /// The flow error of a store error.
    public static func store(_ error: RunStoreError) -> RunFlowError {
        .store(error.message, kind: error.kind)
    }

    /// For people.
    public var message: String {
        switch self {
        case .locked(let pipeline, let holder):
            "another run of \(pipeline) is in progress (\(holder?.description ?? "its holder did not say who it is")); not started"
        case .store(let message, _):
            "the run journal: \(message)"
        }
    }

    /// The exit code it ends the command with.
    public var exitCode: Int32 {
        switch self {
        case .locked: RunExit.locked
        case .store(_, let kind): RunExit.of(kind)
        }
    }
}
