import CommandTestSupport
import Foundation
import Testing

/// `pushline emulator --tls`: HTTPS with a local certificate authority, `Endpoint=sb://…` connection strings, a
/// client that never heard of the emulator (Python's `ssl`, trusting the printed file), and `pushline` trusting it
/// through `PUSHLINE_CA_FILE`.
@Suite(.serialized) struct EmulatorTLSProcessTests {
    static let script = CommandRunner.root + "/Tests/PushlineCLITests/Inputs/clients/nh_rest_client.py"
    static let installation =
        #"{"installationId":"tls-1","platform":"apns","pushChannel":"62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA","tags":["12345"],"templates":{"genericTemplate":{"body":"{\"aps\":{\"alert\":\"$(message)\"}}"}}}"#

    struct Started {
        let process: PushlineProcess
        let base: String
        let connection: String
        let trust: String
    }

    func start(folder: String) async throws -> Started {
        let emulator = try PushlineProcess(["emulator", "--tls", "--tls-dir", folder, "--port", "0"])
        let banner = try await emulator.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            banner.split(separator: " ").first { $0.hasPrefix("https://127.0.0.1:") }.map(String.init), "\(banner)")
        let connection = try #require(
            banner.split(separator: "\n").first { $0.contains("SharedAccessKeyName=DefaultFullSharedAccessSignature") }
        )
        .trimmingCharacters(in: .whitespaces)
        let trust = try #require(banner.split(separator: "\n").first { $0.hasPrefix("trust: ") }).dropFirst(
            "trust: ".count)
        return Started(process: emulator, base: base, connection: connection, trust: String(trust))
    }

    func python(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = try output.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func pushline(_ arguments: [String], _ environment: [String: String]) async throws -> (Int32, String) {
        let process = try PushlineProcess(arguments, environment: environment)
        let status = try await process.waitForExit()
        return (status, process.stdout)
    }

    @Test func anUnmodifiedClientAndPushlineReachTheEmulatorOverHTTPSTrustingOnlyThePrintedFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-tls-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await start(folder: folder)
        #expect(first.connection.hasPrefix("Endpoint=sb://127.0.0.1:"), "\(first.connection)")
        #expect(first.trust == folder + "/ca.pem")
        // The keys are the owner's alone.
        for key in ["ca-key.pem", "server-key.pem"] {
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: folder + "/" + key)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(key): \(String(mode, radix: 8))")
        }

        // Python's ssl, told of nothing but the CA file, verifies the chain and the name; told of nothing, it refuses.
        let trusted = try await python([first.connection, "myhub", Self.installation, first.trust])
        #expect(trusted.contains(#""status": 200"#) && trusted.contains(#""url": "https://127.0.0.1:"#), "\(trusted)")
        let untrusted = try await python([first.connection, "myhub", Self.installation])
        #expect(untrusted.contains("CERTIFICATE_VERIFY_FAILED"), "\(untrusted)")

        // pushline trusts the file PUSHLINE_CA_FILE names; without it the hub's certificate is refused, and a file
        // that holds no certificate stops it before anything is sent.
        let env = ["NH_CONNECTION": first.connection, "NH_HUB": "myhub"]
        let send = ["send", "--format", "template", "--tags", "12345", "--body", #"{"message":"over TLS"}"#]
        let (sent, sentOutput) = try await pushline(send, env.merging(["PUSHLINE_CA_FILE": first.trust]) { $1 })
        #expect(sent == 0, "\(sentOutput)")
        let deliveries = try await python(["get", first.base + "_emulator/deliveries", first.trust])
        #expect(deliveries.contains(#""payload":"{\"aps\":{\"alert\":\"over TLS\"}}""#), "\(deliveries)")
        let (refused, refusedOutput) = try await pushline(send, env)
        #expect(refused == 1, "\(refusedOutput)")
        #expect(refusedOutput.lowercased().contains("certificate"), "\(refusedOutput)")
        let empty = folder + "/empty.pem"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let (misnamed, misnamedOutput) = try await pushline(send, env.merging(["PUSHLINE_CA_FILE": empty]) { $1 })
        #expect(misnamed == 78, "\(misnamedOutput)")
        #expect(misnamedOutput.contains("PUSHLINE_CA_FILE names '\(empty)'"), "\(misnamedOutput)")
        #expect(try await first.process.stop() == 0)

        // A restart keeps the authority, so what trusted it goes on trusting the new server certificate.
        let authority = try String(contentsOfFile: first.trust, encoding: .utf8)
        let second = try await start(folder: folder)
        #expect(try String(contentsOfFile: second.trust, encoding: .utf8) == authority)
        let again = try await python([second.connection, "myhub", Self.installation, second.trust])
        #expect(again.contains(#""status": 200"#), "\(again)")
        #expect(try await second.process.stop() == 0)
    }
}
