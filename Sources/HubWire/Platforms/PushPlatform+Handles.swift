extension PushPlatform {
    /// Why `handle` cannot be a device handle of this platform, in one sentence naming the field as
    /// `what` (`pushChannel`, `handle`); nil when its shape is fine. Only the shape is checked: whether
    /// the PNS still knows the device shows when a send reports it expired.
    public func handleProblem(_ handle: String, what: String = "handle") -> String? {
        guard !handle.isEmpty else { return "\(what) is empty" }
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
}
