import Foundation
import HubWire

/// Notification ids shaped like the service's, numbered by the store's sequence.
struct NotificationIDs: Sendable {
    /// The 8-digit number NH puts in notification ids (one per emulator, as one per service node).
    let nodeNumber = Int.random(in: 10_000_000...99_999_999)

    /// An id shaped like the service's (`73622a22…-20181107001834-33331921-18` in the .NET SDK's recordings): 32 hex
    /// digits, the time stamp in UTC, this emulator's 8-digit node number and a sequence number.
    func notification(at date: Date, sequence: Int) -> String {
        "\(Self.hex32())-\(Self.compactTimestamp(date))-\(nodeNumber)-\(sequence)"
    }

    /// A scheduled notification's id, as recorded:
    /// `af14e491…_20181107001832_33331921_17_QNHQueue930aa64c…-S68116944391983712`.
    func scheduled(at date: Date, sequence: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let queued = UInt64.random(in: 10_000_000_000_000_000...99_999_999_999_999_999, using: &generator)
        return
            "\(Self.hex32())_\(Self.compactTimestamp(date))_\(nodeNumber)_\(sequence)_QNHQueue\(Self.hex32())-S\(queued)"
    }

    private static func hex32() -> String {
        RandomID.uuidString().replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// `yyyyMMddHHmmss` in UTC.
    private static func compactTimestamp(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        let fields = [
            (parts.year ?? 0, 4), (parts.month ?? 0, 2), (parts.day ?? 0, 2), (parts.hour ?? 0, 2),
            (parts.minute ?? 0, 2),
            (parts.second ?? 0, 2),
        ]
        return fields.map { value, width in
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }.joined()
    }
}
