import PipelineCore

/// One run as the journal records it.
package struct RunRecord: Sendable, Equatable {
    /// The run's id: its UTC start time and six random hex digits (`20261122-041200-3f9c2a`).
    package var id: String
    /// The hex digest the caller computed over what makes two runs "the same run".
    package var identity: String
    /// The pipeline's name (`PipelineName`): its `name:`, else its file name without the extension.
    package var pipeline: String
    /// The pipeline file the run was last started or resumed from (absolute); nil when not recorded.
    package var path: String?
    /// When it started (seconds since the Unix epoch).
    package var startedAt: Double
    /// When it last finished; nil while it is running.
    package var endedAt: Double?
    /// When it was last resumed; nil if it never was.
    package var resumedAt: Double?
    /// Where it stands.
    package var status: RunStatus
    /// The process that last started or resumed it.
    package var pid: Int32
    /// The exit code it finished with; nil while it is running.
    package var exitCode: Int32?
    /// How many times it was resumed.
    package var resumes: Int
    /// The JSON summary it finished with, if any.
    package var summary: String?
    /// The part of a `--shard I/N` run it is; nil for a run of every row. The shards of one run share its
    /// identity and each is a run record of its own, with its own lock.
    package var shard: Shard?
    /// Which start of the run's parts it belongs to: 0 for the first; each `--again` of a part that already ran
    /// in the newest generation opens the next, which the other parts' `--again` starts join. `runs show` lists
    /// one generation's parts together.
    package var generation: Int
    /// The longest dedupe window of the run's steps, in seconds: pruning keeps the run at least this long after it
    /// ends, so its idempotency keys go on holding back repeats. Nil when not recorded (runs of an earlier pushline).
    package var dedupeWindow: Double?

    /// Creates a record.
    package init(
        id: String, identity: String, pipeline: String, startedAt: Double, endedAt: Double? = nil,
        resumedAt: Double? = nil, status: RunStatus, pid: Int32, exitCode: Int32? = nil, resumes: Int = 0,
        summary: String? = nil, shard: Shard? = nil, generation: Int = 0, path: String? = nil,
        dedupeWindow: Double? = nil
    ) {
        self.id = id
        self.path = path
        self.dedupeWindow = dedupeWindow
        self.identity = identity
        self.pipeline = pipeline
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.resumedAt = resumedAt
        self.status = status
        self.pid = pid
        self.exitCode = exitCode
        self.resumes = resumes
        self.summary = summary
        self.shard = shard
        self.generation = generation
    }
}
