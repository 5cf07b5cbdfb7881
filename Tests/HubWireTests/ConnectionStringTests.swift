import HubWire
import Testing

@Suite("ConnectionString parsing")
struct ConnectionStringTests {
    /// Input, then expected endpoint, baseURL, keyName, key, entityPath, host, namespace.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        var endpoint = "sb://contoso-nh.servicebus.windows.net/"
        var baseURL = "https://contoso-nh.servicebus.windows.net/"
        var keyName = Sample.keyName
        var key = Sample.key
        var entityPath: String?
        var host = Sample.host
        var namespace: String? = "contoso-nh"
        var testDescription: String { name }
    }

    static let valid: [Case] = [
        Case(name: "portal shape", text: Sample.connectionString),
        Case(
            name: "odd spacing",
            text: "  Endpoint = sb://contoso-nh.servicebus.windows.net/ ;\tSharedAccessKeyName=  "
                + "\(Sample.keyName)\n; SharedAccessKey =\(Sample.key)  \n"),
        Case(
            name: "key first",
            text: "SharedAccessKey=\(Sample.key);SharedAccessKeyName=\(Sample.keyName);"
                + "Endpoint=sb://contoso-nh.servicebus.windows.net/"),
        Case(
            name: "key name case",
            text: "endpoint=sb://contoso-nh.servicebus.windows.net/;SHAREDACCESSKEYNAME="
                + "\(Sample.keyName);sharedAccessKey=\(Sample.key)"),
        Case(name: "EntityPath", text: Sample.connectionString + ";EntityPath=myhub", entityPath: "myhub"),
        Case(name: "entitypath lower case", text: "entitypath=a/b;" + Sample.connectionString, entityPath: "a/b"),
        Case(
            name: "trailing and empty parts", text: ";;" + Sample.connectionString.replacingSemicolons(";;  ;") + ";;"),
        Case(
            name: "'=' padding kept",
            text: "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=p;"
                + "SharedAccessKey=abc==", keyName: "p", key: "abc=="),
        Case(
            name: "'=' inside the key",
            text: "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=p;"
                + "SharedAccessKey=a=b=", keyName: "p", key: "a=b="),
        Case(
            name: "sb without trailing slash",
            text: "Endpoint=sb://contoso-nh.servicebus.windows.net;"
                + "SharedAccessKeyName=\(Sample.keyName);SharedAccessKey=\(Sample.key)",
            endpoint: "sb://contoso-nh.servicebus.windows.net"),
        Case(
            name: "upper-case scheme",
            text: "Endpoint=SB://Contoso-NH.servicebus.windows.net/;"
                + "SharedAccessKeyName=\(Sample.keyName);SharedAccessKey=\(Sample.key)",
            endpoint: "SB://Contoso-NH.servicebus.windows.net/", baseURL: "https://Contoso-NH.servicebus.windows.net/",
            host: "Contoso-NH.servicebus.windows.net", namespace: "Contoso-NH"),
        Case(
            name: "https endpoint",
            text: "Endpoint=https://contoso-nh.servicebus.windows.net/;"
                + "SharedAccessKeyName=\(Sample.keyName);SharedAccessKey=\(Sample.key)",
            endpoint: "https://contoso-nh.servicebus.windows.net/"),
        Case(
            name: "http emulator with port, no slash",
            text: "Endpoint=http://127.0.0.1:8080;"
                + "SharedAccessKeyName=\(Sample.keyName);SharedAccessKey=\(Sample.key)",
            endpoint: "http://127.0.0.1:8080", baseURL: "http://127.0.0.1:8080/", host: "127.0.0.1:8080", namespace: nil
        ),
        Case(
            name: "sb localhost with port",
            text: "Endpoint=sb://localhost:8443/;"
                + "SharedAccessKeyName=\(Sample.keyName);SharedAccessKey=\(Sample.key)",
            endpoint: "sb://localhost:8443/", baseURL: "https://localhost:8443/", host: "localhost:8443", namespace: nil
        ),
        Case(
            name: "endpoint with a path",
            text: "Endpoint=http://[::1]:9000/nh;"
                + "SharedAccessKeyName=\(Sample.keyName);SharedAccessKey=\(Sample.key)",
            endpoint: "http://[::1]:9000/nh", baseURL: "http://[::1]:9000/nh/", host: "[::1]:9000", namespace: nil),
    ]

    @Test("valid connection strings", arguments: valid)
    func parses(_ expected: Case) throws {
        let parsed = try ConnectionString(parsing: expected.text)
        #expect(parsed.endpoint == expected.endpoint)
        #expect(parsed.baseURL == expected.baseURL)
        #expect(parsed.keyName == expected.keyName)
        #expect(parsed.key == expected.key)
        #expect(parsed.entityPath == expected.entityPath)
        #expect(parsed.host == expected.host)
        #expect(parsed.namespace == expected.namespace)
    }

    @Test("equal strings in different shapes parse to equal values")
    func equality() throws {
        let spaced = try ConnectionString(
            parsing: " SharedAccessKey = \(Sample.key) ; sharedaccesskeyname=\(Sample.keyName);"
                + "ENDPOINT=sb://contoso-nh.servicebus.windows.net/;")
        #expect(try ConnectionString(parsing: Sample.connectionString) == spaced)
    }

    @Test("the signer carries the policy")
    func signer() throws {
        let connection = try ConnectionString(parsing: Sample.connectionString)
        let token = connection.signer.token(
            forResource: "https://contoso-nh.servicebus.windows.net/myhub",
            expiry: Sample.expiry)
        #expect(
            token.headerValue
                == SASSigner(keyName: Sample.keyName, key: Sample.key)
                .token(forResource: "https://contoso-nh.servicebus.windows.net/myhub", expiry: Sample.expiry)
                .headerValue)
    }
}

extension String {
    /// Replaces every `;` so tests can build strings with empty parts.
    func replacingSemicolons(_ replacement: String) -> String {
        split(separator: ";", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
