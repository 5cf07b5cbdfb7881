import Foundation

/// One vector of the team's SAS fixture (`Tests/Fixtures/sas-vectors.json`): a signer's inputs and what it must produce.
package struct SASVector: Decodable, Sendable {
    package let style: String
    package let resource: String
    package let keyName: String
    package let key: String
    package let expiry: Int64
    package let encodedResource: String
    package let stringToSign: String
    package let signatureBase64: String
    package let token: String
}

/// The fixture's negative vector: what a signer that base64-decodes the key would produce.
package struct SASNegativeVector: Decodable, Sendable {
    package let resource: String
    package let encodedResource: String
    package let wrongSignatureBase64: String
}

/// The SAS vectors every signer and verifier must satisfy, read from the repository's copy (a plain clone has it;
/// `.ci/run` checks the copy against the team's shared fixtures when they are beside the clone).
package struct SASFixture: Decodable, Sendable {
    package let vectors: [SASVector]
    package let negative: SASNegativeVector

    /// Reads `Tests/Fixtures/sas-vectors.json`.
    package static func load() throws -> SASFixture {
        let data = try Data(contentsOf: TestFiles.packageRoot.appendingPathComponent("Tests/Fixtures/sas-vectors.json"))
        return try JSONDecoder().decode(SASFixture.self, from: data)
    }

    /// The vectors, or none when the file cannot be read (a test over them then records that it has none).
    package static let vectors: [SASVector] = (try? load().vectors) ?? []
}
