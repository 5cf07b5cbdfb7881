/// Why a connection string was rejected, with a hint on how to fix it.
///
/// Messages may name keys and quote the Endpoint, but never contain any value that could be the secret key.
public struct ConnectionStringError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One sentence saying what is wrong.
    public let message: String
    /// How to fix it, when there is something useful to say.
    public let hint: String?

    /// Creates an error; callers outside HubWire use it to re-wrap or fake parse failures in tests.
    public init(message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// `message`, followed by `hint:` and the hint when there is one.
    public var description: String {
        guard let hint else { return message }
        return "\(message) hint: \(hint)"
    }
}

extension ConnectionStringError {
    static let shapeHint =
        "expected Endpoint=sb://<namespace>.servicebus.windows.net/;SharedAccessKeyName=<policy>;SharedAccessKey=<key>"

    static let empty = ConnectionStringError(
        message: "The connection string is empty.", hint: shapeHint)

    static func notKeyValue(part: Int) -> ConnectionStringError {
        // The part's text is not quoted: a lone pasted key would otherwise end up in the message.
        ConnectionStringError(
            message: "Part \(part) of the connection string is not a Key=Value pair.",
            hint: "separate parts with ';' and write each as Key=Value; \(shapeHint)")
    }

    static func emptyKeyName(part: Int) -> ConnectionStringError {
        ConnectionStringError(
            message: "Part \(part) of the connection string has no key name before '='.", hint: shapeHint)
    }

    static func unknownKey(_ name: String, part: Int, suggestion: String?) -> ConnectionStringError {
        // Only short all-letter names are quoted; anything else might be a fragment of the secret.
        let quotable = name.count <= 32 && name.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
        let message =
            quotable
            ? "Unknown key '\(name)' in part \(part) of the connection string."
            : "Part \(part) of the connection string has an unknown key."
        let known = "known keys are Endpoint, SharedAccessKeyName, SharedAccessKey and EntityPath"
        let hint = suggestion.map { "did you mean '\($0)'? \(known)" } ?? known
        return ConnectionStringError(message: message, hint: hint)
    }

    static func duplicate(_ key: ConnectionString.Key) -> ConnectionStringError {
        ConnectionStringError(
            message: "The key '\(key.name)' appears more than once in the connection string.",
            hint: "keep exactly one \(key.name)=… part")
    }

    static func emptyValue(_ key: ConnectionString.Key) -> ConnectionStringError {
        ConnectionStringError(message: "\(key.name) has an empty value.", hint: key.example)
    }

    static let invalidKeyName = ConnectionStringError(
        message: "SharedAccessKeyName holds characters a policy name cannot have.",
        hint:
            "policy names use letters, digits, '.', '-' and '_', e.g. DefaultFullSharedAccessSignature; is the key in the wrong place?"
    )

    static func implausibleKey(length: Int) -> ConnectionStringError {
        // Only the length is said: the key itself, or any part of it, is never shown.
        let what =
            length > ConnectionString.maxKeyLength
            ? "is \(length) bytes long; an NH key is 44 characters (256 bits in base64)"
            : "holds spaces, control characters or non-ASCII characters, which an NH key (base64) never has"
        return ConnectionStringError(
            message: "SharedAccessKey \(what), so it cannot be the hub's key.",
            hint:
                "copy the connection string again from the hub's Access Policies page; does the file or variable it comes from hold something else?"
        )
    }

    static func missing(_ key: ConnectionString.Key) -> ConnectionStringError {
        ConnectionStringError(
            message: "The connection string has no \(key.name).",
            hint: "\(key.example) (copy the whole string from the hub's Access Policies page)")
    }

    static func unsupportedScheme(endpoint: String, scheme: String?) -> ConnectionStringError {
        // The endpoint text is never quoted: a key pasted into the wrong place would be echoed.
        let supported = ["amqp", "amqps", "ftp", "ws", "wss"]
        let message =
            scheme.flatMap { supported.contains($0.lowercased()) ? "Endpoint scheme '\($0)' is not supported." : nil }
            ?? (scheme == nil ? "Endpoint has no scheme." : "Endpoint scheme is not supported.")
        return ConnectionStringError(
            message: message,
            hint: "use sb://, https:// or http://, e.g. Endpoint=sb://<namespace>.servicebus.windows.net/")
    }

    static func missingHost(endpoint: String) -> ConnectionStringError {
        ConnectionStringError(
            message: "Endpoint has no host.",
            hint: "e.g. Endpoint=sb://<namespace>.servicebus.windows.net/ or http://127.0.0.1:8080/")
    }
}
