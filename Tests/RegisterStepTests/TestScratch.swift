import Foundation

/// One folder per test process for scratch files and directories, removed when the process exits, so a full run leaves
/// nothing behind in the system's temporary folder (a test that removes its own scratch early is welcome to).
enum TestScratch {
    /// `…/pushline-tests-<pid>`, created on first use.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()
}
