import Foundation
import HubExpressions
import HubWire
import PipelineCore
import Testing

@testable import PipelineConfig

@Suite struct LoaderTests {
    let harness = LoaderHarness()

    @Test func loadsDeclarationsAndSteps() throws {
        harness.write("p.yaml", validPipeline)
        let (document, diagnostics) = harness.load("p.yaml", environment: ["NH_CONNECTION": sampleConnection])
        #expect(diagnostics.isEmpty)
        let loaded = try #require(document)
        #expect(loaded.description == "test")
        #expect(loaded.hubs.map(\.name) == ["sports"])
        #expect(loaded.hubs.first?.hubName == "sports-hub")
        #expect(loaded.hubs.first?.connection?.keyName == "DefaultFullSharedAccessSignature")
        #expect(loaded.audiences.first?.expression?.tags == ["a", "b", "c"])
        #expect(loaded.templates.first?.platform == .apns)
        #expect(loaded.templates.first?.body?.propertyNames == ["message"])
        #expect(loaded.steps.map(\.kind) == ["sign"])
        #expect(loaded.steps.first?.location.line == 14)
        #expect(loaded.steps.first?.location.column == 5)
    }

    @Test func unknownTopLevelKeyAndBadVersion() {
        harness.write(
            "p.yaml",
            """
            version: 2
            step:
              - sign: { hub: x }
            """)
        #expect(
            harness.headlines("p.yaml") == [
                "p.yaml:2:1: error: unknown key 'step'; did you mean 'steps'?",
                "p.yaml:1:10: error: unsupported pipeline version 2; this Pushline reads version 1",
            ])
    }

    @Test func aPipelineIsNamedByItsNameOrItsFileNameAndABadNameIsAnErrorAtItsValue() throws {
        harness.write("named.yaml", "version: 1\nname: daily-digest.v2\nsteps: []\n")
        harness.write("daily-digest.yml", "version: 1\nsteps: []\n")
        harness.write("bad.yaml", "version: 1\nname: team b/digest\nsteps: []\n")
        harness.write("long.yaml", "version: 1\nname: \(String(repeating: "x", count: 101))\nsteps: []\n")
        harness.write("list.yaml", "version: 1\nname: [a]\nsteps: []\n")
        #expect(try #require(harness.load("named.yaml").0).name == "daily-digest.v2")
        #expect(try #require(harness.load("daily-digest.yml").0).name == "daily-digest")
        #expect(try #require(harness.load("daily-digest.yml").0).declaredName == nil)
        #expect(
            harness.headlines("bad.yaml").prefix(1) == [
                "bad.yaml:2:7: error: the pipeline name 'team b/digest' has ' '; use letters, digits, '.', '_' and '-'"
            ])
        #expect(harness.headlines("long.yaml").first?.hasSuffix("is longer than 100 characters") == true)
        #expect(harness.headlines("list.yaml").prefix(1) == ["list.yaml:2:7: error: 'name' must be text, found a list"])
        #expect(PipelineName.fromFile("/srv/a/pipelines/digest.pipeline.yaml") == "digest.pipeline")
        #expect(PipelineName.fromFile("/srv/.hidden") == ".hidden")
        #expect(PipelineName.problem(with: "-x") == "must start with a letter or a digit")
    }

    @Test func retentionIsADurationAtTheTopLevel() throws {
        harness.write("kept.yaml", "version: 1\nretention: 30d\nsteps: []\n")
        harness.write("forever.yaml", "version: 1\nretention: forever\nsteps: []\n")
        #expect(try #require(harness.load("kept.yaml").0).retention == 30 * 86400)
        harness.write("unset.yaml", "version: 1\nsteps: []\n")
        #expect(try #require(harness.load("unset.yaml").0).retention == nil)
        #expect(
            harness.headlines("forever.yaml").first
                == "forever.yaml:2:12: error: 'retention' must be a duration such as 90s, 20m, 1h or 1h30m, found 'forever'"
        )
    }

    @Test func versionMustBeANumberAndPresent() {
        harness.write("a.yaml", "version: one\nsteps: []\n")
        harness.write("b.yaml", "steps: []\n")
        #expect(harness.headlines("a.yaml").first == "a.yaml:1:10: error: 'version' must be a number, found 'one'")
        #expect(harness.headlines("b.yaml").first == "b.yaml:1:1: error: missing required key 'version'")
    }

    @Test func stepsAreMappingsWithAKindBesideAnIdANameAndAWhen() throws {
        harness.write(
            "p.yaml",
            """
            version: 1
            steps:
              - just-a-string
              - id: lonely
                name: no kind
              - id: digest
                sign: { hub: x }
              - id: digest
                when: sometimes
                sign: {}
              - id: two words
                name: ""
                sign: {}
            """)
        #expect(
            harness.headlines("p.yaml") == [
                "p.yaml:3:5: error: each step must be a mapping with one key naming its kind, found a scalar",
                "p.yaml:4:5: error: this step has no key naming its kind, only 'id', 'name'",
                "p.yaml:8:9: error: step id 'digest' is already the id of the step at line 6",
                "p.yaml:9:11: error: 'when' must be success, failure, always or an expression, found 'sometimes'",
                "p.yaml:11:9: error: a step's 'id' must be letters, digits, '-' and '_', found 'two words'",
                "p.yaml:12:11: error: a step's 'name' must be one line of text, found an empty or multi-line text",
            ])
        harness.write(
            "q.yaml",
            """
            version: 1
            steps:
              - id: digest
                name: daily digest
                when: always
                sign: { hub: x }
              - sign: { hub: x }
                render: { template: y }
            """)
        let document = try #require(harness.load("q.yaml").0)
        #expect(document.steps.map(\.kind) == ["sign", "sign"])
        #expect(document.steps.map(\.id) == ["digest", nil] && document.steps.map(\.name) == ["daily digest", nil])
        #expect(document.steps.map(\.condition) == [.always, .success])
        // A second key beside the kind is the registry's to judge (it knows the kinds): kept as a stray.
        #expect(document.steps[1].strays.map(\.key) == ["render"])
    }

    @Test func emptyFileAndNonMappingRoot() {
        harness.write("empty.yaml", "")
        harness.write("list.yaml", "- a\n- b\n")
        #expect(harness.headlines("empty.yaml") == ["empty.yaml:1:1: error: pipeline file is empty"])
        #expect(
            harness.headlines("list.yaml").prefix(1) == [
                "list.yaml:1:1: error: a pipeline file must be a mapping with `version:` and `steps:`, found a list"
            ])
    }

    @Test func missingFile() {
        #expect(harness.headlines("nope.yaml").first?.contains("does not exist") == true)
    }

    @Test func snippetIsAttached() {
        harness.write("p.yaml", "version: 1\nstesp: []\n")
        let (_, diagnostics) = harness.load("p.yaml")
        #expect(diagnostics.first?.sourceLine == "stesp: []")
    }
}

/// The loader stamps what it read, so a run's identity and lock never read the file a second time.
@Suite struct LoaderStampTests {
    @Test func theDocumentCarriesItsAbsolutePathAndTheDigestOfTheTextRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stamp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = "version: 1\nsteps: []\n"
        try text.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: [:]))
        let document = try #require(loader.load(path: directory + "/sub/../p.yaml", diagnostics: DiagnosticCollector()))
        #expect(document.absolutePath == URL(fileURLWithPath: directory + "/p.yaml").standardizedFileURL.path)
        #expect(document.contentDigest == ContentDigest.hex(text))
        // Changed after loading: the document still names what was read.
        try "version: 1\nsteps: []\n# edited\n".write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        #expect(document.contentDigest == ContentDigest.hex(text))
    }
}
