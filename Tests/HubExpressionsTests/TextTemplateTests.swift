import HubExpressions
import Testing

/// `for-each` fields: `$(column)` references in otherwise literal text.
@Suite struct TextTemplateTests {
    let row: TemplateProperties = ["userId": "alice", "headline": "Rain & \"wind\" <tonight>", "city": "São Paulo"]

    @Test(
        "references take the row's values; NH's $UserId:{…} form stays literal",
        arguments: [
            ("$UserId:{$(userId)}", "$UserId:{alice}"),
            ("follows_$(city) && !muted", "follows_São Paulo && !muted"),
            ("$(headline)", "Rain & \"wind\" <tonight>"),
            ("$(headline, 4)…", "Rain…"),
            (".(headline, 10)", "Rain & ..."),
            ("city=%(city)", "city=S%C3%A3o%20Paulo"),
            ("$(USERID)-$(missing)-", "alice--"),
            ("no references at all: $ . % ( )", "no references at all: $ . % ( )"),
            ("", ""),
        ])
    func renders(source: String, expected: String) throws {
        #expect(try TextTemplate(compiling: source).render(row) == expected)
    }

    @Test func namesAreListedOnceInOrderOfFirstUse() throws {
        let template = try TextTemplate(compiling: "$(b) $(a) $(B) %(c)")
        #expect(template.propertyNames == ["b", "a", "c"])
        #expect(!template.isConstant)
        #expect(try TextTemplate(compiling: "$UserId:{x}").isConstant)
    }

    @Test(
        "malformed references are errors at their column",
        arguments: [
            ("tag_$(user-id)", "unexpected '-' in property name", 11),
            ("x $(name", "missing ')' to close '$('", 9),
            ("$()", "expected a property name after '$('", 3),
            (".(name)", "'.(…)' needs a length: write .(name, n)", 7),
        ])
    func malformed(source: String, message: String, column: Int) {
        #expect(throws: TemplateError.self) { try TextTemplate(compiling: source) }
        do { _ = try TextTemplate(compiling: source) } catch {
            #expect(error.message == message)
            #expect(error.column == column)
        }
    }
}
