import Foundation

/// Where tests find the repository's files and keep their own.
package enum TestFiles {
    /// The directory holding Package.swift, found from this file's place in the repository.
    package static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(#filePath)")
    }()
}

/// One folder per test process for scratch files and directories, removed when the process exits, so a full run leaves
/// nothing behind in the system's temporary folder (a test that removes its own scratch early is welcome to).
package enum TestScratch {
    /// `…/pushline-tests-<pid>`, created on first use.
    package static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()
}
