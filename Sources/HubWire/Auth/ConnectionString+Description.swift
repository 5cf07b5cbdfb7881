extension ConnectionString: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The connection string with the key replaced by `<redacted>`.
    public var description: String {
        var text = "Endpoint=\(endpoint);SharedAccessKeyName=\(keyName);SharedAccessKey=\(Redaction.placeholder)"
        if let entityPath { text += ";EntityPath=\(entityPath)" }
        return text
    }

    /// Same as `description`, wrapped in the type name; the key stays redacted.
    public var debugDescription: String {
        "ConnectionString(\(description))"
    }

    /// Mirror without the key, so `dump` and debuggers cannot print it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": endpoint, "baseURL": baseURL, "keyName": keyName,
                "key": Redaction.placeholder, "entityPath": entityPath as Any,
            ], displayStyle: .struct)
    }
}
