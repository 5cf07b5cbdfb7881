import Engine
import Foundation
import PipelineConfig
import PipelineCore
import Testing

/// A step this test defines: the schema must describe it without any change to the generator.
private struct GreetStep: Step {
    static let id = "greet"
    static let summary = "Greets someone."
    static let options = [
        OptionSpec("who", .string, required: true, examples: ["Alice"], "who to greet"),
        OptionSpec("times", .integer, default: "2", "how often"),
        OptionSpec("loud", .boolean, default: "false", "shout"),
        OptionSpec("within", .duration, "how soon"),
        OptionSpec("tone", .oneOf(["warm", "dry"]), default: "warm", "the tone"),
        OptionSpec(
            "friends", .list(.mapping([OptionSpec("name", .string, required: true, "a friend")])), "friends too"),
        OptionSpec("source", .anyOf([.path, .list(.stringMap)]), "a file or rows"),
    ]
    static let examples = ["- greet: { who: Bob, times: 3, loud: true }"]
    static func build(_ options: OptionReader, in context: BuildContext) -> GreetStep? { GreetStep() }
    func run(in context: StepContext) async throws -> StepResult { StepResult(summary: "hello") }
}

@Suite("Pipeline JSON Schema")
struct PipelineSchemaTests {
    /// The schema for a registry holding only `GreetStep`, parsed back from its JSON text.
    static var schema: [String: Any] {
        get throws {
            let json = PipelineSchema(registry: try StepRegistry([GreetStep.self])).json
            return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
    }

    /// The object at `path`; an optional key's `anyOf [type, null]` is looked through to the type.
    static func object(_ value: Any?, _ path: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws -> [String: Any]
    {
        var current = value
        for key in path {
            var next = (current as? [String: Any])?[key]
            if let choices = (next as? [String: Any])?["anyOf"] as? [[String: Any]] {
                let types = choices.filter { $0["type"] as? String != "null" }
                if types.count == 1, types.count < choices.count { next = types[0] }
            }
            current = next
        }
        return try #require(
            current as? [String: Any], "no object at \(path.joined(separator: "/"))", sourceLocation: sourceLocation)
    }

    @Test("draft 2020-12; the top level takes exactly the loader's keys and requires version and steps")
    func topLevel() throws {
        let schema = try Self.schema
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["additionalProperties"] as? Bool == false)
        #expect(
            Set(try Self.object(schema, "properties").keys) == [
                "version", "name", "description", "retention", "hubs", "audiences", "templates", "parameters",
                "plugins", "steps",
            ])
        #expect(schema["required"] as? [String] == ["version", "steps"])
    }

    @Test("hubs and templates are named mappings whose entries reject unknown keys")
    func declarations() throws {
        let hub = try Self.object(try Self.schema, "properties", "hubs", "additionalProperties")
        #expect(hub["additionalProperties"] as? Bool == false)
        #expect(Set(try Self.object(hub, "properties").keys) == ["connection", "hub", "endpoint", "rate"])
        #expect(hub["required"] as? [String] == ["connection"])
        let template = try Self.object(try Self.schema, "properties", "templates", "additionalProperties")
        #expect(template["additionalProperties"] as? Bool == false)
        #expect(template["required"] as? [String] == ["platform", "body"])
        let parameter = try Self.object(try Self.schema, "properties", "parameters", "additionalProperties")
        #expect(parameter["additionalProperties"] as? Bool == false)
        #expect(
            Set(try Self.object(parameter, "properties").keys) == [
                "type", "pattern", "allowed", "default", "required", "description",
            ])
        let audiences = try Self.object(try Self.schema, "properties", "audiences")
        #expect(try Self.object(audiences, "additionalProperties")["$ref"] as? String == "#/$defs/text")
    }

    @Test("a registered step appears with its own keys, required keys, typed defaults, enums and examples")
    func stepFromTheRegistry() throws {
        let step = try Self.object(try Self.schema, "$defs", "step")
        #expect(step["additionalProperties"] as? Bool == false)
        // Exactly one kind (one branch of `oneOf` per kind), and beside it an id, a name and a when.
        #expect(
            (step["oneOf"] as? [[String: Any]])?.compactMap { $0["required"] as? [String] }.contains(["greet"]) == true)
        // `when:` offers its words, and takes any text (an expression `validate` parses).
        let when = try #require(try Self.object(step, "properties", "when")["anyOf"] as? [[String: Any]])
        #expect(when.first?["enum"] as? [String] == ["success", "failure", "always"])
        #expect(when.last?["type"] as? String == "string")
        #expect(try Self.object(step, "properties", "id")["pattern"] as? String == "^[A-Za-z0-9_-]+$")
        #expect(try Self.object(step, "properties", "greet")["$ref"] as? String == "#/$defs/greet-step")
        let greet = try Self.object(try Self.schema, "$defs", "greet-step")
        #expect(greet["description"] as? String == "Greets someone.")
        #expect(greet["additionalProperties"] as? Bool == false)
        #expect(greet["required"] as? [String] == ["who"])
        let properties = try Self.object(greet, "properties")
        #expect(Set(properties.keys) == ["who", "times", "loud", "within", "tone", "friends", "source"])
        let who = try Self.object(properties, "who")
        #expect(who["description"] as? String == "who to greet")
        #expect(who["examples"] as? [String] == ["Alice"])
        #expect(try Self.object(properties, "times")["default"] as? Int == 2)
        #expect(try Self.object(properties, "loud")["default"] as? Bool == false)
        let tone = try Self.object(properties, "tone")
        #expect(tone["default"] as? String == "warm")
        let toneChoices = try #require(tone["anyOf"] as? [[String: Any]])
        #expect(toneChoices.first?["enum"] as? [String] == ["warm", "dry"])
        let examples = try #require(greet["examples"] as? [[String: Any]])
        #expect(examples.count == 1)
        let example = try #require(examples.first)
        let name = example["who"] as? String
        let times = example["times"] as? Int
        let loud = example["loud"] as? Bool
        #expect(name == "Bob")
        #expect(times == 3)
        #expect(loud == true)
    }

    @Test("nested lists of mappings reject unknown keys too; a path-or-list is either")
    func nested() throws {
        let friends = try Self.object(try Self.schema, "$defs", "greet-step", "properties", "friends")
        #expect(friends["type"] as? String == "array")
        let friend = try Self.object(friends, "items")
        #expect(friend["additionalProperties"] as? Bool == false)
        #expect(friend["required"] as? [String] == ["name"])
        let source = try Self.object(try Self.schema, "$defs", "greet-step", "properties", "source")
        let choices = try #require(source["anyOf"] as? [[String: Any]])
        #expect(choices.count == 3)
        #expect(choices[0]["$ref"] as? String == "#/$defs/text")
        #expect(choices[1]["type"] as? String == "array")
        #expect(choices[2]["type"] as? String == "null")
    }

    @Test("values may be references; integers, booleans and durations take the forms validate reads")
    func valueForms() throws {
        let reference = try Self.object(try Self.schema, "$defs", "reference")
        let pattern = try #require(reference["pattern"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("${env:NH_CONNECTION}"))
        #expect(matches("${file:secrets/hub.connection}"))
        #expect(!matches("$(message)"))
        let within = try #require(
            try Self.object(try Self.schema, "$defs", "greet-step", "properties", "within")["anyOf"] as? [[String: Any]]
        )
        let duration = try NSRegularExpression(pattern: try #require(within[0]["pattern"] as? String))
        for (text, valid) in [("90s", true), ("1h30m", true), ("2d", true), ("20", false), ("soon", false)] {
            #expect(
                (duration.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil) == valid, "\(text)"
            )
        }
        // An optional key may also be left empty (null), which validate reads as absent; a required one may not.
        let times = try #require(
            try Self.object(try Self.schema, "$defs", "greet-step", "properties", "times")["anyOf"] as? [[String: Any]])
        #expect(times.compactMap { $0["type"] as? String } == ["integer", "string", "null"])
        let who = try Self.object(try Self.schema, "$defs", "greet-step", "properties", "who")
        #expect(who["anyOf"] == nil && who["$ref"] as? String == "#/$defs/text")
    }

    @Test("the same registry gives the same bytes")
    func deterministic() throws {
        let registry = try StepRegistry([GreetStep.self])
        #expect(PipelineSchema(registry: registry).json == PipelineSchema(registry: registry).json)
        #expect(PipelineSchema(registry: registry).json.hasSuffix("}\n"))
    }
}
