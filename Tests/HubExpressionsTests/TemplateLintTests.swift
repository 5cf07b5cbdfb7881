import HubExpressions
import Testing

@Suite("Template lint")
struct TemplateLintTests {
    static func error(_ line: Int, _ column: Int, _ message: String) -> LintFinding {
        LintFinding(severity: .error, message: message, line: line, column: column)
    }

    @Test(
        "well-formed JSON has no findings",
        arguments: [
            #"{"aps":{"alert":"Hi \"you\" \u00e9 \ud83c\udf89","badge":40,"x":[1,-2.5e+3,true,false,null,{}]}}"#,
            "  \n[ ]\n", #""top-level string""#, "0", "{\"a\":\"Zoë 🎉\"}",
        ])
    func validJSON(payload: String) {
        #expect(TemplateLint.check(payload, format: .json, byteLimit: nil) == [])
    }

    @Test(
        "malformed JSON is reported at its line and column",
        arguments: [
            (#"{"a":1,}"#, 1, 7, "trailing ',' before '}' is not allowed in JSON"),
            ("[1,]", 1, 3, "trailing ',' before ']' is not allowed in JSON"),
            ("{\n  \"a\": [1, 2\n}", 3, 1, "expected ',' or ']' but found '}'"),
            (#"{"a":01}"#, 1, 6, "invalid number: leading zeros are not allowed"),
            (#"{"a":1.}"#, 1, 8, "invalid number: expected a digit after '.'"),
            (#"{"a":-}"#, 1, 7, "invalid number: expected a digit"),
            (#"{"a":1e}"#, 1, 8, "invalid number: expected a digit after the exponent"),
            (#"{"a":"\x"}"#, 1, 7, #"invalid escape '\x'"#),
            (#"{"a":"\u12"}"#, 1, 7, #"invalid \u escape: expected 4 hexadecimal digits"#),
            (#"{"a":"abc"#, 1, 6, #"unterminated string: missing closing '"'"#),
            ("", 1, 1, "expected a JSON value but the text is empty"),
            ("{} x", 1, 4, "unexpected 'x' after the end of the JSON value"),
            (#"{"a" 1}"#, 1, 6, "expected ':' after the key but found '1'"),
            (#"{"a":}"#, 1, 6, "expected a value but found '}'"),
            (#"{"é":"ü",x}"#, 1, 10, "expected a key in double quotes but found 'x'"),
            ("{\"a\":\"\t\"}", 1, 7, "control character U+0009 must be escaped in a JSON string"),
        ])
    func invalidJSON(payload: String, line: Int, column: Int, message: String) {
        #expect(
            TemplateLint.check(payload, format: .json, byteLimit: nil)
                == [Self.error(line, column, "payload is not valid JSON: " + message)])
    }

    @Test("duplicate keys in one object are a warning")
    func duplicateKeys() {
        #expect(
            TemplateLint.check(#"{"a":1,"a":2}"#, format: .json, byteLimit: nil)
                == [LintFinding(severity: .warning, message: #"duplicate key "a""#, line: 1, column: 8)])
        #expect(
            TemplateLint.check(#"{"a":1,"\u0061":2}"#, format: .json, byteLimit: nil)
                == [LintFinding(severity: .warning, message: #"duplicate key "a""#, line: 1, column: 8)])
        #expect(TemplateLint.check(#"{"a":{"a":1},"b":{"a":2}}"#, format: .json, byteLimit: nil) == [])
    }

    @Test(
        "well-formed XML has no findings",
        arguments: [
            "<?xml version=\"1.0\"?>\n<!-- c -->\n<toast a='1' b=\"&lt;&#x41;&#65;\"><![CDATA[<x>]]><?pi x?><t/></toast>\n",
            "<a>Zoë 🎉 &amp; &quot;q&quot;</a>",
            "<ns:a xmlns:ns=\"urn:x\"><ns:b-c.d _e=\"\"/></ns:a>",
        ])
    func validXML(payload: String) {
        #expect(TemplateLint.check(payload, format: .xml, byteLimit: nil) == [])
    }

    @Test(
        "malformed XML is reported at its line and column",
        arguments: [
            ("<a>1 < 2</a>", 1, 7, "expected an element name after '<' but found ' '"),
            ("<a>&</a>", 1, 4, "'&' must start a reference such as &amp;"),
            ("<a/>x", 1, 5, "unexpected text after the root element"),
            ("x<a/>", 1, 1, "unexpected text before the root element"),
            (" <?xml version=\"1.0\"?><a/>", 1, 2, "the XML declaration must be at the very start of the document"),
            ("<a><!-- x -- y --></a>", 1, 11, "'--' is not allowed inside a comment"),
            ("<a x=\"1\" x=\"2\"/>", 1, 10, "duplicate attribute 'x' in <a>"),
            ("<a x=\"1\"y=\"2\"/>", 1, 9, "expected an attribute, '>' or '/>' in <a> but found 'y'"),
            ("<a>&#0;</a>", 1, 4, "character reference '&#0;' is not a legal XML character"),
            ("<a>&#xZZ;</a>", 1, 4, "invalid character reference"),
            ("<!DOCTYPE a><a/>", 1, 1, "<!DOCTYPE> and other declarations are not supported"),
            ("", 1, 1, "the document has no root element"),
            ("<a>\u{1}</a>", 1, 4, "character U+0001 is not allowed in XML"),
            ("<a>\n  <b>", 2, 3, "element <b> is never closed"),
            ("</a>", 1, 1, "closing tag </a> has no matching start tag"),
            ("<a b=\"<\"/>", 1, 7, "'<' is not allowed in an attribute value"),
            ("<a><![CDATA[x</a>", 1, 4, "unterminated CDATA section: missing ']]>'"),
            ("<a>]]></a>", 1, 4, "']]>' is not allowed in text"),
            ("<a></a><b/>", 1, 8, "only one root element is allowed; found a second one <b>"),
            ("<a x=\"1/>", 1, 6, "unterminated value of attribute 'x'"),
            ("<a", 1, 1, "start tag <a> is not closed with '>'"),
            ("<é>\n<ü></é>", 2, 4, "closing tag </é> does not match <ü> opened at line 2, column 1"),
        ])
    func invalidXML(payload: String, line: Int, column: Int, message: String) {
        #expect(
            TemplateLint.check(payload, format: .xml, byteLimit: nil)
                == [Self.error(line, column, "payload is not well-formed XML: " + message)])
    }

    @Test("very deep nesting is checked without recursion")
    func deepNesting() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(TemplateLint.check(json, format: .json, byteLimit: nil) == [])
        let xml = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(TemplateLint.check(xml, format: .xml, byteLimit: nil) == [])
    }

    /// `{"a":"xxx…"}` is 8 bytes plus the run of x.
    static func payload(bytes: Int) -> String {
        #"{"a":""# + String(repeating: "x", count: bytes - 8) + #""}"#
    }

    @Test("size limit: exactly at the limit passes, one byte over fails")
    func sizeBoundary() {
        #expect(TemplateLint.check(Self.payload(bytes: 4096), format: .json, byteLimit: 4096) == [])
        #expect(
            TemplateLint.check(Self.payload(bytes: 4097), format: .json, byteLimit: 4096)
                == [LintFinding(severity: .error, message: "payload is 4097 bytes; the limit is 4096")])
        #expect(
            TemplateLint.check(Self.payload(bytes: 4200), format: .json, byteLimit: 4096, limitName: "apns")
                == [LintFinding(severity: .error, message: "payload is 4200 bytes; the apns limit is 4096")])
        #expect(TemplateLint.check(Self.payload(bytes: 100_000), format: .json, byteLimit: nil) == [])
    }

    @Test("size is counted in UTF-8 bytes")
    func utf8Size() {
        let payload = #"{"a":"é"}"#
        #expect(TemplateLint.check(payload, format: .json, byteLimit: 10) == [])
        #expect(
            TemplateLint.check(payload, format: .json, byteLimit: 9)
                == [LintFinding(severity: .error, message: "payload is 10 bytes; the limit is 9")])
    }

    @Test("syntax and size findings are both reported")
    func both() {
        #expect(
            TemplateLint.check("<a>", format: .xml, byteLimit: 2) == [
                Self.error(1, 1, "payload is not well-formed XML: element <a> is never closed"),
                LintFinding(severity: .error, message: "payload is 3 bytes; the limit is 2"),
            ])
    }

    @Test("finding descriptions")
    func descriptions() {
        #expect(Self.error(2, 3, "m").description == "2:3: error: m")
        #expect(LintFinding(severity: .warning, message: "w").description == "warning: w")
    }
}
