import PipelineCore
import RowReading

/// A device file named by `installations:`: where it is, how to show it, and its format (by extension, as
/// `for-each` files: `.jsonl`, `.json` array, `.csv` with a header row and tags separated by `|`).
struct DeviceFile: Sendable, Equatable {
    /// Longest line, CSV record or JSON element read; a device is a few hundred bytes.
    static let maxRecordBytes = 1 << 20
    /// Separator of tags in a CSV cell.
    static let csvTagSeparator: Character = "|"

    /// The path to open.
    let path: String
    /// The path as messages show it (`file:line`).
    let shown: String
    /// The format.
    let format: RowSource.Format

    /// The format for a path's extension, or nil.
    static func format(of path: String) -> RowSource.Format? {
        RowSource.format(of: path)
    }

    /// Opens the file as a stream of records.
    func records() throws(TextFile.Failure) -> RecordStream {
        try RecordStream(path: path, format: format, maxBytes: Self.maxRecordBytes, elements: "devices")
    }

    /// Reads the CSV header: the column names, or why they are wrong. Every column must be a device key,
    /// each at most once, and `installationId` must be there.
    static func columns(fromHeader fields: [String]) -> Result<[String], DeviceProblem> {
        var seen: Set<String> = []
        for name in fields {
            guard DeviceRecord.keys.contains(name) else {
                return .failure(
                    DeviceProblem(
                        "unknown column '\(name)'\(Suggestion.didYouMean(name, in: DeviceRecord.keys)) (columns are \(DeviceRecord.keys.joined(separator: ", ")))"
                    ))
            }
            guard seen.insert(name).inserted else { return .failure(DeviceProblem("column '\(name)' appears twice")) }
        }
        guard seen.contains("installationId") else {
            return .failure(DeviceProblem("the header has no 'installationId' column"))
        }
        return .success(fields)
    }

    /// A check made while building the step: the file opens, and a JSON file starts an array or a CSV
    /// file has a valid header. Reads only the first record.
    func precheck() -> String? {
        do throws(TextFile.Failure) {
            let first = try records().next()
            switch (format, first) {
            case (.jsonl, _), (.json, .json?), (.json, nil):
                return nil
            case (.csv, nil):
                return "device file '\(shown)' is empty; a CSV file starts with a header row"
            case (_, .problem(let message, let line)?):
                return "\(shown):\(line): \(message)"
            case (.csv, .fields(let fields, let line, _)?):
                if case .failure(let problem) = Self.columns(fromHeader: fields) {
                    return "\(shown):\(line): \(problem.message)"
                }
                return nil
            case (.csv, .json?), (.json, .fields?):
                return nil
            }
        } catch {
            return error.message(what: "device file", name: shown)
        }
    }
}
