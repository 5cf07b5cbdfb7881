import HubExpressions
import Testing

@Suite("Templates: compile errors")
struct TemplateErrorTests {
    struct Case: CustomStringConvertible, Sendable {
        let source: String
        let expected: TemplateError
        var description: String { source }

        init(_ source: String, _ line: Int, _ column: Int, _ message: String, hint: String? = nil) {
            self.source = source
            self.expected = TemplateError(message: message, line: line, column: column, hint: hint)
        }
    }

    static let nameHint = "property names may contain only ASCII letters, digits and '_'"

    /// Columns: `{"a":"` is six characters, so the first character of the value is column 7.
    static let expressionCases: [Case] = [
        Case(
            #"{"a":"$message"}"#, 1, 8, "expected '(' after '$'",
            hint: "a value starting with '$' is an expression; write $(name)"),
        Case(
            #"{"a":"..."}"#, 1, 8, "expected '(' after '.'",
            hint: "a value starting with '.' is an expression; write .(name)"),
        Case(#"{"a":"$(first"}"#, 1, 14, "missing ')' to close '$('"),
        Case(#"{"a":"$()"}"#, 1, 9, "expected a property name after '$('"),
        Case(#"{"a":"$(first-name)"}"#, 1, 14, "unexpected '-' in property name", hint: nameHint),
        Case(#"{"a":"$(first name)"}"#, 1, 15, "expected ',' or ')' after 'first' but found 'n'"),
        Case(#"{"a":"$(x, )"}"#, 1, 12, "expected a length (a whole number ≥ 0) after ',' but found ')'"),
        Case(#"{"a":"$(x, 2 3)"}"#, 1, 14, "expected ')' after the length but found '3'"),
        Case(#"{"a":"$(x, 99999999999999999999)"}"#, 1, 12, "length is too large"),
        Case(
            #"{"a":".(title)"}"#, 1, 14, "'.(…)' needs a length: write .(name, n)",
            hint: "n is the maximum length including the three dots"),
        Case(
            #"{"a":"%(url, 3)"}"#, 1, 12, "'%(…)' does not take a length",
            hint: "remove ', n'; only $(…) and .(…) can be shortened"),
        Case(
            ##"{"a":"#(n, 3)"}"##, 1, 10, "'#(…)' does not take a length",
            hint: "remove ', n'; only $(…) and .(…) can be shortened"),
        Case(
            #"{"a":"$(first) extra"}"#, 1, 15, "unexpected ' ' after the closing ')'",
            hint: "an expression must be the whole value; to add text use a composite like {$(name) + ' text'}"),
        Case(
            #"{"a":"$(a:{d})"}"#, 1, 10, "default values ('a:{…}') are not supported",
            hint: "the NH validator accepts them but it is not confirmed the service applies them"),
        Case(#"{"a":"{$(first) + $(last)"}"#, 1, 26, "unterminated composite expression: missing '}'"),
        Case(#"{"a":"{$(first) + "}"#, 1, 19, "unterminated composite expression: missing '}'"),
        Case(
            ##"{"a":"{#(badge)}"}"##, 1, 8, "'#(...)' is not allowed inside a composite expression",
            hint: "use $(name) inside {…}; #(name) only works as a whole value"),
        Case(
            #"{"a":"{}"}"#, 1, 8, "empty composite expression",
            hint: "write values joined by '+', e.g. {$(first) + ' ' + $(last)}"),
        Case(
            #"{"a":"{'x' $(first)}"}"#, 1, 12, "expected '+' or '}' but found '$'",
            hint: "join the parts of a composite with '+'"),
        Case(
            #"{"a":"{x}"}"#, 1, 8, "expected $(…), .(…), %(…) or a quoted literal after '{' but found 'x'",
            hint: "text inside {…} must be quoted, e.g. 'Hi, '"),
        Case(
            #"{"a":"{'a' + }"}"#, 1, 14, "expected $(…), .(…), %(…) or a quoted literal after '+' but found '}'",
            hint: "text inside {…} must be quoted, e.g. 'Hi, '"),
        Case(
            #"{"a":"{'abc + $(first)}"}"#, 1, 8, "unterminated literal: missing closing '",
            hint: "to put ' inside the literal, double it: ''"),
        Case(
            #"{"a":"{'a'} x"}"#, 1, 12, "unexpected ' ' after the closing '}'",
            hint: "an expression must be the whole value; to add text use a composite like {$(name) + ' text'}"),
        Case(
            "{\n  \"aps\": {\n    \"alert\": \"$(title, x)\"\n  }\n}", 3, 24,
            "expected a length (a whole number ≥ 0) after ',' but found 'x'"),
        // Positions map back through JSON escapes and non-ASCII text.
        Case(
            #"{"a":"\u0024x"}"#, 1, 13, "expected '(' after '$'",
            hint: "a value starting with '$' is an expression; write $(name)"),
        Case(
            #"{"é":"$x"}"#, 1, 8, "expected '(' after '$'",
            hint: "a value starting with '$' is an expression; write $(name)"),
        Case(
            #"["x", "{'\n' x}"]"#, 1, 14, "expected '+' or '}' but found 'x'",
            hint: "join the parts of a composite with '+'"),
        // XML: attribute values and leaf texts, through entity references.
        Case(
            "<a><text>.(message)</text></a>", 1, 19, "'.(…)' needs a length: write .(name, n)",
            hint: "n is the maximum length including the three dots"),
        Case(
            #"<a b="$&amp;"/>"#, 1, 8, "expected '(' after '$'",
            hint: "a value starting with '$' is an expression; write $(name)"),
        Case("<a>\n  <b x='{$(y)'/>\n</a>", 2, 14, "unterminated composite expression: missing '}'"),
    ]

    @Test("expression errors point inside the string value", arguments: expressionCases)
    func expressions(_ testCase: Case) {
        #expect(throws: testCase.expected) { try CompiledTemplate(compiling: testCase.source) }
    }

    static let documentCases: [Case] = [
        Case("", 1, 1, "template is empty", hint: "a template is a JSON object or an XML document"),
        Case(" \n ", 1, 1, "template is empty", hint: "a template is a JSON object or an XML document"),
        Case("  \n  hello", 2, 3, "template must start with '{' or '[' (JSON) or '<' (XML) but starts with 'h'"),
        Case(#"{"aps":{"alert":"x"}"#, 1, 21, "template is not valid JSON: expected ',' or '}' but the text ended"),
        Case(#"{"a":"x" "b":1}"#, 1, 10, #"template is not valid JSON: expected ',' or '}' but found '"'"#),
        Case(
            #"{"a":1,}"#, 1, 7, "template is not valid JSON: trailing ',' before '}' is not allowed in JSON",
            hint: "remove the ','"),
        Case(
            "{'a':1}", 1, 2, "template is not valid JSON: expected a key in double quotes but found '''",
            hint: "JSON object keys must be double-quoted strings"),
        Case(
            "{\"a\":\"line\nbreak\"}", 1, 11,
            "template is not valid JSON: control character U+000A must be escaped in a JSON string",
            hint: "write it as \\n, \\t or \\u00XX"),
        Case(#"{"a":tru}"#, 1, 6, "template is not valid JSON: invalid literal; expected 'true'"),
        Case(
            "{\"a\":\"$(x)\"} {}", 1, 14, "template is not valid JSON: unexpected '{' after the end of the JSON value"),
        Case(
            "<toast><text>$(message)</toast>", 1, 24,
            "template is not well-formed XML: closing tag </toast> does not match <text> opened at line 1, column 8",
            hint: "close <text> first"),
        Case(
            "<a b=c/>", 1, 6, "template is not well-formed XML: value of attribute 'b' must be in quotes",
            hint: "write b=\"…\""),
        Case(
            "<a>&nbsp;</a>", 1, 4, "template is not well-formed XML: unknown entity '&nbsp;'",
            hint:
                "XML predefines only &lt; &gt; &amp; &quot; &apos;; use a numeric reference such as &#233; for other characters"
        ),
        Case(
            "<a>\n  <b>\n</a>", 3, 1,
            "template is not well-formed XML: closing tag </a> does not match <b> opened at line 2, column 3",
            hint: "close <b> first"),
    ]

    @Test("invalid template documents", arguments: documentCases)
    func documents(_ testCase: Case) {
        #expect(throws: testCase.expected) { try CompiledTemplate(compiling: testCase.source) }
    }

    @Test("property names are limited to 120 characters")
    func nameLength() throws {
        let ok = String(repeating: "n", count: 120)
        #expect(try CompiledTemplate(compiling: #"{"a":"$(\#(ok))"}"#).propertyNames == [ok])
        let long = String(repeating: "n", count: 121)
        // `{"a":"$(` is eight characters, so the 121st name character is column 129.
        #expect(throws: TemplateError(message: "property name is longer than 120 characters", line: 1, column: 129)) {
            try CompiledTemplate(compiling: #"{"a":"$(\#(long))"}"#)
        }
    }

    @Test("description is line:column: message (hint)")
    func description() {
        #expect(TemplateError(message: "m", line: 2, column: 5).description == "2:5: m")
        #expect(TemplateError(message: "m", line: 1, column: 1, hint: "h").description == "1:1: m (h)")
    }
}
