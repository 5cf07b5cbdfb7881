import Testing
import HubExpressions

@Suite("Templates: rendering")
struct TemplateRenderingTests {
    func render(_ template: String, _ properties: TemplateProperties) throws -> String {
        try CompiledTemplate(compiling: template).render(properties)
    }

    @Test("nested objects and arrays; only whole string values are expressions")
    func nesting() throws {
        let template = ##"{"a":["$(first)", "lit", "#(badge)", {"b":"$(last)"}, ["%(first)"]], "n": -1.5e3, "t": true, "z": null}"##
        let expected = #"{"a":["Ada", "lit", 40, {"b":"Lovelace"}, ["Ada"]], "n": -1.5e3, "t": true, "z": null}"#
        #expect(try render(template, ["first": "Ada", "last": "Lovelace", "badge": "40"]) == expected)
    }

    @Test("a template without expressions renders as its source")
    func noExpressions() throws {
        let source = #"["Hello", "\u0020$(x)", " {'a'}", 1]"#
        let compiled = try CompiledTemplate(compiling: source)
        #expect(compiled.render([:]) == source)
        #expect(compiled.propertyNames == [])
    }

    @Test("keys are never substituted")
    func keys() throws {
        #expect(try render(#"{"$(first)":"$(first)","{'k'}":1}"#, ["first": "Ada"]) == #"{"$(first)":"Ada","{'k'}":1}"#)
    }

    @Test("formatting and literal strings are copied byte for byte")
    func layoutPreserved() throws {
        let template = "{\n  \"aps\" : {\n\t\"alert\":   \"$(m)\",\n  \"sound\": \"a\\u00e9\\n\\/b\"\n  }\n}\n"
        let expected = "{\n  \"aps\" : {\n\t\"alert\":   \"x\",\n  \"sound\": \"a\\u00e9\\n\\/b\"\n  }\n}\n"
        #expect(try render(template, ["m": "x"]) == expected)
    }

    @Test("values shorter than one character per byte are not cut", arguments: [
        ("$(name, 0)", ""),
        ("$(name, 1)", "Z"),
        ("$(name, 4)", "Zoë "),
        ("$(name, 5)", "Zoë 🎉"),
        ("$(name, 99)", "Zoë 🎉"),
        (".(name, 5)", "Zoë 🎉"),
        (".(name, 4)", "Z..."),
        (".(name, 3)", "..."),
        (".(name, 2)", ".."),
        (".(name, 0)", ""),
        ("$(name)", "Zoë 🎉"),
    ])
    func truncationCountsCharacters(expression: String, expected: String) throws {
        #expect(try render(#"{"a":"\#(expression)"}"#, ["name": "Zoë 🎉"]) == #"{"a":"\#(expected)"}"#)
    }

    @Test("truncation never splits a grapheme cluster")
    func graphemes() throws {
        let family = "👨‍👩‍👧"
        #expect(try render(#"{"a":"$(v, 1)"}"#, ["v": family + "x"]) == #"{"a":""# + family + #""}"#)
        #expect(try render(#"{"a":"$(v, 2)"}"#, ["v": "e\u{301}e\u{301}e"]) == "{\"a\":\"e\u{301}e\u{301}\"}")
    }

    @Test("#() is a bare number only for JSON-number-like values", arguments: [
        ("40", "40"), ("0", "0"), ("3.25", "3.25"), ("1e10", "1e10"), ("4.5E+3", "4.5E+3"), ("2e-7", "2e-7"),
        ("-5", #""-5""#), ("007", #""007""#), ("1.", #""1.""#), (".5", #"".5""#), ("1e", #""1e""#),
        ("abc", #""abc""#), ("", #""""#), ("4 0", #""4 0""#), ("1\"2", #""1\"2""#),
    ])
    func numeric(value: String, expected: String) throws {
        #expect(try render(##"{"badge":"#(badge)"}"##, ["badge": value]) == #"{"badge":\#(expected)}"#)
    }

    @Test("#() of a missing property is an empty string")
    func numericMissing() throws {
        #expect(try render(##"{"badge":"#(badge)"}"##, [:]) == #"{"badge":""}"#)
    }

    @Test("%() percent-encodes UTF-8 with upper-case hex", arguments: [
        ("a b&c", "a%20b%26c"),
        ("AZaz09-._~", "AZaz09-._~"),
        ("/?=#+%\"", "%2F%3F%3D%23%2B%25%22"),
        ("é🎉", "%C3%A9%F0%9F%8E%89"),
        ("", ""),
    ])
    func percent(value: String, expected: String) throws {
        #expect(try render(#"{"u":"%(v)"}"#, ["v": value]) == #"{"u":"\#(expected)"}"#)
        #expect(try render(#"<a href="%(v)">%(v)</a>"#, ["v": value]) == #"<a href="\#(expected)">\#(expected)</a>"#)
    }

    @Test("composites: doubled quotes, whitespace, every token kind")
    func composites() throws {
        let properties: TemplateProperties = ["first": "Ada", "title": "Countess of Lovelace", "q": "x y"]
        #expect(try render(#"{"a":"{\"Say \"\"hi\"\"\" + ' ' + $(first)}"}"#, properties) == #"{"a":"Say \"hi\" Ada"}"#)
        #expect(try render(#"{"a":"{  $(first)+'|'+ .(title, 8)  +\n'|' + %(q) + $(title, 3) }"}"#, properties)
            == #"{"a":"Ada|Count...|x%20yCou"}"#)
        #expect(try render(#"{"a":"{'}' + \"''\" + '\\'}"}"#, properties) == #"{"a":"}''\\"}"#)
    }

    @Test("property names are case-insensitive")
    func caseInsensitiveNames() throws {
        #expect(try render(#"{"a":"$(MESSAGE)","b":"{$(Message) + $(message)}"}"#, ["mEsSaGe": "hi"])
            == #"{"a":"hi","b":"hihi"}"#)
    }

    @Test("JSON escapes in the template are undone before classifying and re-escaped on output")
    func sourceEscapes() throws {
        #expect(try render(#"{"a":"\u0024(first)"}"#, ["first": "Ada"]) == #"{"a":"Ada"}"#)
        #expect(try render(#"{"a":"{'caf\u00e9 \"' + $(first)}"}"#, ["first": "Ada"]) == #"{"a":"café \"Ada"}"#)
        #expect(try render(#"{"a":"{'tab\there' + $(first)}"}"#, ["first": "Ada"]) == #"{"a":"tab\thereAda"}"#)
    }

    @Test("propertyNames lists names as first written, once each, in order of use")
    func propertyNames() throws {
        let template = try CompiledTemplate(compiling: #"{"a":"{$(First) + $(last)}","b":"$(first)","c":"%(URL)","$(key)":"x"}"#)
        #expect(template.propertyNames == ["First", "last", "URL"])
        #expect(try CompiledTemplate(compiling: #"<a b="$(x)">.(Y, 3)</a>"#).propertyNames == ["x", "Y"])
    }

    @Test("format is chosen by the first non-whitespace character", arguments: [
        ("  {\"a\":1}", TemplateFormat.json), ("\n[\"$(a)\"]", .json), ("\t<a/>", .xml),
    ])
    func format(source: String, format: TemplateFormat) throws {
        let compiled = try CompiledTemplate(compiling: source)
        #expect(compiled.format == format)
        #expect(compiled.source == source)
    }
}
