import PipelineCore
import Testing

@testable import PipelineConfig

/// Values that came from `${env:}`/`${file:}` may be secrets: no diagnostic may quote them.
@Suite struct SecretSafetyTests {
    let harness = LoaderHarness()
    let secret = "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="

    private func everything(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { "\($0) \($0.hint ?? "") \($0.sourceLine ?? "")" }.joined(separator: "\n")
    }

    @Test func invalidTagsFromTheEnvironmentAreNotQuoted() {
        harness.write(
            "p.yaml",
            """
            version: 1
            audiences:
              a: ${env:AUD}
            templates:
              t: { platform: apns, body: '{"x":"y"}', tags: ["${env:TAG}"] }
            steps: []
            """)
        let (_, diagnostics) = harness.load(
            "p.yaml", environment: ["AUD": "x && (\"\(secret)\")", "TAG": "has space \(secret)"])
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(
            errors.map(\.message) == [
                "audience 'a': '${env:AUD}' is not a valid tag expression (problem at character 7)",
                "template 't': '${env:TAG}' is not a valid tag",
            ])
        #expect(!everything(diagnostics).contains(secret))
    }

    @Test func aKeyPastedAsHubNameIsRejectedWithoutEcho() {
        harness.write(
            "p.yaml",
            "version: 1\nhubs:\n  h:\n    connection: \"\(sampleConnection)\"\n    hub: ${env:HUB}\nsteps: []\n")
        let (_, diagnostics) = harness.load("p.yaml", environment: ["HUB": secret])
        #expect(diagnostics.contains { $0.message.hasPrefix("hub 'h': a hub name may contain only letters") })
        #expect(!everything(diagnostics).contains(secret))
    }

    @Test func hubNamesCannotWidenTheTokenAudience() {
        harness.write(
            "p.yaml",
            "version: 1\nhubs:\n  h:\n    connection: ${env:C}\n    hub: \"/\"\n  g:\n    connection: ${env:C}\n    hub: a/../b\nsteps: []\n"
        )
        let errors = harness.load("p.yaml", environment: ["C": sampleConnection]).1.filter { $0.severity == .error }
        #expect(errors.map { $0.location?.line } == [5, 8])
    }

    @Test func snippetsRedactInlineKeys() {
        harness.write(
            "p.yaml", "version: 1\nhubs:\n  h:\n    connection: \"\(sampleConnection)\"\n    hub: x\nsteps: []\n")
        let (_, diagnostics) = harness.load("p.yaml")
        let warning = diagnostics.first { $0.message.contains("written in the pipeline file") }
        #expect(warning?.sourceLine?.hasSuffix("SharedAccessKey=<redacted>\"") == true)
        #expect(!everything(diagnostics).contains(secret))
    }

    @Test func pathsFromReferencesAreShownAsWritten() {
        harness.write("p.yaml", "version: 1\ntemplates:\n  t: { platform: apns, body: \"${env:TB}\" }\nsteps: []\n")
        let (_, diagnostics) = harness.load("p.yaml", environment: ["TB": "SECRETPATHVALUE"])
        #expect(diagnostics.first?.message == "template file '${env:TB}' does not exist")
        #expect(!everything(diagnostics).contains("SECRETPATHVALUE"))
    }

    @Test func endpointTextIsNeverEchoed() {
        harness.write("p.yaml", "version: 1\nhubs:\n  h:\n    connection: ${env:C}\n    hub: x\nsteps: []\n")
        let (_, diagnostics) = harness.load(
            "p.yaml", environment: ["C": "Endpoint=\(secret);SharedAccessKeyName=p;SharedAccessKey=\(secret)"])
        #expect(diagnostics.first?.message == "hub 'h': invalid connection string: Endpoint has no scheme.")
        #expect(!everything(diagnostics).contains(secret))
    }
}
