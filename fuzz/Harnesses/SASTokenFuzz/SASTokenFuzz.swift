import FuzzSupport
import HubWire

/// SAS tokens as the emulator verifies an Authorization header (parse, policy, signature, expiry, audience, right).
/// Oracle: nothing but a token signed with the policy's key is accepted.
let verifier = SASVerifier(
    policies: [AccessPolicy(name: "Full", key: "fuzz-key", rights: [.listen, .send, .manage])],
    acceptedHosts: ["local.servicebus.windows.net", "127.0.0.1:8080"])

func fuzzOne(_ bytes: [UInt8]) {
    let header = String(decoding: bytes, as: UTF8.self)
    for right in [AccessRight.listen, .send] {
        guard
            let accepted = try? verifier.verify(
                authorization: header, path: "/myhub/messages", right: right, now: 1_700_000_000)
        else { continue }
        // Accepted: then it must be exactly what the signer makes for its resource and expiry.
        _ = accepted
        // The fields after the scheme, which any whitespace separates from them (as real parsers split).
        let token = header.split(whereSeparator: { $0.isWhitespace }).last ?? ""
        let fields = token.split(separator: "&").compactMap { pair -> (String, String)? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
        let values = Dictionary(fields, uniquingKeysWith: { first, _ in first })
        guard let resource = values["sr"], let expiry = values["se"].flatMap({ Int64($0) }) else {
            fatalError("accepted without sr/se: \(header)")
        }
        let expected = SASSigner.signature(
            stringToSign: SASSigner.stringToSign(encodedResource: resource, expiry: expiry), key: "fuzz-key")
        precondition(
            values["sig"].map { $0.removingPercentEncoding ?? $0 } == expected || values["sig"] == expected,
            "accepted a signature the key did not make: \(header)")
    }
}
