import Foundation
import HubWire
import PipelineCore
import Testing

@testable import PipelineConfig

@Suite struct ReferenceTests {
    let harness = LoaderHarness()

    @Test func unsetVariableWarnsForValidateAndFailsForRun() {
        harness.write("p.yaml", validPipeline)
        let expected =
            "p.yaml:5:17: %@: environment variable 'NH_CONNECTION' is not set (referenced as ${env:NH_CONNECTION})"
        #expect(
            harness.headlines("p.yaml", purpose: .validate) == [
                expected.replacingOccurrences(of: "%@", with: "warning")
            ])
        #expect(harness.headlines("p.yaml", purpose: .run) == [expected.replacingOccurrences(of: "%@", with: "error")])
    }

    @Test func resolvesEnvAndFileReferencesInsideStrings() throws {
        harness.write("secrets/key.txt", "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY=\n")
        harness.write(
            "p.yaml",
            """
            version: 1
            hubs:
              h:
                connection: "Endpoint=sb://${env:NS}.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=${file:secrets/key.txt}"
                hub: myhub
            description: "costs $${dollars}"
            steps: []
            """)
        let (document, diagnostics) = harness.load("p.yaml", environment: ["NS": "contoso-nh"])
        #expect(diagnostics.map(\.severity) == [.warning])  // empty steps only
        let hub = try #require(document?.hubs.first)
        #expect(hub.connection?.baseURL == "https://contoso-nh.servicebus.windows.net/")
        #expect(hub.connection?.key == "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY=")
        #expect(document?.description == "costs ${dollars}")
    }

    @Test func fileReferencesLoseSurroundingLineBreaksOnly() throws {
        // Foundation's `.newlines` set, trimmed at both ends: LF, CRLF, CR, VT, FF, NEL, LS and PS. Spaces and
        // line breaks inside the value stay.
        harness.write("secret.txt", "\r\n\n\u{0B}\u{0C}\u{85}\u{2028}\u{2029} two words\non two lines \r\n\n\u{2029}")
        harness.write("p.yaml", "version: 1\ndescription: \"[${file:secret.txt}]\"\nsteps: []\n")
        let (document, _) = harness.load("p.yaml")
        #expect(document?.description == "[ two words\non two lines ]")
    }

    @Test func badReferenceSyntaxIsAlwaysAnError() {
        harness.write("p.yaml", "version: 1\ndescription: \"${ev:X} ${env:} ${env:Y\"\nsteps: [{}]\n")
        let lines = harness.headlines("p.yaml")
        #expect(lines.contains("p.yaml:2:14: error: unknown reference kind 'ev' in '${ev:X}'; did you mean 'env'?"))
        #expect(lines.contains("p.yaml:2:14: error: reference '${env:}' names nothing"))
        #expect(lines.contains("p.yaml:2:14: error: unterminated reference '${env:Y'"))
    }

    @Test func unreadableFileReference() {
        harness.write("p.yaml", "version: 1\ndescription: ${file:missing.txt}\nsteps: []\n")
        let lines = harness.headlines("p.yaml", purpose: .run)
        #expect(
            lines.first?.hasSuffix(
                "error: file '\(harness.directory)/missing.txt' does not exist (referenced as ${file:missing.txt})")
                == true)
    }

    @Test func invalidConnectionStringNeverEchoesTheKey() {
        harness.write(
            "p.yaml",
            """
            version: 1
            hubs:
              h:
                connection: ${env:CS}
                hub: x
            steps: []
            """)
        let secretKey = "SuperSecretKeyValue0123456789abcdefghijklmno="
        let (_, diagnostics) = harness.load(
            "p.yaml", environment: ["CS": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKey=\(secretKey)"])
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.message.hasPrefix("hub 'h': invalid connection string:") == true)
        for diagnostic in diagnostics {
            #expect(!"\(diagnostic) \(diagnostic.hint ?? "") \(diagnostic.sourceLine ?? "")".contains(secretKey))
        }
    }
}
