import HubExpressions
import Testing

/// Every worked example of docs §7.4, with the properties given there.
@Suite("Templates: §7.4 worked examples")
struct TemplateWorkedExampleTests {
    static let properties = TemplateProperties([
        "message": "Hello!", "title": "This is the title line", "badge": "40",
        "first": "Ada", "last": "Lovelace", "url": "a b&c",
    ])

    @Test(
        "JSON examples",
        arguments: [
            (#"{"aps":{"alert":"$(message)"}}"#, #"{"aps":{"alert":"Hello!"}}"#),
            (#"{"aps":{"alert":"$(title, 7)"}}"#, #"{"aps":{"alert":"This is"}}"#),
            (#"{"aps":{"alert":".(title, 20)"}}"#, #"{"aps":{"alert":"This is the title..."}}"#),
            (#"{"aps":{"alert":".(message, 20)"}}"#, #"{"aps":{"alert":"Hello!"}}"#),
            (##"{"aps":{"badge":"#(badge)"}}"##, #"{"aps":{"badge":40}}"#),
            (#"{"aps":{"alert":"{$(first) + ' ' + $(last)}"}}"#, #"{"aps":{"alert":"Ada Lovelace"}}"#),
            (#"{"aps":{"alert":"{'Hi, ' + $(first) + '!'}"}}"#, #"{"aps":{"alert":"Hi, Ada!"}}"#),
            (#"{"aps":{"alert":"{'It''s ' + $(first)}"}}"#, #"{"aps":{"alert":"It's Ada"}}"#),
            (#"{"aps":{"alert":"$(missing)"}}"#, #"{"aps":{"alert":""}}"#),
            (#"{"data":{"link":"%(url)"}}"#, #"{"data":{"link":"a%20b%26c"}}"#),
            (#"{"aps":{"alert":"Hello $(first)"}}"#, #"{"aps":{"alert":"Hello $(first)"}}"#),
        ])
    func json(template: String, expected: String) throws {
        let compiled = try CompiledTemplate(compiling: template)
        #expect(compiled.format == .json)
        #expect(compiled.render(Self.properties) == expected)
    }

    @Test(
        "XML examples",
        arguments: [
            (
                #"<toast><visual><binding template="ToastText01"><text id="1">$(message)</text></binding></visual></toast>"#,
                #"<toast><visual><binding template="ToastText01"><text id="1">Hello!</text></binding></visual></toast>"#
            ),
            (#"<text id="1">{'Hi, ' + $(first)}</text>"#, #"<text id="1">Hi, Ada</text>"#),
        ])
    func xml(template: String, expected: String) throws {
        let compiled = try CompiledTemplate(compiling: template)
        #expect(compiled.format == .xml)
        #expect(compiled.render(Self.properties) == expected)
    }

    @Test("the .(title, 20) result is exactly 20 characters")
    func ellipsisLength() throws {
        let rendered = try CompiledTemplate(compiling: #"["{'' + .(title, 20)}"]"#).render(Self.properties)
        #expect(rendered == #"["This is the title..."]"#)
        #expect("This is the title...".count == 20)
    }
}
