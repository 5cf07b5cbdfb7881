import PipelineCore
import PluginProtocol
import Testing

@Suite("Plugin protocol messages, read and written as the reference says")
struct PluginMessageTests {
    @Test("each message kind is read with its id")
    func readsEachKind() throws {
        #expect(
            try PluginMessage.parse(#"{"id": 1, "result": {"summary": "ok"}}"#)
                == .result(id: 1, .object(["summary": .string("ok")])))
        #expect(
            try PluginMessage.parse(#"{"id": 2, "error": {"message": "no", "hint": "yes"}}"#)
                == .error(id: 2, message: "no", hint: "yes"))
        #expect(
            try PluginMessage.parse(#"{"id": 2, "rows": [{"a": 1}]}"#) == .rows(id: 2, [.object(["a": .integer(1)])]))
        #expect(
            try PluginMessage.parse(#"{"id": 2, "progress": {"done": 5, "total": 9}}"#)
                == .progress(id: 2, done: 5, total: 9))
        #expect(
            try PluginMessage.parse(#"{"id": 2, "progress": {"done": 5}}"#) == .progress(id: 2, done: 5, total: nil))
    }

    @Test(
        "what the protocol does not allow is refused with what to fix",
        arguments: [
            ("fetching…", "a line is not JSON: 'fetching…'"),
            ("[1, 2]", "a line is not a JSON object"),
            (#"{"result": {}}"#, "has no integer \"id\""),
            (#"{"id": "1", "result": {}}"#, "has no integer \"id\""),
            (#"{"id": 1}"#, "must have exactly one of"),
            (#"{"id": 1, "result": {}, "rows": []}"#, "it has result and rows"),
            (#"{"id": 1, "result": 3}"#, "must be an object"),
            (#"{"id": 1, "error": {"hint": "x"}}"#, "needs a \"message\""),
            (#"{"id": 1, "rows": {"a": 1}}"#, "must be a list of objects"),
            (#"{"id": 1, "progress": {"total": 3}}"#, "needs \"done\""),
        ])
    func refusesViolations(line: String, expected: String) {
        #expect(throws: PluginProtocolError.self) { try PluginMessage.parse(line) }
        do {
            _ = try PluginMessage.parse(line)
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test("requests are one line of JSON with id, method and params")
    func writesRequests() {
        #expect(PluginRequest.describe(id: 1).line == #"{"id":1,"method":"describe","params":{"protocol":[1]}}"#)
        #expect(
            PluginRequest.check(id: 2, options: .object(["segment": .string("vip")])).line
                == #"{"id":2,"method":"check","params":{"options":{"segment":"vip"}}}"#)
        let run = PluginRequest.run(
            id: 2, options: .object(["n": .integer(3)]),
            context: .init(dryRun: true, pipeline: "digest", step: 1, stepId: "users"))
        #expect(
            run.line
                == #"{"id":2,"method":"run","params":{"attempt":null,"dryRun":true,"idempotencyKey":null,"options":{"n":3},"pipeline":"digest","run":null,"step":1,"stepId":"users","stepName":null}}"#
        )
        let live = PluginRequest.run(
            id: 2, options: .object([:]),
            context: .init(
                dryRun: false, pipeline: "digest", step: 2, stepId: nil,
                run: "20261128-021500-3f9c2a", attempt: 2,
                idempotencyKey: "20261128-021500-3f9c2a/step-2"))
        #expect(
            live.line.contains(#""attempt":2,"#)
                && live.line.contains(#""idempotencyKey":"20261128-021500-3f9c2a/step-2""#)
                && live.line.contains(#""run":"20261128-021500-3f9c2a""#))
    }

    @Test("strings are escaped so a request is always one line")
    func escapes() {
        #expect(PluginValue.string("a\"b\\c\nd\u{2028}e\u{1}").json == "\"a\\\"b\\\\c\\nd\u{2028}e\\u0001\"")
    }

    @Test("row values: text as is, numbers as written, flags as true/false, null as none")
    func rowText() throws {
        #expect(PluginValue.string("x").rowText == "x")
        #expect(try PluginValue.parse("42").rowText == "42")
        #expect(try PluginValue.parse("2.5").rowText == "2.5")
        #expect(try PluginValue.parse("true").rowText == "true")
        #expect(try PluginValue.parse("null").rowText == nil)
        #expect(try PluginValue.parse("[1]").rowText == nil)
    }
}

@Suite("A plugin's description")
struct PluginDescriptionTests {
    static let valid = #"""
        {"protocol": 1, "summary": "posts a summary", "effects": "external",
         "options": [{"key": "url", "type": "string", "required": true, "summary": "the webhook", "examples": ["https://x"]},
                     {"key": "timeout", "type": "duration", "default": "10s", "summary": "how long"}],
         "outputs": [{"name": "status", "type": "integer", "summary": "HTTP status"}],
         "examples": ["- webhook: { url: https://x }"]}
        """#

    @Test("a valid description becomes option and output specs")
    func readsValid() throws {
        let description = try PluginDescription(try PluginValue.parse(Self.valid))
        #expect(description.effects == .external)
        #expect(
            description.options == [
                OptionSpec("url", .string, required: true, examples: ["https://x"], "the webhook"),
                OptionSpec("timeout", .duration, default: "10s", "how long"),
            ])
        #expect(description.outputs == [OutputSpec("status", .integer, "HTTP status")])
        #expect(description.examples == ["- webhook: { url: https://x }"])
        #expect(!description.repeatSafe, "a plugin that does not say so is not safe to repeat")
    }

    @Test("a rows output's columns are read when given; without them only the run knows")
    func readsColumns() throws {
        let base = #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "members", "type": "rows""#
        #expect(
            try PluginDescription(try PluginValue.parse(base + #", "columns": ["userId", "name"]}]}"#)).outputs.first?
                .columns == ["userId", "name"])
        #expect(try PluginDescription(try PluginValue.parse(base + "}]}")).outputs.first?.columns == nil)
    }

    @Test("repeatSafe is read when given, false when absent or null")
    func readsRepeatSafe() throws {
        let base = #"{"protocol": 1, "summary": "x", "effects": "external""#
        #expect(try PluginDescription(try PluginValue.parse(base + #", "repeatSafe": true}"#)).repeatSafe)
        #expect(try !PluginDescription(try PluginValue.parse(base + #", "repeatSafe": false}"#)).repeatSafe)
        #expect(try !PluginDescription(try PluginValue.parse(base + #", "repeatSafe": null}"#)).repeatSafe)
    }

    @Test(
        "descriptions the host cannot use are refused",
        arguments: [
            (#"{"protocol": 2, "summary": "x", "effects": "none"}"#, "must say \"protocol\": one of 1"),
            (#"{"protocol": 1, "effects": "none"}"#, "needs a \"summary\""),
            (#"{"protocol": 1, "summary": "x", "effects": "maybe"}"#, "needs \"effects\""),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "options": [{"key": "a b", "type": "string", "summary": "s"}]}"#,
                "needs a \"key\""
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "options": [{"key": "a", "type": "date", "summary": "s"}]}"#,
                "needs a \"type\""
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "options": [{"key": "a", "type": "string"}]}"#,
                "needs a \"summary\""
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "options": [{"key": "a", "type": "string", "summary": "s"}, {"key": "a", "type": "string", "summary": "s"}]}"#,
                "declared twice"
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "a", "type": "rows"}, {"name": "b", "type": "rows"}]}"#,
                "at most one rows output"
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "a", "type": "table"}]}"#,
                "needs a \"type\""
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "external", "repeatSafe": "yes"}"#,
                "\"repeatSafe\" must be true or false"
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "n", "type": "integer", "columns": ["a"]}]}"#,
                "only a rows output has \"columns\""
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "r", "type": "rows", "columns": "a,b"}]}"#,
                "must be a list of the column names"
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "r", "type": "rows", "columns": []}]}"#,
                "must be a list of the column names"
            ),
            (
                #"{"protocol": 1, "summary": "x", "effects": "none", "outputs": [{"name": "r", "type": "rows", "columns": ["id", "ID"]}]}"#,
                "column 'ID' is declared twice"
            ),
        ])
    func refusesInvalid(text: String, expected: String) throws {
        let value = try PluginValue.parse(text)
        do {
            _ = try PluginDescription(value)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }
}
