import Foundation

/// Translates a legacy FCM payload (NH's `gcm` platform: the HTTP API Google retired on 20 June 2024) to the
/// FCM v1 shape NH's `fcmv1` platform sends: everything inside `message`, `data` values as strings, the
/// Android-only settings under `message.android` (`ttl` a string of seconds such as "3.5s", `priority` high or
/// normal), the notification's Android-only fields under `message.android.notification`.
///
/// Works on template bodies: `$(…)` and `{…}` expressions inside strings are carried over untouched (a
/// `time_to_live` written as an expression becomes the composite `"{$(ttl) + 's'}"`, which renders as v1 wants it). A body this
/// cannot translate faithfully (not JSON on its own, a key it does not know, `dry_run: true`) is refused with
/// the reason, never guessed at.
public enum LegacyFcmPayload {
    /// A translated body and what changed beyond moving keys.
    public struct Translation: Sendable, Equatable {
        /// The v1 body: compact JSON, keys sorted.
        public let body: String
        /// Keys dropped or values converted, each in a sentence.
        public let notes: [String]
    }

    /// Why a body was not translated.
    public struct Problem: Error, Sendable, Equatable {
        /// What is wrong, in a sentence.
        public let message: String

        /// Creates a problem.
        public init(message: String) {
            self.message = message
        }
    }

    /// Legacy notification fields that FCM v1 keeps in `message.notification`; the rest go to `android.notification`.
    static let commonNotificationKeys: Set<String> = ["title", "body", "image"]
    /// Legacy notification fields and their names under `message.android.notification`.
    static let androidNotificationKeys: [String: String] = [
        "icon": "icon", "sound": "sound", "tag": "tag", "color": "color", "click_action": "click_action",
        "body_loc_key": "body_loc_key", "body_loc_args": "body_loc_args", "title_loc_key": "title_loc_key",
        "title_loc_args": "title_loc_args", "android_channel_id": "channel_id",
    ]

    /// The v1 form of `body`, a legacy FCM JSON body (a payload or an NH template body).
    public static func translate(_ body: String) throws(Problem) -> Translation {
        guard let parsed = FcmJSON.parse(Array(body.utf8)) else {
            throw Problem(
                message: "the body is not JSON on its own (an expression outside quotes?), so it is not translated; "
                    + "write its FCM v1 form by hand")
        }
        guard var legacy = parsed.object else {
            throw Problem(message: "the body is \(parsed.kindName), not a JSON object")
        }
        if legacy["message"] != nil {
            throw Problem(message: "the body already has a \"message\" object (the FCM v1 shape)")
        }
        var message: [String: FcmJSON] = [:]
        var android: [String: FcmJSON] = [:]
        var notes: [String] = []

        for target in ["to", "registration_ids", "condition", "notification_key"]
        where legacy.removeValue(forKey: target) != nil {
            notes.append("dropped '\(target)': the hub addresses each device")
        }
        if let dryRun = legacy.removeValue(forKey: "dry_run") {
            guard dryRun == .bool(false) else {
                throw Problem(
                    message: "'dry_run' is set: FCM v1 has no per-message dry run, and dropping it would deliver "
                        + "what was never delivered; remove it by hand if the template should send")
            }
            notes.append("dropped 'dry_run: false'")
        }
        for iosOnly in ["content_available", "mutable_content"] where legacy.removeValue(forKey: iosOnly) != nil {
            notes.append("dropped '\(iosOnly)': an iOS setting, and these are Android devices")
        }
        if legacy.removeValue(forKey: "delay_while_idle") != nil {
            notes.append("dropped 'delay_while_idle': FCM ignored it since 2016 and v1 has no such field")
        }
        if let data = legacy.removeValue(forKey: "data") {
            guard let members = data.object else { throw Problem(message: "'data' is \(data.kindName), not an object") }
            var strings: [String: FcmJSON] = [:]
            for (key, value) in members {
                guard let text = value.dataString else {
                    notes.append("dropped data '\(key)': null (v1 data holds only strings)")
                    continue
                }
                if case .string(let string) = value, let name = Self.bareNumberExpression(string) {
                    // `#(x)` drops the quotes of a number-like value, and v1 data takes strings only.
                    notes.append("data '\(key)': \(string) renders a bare number; written as $(\(name)), a string")
                    strings[key] = .string("$(\(name))")
                    continue
                }
                if case .string = value {
                } else {
                    notes.append("data '\(key)': \(value.kindName) written as the string \(FcmJSON.quote(text))")
                }
                strings[key] = .string(text)
            }
            message["data"] = .object(strings)
        }
        if let notification = legacy.removeValue(forKey: "notification") {
            guard let members = notification.object else {
                throw Problem(message: "'notification' is \(notification.kindName), not an object")
            }
            var common: [String: FcmJSON] = [:]
            var specific: [String: FcmJSON] = [:]
            for (key, value) in members {
                if commonNotificationKeys.contains(key) {
                    common[key] = value
                } else if let name = androidNotificationKeys[key] {
                    specific[name] = name.hasSuffix("_loc_args") ? try locArgs(value, key: key) : value
                } else {
                    throw Problem(
                        message:
                            "'notification.\(key)' has no FCM v1 place this translation knows; write its FCM v1 form by hand"
                    )
                }
            }
            if !common.isEmpty { message["notification"] = .object(common) }
            if !specific.isEmpty { android["notification"] = .object(specific) }
        }
        if let ttl = legacy.removeValue(forKey: "time_to_live") {
            android["ttl"] = .string(try duration(ttl))
        }
        if let priority = legacy.removeValue(forKey: "priority") {
            android["priority"] = .string(try self.priority(priority))
        }
        for key in ["collapse_key", "restricted_package_name"] {
            if let value = legacy.removeValue(forKey: key) { android[key] = value }
        }
        if let key = legacy.keys.sorted().first {
            throw Problem(
                message: "'\(key)' is not a legacy FCM key this translation knows; write its FCM v1 form by hand")
        }
        if !android.isEmpty { message["android"] = .object(android) }
        if message.isEmpty { throw Problem(message: "the body has neither 'data' nor 'notification': nothing to send") }
        return Translation(body: FcmJSON.object(["message": .object(message)]).text, notes: notes)
    }

    /// `time_to_live` (whole seconds, a number or a string or an expression) as v1's duration string.
    private static func duration(_ value: FcmJSON) throws(Problem) -> String {
        switch value {
        case .integer(let seconds) where seconds >= 0: return "\(seconds)s"
        case .number(let seconds) where seconds >= 0: return "\(FcmJSON.format(seconds))s"
        case .string(let text) where !text.isEmpty && text.allSatisfy({ $0.isASCII && $0.isNumber }): return "\(text)s"
        // An NH expression must be the whole value: text is added by a composite, `{$(ttl) + 's'}`.
        case .string(let text) where text.hasPrefix("{") && text.hasSuffix("}") && text.count > 2:
            return String(text.dropLast()).trimmingTrailingSpaces + " + 's'}"
        case .string(let text) where simpleExpression(text) != nil:
            return "{$(\(simpleExpression(text)!)) + 's'}"
        default: throw Problem(message: "'time_to_live' is \(value.text), not a number of seconds")
        }
    }

    /// Legacy `body_loc_args` and `title_loc_args` are a JSON array written as a string; v1's are an array of strings.
    private static func locArgs(_ value: FcmJSON, key: String) throws(Problem) -> FcmJSON {
        var list = value
        if case .string(let text) = value {
            guard let parsed = FcmJSON.parse(Array(text.utf8)), case .array = parsed else {
                throw Problem(
                    message:
                        "'notification.\(key)' is \(FcmJSON.quote(text)), not a JSON array in a string; write its FCM v1 form by hand"
                )
            }
            list = parsed
        }
        guard case .array(let items) = list else {
            throw Problem(message: "'notification.\(key)' is \(value.kindName), not a list")
        }
        return .array(items.map { .string($0.dataString ?? "") })
    }

    /// The property of a whole-value `$(name)` or `#(name)` (no length), else nil.
    static func simpleExpression(_ text: String) -> String? {
        guard text.count > 3, text.first == "$" || text.first == "#", text.dropFirst().first == "(", text.last == ")"
        else { return nil }
        let name = text.dropFirst(2).dropLast()
        guard !name.isEmpty, !name.contains(where: { "(),{}'\" ".contains($0) }) else { return nil }
        return String(name)
    }

    /// The property of a whole-value `#(name)`.
    static func bareNumberExpression(_ text: String) -> String? {
        text.first == "#" ? simpleExpression(text) : nil
    }

    /// Legacy `priority` (`high`, `normal`, or APNs-style 10 and 5) as v1's Android priority, written as FCM's examples do.
    private static func priority(_ value: FcmJSON) throws(Problem) -> String {
        switch value {
        case .string(let text) where text.lowercased() == "high": return "high"
        case .string(let text) where text.lowercased() == "normal": return "normal"
        case .integer(10): return "high"
        case .integer(5): return "normal"
        default:
            throw Problem(
                message:
                    "'priority' is \(value.text); FCM v1 takes \"high\" or \"normal\" (an expression cannot be translated)"
            )
        }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
