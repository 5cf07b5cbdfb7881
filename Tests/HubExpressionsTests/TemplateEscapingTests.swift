import HubExpressions
import Testing

@Suite("Templates: escaping for the container")
struct TemplateEscapingTests {
    func render(_ template: String, _ value: String) throws -> String {
        try CompiledTemplate(compiling: template).render(["v": value])
    }

    @Test(
        "JSON string escaping",
        arguments: [
            ("plain", "plain"),
            ("say \"hi\"", #"say \"hi\""#),
            (#"C:\path"#, #"C:\\path"#),
            ("a\nb\rc\td", #"a\nb\rc\td"#),
            ("\u{08}\u{0C}", #"\b\f"#),
            ("\u{01}\u{1F}", #"\u0001\u001f"#),
            ("</script> & 'x'", "</script> & 'x'"),
            ("Zoë 🎉", "Zoë 🎉"),
            ("\u{7F}\u{2028}", "\u{7F}\u{2028}"),
        ])
    func json(value: String, escaped: String) throws {
        #expect(try render(#"{"a":"$(v)"}"#, value) == #"{"a":"\#(escaped)"}"#)
        #expect(try render(#"{"a":"{'' + $(v)}"}"#, value) == #"{"a":"\#(escaped)"}"#)
        #expect(try render(##"{"a":"#(v)"}"##, value) == #"{"a":"\#(escaped)"}"#)
    }

    @Test(
        "XML text escaping",
        arguments: [
            ("plain", "plain"),
            ("<b> & 'x' \"y\"", "&lt;b&gt; &amp; 'x' \"y\""),
            ("a\nb\tc", "a\nb\tc"),
            ("a\rb", "a&#13;b"),
            ("bell\u{07}", "bell\u{FFFD}"),
            ("Zoë 🎉", "Zoë 🎉"),
        ])
    func xmlText(value: String, escaped: String) throws {
        #expect(try render("<text>$(v)</text>", value) == "<text>\(escaped)</text>")
        #expect(try render("<text>#(v)</text>", value) == "<text>\(escaped)</text>")
    }

    @Test(
        "XML attribute escaping",
        arguments: [
            ("<b> & 'x' \"y\"", "&lt;b&gt; &amp; &apos;x&apos; &quot;y&quot;"),
            ("a\nb\tc\rd", "a&#10;b&#9;c&#13;d"),
            ("Zoë 🎉", "Zoë 🎉"),
        ])
    func xmlAttribute(value: String, escaped: String) throws {
        #expect(try render(#"<a b="$(v)"/>"#, value) == #"<a b="\#(escaped)"/>"#)
        #expect(try render("<a b='$(v)'/>", value) == "<a b='\(escaped)'/>")
    }

    @Test("composite literals are escaped for their container too")
    func compositeLiterals() throws {
        #expect(
            try render(#"<a t="{'&lt;&quot;' + &quot;x&quot;}">{'&amp;&lt;' + $(v)}</a>"#, "'")
                == #"<a t="&lt;&quot;x">&amp;&lt;'</a>"#)
        #expect(try render(#"{"a":"{'\\ \"' + $(v)}"}"#, "") == #"{"a":"\\ \""}"#)
    }

    @Test("truncation happens before escaping")
    func truncateThenEscape() throws {
        #expect(try render(#"{"a":"$(v, 3)"}"#, "\"\"\"\"") == #"{"a":"\"\"\""}"#)
        #expect(try render("<a>.(v, 5)</a>", "<<<<<<") == "<a>&lt;&lt;...</a>")
    }
}
