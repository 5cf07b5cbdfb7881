import HubExpressions
import Testing

@Suite("Templates: XML")
struct TemplateXMLTests {
    func render(_ template: String, _ properties: TemplateProperties = ["first": "Ada", "n": "3"]) throws -> String {
        try CompiledTemplate(compiling: template).render(properties)
    }

    @Test(
        "attribute values and leaf texts are expressions; everything else is copied",
        arguments: [
            (
                #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<tile><v a=\"$(first)\" b='x'>#(n)</v></tile>",
                #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<tile><v a=\"Ada\" b='x'>3</v></tile>"
            ),
            ("<a>$(first)<b/></a>", "<a>$(first)<b/></a>"),
            ("<a>$(first)<!-- c --></a>", "<a>$(first)<!-- c --></a>"),
            ("<a> $(first)</a>", "<a> $(first)</a>"),
            ("<a><![CDATA[$(first)]]></a>", "<a>Ada</a>"),
            ("<a><![CDATA[<$(first)>]]></a>", "<a><![CDATA[<$(first)>]]></a>"),
            (#"<a b="&#36;(first)">&#x24;(first)</a>"#, #"<a b="Ada">Ada</a>"#),
            (#"<a b="&amp;$(first)">&lt;$(first)</a>"#, #"<a b="&amp;$(first)">&lt;$(first)</a>"#),
            ("<a><b>$(first)</b><c>{$(first)+'!'}</c></a>", "<a><b>Ada</b><c>Ada!</c></a>"),
            ("<!-- $(first) --><a/><?pi $(first)?>", "<!-- $(first) --><a/><?pi $(first)?>"),
            ("<a></a>", "<a></a>"),
        ])
    func placement(template: String, expected: String) throws {
        #expect(try render(template) == expected)
    }

    @Test("a full WNS toast with several bindings")
    func toast() throws {
        let template = """
            <toast launch="{'app://open?id=' + %(id)}">
              <visual>
                <binding template="ToastGeneric">
                  <text>$(title, 10)</text>
                  <text>.(body, 12)</text>
                </binding>
              </visual>
            </toast>
            """
        let expected = """
            <toast launch="app://open?id=a%2Fb">
              <visual>
                <binding template="ToastGeneric">
                  <text>R&amp;D news t</text>
                  <text>5 &lt; 6, an...</text>
                </binding>
              </visual>
            </toast>
            """
        let properties: TemplateProperties = ["id": "a/b", "title": "R&D news today", "body": "5 < 6, and more"]
        #expect(try render(template, properties) == expected)
    }
}
