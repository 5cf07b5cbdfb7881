import Foundation
import PipelineCore

/// How a run names its pipeline in the journal and its lock: the absolute, standardized path.
public enum RunPaths {
    /// The pipeline's path as runs and locks name it: the loader's stamp, else the path made absolute.
    public static func absolute(_ document: PipelineDocument) -> String {
        document.absolutePath ?? absolute(document.file)
    }

    public static func absolute(_ file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// The name of the run lock of `pipeline` (an absolute path), or of one shard of it: the shards of a run each
    /// take their own.
    public static func lockName(_ pipeline: String, shard: Shard?) -> String {
        shard.map { "\(pipeline)#shard-\($0.index)-of-\($0.count)" } ?? pipeline
    }

    /// The lock every start of `pipeline` passes through while it checks for other splits and takes its own lock.
    static func gateName(_ pipeline: String) -> String {
        "\(pipeline)#start"
    }
}
