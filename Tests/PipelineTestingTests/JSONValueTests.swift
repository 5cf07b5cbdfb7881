import RunFlow
import Testing

@testable import PipelineTesting

@Suite struct JSONValueTests {
    private let payload = JSONValue(parsing: #"{"aps":{"alert":"Hi","badge":3},"items":[{"id":"a"},{"id":"b"}]}"#)!

    @Test func includesAsksForTheGivenKeysOnly() {
        #expect(payload.contains(.object(["aps": .object(["alert": .string("Hi")])])))
        #expect(!payload.contains(.object(["aps": .object(["alert": .string("Hello")])])))
        #expect(!payload.contains(.object(["sound": .string("default")])))
        // A list must hold the same number of items.
        #expect(!payload.contains(.object(["items": .array([.object(["id": .string("a")])])])))
    }

    @Test func pathsReachIntoObjectsListsAndPayloadsHandedOnAsText() {
        #expect(payload.value(at: "aps.badge") == .integer(3))
        #expect(payload.value(at: "items.1.id") == .string("b"))
        #expect(payload.value(at: "items.2.id") == nil)
        #expect(JSONValue.string(#"{"aps":{"alert":"Hi"}}"#).value(at: "aps.alert") == .string("Hi"))
    }

    @Test func numbersAndTheirWrittenFormMatch() {
        #expect(JSONValue.integer(3).matches(.number(3.0)))
        #expect(JSONValue.string("10").matches(.integer(10)))
        #expect(!JSONValue.string("10").matches(.integer(11)))
        #expect(JSONValue.string(#"{"a":1}"#).matches(.object(["a": .integer(1)])))
    }
}
