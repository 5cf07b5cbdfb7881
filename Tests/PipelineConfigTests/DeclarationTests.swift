import PipelineCore
import Testing

@testable import PipelineConfig

@Suite struct DeclarationTests {
    let harness = LoaderHarness()
    let env = ["NH_CONNECTION": sampleConnection]

    @Test func inlineConnectionStringWarnsAndEndpointIsChecked() throws {
        harness.write(
            "p.yaml",
            """
            version: 1
            hubs:
              h:
                connection: "\(sampleConnection)"
                hub: x
                endpoint: ftp://nope
              g:
                connection: "\(sampleConnection)"
            steps: []
            """)
        let lines = harness.headlines("p.yaml")
        #expect(lines.contains("p.yaml:4:17: warning: hub 'h': the connection string is written in the pipeline file"))
        #expect(lines.contains("p.yaml:6:15: error: 'endpoint' must be an http:// or https:// URL, found 'ftp://nope'"))
        #expect(lines.contains("p.yaml:7:3: error: hub 'g' needs `hub:` (the connection string has no EntityPath)"))
    }

    @Test("a hub's rate: is requests per second, read as a number; anything else is an error at the value")
    func hubRate() throws {
        harness.write(
            "p.yaml",
            """
            version: 1
            hubs:
              h:
                connection: ${env:NH_CONNECTION}
                hub: x
                rate: 150
              g:
                connection: ${env:NH_CONNECTION}
                hub: y
                rate: fast
              f:
                connection: ${env:NH_CONNECTION}
                hub: z
            steps: []
            """)
        let (document, diagnostics) = harness.load("p.yaml", environment: env)
        #expect(
            diagnostics.map(\.description).contains(
                "p.yaml:10:11: error: 'rate' must be a number from 0.001 to 100000 (e.g. 200), found 'fast'"))
        #expect(document?.hubs.first { $0.name == "h" }?.rate == 150)
        #expect(document?.hubs.first { $0.name == "f" }?.rate == nil)
    }

    @Test func audienceErrorsPointAtTheColumnInsideTheString() {
        harness.write(
            "p.yaml",
            """
            version: 1
            audiences:
              broken: "a && && b"
              plain: a || (b
              wide: a && b && c && d && e && f && g
            steps: []
            """)
        let (_, diagnostics) = harness.load("p.yaml")
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 3)
        #expect(errors[0].location == SourceLocation(file: "p.yaml", line: 3, column: 17))
        #expect(errors[0].message.hasPrefix("audience 'broken': "))
        #expect(errors[1].location?.line == 4)
        #expect(errors[1].location?.column == 15)  // the unclosed "("
        #expect(errors[2].location == SourceLocation(file: "p.yaml", line: 5, column: 39))
        #expect(errors[2].message.hasPrefix("audience 'wide': "))
    }

    @Test func templateProblems() {
        harness.write("t/bad.json", "{\n  \"aps\": {\"alert\": \"$(message\"}\n}\n")
        harness.write(
            "p.yaml",
            """
            version: 1
            templates:
              a: { platform: apsn, body: '{"x":"$(y)"}' }
              b: { platform: apns, body: t/missing.json }
              c: { platform: apns, body: t/bad.json }
              d: { platform: wns, body: '<toast/>' }
              e: { platform: apns, body: '<toast/>' }
              f: { platform: apns, body: '{"x":"$(y"}', tags: ["ok", "not ok"] }
              g:
                platform: apns
                body: |
                  {"aps":
                    {"alert": "{'a' + }"}}
            steps: []
            """)
        let (_, diagnostics) = harness.load("p.yaml")
        let byLine = Dictionary(grouping: diagnostics.filter { $0.severity == .error }) {
            "\($0.location?.file ?? ""):\($0.location?.line ?? 0)"
        }
        #expect(
            byLine["p.yaml:3"]?.first?.description
                == "p.yaml:3:18: error: template 'a': unknown platform 'apsn'; did you mean 'apns'?")
        #expect(
            byLine["p.yaml:4"]?.first?.description.contains(
                "template file '\(harness.directory)/t/missing.json' does not exist") == true)
        #expect(byLine["t/bad.json:2"]?.first?.location?.column != nil)
        #expect(byLine["t/bad.json:2"]?.first?.message.hasPrefix("template 'c': ") == true)
        #expect(byLine["t/bad.json:2"]?.first?.sourceLine == "  \"aps\": {\"alert\": \"$(message\"}")
        #expect(byLine["p.yaml:6"]?.first?.message == "template 'd': WNS templates need an X-WNS-Type header")
        #expect(byLine["p.yaml:7"]?.first?.message == "template 'e': APNs templates are JSON, but the body is XML")
        let f = byLine["p.yaml:8"] ?? []
        #expect(f.count == 2)
        #expect(f.contains { $0.message.hasPrefix("template 'f': invalid tag:") })
        #expect(f.contains { $0.message.hasPrefix("template 'f': ") && $0.location!.column > 30 })
        #expect(byLine["p.yaml:13"]?.first?.message.hasPrefix("template 'g': ") == true)
    }

    @Test("an FCM v1 template Google would refuse is an error where it is declared; a legacy FCM one a warning")
    func fcmTemplates() {
        harness.write(
            "p.yaml",
            ##"""
            version: 1
            templates:
              legacy-shape: { platform: fcmv1, body: '{"data":{"m":"$(m)"}}' }
              bare-number: { platform: fcmv1, body: '{"message":{"data":{"count":"#(count)"}}}' }
              fine: { platform: fcmv1, body: '{"message":{"data":{"count":"$(count)"},"android":{"ttl":"{$(ttl) + ''s''}","priority":"high"}}}' }
              old: { platform: gcm, body: '{"data":{"m":"$(m)"}}' }
            steps: []
            """##)
        let (_, diagnostics) = harness.load("p.yaml")
        let errors = diagnostics.filter { $0.severity == .error }.map(\.description)
        #expect(errors.count == 2, "\(errors)")
        #expect(
            errors.contains {
                $0.hasPrefix(
                    "p.yaml:3:3: error: template 'legacy-shape': this is the legacy FCM shape ('data' at the top)")
            })
        #expect(
            errors.contains {
                $0.hasPrefix("p.yaml:4:3: error: template 'bare-number': message.data.count is #(count)")
            })
        let warnings = diagnostics.filter { $0.severity == .warning && $0.message.hasPrefix("template") }.map(
            \.description)
        #expect(
            warnings == [
                "p.yaml:6:20: warning: template 'old': legacy FCM (gcm) was retired by Google on 20 June 2024; NH delivers nothing to gcm devices"
            ])
    }

    @Test func sectionsMustBeMappings() {
        harness.write("p.yaml", "version: 1\nhubs: [a]\naudiences: x\ntemplates: 3\nsteps: {}\n")
        #expect(
            harness.headlines("p.yaml") == [
                "p.yaml:2:7: error: 'hubs' must be a mapping of names, found a list",
                "p.yaml:3:12: error: 'audiences' must be a mapping of names, found a scalar",
                "p.yaml:4:12: error: 'templates' must be a mapping of names, found a scalar",
                "p.yaml:5:8: error: 'steps' must be a list, found a mapping",
            ])
    }

    @Test func dataFilesLoadJSONAndYAML() throws {
        let json = harness.write("props.json", "{\"message\": \"Hi\", \"badge\": 3}")
        let collector = DiagnosticCollector()
        let loader = PipelineLoader(options: LoaderOptions(purpose: .run, environment: [:]))
        let node = try #require(
            loader.loadDataFile(
                path: json, reference: SourceLocation(file: "p.yaml", line: 1, column: 1), diagnostics: collector))
        #expect(node["message"]?.scalar?.text == "Hi")
        #expect(node["badge"]?.scalar?.text == "3")
        #expect(collector.diagnostics.isEmpty)
    }
}
