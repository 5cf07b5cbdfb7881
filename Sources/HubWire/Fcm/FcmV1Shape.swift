/// What FCM v1 would refuse in a payload NH accepts for `fcmv1` devices: NH checks only the `message` wrapper
/// and the absent target, then each device's send fails at Google with INVALID_ARGUMENT. Read on the rendered
/// payload, so template expressions have their values.
public enum FcmV1Shape {
    /// Legacy FCM keys that have a v1 place, and that place.
    static let movedKeys: [String: String] = [
        "time_to_live": "message.android.ttl (a string such as \"3600s\")",
        "collapse_key": "message.android.collapse_key",
        "priority": "message.android.priority (\"high\" or \"normal\")",
        "restricted_package_name": "message.android.restricted_package_name",
        "content_available": "message.apns (an iOS setting)",
        "mutable_content": "message.apns (an iOS setting)",
        "delay_while_idle": "nowhere: v1 has no such field",
        "dry_run": "nowhere: v1 has no per-message dry run",
        "registration_ids": "nowhere: the hub addresses each device",
        "to": "nowhere: the hub addresses each device",
    ]

    /// Each problem of a rendered payload in words, or none. A body that is not JSON has none here (the JSON lint
    /// reports it).
    public static func problems(_ body: some Collection<UInt8>) -> [String] {
        problems(body, rendered: true)
    }

    /// The same for an NH template body before it is rendered: a value written as an expression is judged by what
    /// it can render (`"#(count)"` in `data` renders a bare number; `"$(ttl)"` may render a duration).
    public static func problems(template body: some Collection<UInt8>) -> [String] {
        problems(body, rendered: false)
    }

    private static func problems(_ body: some Collection<UInt8>, rendered: Bool) -> [String] {
        guard let parsed = FcmJSON.parse(body) else { return [] }
        guard let top = parsed.object else {
            return ["the FCM v1 payload must be a JSON object with a \"message\" object"]
        }
        guard let messageValue = top["message"] else {
            let legacy = ["data", "notification"] + movedKeys.keys.sorted()
            if let key = legacy.first(where: { top[$0] != nil }) {
                return [
                    "this is the legacy FCM shape ('\(key)' at the top): FCM v1 wants it inside a \"message\" object, "
                        + "like {\"message\":{\"data\":{…}}}; `pushline fcmv1 translate FILE` writes the v1 form"
                ]
            }
            return [
                "the FCM v1 payload needs a \"message\" object, like {\"message\":{\"notification\":{\"title\":\"Hello\"}}}"
            ]
        }
        guard let message = messageValue.object else {
            return ["\"message\" is \(messageValue.kindName), not an object"]
        }
        var problems: [String] = []
        for key in message.keys.sorted() {
            if ["token", "topic", "condition"].contains(key) {
                problems.append("message.\(key) names a target; leave it out: the hub addresses each device")
            } else if let place = movedKeys[key] {
                problems.append("message.\(key) is a legacy FCM key; in FCM v1 it goes to \(place)")
            }
        }
        if let data = message["data"] { problems += stringMap(data, at: "message.data", rendered: rendered) }
        if let notification = message["notification"]?.object {
            for key in notification.keys.sorted() where !LegacyFcmPayload.commonNotificationKeys.contains(key) {
                let name = LegacyFcmPayload.androidNotificationKeys[key]
                problems.append(
                    "message.notification.\(key) is not an FCM v1 notification field"
                        + (name.map { "; it goes to message.android.notification.\($0)" } ?? ""))
            }
        }
        if let android = message["android"]?.object {
            if let ttl = android["ttl"], !isDuration(ttl), rendered || !isExpression(ttl) {
                problems.append("message.android.ttl must be a string of seconds such as \"3.5s\", found \(ttl.text)")
            }
            // FCM reads the enum's names in either case ("high", as its own examples write it, or "HIGH"), or its numbers.
            if let priority = android["priority"],
                !["high", "normal"].contains(priority.stringValue?.lowercased() ?? ""),
                priority != .integer(0), priority != .integer(1), rendered || !isExpression(priority)
            {
                problems.append("message.android.priority must be \"high\" or \"normal\", found \(priority.text)")
            }
            if let data = android["data"] {
                problems += stringMap(data, at: "message.android.data", rendered: rendered)
            }
            if let notification = android["notification"]?.object {
                for key in ["body_loc_args", "title_loc_args"] {
                    guard let value = notification[key] else { continue }
                    guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
                        problems.append(
                            "message.android.notification.\(key) must be a list of strings, found \(value.text)")
                        continue
                    }
                }
            }
        }
        return problems
    }

    /// Whether a template's value is an NH expression (its rendered value is not known yet).
    private static func isExpression(_ value: FcmJSON) -> Bool {
        guard case .string(let text) = value else { return false }
        return ["$(", "#(", ".(", "%("].contains(where: text.contains) || (text.hasPrefix("{") && text.hasSuffix("}"))
    }

    /// FCM v1's string-only maps.
    private static func stringMap(_ value: FcmJSON, at path: String, rendered: Bool) -> [String] {
        guard let members = value.object else {
            return ["\(path) must be an object of strings, found \(value.kindName)"]
        }
        return members.sorted { $0.key < $1.key }.compactMap { key, value in
            if case .string(let text) = value {
                guard !rendered, let name = LegacyFcmPayload.bareNumberExpression(text) else { return nil }
                return
                    "\(path).\(key) is \(text), which renders a bare number for a number-like value; FCM v1 data holds only strings: write $(\(name))"
            }
            let quoted = value.dataString.map { ": write it as the string \(FcmJSON.quote($0))" } ?? ""
            return "\(path).\(key) is \(value.kindName); FCM v1 data holds only strings\(quoted)"
        }
    }

    /// A protobuf Duration in JSON: whole seconds with up to nine fractional digits, then `s`.
    private static func isDuration(_ value: FcmJSON) -> Bool {
        guard case .string(let text) = value, text.hasSuffix("s") else { return false }
        let number = text.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(number.count), let whole = number.first, !whole.isEmpty,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return false }
        if number.count == 2 {
            let fraction = number[1]
            return (1...9).contains(fraction.count) && fraction.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return true
    }
}
