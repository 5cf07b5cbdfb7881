import HubWire
import Testing

@Suite("ConnectionString errors")
struct ConnectionStringErrorTests {
    static let endpoint = "Endpoint=sb://contoso-nh.servicebus.windows.net/"
    static let keyName = "SharedAccessKeyName=\(Sample.keyName)"
    static let key = "SharedAccessKey=\(Sample.key)"
    static let shape =
        "expected Endpoint=sb://<namespace>.servicebus.windows.net/;SharedAccessKeyName=<policy>;SharedAccessKey=<key>"
    static let known = "known keys are Endpoint, SharedAccessKeyName, SharedAccessKey and EntityPath"

    /// Input, expected message, expected hint.
    static let cases: [(String, String, String?)] = [
        ("", "The connection string is empty.", shape),
        (" ; ;", "The connection string is empty.", shape),
        (
            "\(keyName);\(key)", "The connection string has no Endpoint.",
            "add Endpoint=sb://<namespace>.servicebus.windows.net/ (copy the whole string from the hub's Access Policies page)"
        ),
        (
            "\(endpoint);\(key)", "The connection string has no SharedAccessKeyName.",
            "add SharedAccessKeyName=<policy name>, e.g. DefaultFullSharedAccessSignature (copy the whole string from the hub's Access Policies page)"
        ),
        (
            "\(endpoint);\(keyName)", "The connection string has no SharedAccessKey.",
            "add SharedAccessKey=<key> of the same access policy (copy the whole string from the hub's Access Policies page)"
        ),
        (
            "\(endpoint);\(keyName);\(key);sharedaccesskey=other",
            "The key 'SharedAccessKey' appears more than once in the connection string.",
            "keep exactly one SharedAccessKey=… part"
        ),
        (
            "\(endpoint);\(keyName);\(key);ENDPOINT=sb://x/",
            "The key 'Endpoint' appears more than once in the connection string.",
            "keep exactly one Endpoint=… part"
        ),
        (
            "\(endpoint);\(keyName);\(Sample.key.dropLast())",
            "Part 3 of the connection string is not a Key=Value pair.",
            "separate parts with ';' and write each as Key=Value; \(shape)"
        ),
        ("\(endpoint);\(keyName);=\(Sample.key)", "Part 3 of the connection string has no key name before '='.", shape),
        (
            "\(endpoint);\(keyName);SharedAccessKey=", "SharedAccessKey has an empty value.",
            "add SharedAccessKey=<key> of the same access policy"
        ),
        (
            "\(endpoint);\(keyName);SharedAccesKey=\(Sample.key)",
            "Unknown key 'SharedAccesKey' in part 3 of the connection string.",
            "did you mean 'SharedAccessKey'? \(known)"
        ),
        (
            "\(endpoint);\(keyName);\(key);TransportType=Amqp",
            "Unknown key 'TransportType' in part 4 of the connection string.", known
        ),
        // A lone pasted key splits on its '=' padding into an "unknown key" that must not be quoted.
        (
            "\(endpoint);\(keyName);k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY=",
            "Part 3 of the connection string has an unknown key.", known
        ),
        (
            "Endpoint=ftp://contoso/;\(keyName);\(key)", "Endpoint scheme 'ftp' is not supported.",
            "use sb://, https:// or http://, e.g. Endpoint=sb://<namespace>.servicebus.windows.net/"
        ),
        (
            "Endpoint=contoso-nh.servicebus.windows.net;\(keyName);\(key)", "Endpoint has no scheme.",
            "use sb://, https:// or http://, e.g. Endpoint=sb://<namespace>.servicebus.windows.net/"
        ),
        (
            "Endpoint=sb:///;\(keyName);\(key)", "Endpoint has no host.",
            "e.g. Endpoint=sb://<namespace>.servicebus.windows.net/ or http://127.0.0.1:8080/"
        ),
        // A key that cannot be NH's (a wrong file or variable) is refused here, not sent to be refused request after request.
        (
            "\(endpoint);\(keyName);SharedAccessKey=\(String(repeating: Sample.key, count: 6))",
            "SharedAccessKey is 264 bytes long; an NH key is 44 characters (256 bits in base64), so it cannot be the hub's key.",
            reload
        ),
        (
            "\(endpoint);\(keyName);SharedAccessKey=k9Ua5tXvq8Nd3Jm Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY=",
            "SharedAccessKey holds spaces, control characters or non-ASCII characters, which an NH key (base64) never has, so it cannot be the hub's key.",
            reload
        ),
    ]
    static let reload =
        "copy the connection string again from the hub's Access Policies page; does the file or variable it comes from hold something else?"

    @Test("rejects with message and hint", arguments: cases)
    func rejects(_ text: String, _ message: String, _ hint: String?) {
        #expect(throws: ConnectionStringError(message: message, hint: hint)) {
            try ConnectionString(parsing: text)
        }
    }

    @Test("no error text contains the key", arguments: cases.map(\.0))
    func errorsNeverLeakTheKey(_ text: String) throws {
        let error = try #require(throws: ConnectionStringError.self) { try ConnectionString(parsing: text) }
        for rendering in [error.message, error.hint ?? "", error.description, String(reflecting: error)] {
            #expect(!rendering.contains(Sample.key))
            #expect(!rendering.contains("k9Ua5tXvq8Nd3Jm"))
        }
    }

    @Test("description joins message and hint")
    func description() {
        #expect(ConnectionStringError(message: "Bad.", hint: "fix it").description == "Bad. hint: fix it")
        #expect(ConnectionStringError(message: "Bad.", hint: nil).description == "Bad.")
    }
}
