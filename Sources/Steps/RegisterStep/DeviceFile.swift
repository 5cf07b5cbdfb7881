import PipelineCore
import RowReading

/// A device file named by `installations:`: where it is, how to show it, and its format.
struct DeviceFile: Sendable, Equatable {
    /// The formats, chosen by extension.
    enum Format: String, Sendable, CaseIterable {
        /// One JSON object per line.
        case jsonl
        /// One JSON array of objects.
        case json
        /// A header row naming the columns, then one device per row; tags separated by `|`.
        case csv
    }

    /// Longest line, CSV record or JSON element read; a device is a few hundred bytes.
    static let maxRecordBytes = 1 << 20
    /// Separator of tags in a CSV cell.
    static let csvTagSeparator: Character = "|"

    /// The path to open.
    let path: String
    /// The path as messages show it (`file:line`).
    let shown: String
    /// The format.
    let format: Format

    /// The format for a path's extension, or nil.
    static func format(of path: String) -> Format? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return Format(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Reads the CSV header: the column names, or why they are wrong. Every column must be a device key,
    /// each at most once, and `installationId` must be there.
    static func columns(fromHeader fields: [String]) -> Result<[String], DeviceProblem> {
        var seen: Set<String> = []
        for name in fields {
            guard DeviceRecord.keys.contains(name) else {
                return .failure(DeviceProblem("unknown column '\(name)'\(Suggestion.didYouMean(name, in: DeviceRecord.keys)) (columns are \(DeviceRecord.keys.joined(separator: ", ")))"))
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
            let file = try ChunkedFile(path: path)
            switch format {
            case .jsonl:
                return nil
            case .json:
                if case .problem(let message, let line)? = try JSONArraySplitter(file: file, maxBytes: Self.maxRecordBytes, elements: "devices").next() {
                    return "\(shown):\(line): \(message)"
                }
                return nil
            case .csv:
                let records = CSVRecordReader(lines: LineReader(file: file, maxBytes: Self.maxRecordBytes), maxBytes: Self.maxRecordBytes)
                switch try records.next() {
                case nil: return "device file '\(shown)' is empty; a CSV file starts with a header row"
                case .problem(let message, let line)?: return "\(shown):\(line): \(message)"
                case .fields(let fields, let line, _)?:
                    if case .failure(let problem) = Self.columns(fromHeader: fields) { return "\(shown):\(line): \(problem.message)" }
                    return nil
                }
            }
        } catch {
            return error.message(what: "device file", name: shown)
        }
    }
}
