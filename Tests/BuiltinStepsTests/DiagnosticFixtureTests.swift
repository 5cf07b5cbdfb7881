import Engine
import Foundation
import PipelineConfig
import PipelineCore
import Testing

@testable import BuiltinSteps

/// Loads a pipeline through the loader and the real step registry, as `pushline validate` does.
func validate(_ path: String, environment: [String: String]) -> [Diagnostic] {
    let collector = DiagnosticCollector()
    let loader = PipelineLoader(options: LoaderOptions(purpose: .validate, environment: environment))
    if let document = loader.load(path: path, diagnostics: collector) {
        _ = BuiltinSteps.registry().build(document, diagnostics: collector) { path, name, reference, diagnostics in
            loader.loadDataFile(path: path, name: name, reference: reference, diagnostics: diagnostics)
        }
    }
    return collector.diagnostics
}

let sampleEnvironment = [
    "NH_CONNECTION":
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;SharedAccessKey=k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY=",
    "NH_HUB": "myhub",
    "DIGEST_ROWS": Repository.root + "/pipelines/data/digest-sample.csv",
]

@Suite struct DiagnosticFixtureTests {
    static let fixtures = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.fixtures)) ?? [])
        .filter { $0.hasSuffix(".yaml") }.sorted()

    @Test func fixturesExist() {
        #expect(Self.fixtures.count >= 3)
    }

    @Test(arguments: fixtures)
    func diagnosticsLandOnTheirMarkers(name: String) throws {
        let path = Repository.fixtures + "/" + name
        let fixture = MarkerFixture(text: try String(contentsOfFile: path, encoding: .utf8))
        #expect(!fixture.expected.isEmpty, "a fixture without markers proves nothing")
        // Compared line by line in file order (what composing the YAML finds is reported before what decoding it finds);
        // on one line, in the order reported.
        let actual = MarkerFixture.actual(validate(path, environment: sampleEnvironment), in: path)
        func position(_ line: String, _ offset: Int) -> (Int, Int) {
            (line.prefix { $0 != ":" }.isEmpty ? 0 : Int(line.prefix { $0 != ":" }) ?? 0, offset)
        }
        #expect(
            actual.enumerated().sorted { position($0.element, $0.offset) < position($1.element, $1.offset) }.map(
                \.element)
                == fixture.expected)
    }
}

@Suite struct ExamplePipelineTests {
    static let examples = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.root + "/pipelines")) ?? [])
        // Service files: PushServiceTests; test files (`pushline test`): PipelineTestingTests and EditorSupportTests.
        .filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".service.yaml") && !$0.hasSuffix(".test.yaml") }.sorted()
        // A pipeline with plugins is validated with them, by the real `pushline validate` (EditorSupportTests).
        .filter {
            !((try? String(contentsOfFile: Repository.root + "/pipelines/" + $0, encoding: .utf8))?.contains(
                "\nplugins:") ?? false)
        }

    @Test func thereAreAtLeastTwoExamples() {
        #expect(Self.examples.contains("seed-tutorial.yaml"))
        #expect(Self.examples.count >= 2)
    }

    @Test(arguments: examples)
    func exampleValidatesClean(name: String) {
        let diagnostics = validate(Repository.root + "/pipelines/" + name, environment: sampleEnvironment)
        #expect(diagnostics.map(\.description) == [])
    }
}

@Suite struct RegistryContentsTests {
    @Test func registersEveryBuiltinStepOnce() {
        let registry = BuiltinSteps.registry()
        #expect(registry.ids == ["sign", "register", "render", "send", "cancel", "outcomes", "query"])
    }

    /// (That every example uses only documented keys is proven by building them: `StepExampleTests`.)
    @Test func everyStepDocumentsItsOptions() {
        for type in BuiltinSteps.all {
            #expect(
                type.summary.count >= 20 && type.summary.hasSuffix("."),
                "\(type.id): '\(type.summary)' is not a one-line sentence")
            #expect(!type.examples.isEmpty)
            #expect(Set(type.options.map(\.key)).count == type.options.count, "\(type.id) documents a key twice")
            for spec in type.options {
                let name = "\(type.id).\(spec.key)"
                #expect(spec.summary.count >= 10 && !spec.summary.hasSuffix("."), "\(name): '\(spec.summary)'")
                #expect(!(spec.isRequired && spec.defaultValue != nil), "\(name) is required and has a default")
                // Every documented default and example is a value `build` accepts for the key's type.
                for value in (spec.defaultValue.map { [$0] } ?? []) + spec.examples {
                    #expect(Self.fits(value, spec.type), "\(name): '\(value)' is not a \(spec.type.documentation)")
                }
            }
        }
    }

    /// Whether `value`, as written in YAML, is of `type` (references and quoted forms pass as text).
    static func fits(_ value: String, _ type: OptionSpec.ValueType) -> Bool {
        let bare = value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
        if bare.hasPrefix("${") { return true }
        switch type {
        case .duration: return bare == "0" || ConfigDuration.seconds(bare) != nil
        case .integer: return Int(bare) != nil
        case .boolean: return bare == "true" || bare == "false"
        case .oneOf(let words): return words.contains(bare)
        case .anyCaseOf(let words): return words.contains { $0.lowercased() == bare.lowercased() }
        case .stringMap: return bare.hasPrefix("{") && bare.hasSuffix("}")
        case .anyOf(let types): return types.contains { fits(value, $0) }
        default: return !bare.isEmpty
        }
    }
}

@Suite struct NoSilentSkipTests {
    func write(_ text: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushline-\(UUID().uuidString).yaml")
            .path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    @Test func aStepWhoseTemplateIsBrokenIsReportedNotDropped() {
        let path = write(
            "version: 1\ntemplates:\n  t:\n    platform: apns\n    body:\nsteps:\n  - render: { template: t }\n")
        let messages = validate(path, environment: [:]).filter { $0.severity == .error }.map(\.description)
        #expect(messages.count == 2)
        #expect(
            messages.last?.hasSuffix(":7:5: error: [render] step 'render' cannot be built from these options") == true)
    }

    @Test func unresolvedReferencesInStepOptionsAreOnlyWarningsForValidate() {
        let path = write(
            "version: 1\nhubs:\n  h: { connection: \"${env:C}\", hub: x }\nsteps:\n  - sign: { hub: \"${env:WHICH}\", lifetime: \"${env:LIFE}\" }\n"
        )
        let diagnostics = validate(path, environment: [:])
        #expect(diagnostics.map(\.severity) == [.warning, .warning, .warning])
    }
}
