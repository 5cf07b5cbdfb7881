import Foundation
import FuzzSupport
import PipelineCore
import RowReading

/// The `for-each` row readers (RFC 4180 CSV, JSON Lines, a JSON array), streaming a file as `send` and `register`
/// do. The first byte picks the format; the rest is the file. Every input ends in rows and located problems.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-rows-fuzz-\(getpid())").path
let created: Void = { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }()

func fuzzOne(_ bytes: [UInt8]) {
    _ = created
    guard let first = bytes.first else { return }
    let formats: [(RowSource.Format, String)] = [(.csv, "csv"), (.jsonl, "jsonl"), (.json, "json")]
    let (format, ext) = formats[Int(first) % formats.count]
    let path = directory + "/rows." + ext
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes.dropFirst())) else { return }
    guard let reader = try? RowSource(path: path, shown: "rows." + ext, format: format).open() else { return }
    var count = 0
    while let item = try? reader.next() {
        count += 1
        if case .row(_, let line, _, _, let through) = item {
            precondition(through >= line, "a row ends before it starts")
        }
        if count > 100_000 { fatalError("more rows than bytes") }
    }
}
