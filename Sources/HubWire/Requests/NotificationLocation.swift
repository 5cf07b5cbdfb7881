/// Reading ids out of the `Location` header of send and schedule responses (nh-rest-api.md §5.1, §5.3, §5.4).
public enum NotificationLocation {
    /// The last path segment, ignoring query and fragment: the notification id of
    /// `…/messages/{id}?api-version=…`, of `…/messages/$batch/{id}?api-version=…&direct` (not `$batch`, the
    /// segment a fixed-position reader would take), and the scheduled id of `…/schedulednotifications/{id}`.
    /// Nil when the URL has no path segment.
    public static func notificationId(fromLocation location: String) -> String? {
        // A batch reads one Location per send: an ASCII header (all of them, in practice) is read as bytes.
        if let id = asciiId(location) { return id }
        var text = Substring(location.trimmingWhitespace())
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            text = text[..<end]
        }
        if let scheme = text.firstRange(of: "://") {
            let afterScheme = text[scheme.upperBound...]
            guard let pathStart = afterScheme.firstIndex(of: "/") else { return nil }
            text = afterScheme[pathStart...]
        }
        return text.split(separator: "/").last.map(String.init)
    }

    /// The same reading over the UTF-8 bytes of an ASCII `location`; `.some(nil)` when it has no segment, nil
    /// when it is not ASCII (then `Character`'s notion of whitespace decides, as above).
    private static func asciiId(_ location: String) -> String?? {
        var location = location
        return location.withUTF8 { bytes -> String?? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
            var start = 0
            var end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            if let cut = bytes[start..<end].firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
                end = cut
            }
            let text = bytes[start..<end]
            if let scheme = firstScheme(in: text) {
                guard let path = text[(scheme + 3)...].firstIndex(of: UInt8(ascii: "/")) else { return .some(nil) }
                start = path
            }
            while end > start, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            guard end > start else { return .some(nil) }
            let from = bytes[start..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? start
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<end]), as: UTF8.self))
        }
    }

    /// Where `://` first starts in `text`.
    private static func firstScheme(in text: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var index = text.startIndex
        while index + 2 < text.endIndex {
            if text[index] == UInt8(ascii: ":"), text[index + 1] == UInt8(ascii: "/"),
                text[index + 2] == UInt8(ascii: "/")
            {
                return index
            }
            index += 1
        }
        return nil
    }
}
