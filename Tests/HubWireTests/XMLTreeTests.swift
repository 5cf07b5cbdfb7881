import Testing

@testable import HubWire

@Suite("XMLTree")
struct XMLTreeTests {
    @Test("parses structure, attributes, text, CDATA and source ranges")
    func structure() throws {
        let text =
            "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- c --><a:root x = '1' a:y=\"&lt;2&gt;\">"
            + "t&amp;<b>one</b><!-- skip --><?pi x?><b/><c><![CDATA[<raw>]]></c></a:root>\n"
        let root = try XMLTree.parse(text)
        #expect(root.name == "a:root")
        #expect(root.localName == "root")
        #expect(root.attributes == [.init(name: "x", value: "1"), .init(name: "a:y", value: "<2>")])
        #expect(root.attribute("y") == "<2>")
        #expect(root.text == "t&")
        #expect(root.children("b").map(\.text) == ["one", ""])
        #expect(root.child("c")?.text == "<raw>")
        let bytes = Array(text.utf8)
        let b = try #require(root.child("b"))
        #expect(String(decoding: bytes[b.sourceRange], as: UTF8.self) == "<b>one</b>")
    }

    @Test("CDATA wins over surrounding whitespace only")
    func cdataText() throws {
        #expect(try XMLTree.parse("<a>\n  <![CDATA[ x ]]>\n</a>").text == " x ")
        #expect(try XMLTree.parse("<a>y<![CDATA[ x ]]></a>").text == "y x ")
    }

    @Test(
        "syntax errors name line and column",
        arguments: [
            ("<a><b></a>", "line 1, column 10: expected </b> but found </a>"),
            ("<a>\n<b x=1/></a>", "line 2, column 6: the value of attribute x must be in quotes"),
            ("<a x></a>", "line 1, column 5: attribute x of <a> has no '=' and value"),
            ("<a x='1></a>", "line 1, column 6: the value of attribute x is not closed"),
            (
                "<!DOCTYPE a [<!ENTITY e 'x'>]><a/>",
                "line 1, column 1: DTDs and other markup declarations are not supported"
            ),
            ("<a/><b/>", "line 1, column 5: unexpected content after the root element </a>"),
            ("text", "line 1, column 1: expected '<' to start the root element"),
            ("<a><!-- open</a>", "line 1, column 4: a comment is not closed with '-->'"),
            ("<a><![CDATA[x</a>", "line 1, column 4: a CDATA section is not closed with ']]>'"),
            ("<>", "line 1, column 2: expected an element name after '<'"),
            ("<ü>é", "line 1, column 5: <ü> is never closed"),
        ])
    func syntaxErrors(_ text: String, _ message: String) {
        #expect(throws: XMLSyntaxError(message: message)) { try XMLTree.parse(text) }
    }

    @Test("deep nesting is refused instead of overflowing the stack")
    func depth() {
        let text = String(repeating: "<a>", count: 10_000)
        #expect(throws: XMLSyntaxError(message: "line 1, column 193: elements are nested more than 64 deep")) {
            try XMLTree.parse(text)
        }
    }
}
