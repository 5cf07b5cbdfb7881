import ArgumentParser
import Foundation
import PipelineCore
import RunFlow
import Synchronization

/// Writing `--report` and `--metrics` files.
enum ReportFile {
    /// Makes the path's directory when it is missing; fails with a usage error when it cannot be made or
    /// written, or the path is a directory.
    static func checkWritable(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("\(option) '\(path)' is a directory; give a file path")
        }
        let directory = FilePath.directory(of: path)
        if !FileManager.default.fileExists(atPath: directory) {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw CommandFailure("\(option) '\(path)': cannot create directory '\(directory)': \(error.localizedDescription)")
            }
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw CommandFailure("\(option) '\(path)': directory '\(directory)' is not writable")
        }
    }

    /// Writes the file atomically (the node exporter never reads half a file); a failure here is
    /// reported but the run's outcome stands.
    static func write(_ text: String, to path: String, console: Console, newline: Bool = true) throws {
        do {
            try Data((newline ? text + "\n" : text).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            console.errorLine("error: cannot write '\(path)': \(error.localizedDescription)")
            throw ExitStatus.exit(ExitStatus.failure)
        }
    }
}
