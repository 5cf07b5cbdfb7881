/// Reading ids out of the `Location` header of send and schedule responses (nh-rest-api.md §5.1, §5.3, §5.4).
public enum NotificationLocation {
    /// The last path segment, ignoring query and fragment: the notification id of
    /// `…/messages/{id}?api-version=…`, of `…/messages/$batch/{id}?api-version=…&direct` (not `$batch`, the
    /// segment a fixed-position reader would take), and the scheduled id of `…/schedulednotifications/{id}`.
    /// Nil when the URL has no path segment.
    public static func notificationId(fromLocation location: String) -> String? {
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
}
