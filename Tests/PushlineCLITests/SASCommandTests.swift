import CommandTestSupport
import Foundation
import Testing

@Suite struct SASCommandTests {
    let connection =
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="

    @Test func printsTheSeedTutorialTokenAndNothingElse() async {
        // The fixture's seed-tutorial vector: same key, resource and expiry.
        let output = await CommandRunner.run(
            ["sas", "--connection-string", connection, "--hub", "myhub", "--expiry", "1700000000"],
            now: Date(timeIntervalSince1970: 1_699_996_400))
        #expect(
            output
                == CommandOutput(
                    out:
                        "SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub&sig=nDOo5CZj0P%2fq1sLehhcKhLB3kVSRASfxGsg%2b6YRmhLU%3d&se=1700000000&skn=DefaultFullSharedAccessSignature\n",
                    err: "", status: 0))
    }

    @Test func readsEnvironmentAndLifetime() async {
        let output = await CommandRunner.run(
            ["sas", "--lifetime", "20m"], environment: ["NH_CONNECTION": connection, "NH_HUB": "myhub"])
        #expect(output.status == 0)
        #expect(output.out.contains("&se=1700001200&"))
        #expect(
            output.out.hasPrefix(
                "SharedAccessSignature sr=https%3a%2f%2fcontoso-nh.servicebus.windows.net%2fmyhub&sig="))
    }

    @Test func endpointOverrideChangesTheResource() async {
        let output = await CommandRunner.run(
            [
                "sas", "--connection-string", connection, "--hub", "myhub", "--endpoint", "http://127.0.0.1:8080",
                "--expiry", "1700000000",
            ],
            now: Date(timeIntervalSince1970: 1_699_996_400))
        #expect(output.out.hasPrefix("SharedAccessSignature sr=http%3a%2f%2f127.0.0.1%3a8080%2fmyhub&sig="))
    }

    @Test func usageErrorsExitTwoWithoutLeakingTheKey() async {
        let both = await CommandRunner.run([
            "sas", "--connection-string", connection, "--hub", "h", "--lifetime", "1h", "--expiry", "5",
        ])
        #expect(both.status == 2)
        #expect(both.err.contains("give either --lifetime or --expiry, not both"))
        let bad = await CommandRunner.run([
            "sas", "--connection-string", "Endpoint=sb://x/;SharedAccessKey=SECRETSECRET", "--hub", "h",
        ])
        #expect(bad.status == 2)
        #expect(bad.err.contains("invalid connection string"))
        #expect(!bad.err.contains("SECRETSECRET"))
        #expect(bad.out == "")
        let none = await CommandRunner.run(["sas", "--hub", "h"])
        #expect(none.status == 2)
        #expect(none.err.contains("give --connection-string or set NH_CONNECTION"))
    }
}
