import TestSupport
import Testing

@testable import HubWire

@Suite("SASSigner")
struct SASSignerTests {
    @Test("fixture vectors sign byte-for-byte", arguments: try SASFixture.load().vectors)
    func signsFixtureVector(_ vector: SASVector) {
        let signer = SASSigner(keyName: vector.keyName, key: vector.key)
        let token = signer.token(forResource: vector.resource, expiry: vector.expiry, hexCase: vector.hexCase)
        #expect(SASSigner.percentEncode(vector.resource, hexCase: vector.hexCase) == vector.encodedResource)
        #expect(
            SASSigner.stringToSign(encodedResource: vector.encodedResource, expiry: vector.expiry)
                == vector.stringToSign)
        #expect(SASSigner.signature(stringToSign: vector.stringToSign, key: vector.key) == vector.signatureBase64)
        #expect(token.headerValue == vector.token)
        #expect(token.resource == vector.resource)
        #expect(token.encodedResource == vector.encodedResource)
        #expect(token.expiry == vector.expiry)
        #expect(token.keyName == vector.keyName)
    }

    @Test("the seed-tutorial style is the default")
    func defaultIsSeedTutorial() throws {
        let seed = try #require(try SASFixture.load().vectors.first { $0.style == "seed-tutorial" })
        let token = SASSigner(keyName: seed.keyName, key: seed.key).token(
            forResource: seed.resource, expiry: seed.expiry)
        #expect(token.headerValue == seed.token)
    }

    @Test("the key text is used as-is, never base64-decoded")
    func negativeVectorNotProduced() throws {
        let negative = try SASFixture.load().negative
        for hexCase in HexCase.allCases {
            let encoded = SASSigner.percentEncode(negative.resource, hexCase: hexCase)
            let signature = SASSigner.signature(
                stringToSign: SASSigner.stringToSign(encodedResource: encoded, expiry: Sample.expiry), key: Sample.key)
            #expect(signature != negative.wrongSignatureBase64)
            let token = SASSigner(keyName: Sample.keyName, key: Sample.key)
                .token(forResource: negative.resource, expiry: Sample.expiry, hexCase: hexCase)
            #expect(
                !token.headerValue.contains(SASSigner.percentEncode(negative.wrongSignatureBase64, hexCase: hexCase)))
        }
    }

    @Test(
        "percent-encoding keeps only unreserved characters",
        arguments: [
            ("AZaz09-_.~", HexCase.lower, "AZaz09-_.~"),
            ("a b+c/d=e", .lower, "a%20b%2bc%2fd%3de"),
            ("a b+c/d=e", .upper, "a%20b%2Bc%2Fd%3De"),
            ("https://h:8080/p?q=1&r#f", .upper, "https%3A%2F%2Fh%3A8080%2Fp%3Fq%3D1%26r%23f"),
            ("ü€", .lower, "%c3%bc%e2%82%ac"),
            ("!*'()", .upper, "%21%2A%27%28%29"),
            ("", .lower, ""),
        ])
    func percentEncodes(_ input: String, _ hexCase: HexCase, _ expected: String) {
        #expect(SASSigner.percentEncode(input, hexCase: hexCase) == expected)
    }

    @Test("the key name is percent-encoded in skn")
    func encodesKeyName() {
        let token = SASSigner(keyName: "my policy", key: "k").token(forResource: "https://h/x", expiry: 1)
        #expect(token.headerValue.hasSuffix("&se=1&skn=my%20policy"))
        #expect(token.keyName == "my policy")
    }

    @Test("redacted form hides only the signature")
    func redactsSignature() throws {
        let seed = try #require(try SASFixture.load().vectors.first { $0.style == "seed-tutorial" })
        let token = SASSigner(keyName: seed.keyName, key: seed.key).token(
            forResource: seed.resource, expiry: seed.expiry)
        let expected =
            "SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub"
            + "&sig=<redacted>&se=1700000000&skn=DefaultFullSharedAccessSignature"
        #expect(token.redacted == expected)
        #expect(token.description == expected)
        #expect(String(describing: token) == expected)
        #expect(String(reflecting: token) == "SASToken(\(expected))")
    }
}
