import PasswordHashing
import Testing

@Suite struct PasswordHashTests {
    @Test func makesAndChecksBcryptHashes() async {
        let hash = PasswordHash.make("correct horse", cost: 4)
        #expect(hash.hasPrefix("$2b$04$"))
        #expect(PasswordHash.isSupported(hash))
        #expect(await PasswordHash.verify("correct horse", against: hash))
        #expect(!(await PasswordHash.verify("correct horsE", against: hash)))
    }

    @Test func acceptsTheApacheAndPHPPrefix() async {
        // `$2y$` is the same algorithm as `$2b$`; only the name differs.
        let hash = PasswordHash.make("pw", cost: 4)
        let apache = "$2y$" + hash.dropFirst(4)
        #expect(PasswordHash.isSupported(apache))
        #expect(await PasswordHash.verify("pw", against: apache))
    }

    @Test(arguments: [
        "", "plain", "{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=", "$apr1$abc$def",
        "$2b$99$" + String(repeating: "a", count: 53),
        "$2b$04$short",
    ])
    func refusesWhatIsNotBcrypt(_ hash: String) async {
        #expect(!PasswordHash.isSupported(hash))
        #expect(!(await PasswordHash.verify("plain", against: hash)))
    }
}
