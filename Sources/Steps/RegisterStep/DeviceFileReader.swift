import Foundation
import PipelineCore
import RowReading

/// Streams a device file as prepared devices and failed rows, one at a time.
///
/// Every row that cannot be sent becomes an `.invalid` item whose reason starts with `file:line`; reading
/// goes on with the next row. Only a file that cannot be read at all throws.
final class DeviceFileReader {
    private let file: DeviceFile
    private let plan: InstallationPlan
    private let records: RecordStream
    /// The CSV header's columns, once read.
    private var columns: [String]?
    /// Installation id → where it was first seen; a second row for the same device would race the first.
    private var seen: [String: String] = [:]

    /// Opens `file`; rows become jobs through `plan`.
    init(_ file: DeviceFile, plan: InstallationPlan) throws(TextFile.Failure) {
        self.file = file
        self.plan = plan
        records = try file.records()
    }

    /// The next device or failed row; nil at the end of the file. Throws when the file cannot be read, or
    /// when a CSV header is wrong (then no row can be read).
    func next() throws(StepFailure) -> DeviceItem? {
        let record: RecordStream.Record?
        do throws(TextFile.Failure) { record = try records.next() } catch {
            throw StepFailure(error.message(what: "device file", name: file.shown)).coded(.inputRejected)
        }
        switch record {
        case nil:
            return nil
        case .problem(let message, let line)?:
            if file.format == .csv, columns == nil { throw headerFailure(line, message) }
            return invalid(line, message)
        case .json(let bytes, let line)?:
            return item(DeviceRecord.decode(json: bytes), line: line)
        case .fields(let fields, let line, _)?:
            guard let columns else {
                switch DeviceFile.columns(fromHeader: fields) {
                case .success(let names):
                    records.expect(fields: names.count)
                    columns = names
                    return try next()
                case .failure(let problem):
                    throw headerFailure(line, problem.message)
                }
            }
            guard fields.count == columns.count else {
                return invalid(line, "the row has \(fields.count) fields; the header has \(columns.count)")
            }
            return item(.success(Self.record(columns: columns, fields: fields)), line: line)
        }
    }

    private func headerFailure(_ line: Int, _ message: String) -> StepFailure {
        StepFailure(
            "\(file.shown):\(line): \(message)",
            hint: "the first row names the columns: \(DeviceRecord.keys.joined(separator: ","))"
        ).coded(.inputRejected)
    }

    /// A CSV row as a record: empty cells are absent, tags are split on `|` (an empty cell means no tags).
    static func record(columns: [String], fields: [String]) -> DeviceRecord {
        var record = DeviceRecord()
        for (name, value) in zip(columns, fields) where !value.isEmpty {
            switch name {
            case "installationId": record.installationId = value
            case "platform": record.platform = value
            case "pushChannel": record.pushChannel = value
            case "userId": record.userId = value
            case "tags":
                record.tags = value.split(separator: DeviceFile.csvTagSeparator, omittingEmptySubsequences: false)
                    .map { String($0).trimmingCharacters(in: .whitespaces) }
            default: break
            }
        }
        return record
    }

    private func item(_ decoded: Result<DeviceRecord, DeviceRecord.Problem>, line: Int) -> DeviceItem {
        let origin = "\(file.shown):\(line)"
        let record: DeviceRecord
        switch decoded {
        case .success(let value): record = value
        case .failure(let problem): return .invalid(device: origin, reason: "\(origin): \(problem.message)")
        }
        let device = record.installationId.flatMap { $0.isEmpty ? nil : $0 } ?? origin
        let (job, problems) = plan.plan(record)
        guard let job else {
            return .invalid(device: device, reason: "\(origin): " + problems.map(\.message).joined(separator: "; "))
        }
        if let first = seen[device] {
            return .invalid(
                device: device,
                reason: "\(origin): installation '\(device)' already appears at \(first); give each device once")
        }
        seen[device] = origin
        return .work(DeviceWork(device: device, origin: origin, job: job))
    }

    private func invalid(_ line: Int, _ message: String) -> DeviceItem {
        let origin = "\(file.shown):\(line)"
        return .invalid(device: origin, reason: "\(origin): \(message)")
    }
}
