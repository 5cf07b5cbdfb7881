import BuiltinSteps
import CommandTestSupport
import Foundation
import PipelineCore
import Testing

@testable import PushlineCLI

/// What editors and shells get: the committed JSON Schema, the modelines, completions, `--version`.
@Suite("Editor and shell support")
struct EditorSupportTests {
    static let pipelines = CommandRunner.root + "/pipelines"
    static let modeline = "# yaml-language-server: $schema=./pipeline.schema.json"

    static func examplePipelines() throws -> [String] {
        // Service files (`pushline serve`) and test files (`pushline test`) have their own schemas and modelines.
        try FileManager.default.contentsOfDirectory(atPath: pipelines)
            .filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".service.yaml") && !$0.hasSuffix(".test.yaml") }.sorted()
    }

    @Test(
        "`pushline schema --service` prints exactly the committed pipelines/service.schema.json; service files use it")
    func committedServiceSchemaIsCurrent() async throws {
        let output = await CommandRunner.run(["schema", "--service"])
        #expect(output.status == 0)
        let committed = try String(contentsOfFile: Self.pipelines + "/service.schema.json", encoding: .utf8)
        #expect(
            output.out == committed,
            "regenerate it: swift run pushline schema --service > pipelines/service.schema.json")
        let parsed = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any]
        let service = try #require((parsed?["properties"] as? [String: Any])?["service"] as? [String: Any])
        let keys = Set(((service["properties"] as? [String: Any]) ?? [:]).keys)
        #expect(
            keys.isSuperset(of: [
                "hub", "users", "jwt", "api-keys", "devices", "notify", "requests", "limits", "pipelines",
            ]))
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.pipelines)
        where file.hasSuffix(".service.yaml") {
            let text = try String(contentsOfFile: Self.pipelines + "/" + file, encoding: .utf8)
            #expect(text.hasPrefix("# yaml-language-server: $schema=./service.schema.json\n"), "\(file)")
        }
    }

    @Test("`pushline schema --test` prints exactly the committed pipelines/test.schema.json; test files use it")
    func committedTestSchemaIsCurrent() async throws {
        let output = await CommandRunner.run(["schema", "--test"])
        #expect(output.status == 0)
        let committed = try String(contentsOfFile: Self.pipelines + "/test.schema.json", encoding: .utf8)
        #expect(output.out == committed, "regenerate it: swift run pushline schema --test > pipelines/test.schema.json")
        let parsed = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any]
        #expect(Set(((parsed?["properties"] as? [String: Any]) ?? [:]).keys) == ["pipeline", "cases"])
        let pipelines = try Self.examplePipelines()
        for pipeline in pipelines {
            let test = Self.pipelines + "/" + pipeline.dropLast(".yaml".count) + ".test.yaml"
            let text = try String(contentsOfFile: test, encoding: .utf8)
            #expect(text.hasPrefix("# yaml-language-server: $schema=./test.schema.json\n"), "\(test)")
        }
    }

    @Test("`pushline schema` prints exactly the committed pipelines/pipeline.schema.json")
    func committedSchemaIsCurrent() async throws {
        let output = await CommandRunner.run(["schema"])
        #expect(output.status == 0)
        let committed = try String(contentsOfFile: Self.pipelines + "/pipeline.schema.json", encoding: .utf8)
        #expect(output.out == committed, "regenerate it: swift run pushline schema > pipelines/pipeline.schema.json")
        let parsed = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any]
        let steps = try #require((parsed?["$defs"] as? [String: Any])?["step"] as? [String: Any])
        #expect(
            Set(((steps["properties"] as? [String: Any]) ?? [:]).keys) == [
                "sign", "render", "register", "send", "cancel", "outcomes", "query", "id", "name", "when",
            ])
    }

    @Test(
        "every example pipeline starts with the schema modeline; one with plugins names its own schema, which knows their steps"
    )
    func modelines() throws {
        let files = try Self.examplePipelines()
        #expect(files.count >= 4)
        for file in files {
            let text = try String(contentsOfFile: Self.pipelines + "/" + file, encoding: .utf8)
            let modeline =
                text.contains("\nplugins:")
                ? "# yaml-language-server: $schema=./\(file.dropLast(".yaml".count)).schema.json" : Self.modeline
            #expect(text.hasPrefix(modeline + "\n"), "\(file)")
        }
    }

    @Test(
        "a pipeline with plugins: `pushline schema --pipeline` prints its committed schema (with the plugins' steps), and it validates clean"
    )
    func pipelineSchemasWithPlugins() async throws {
        let withPlugins = try Self.examplePipelines().filter {
            try String(contentsOfFile: Self.pipelines + "/" + $0, encoding: .utf8).contains("\nplugins:")
        }
        #expect(withPlugins.contains("crm-digest.yaml"))
        for file in withPlugins {
            let output = await CommandRunner.run(["schema", "--pipeline", "pipelines/" + file])
            #expect(output.status == 0, "\(output.err)")
            let name = "pipelines/\(file.dropLast(".yaml".count)).schema.json"
            let committed = try String(contentsOfFile: CommandRunner.root + "/" + name, encoding: .utf8)
            #expect(
                output.out == committed,
                "regenerate it: swift run pushline schema --pipeline pipelines/\(file) > \(name)")
            let parsed = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any]
            let steps = try #require((parsed?["$defs"] as? [String: Any])?["step"] as? [String: Any])
            #expect(
                Set(((steps["properties"] as? [String: Any]) ?? [:]).keys).isSuperset(of: [
                    "send", "http-rows", "webhook",
                ]))
            let validate = await CommandRunner.run(
                ["validate", "pipelines/" + file],
                environment: [
                    "NH_CONNECTION": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v",
                    "NH_HUB": "h",
                    "CRM_URL": "https://crm.example.com/api", "CRM_TOKEN": "t0ken",
                    "OPS_WEBHOOK": "https://chat.example.com/hook",
                ])
            #expect(validate.status == 0 && validate.err == "", "\(validate.err)")
        }
    }

    @Test("register's inline installations and registrations reject unknown keys in the schema")
    func registerDevices() async throws {
        let output = await CommandRunner.run(["schema"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
        let register = try #require(
            ((parsed["$defs"] as? [String: Any])?["register-step"] as? [String: Any])?["properties"] as? [String: Any])
        let installations = try #require((register["installations"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        let device = try #require(installations.first { $0["type"] as? String == "array" }?["items"] as? [String: Any])
        #expect(device["additionalProperties"] as? Bool == false)
        #expect(
            Set(((device["properties"] as? [String: Any]) ?? [:]).keys) == [
                "installationId", "platform", "pushChannel", "tags", "userId",
            ])
        let registrations = try #require((register["registrations"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        let registration = try #require(
            registrations.first { $0["type"] as? String == "array" }?["items"] as? [String: Any])
        #expect(registration["additionalProperties"] as? Bool == false)
        #expect(registration["required"] as? [String] == ["platform", "handle"])
    }

    @Test(
        "every misspelled key the schema rejects (CI checks that with Python jsonschema), validate rejects at that key",
        arguments: ["top-level", "hub", "template", "step-option", "step-kind", "step-entry", "installation"])
    func misspelledKeys(fixture: String) async throws {
        let path = "Tests/PushlineCLITests/Inputs/misspelled/\(fixture).yaml"
        let text = try String(contentsOfFile: CommandRunner.root + "/" + path, encoding: .utf8)
        let key = try #require(
            text.split(separator: "\n").first?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
        let output = await CommandRunner.run(
            ["validate", path],
            environment: [
                "NH_CONNECTION": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v"
            ])
        #expect(output.status == 2)
        let line =
            try #require(
                text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(key + ":") }) + 1
        #expect(output.err.contains("\(path):\(line):"), "\(output.err)")
        #expect(
            output.err.contains("unknown key '\(key)'") || output.err.contains("unknown step '\(key)'"), "\(output.err)"
        )
    }

    @Test(
        "every rule the schema states beyond keys (CI checks it rejects these with Python jsonschema), validate states at the step",
        arguments: ["needs-for-each", "excluded-keys", "out-of-bounds"])
    func schemaRules(fixture: String) async throws {
        let path = "Tests/PushlineCLITests/Inputs/schema-invalid/\(fixture).yaml"
        let text = try String(contentsOfFile: CommandRunner.root + "/" + path, encoding: .utf8)
        let message = try #require(
            text.split(separator: "\n").first?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(
                in: .whitespaces))
        let output = await CommandRunner.run(
            ["validate", path],
            environment: [
                "NH_CONNECTION": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v"
            ])
        #expect(output.status == 2)
        #expect(output.err.contains("\(path):6:"), "\(output.err)")
        #expect(output.err.contains(message), "\(output.err)")
    }

    @Test(
        "values validate accepts in unexpected forms, and step entries with an id, a name and a when (CI checks the schema accepts them too), validate accepts",
        arguments: ["lenient", "step-entries"])
    func lenientValues(fixture: String) async throws {
        let output = await CommandRunner.run(
            ["validate", "Tests/PushlineCLITests/Inputs/schema-valid/\(fixture).yaml"],
            environment: [
                "NH_CONNECTION": "Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=v"
            ])
        #expect(output.status == 0, "\(output.err)")
        #expect(output.err == "")
    }

    @Test("every built-in step's examples, and its options', appear in the schema (none dropped as unparsable)")
    func stepExamples() async throws {
        let output = await CommandRunner.run(["schema"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [String: Any])
        let definitions = try #require(parsed["$defs"] as? [String: Any])
        var optionExamples = 0
        for type in BuiltinSteps.all {
            let step = definitions["\(type.id)-step"] as? [String: Any]
            let examples = step?["examples"] as? [Any]
            #expect(examples?.count == type.examples.count, "\(type.id)")
            let properties = step?["properties"] as? [String: Any] ?? [:]
            for option in type.options where !option.examples.isEmpty {
                let shown = (properties[option.key] as? [String: Any])?["examples"] as? [Any]
                #expect(shown?.count == option.examples.count, "\(type.id).\(option.key)")
                optionExamples += option.examples.count
            }
        }
        #expect(optionExamples >= 10)
    }

    @Test("`pushline --version` prints the version alone")
    func version() async throws {
        let process = try PushlineProcess(["--version"])
        #expect(try await process.waitForExit() == 0)
        #expect(process.stdout == PushlineVersion.current + "\n")
    }

    @Test("completion scripts for bash, zsh and fish name every subcommand", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let process = try PushlineProcess(["--generate-completion-script", shell])
        #expect(try await process.waitForExit() == 0)
        let script = process.stdout
        #expect(script.count > 1000)
        for command in ["demo", "validate", "run", "schema", "emulator", "send"] {
            #expect(script.contains(command), "\(shell) script lacks \(command)")
        }
        let marker = [
            "bash": "complete -o filenames -F", "zsh": "#compdef pushline", "fish": "complete -c 'pushline'",
        ][shell]!
        #expect(script.contains(marker), "\(shell) script lacks \(marker)")
        guard shell == "bash" else { return }  // zsh and fish are not on the build machines
        // The bash script parses, and completing `pushline ` offers the subcommands.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-completion-\(UUID().uuidString).bash"
        ).path
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = [
            "-c",
            "source \"$1\"; COMP_WORDS=(pushline ''); COMP_CWORD=1; COMP_LINE='pushline '; COMP_POINT=9; _pushline; printf '%s\\n' \"${COMPREPLY[@]}\"",
            "_", file,
        ]
        let pipe = Pipe()
        bash.standardOutput = pipe
        try bash.run()
        let offered = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n"
        ).map(String.init)
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
        #expect(Set(["demo", "schema", "run", "validate"]).isSubset(of: Set(offered)), "\(offered)")
    }
}
