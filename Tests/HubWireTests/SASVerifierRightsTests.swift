import HubWire
import Testing

@Suite("SASVerifier rights")
struct SASVerifierRightsTests {
    static let policies = [
        AccessPolicy(name: "ListenOnly", key: "l", rights: [.listen]),
        AccessPolicy(name: "SendOnly", key: "s", rights: [.send]),
        AccessPolicy(name: "ListenSend", key: "ls", rights: [.listen, .send]),
        AccessPolicy(name: "ManageOnly", key: "m", rights: [.manage]),
        AccessPolicy(name: "None", key: "n", rights: []),
    ]
    static let verifier = SASVerifier(policies: policies, acceptedHosts: ["contoso-nh.servicebus.windows.net"])

    /// Policy, needed right, missing right (nil when allowed).
    static let matrix: [(String, AccessRight, AccessRight?)] = [
        ("ListenOnly", .listen, nil), ("ListenOnly", .send, .send), ("ListenOnly", .manage, .manage),
        ("SendOnly", .listen, .listen), ("SendOnly", .send, nil), ("SendOnly", .manage, .manage),
        ("ListenSend", .listen, nil), ("ListenSend", .send, nil), ("ListenSend", .manage, .manage),
        ("ManageOnly", .listen, nil), ("ManageOnly", .send, nil), ("ManageOnly", .manage, nil),
        ("None", .listen, .listen), ("None", .send, .send), ("None", .manage, .manage),
    ]

    @Test("rights matrix", arguments: matrix)
    func rights(_ policyName: String, _ right: AccessRight, _ missing: AccessRight?) throws {
        let policy = try #require(Self.policies.first { $0.name == policyName })
        let header = SASSigner(keyName: policy.name, key: policy.key)
            .token(forResource: "https://contoso-nh.servicebus.windows.net/myhub", expiry: 100).headerValue
        #expect(policy.grants(right) == (missing == nil))
        if let missing {
            let error = try #require(throws: SASVerificationError.self) {
                try Self.verifier.verify(authorization: header, path: "/myhub/messages", right: right, now: 0)
            }
            #expect(error == SASVerificationError(kind: .missingRight(missing)))
            #expect(error.status == 401)
            #expect(error.detail == "\(missing.rawValue) claim is required for this operation.")
        } else {
            let verified = try Self.verifier.verify(
                authorization: header, path: "/myhub/messages", right: right, now: 0)
            #expect(verified.policy == policyName)
        }
    }

    @Test("rights are checked last: an expired Listen token for a send is reported as expired")
    func rightCheckedAfterExpiry() {
        let header = SASSigner(keyName: "ListenOnly", key: "l")
            .token(forResource: "https://contoso-nh.servicebus.windows.net/myhub", expiry: 100).headerValue
        #expect(throws: SASVerificationError(kind: .expired)) {
            try Self.verifier.verify(authorization: header, path: "/myhub/messages", right: .send, now: 100)
        }
    }
}
