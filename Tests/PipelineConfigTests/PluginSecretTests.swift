import Foundation
import PipelineCore
import Testing

@testable import PipelineConfig

/// Which of a plugin's `env:` values are secrets: those `secret-env:` lists, those named like a secret's, and a hub's
/// connection string (with a warning). The rest are shown as they are.
@Suite struct PluginSecretTests {
    func plugin(_ declaration: String, environment: [String: String] = [:]) -> (PluginDeclaration?, [String]) {
        let harness = LoaderHarness()
        harness.write(
            "p.yaml",
            """
            version: 1
            plugins:
              crm:
                command: [/bin/sh, -c, "exit 0"]
            \(declaration.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            steps:
              - crm: {}
            """)
        let (document, diagnostics) = harness.load("p.yaml", environment: environment)
        return (document?.plugins.first, diagnostics.map(\.description))
    }

    @Test("names with TOKEN, KEY, PASSWORD… are secret, others are not; secret-env adds the rest")
    func secretNames() {
        let (declaration, diagnostics) = plugin(
            """
            env: { CRM_TOKEN: t0k3n, API_KEY: k3y, DB_PASSWORD: pw-1, ABUSE: fork, ROWS: "1000000", HOOK: https://hooks.example/x }
            secret-env: [HOOK]
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(declaration?.secretNames == ["CRM_TOKEN", "API_KEY", "DB_PASSWORD", "HOOK"])
        #expect(Set(declaration?.secretValues ?? []) == ["t0k3n", "k3y", "pw-1", "https://hooks.example/x"])
    }

    @Test("secret-env naming no env: entry is an error with did-you-mean")
    func unknownSecretName() {
        let (_, diagnostics) = plugin(
            """
            env: { HOOK_URL: https://hooks.example/x }
            secret-env: [HOOK_UR]
            """)
        #expect(
            diagnostics.contains {
                $0.contains(
                    "error: plugin 'crm': secret-env names 'HOOK_UR', which env: does not have; did you mean 'HOOK_URL'?"
                )
            },
            "\(diagnostics)")
    }

    @Test("a hub's connection string in env: is warned about, and hidden as a secret")
    func connectionStringWarned() {
        let connection = "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Full;SharedAccessKey=abc123="
        let (declaration, diagnostics) = plugin(
            "env: { HUB: \"${env:NH_CONNECTION}\" }", environment: ["NH_CONNECTION": connection])
        #expect(declaration?.secretNames == ["HUB"])
        #expect(
            diagnostics.contains {
                $0.contains("warning: plugin 'crm' is given a hub's connection string in env: HUB")
            }, "\(diagnostics)")
        #expect(!diagnostics.joined().contains("abc123"))
    }
}
