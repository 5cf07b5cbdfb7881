import HubExpressions
import Testing

@Suite("Template properties")
struct TemplatePropertiesTests {
    @Test("lookup ignores case")
    func lookup() {
        let properties = TemplateProperties(["Message": "Hi", "badge": "3"])
        #expect(properties["message"] == "Hi")
        #expect(properties["MESSAGE"] == "Hi")
        #expect(properties["Badge"] == "3")
        #expect(properties["missing"] == nil)
        #expect(properties.values == ["Message": "Hi", "badge": "3"])
    }

    @Test("names differing only in case are reported, sorted")
    func conflicts() {
        let properties = TemplateProperties(["message": "a", "Message": "b", "MESSAGE": "c", "title": "t", "Url": "u"])
        #expect(properties.caseConflicts == ["MESSAGE", "Message", "message"])
        #expect(TemplateProperties(["a": "1", "b": "2"]).caseConflicts == [])
    }

    @Test("on a conflict the smallest name wins, so rendering is deterministic")
    func conflictChoice() {
        #expect(TemplateProperties(["message": "lower", "Message": "upper"])["mEssage"] == "upper")
    }

    @Test("equality compares the given values")
    func equality() {
        let literal: TemplateProperties = ["a": "1"]
        #expect(literal == TemplateProperties(["a": "1"]))
        #expect(literal != TemplateProperties(["A": "1"]))
    }
}
