import Foundation
import HubWire
import PipelineCore
import RowReading

/// A `direct-file:` of device handles: one per line; blank lines and lines starting with `#` are
/// skipped, surrounding spaces ignored.
///
/// Read twice, streamed both times and never held whole: when the step is built, to check every
/// handle (a bad line stops the send before anything goes out) and count them; when it runs, in
/// batches of `NHLimits.maxDirectBatchHandles`.
struct HandleFile: Sendable, Equatable {
    /// Longest line accepted; a WNS channel URI is a few hundred bytes.
    static let maxLineBytes = 4096

    /// The resolved path.
    let path: String
    /// How messages show it (the reference as written when it came from one).
    let shown: String
    /// Whose handle shape every line must have.
    let platform: PushPlatform

    /// One bad line.
    struct Problem: Equatable {
        let line: Int
        let message: String
    }

    /// What a check found: the handles counted, the first problems, and how many more there were.
    struct Scan: Equatable {
        var count = 0
        var problems: [Problem] = []
        var unlisted = 0
    }

    /// Reads the whole file, checking every handle; at most `listing` problems are kept.
    func scan(listing: Int = 20) throws(TextFile.Failure) -> Scan {
        var scan = Scan()
        let reader = try Reader(self)
        while let item = try reader.next() {
            switch item {
            case .handle: scan.count += 1
            case .problem(let problem) where scan.problems.count < listing: scan.problems.append(problem)
            case .problem: scan.unlisted += 1
            }
        }
        return scan
    }

    /// The next batch of up to `size` handles, or nil at the end. A bad line here means the file
    /// changed after it was checked: the step stops rather than skip a device silently.
    func batches(size: Int) throws(TextFile.Failure) -> () throws(StepFailure) -> [String]? {
        let reader = try Reader(self)
        let shown = shown
        return { () throws(StepFailure) -> [String]? in
            var batch: [String] = []
            while batch.count < size {
                let item: Item?
                do throws(TextFile.Failure) { item = try reader.next() } catch {
                    throw StepFailure(error.message(what: "handle file", name: shown)).coded(.inputRejected)
                }
                switch item {
                case nil:
                    return batch.isEmpty ? nil : batch
                case .handle(let handle):
                    batch.append(handle)
                case .problem(let problem):
                    throw StepFailure(
                        "handle file '\(shown)' changed after it was checked: line \(problem.line): \(problem.message)",
                        hint: "the batches before this line were sent; fix the file, then send the rest"
                    ).coded(.inputRejected)
                }
            }
            return batch
        }
    }

    /// A handle or a bad line, in file order.
    enum Item {
        case handle(String)
        case problem(Problem)
    }

    /// Lines to items.
    final class Reader {
        private let lines: LineReader
        private let platform: PushPlatform

        init(_ file: HandleFile) throws(TextFile.Failure) {
            lines = LineReader(file: try ChunkedFile(path: file.path), maxBytes: HandleFile.maxLineBytes)
            platform = file.platform
        }

        func next() throws(TextFile.Failure) -> Item? {
            while let line = try lines.next() {
                switch line {
                case .tooLong(let number):
                    return .problem(
                        Problem(
                            line: number, message: "longer than \(HandleFile.maxLineBytes) bytes; not a device handle"))
                case .invalidUTF8(let number):
                    return .problem(Problem(line: number, message: "not valid UTF-8"))
                case .text(let text, let number):
                    let handle = text.trimmingCharacters(in: .whitespaces)
                    if handle.isEmpty || handle.hasPrefix("#") { continue }
                    if let problem = platform.handleProblem(handle, what: "handle") {
                        return .problem(Problem(line: number, message: problem))
                    }
                    return .handle(handle)
                }
            }
            return nil
        }
    }
}
