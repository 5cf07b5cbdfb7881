import CommandTestSupport
import Foundation
import Testing

/// The ad hoc hub commands, run as the real executable against the real emulator.
@Suite(.serialized) struct HubCommandProcessTests {
    func pushline(_ arguments: [String], _ environment: [String: String]) async throws -> (Int32, String) {
        let process = try PushlineProcess(arguments, environment: environment)
        let status = try await process.waitForExit()
        return (status, process.stdout)
    }

    @Test func everyCommandAgainstTheEmulator() async throws {
        let emulator = try PushlineProcess(["emulator", "--port", "0"])
        let banner = try await emulator.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            banner.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let full = try #require(
            banner.split(separator: "\n").first { $0.contains("SharedAccessKeyName=DefaultFullSharedAccessSignature") })
        let env = ["NH_CONNECTION": full.trimmingCharacters(in: .whitespaces), "NH_HUB": "myhub"]
        let device = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-device-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: device) }
        try
            #"{"installationId":"seed-1","platform":"apns","pushChannel":"62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA","tags":["12345"],"templates":{"genericTemplate":{"body":"{\"aps\":{\"alert\":\"$(message)\"}}"}}}"#
            .write(toFile: device, atomically: true, encoding: .utf8)

        #expect(
            try await pushline(["installation", "put", "--file", device], env) == (
                0, "installation 'seed-1' saved on hub 'myhub'\n"
            ))
        #expect(try await pushline(["installation", "get", "seed-1"], env).1.contains(#""tags":["12345"]"#))
        #expect(try await pushline(["installation", "patch", "seed-1", "--add-tag", "breaking"], env).0 == 0)
        let (sendStatus, sendOutput) = try await pushline(
            ["send", "--format", "template", "--tags", "breaking", "--body", #"{"message":"Hello from Postman!"}"#], env
        )
        #expect(sendStatus == 0)
        #expect(sendOutput.split(separator: "\n").count == 1)  // just the notification id
        #expect(
            try await http("GET", "\(base)_emulator/deliveries").1.contains(
                #""payload":"{\"aps\":{\"alert\":\"Hello from Postman!\"}}""#))
        #expect(
            try await pushline(
                ["send", "--format", "template", "--tags", "12345", "--body", #"{"message":"t"}"#, "--test"], env
            ).1
                .hasPrefix("test send: 1 succeeded, 0 failed\n"))
        let (_, scheduled) = try await pushline(
            ["send", "--format", "template", "--broadcast", "--body", #"{"message":"x"}"#, "--schedule", "in 2h"], env)
        let scheduledID = scheduled.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await pushline(["schedule", "cancel", scheduledID], env).0 == 0)

        let handle = "9F0C3A1B5E7D2468ACE13579BDF02468ACE13579BDF02468ACE13579BDF02468"
        let (_, created) = try await pushline(
            ["registration", "upsert", "--platform", "apns", "--handle", handle, "--tags", "username:alice"], env)
        let registrationID = created.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            try await pushline(["registration", "get", registrationID], env).1.contains(
                "<DeviceToken>\(handle)</DeviceToken>"))
        #expect(try await pushline(["registration", "delete", registrationID], env).0 == 0)
        // The deleted id is gone (410): upsert gets a fresh id and retries once.
        let (again, fresh) = try await pushline(
            ["registration", "upsert", "--platform", "apns", "--handle", handle, "--id", registrationID], env)
        #expect(again == 0)
        #expect(fresh.trimmingCharacters(in: .whitespacesAndNewlines) != registrationID)

        #expect(try await pushline(["installation", "delete", "seed-1"], env).0 == 0)
        let (missing, missingOutput) = try await pushline(["installation", "get", "seed-1"], env)
        #expect(missing == 1)
        #expect(missingOutput.contains("error: GET installation 'seed-1': the hub or resource does not exist"))
        #expect(try await emulator.stop() == 0)
    }

    @Test func hubCommandsTraceWhatTheySentWithoutTheSignature() async throws {
        let emulator = try PushlineProcess(["emulator", "--port", "0"])
        let banner = try await emulator.waitForOutput(containing: "stop with Ctrl-C")
        let base = try #require(
            banner.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let full = try #require(
            banner.split(separator: "\n").first { $0.contains("SharedAccessKeyName=DefaultFullSharedAccessSignature") }
        )
        .trimmingCharacters(in: .whitespaces)
        let key = try #require(full.split(separator: "SharedAccessKey=").last.map(String.init))
        let env = ["NH_CONNECTION": full, "NH_HUB": "myhub"]

        let (sent, sendOutput) = try await pushline(
            ["send", "--format", "template", "--tags", "news", "--body", #"{"message":"x"}"#, "--trace"], env)
        #expect(sent == 0, "\(sendOutput)")
        #expect(sendOutput.contains("POST \(base)myhub/messages"), "\(sendOutput)")
        #expect(sendOutput.contains("ServiceBusNotification-Tags: news"), "\(sendOutput)")
        #expect(sendOutput.contains("Authorization: SharedAccessSignature"), "\(sendOutput)")
        #expect(sendOutput.contains("→ 201 (1 attempt) Location: \(base)myhub/messages/"), "\(sendOutput)")
        let (missing, getOutput) = try await pushline(["installation", "get", "nobody", "--trace"], env)
        #expect(missing == 1)
        #expect(
            getOutput.contains("GET \(base)myhub/installations/nobody") && getOutput.contains("→ 404 (1 attempt)"),
            "\(getOutput)")
        for output in [sendOutput, getOutput] {
            let signatures = output.components(separatedBy: "sig=").dropFirst()
            #expect(
                !output.contains(key) && !signatures.isEmpty && signatures.allSatisfy { $0.hasPrefix("<redacted>&") },
                "the key and the signature never show: \(output)")
        }
        // Without --trace, nothing of the kind.
        #expect(
            try await pushline(["send", "--format", "template", "--tags", "news", "--body", #"{"message":"x"}"#], env).1
                .contains("POST ") == false)
        #expect(try await emulator.stop() == 0)
    }
}
