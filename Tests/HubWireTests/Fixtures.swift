import Foundation
import HubWire
import Testing

/// One vector of `shared/fixtures/sas-vectors.json`.
struct SASVector: Decodable, Sendable, CustomTestStringConvertible {
    let style: String
    let resource: String
    let keyName: String
    let key: String
    let expiry: Int64
    let encodedResource: String
    let stringToSign: String
    let signatureBase64: String
    let token: String

    /// .NET and the seed tutorial escape with lower-case hex; pyamqp and JS with upper case.
    var hexCase: HexCase { style == "seed-tutorial" || style == "dotnet-sdk" ? .lower : .upper }

    var testDescription: String { style }
}

/// The fixture's negative vector: what a signer that base64-decodes the key would produce.
struct SASNegativeVector: Decodable, Sendable {
    let resource: String
    let encodedResource: String
    let wrongSignatureBase64: String
}

struct SASFixture: Decodable, Sendable {
    let vectors: [SASVector]
    let negative: SASNegativeVector

    /// Read at run time from `Tests/Fixtures/sas-vectors.json`, inside the repository, so a plain clone has it
    /// (`.ci/run` checks the copy against the team's shared fixtures when they are beside the clone).
    static func load(filePath: String = #filePath) throws -> SASFixture {
        let data = try Data(contentsOf: packageRoot(from: filePath)
            .appendingPathComponent("Tests/Fixtures/sas-vectors.json"))
        return try JSONDecoder().decode(SASFixture.self, from: data)
    }

    /// Walks up from this file to the directory holding Package.swift.
    static func packageRoot(from filePath: String) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        throw FixtureError.noPackageRoot(filePath)
    }
}

enum FixtureError: Error {
    case noPackageRoot(String)
}

/// Shared test inputs.
enum Sample {
    static let key = "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
    static let keyName = "DefaultFullSharedAccessSignature"
    static let host = "contoso-nh.servicebus.windows.net"
    static let connectionString =
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=\(keyName);SharedAccessKey=\(key)"
    /// The fixture's expiry; every vector is valid strictly before it.
    static let expiry: Int64 = 1_700_000_000
}
