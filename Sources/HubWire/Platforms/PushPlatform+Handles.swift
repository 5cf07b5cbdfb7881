extension PushPlatform {
    /// Why `handle` cannot be a device handle of this platform, in one sentence naming the field as
    /// `what` (`pushChannel`, `handle`); nil when its shape is fine. Only the shape is checked: whether
    /// the PNS still knows the device shows when a send reports it expired.
    public func handleProblem(_ handle: String, what: String = "handle") -> String? {
        guard !handle.isEmpty else { return "\(what) is empty" }
        // Most handles are plain ASCII and fine: judged byte by byte, the checks below (by Character, Unicode-aware,
        // with the handle shown in the message) are for those that are not. A register row checks its handle twice.
        if Self.isPlainlyFine(handle, for: self) { return nil }
        let shown = "\(what) '\(ShownText.abbreviated(handle))'"
        switch self {
        case .apns:
            if let bad = handle.first(where: { !$0.isHexDigit || !$0.isASCII }) {
                return "\(shown) is not an APNs device token: \(ShownText.character(bad)) is not a hex digit"
            }
            if handle.count % 2 != 0 {
                return "\(shown) is not an APNs device token: it has an odd number of hex digits (\(handle.count))"
            }
            return nil
        case .fcmv1, .gcm:
            if let bad = handle.first(where: { $0.isWhitespace }) {
                return "\(shown) is not an FCM registration token: it contains \(ShownText.character(bad))"
            }
            return nil
        case .wns:
            let lower = handle.lowercased()
            guard lower.hasPrefix("https://"), lower.count > "https://".count, lower.dropFirst(8).first != "/" else {
                return "\(shown) is not a WNS channel URI: it must be an https:// URL"
            }
            if let bad = handle.first(where: { $0.isWhitespace }) {
                return "\(shown) is not a WNS channel URI: it contains \(ShownText.character(bad))"
            }
            return nil
        default:
            if let bad = handle.first(where: { $0.isWhitespace }) {
                return "\(shown) contains \(ShownText.character(bad))"
            }
            return nil
        }
    }

    /// True when `handle` passes `handleProblem`'s checks for `platform`, judged on its UTF-8 bytes: an APNs token of
    /// an even number of ASCII hex digits; any other handle all ASCII without white space (WNS: once it starts with
    /// `https://` and a host). False sends it through the full checks, which find the problem or pass it too.
    private static func isPlainlyFine(_ handle: String, for platform: PushPlatform) -> Bool {
        let bytes = handle.utf8
        switch platform {
        case .apns:
            return bytes.count % 2 == 0
                && bytes.allSatisfy {
                    (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0)
                }
        case .wns:
            return false
        default:
            return bytes.allSatisfy { $0 < 0x80 && $0 != 0x20 && !(0x09...0x0D).contains($0) }
        }
    }
}
