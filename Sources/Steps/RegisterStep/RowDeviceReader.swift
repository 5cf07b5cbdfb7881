import HubExpressions
import PipelineCore
import RowReading

/// Streams a `for-each` rows file as devices: each row makes one device of every entry, in order.
///
/// A malformed row (bad CSV, a field count that does not match the header) is one failed item naming
/// `file:line`; reading goes on with the next row. Only a file that cannot be read at all throws.
final class RowDeviceReader {
    private let reader: RowReader
    private let entries: [DeviceTemplate]
    private let shown: String
    private let key: TextTemplate?
    private let shardKey: String?
    /// Devices of the current row not yet handed out.
    private var queued: [DeviceItem] = []
    /// Installation id → where it was first made; a second request for the same device would race the first.
    private var seen: [String: String] = [:]

    /// Opens `source`; its rows become devices through `entries`.
    /// With `key`, each device's idempotency key is the row's rendering of it (with the entry's position when a
    /// row makes several devices); with `shardKey`, the row's value of that column places its devices in a part.
    init(_ source: RowSource, entries: [DeviceTemplate], key: TextTemplate? = nil, shardKey: String? = nil)
        throws(StepFailure)
    {
        do { reader = try source.open() } catch { throw StepFailure(error.message).coded(.inputRejected) }
        self.entries = entries
        self.key = key
        self.shardKey = shardKey
        shown = source.shown
    }

    /// The next device or failed row; nil at the end of the file.
    func next() throws(StepFailure) -> DeviceItem? {
        if !queued.isEmpty { return queued.removeFirst() }
        let item: RowReader.Item?
        do throws(TextFile.Failure) { item = try reader.next() } catch {
            throw StepFailure(error.message(what: "for-each file", name: shown)).coded(.inputRejected)
        }
        switch item {
        case nil:
            return nil
        case .problem(_, let line, let message):
            let origin = "\(shown):\(line)"
            return .invalid(device: origin, reason: "\(origin): \(message)")
        case .row(_, let line, let values, _, let through):
            let origin = RowReader.origin(shown, line: line, through: through)
            let missing = (key?.propertyNames ?? []).filter { values[$0] == nil }
            if !missing.isEmpty {
                return .invalid(
                    device: origin, reason: "\(origin): \(values.missingColumns(missing)), read by idempotency-key")
            }
            let rendered = key?.render(values)
            let shardValue = shardKey.flatMap { values[$0] }
            queued = entries.enumerated().map { position, entry in
                var item = entry.device(
                    for: values, origin: entries.count == 1 ? origin : "\(origin) (device \(position + 1))")
                if case .work(var work) = item {
                    work.declaredKey = rendered.map { entries.count == 1 ? $0 : "\($0)#\(position + 1)" }
                    work.shardValue = shardValue
                    item = .work(work)
                }
                return once(item)
            }
            return queued.isEmpty ? nil : queued.removeFirst()
        }
    }

    /// The item, or a failure when it is an installation an earlier row already made.
    private func once(_ item: DeviceItem) -> DeviceItem {
        guard case .work(let work) = item, let origin = work.origin else { return item }
        switch work.job {
        case .put, .patch, .delete, .deleteRegistration:
            if let first = seen[work.device] {
                return .invalid(
                    device: work.device,
                    reason:
                        "\(origin): installation '\(work.device)' already appears at \(first); give each device once")
            }
            seen[work.device] = origin
        case .register:
            break
        }
        return item
    }
}
