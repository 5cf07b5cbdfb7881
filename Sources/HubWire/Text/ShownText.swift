/// How values appear inside messages: invisible characters named, long values shortened.
public enum ShownText {
    /// Names a character so invisible ones (space, tab) stay readable in messages.
    public static func character(_ c: Character) -> String {
        switch c {
        case " ": "a space"
        case "\t": "a tab"
        case "\n", "\r", "\r\n": "a line break"
        default: "'\(c)'"
        }
    }

    /// Long values (WNS URLs, FCM tokens) shortened to 20 characters and an ellipsis.
    public static func abbreviated(_ text: String) -> String {
        text.count > 24 ? text.prefix(20) + "…" : text
    }
}
