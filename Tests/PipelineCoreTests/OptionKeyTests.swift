import Testing

@testable import PipelineCore

/// Declared keys: one declaration reads, checks, defaults and documents a key.
@Suite struct OptionKeyTests {
    enum Colour: String, CaseIterable, Sendable { case red, green }

    static let count = OptionKey<Int>.integer("count", in: 1...256, default: 16, "how many")
    static let rate = OptionKey<Double>.number("rate", in: 0.5...100, examples: ["20"], "per second")
    static let window = OptionKey<Int64>.duration("window", in: 0...86400, default: 3600, "how long")
    static let colour = OptionKey<Colour>.choice("colour", default: .red, "which")
    static let rows = OptionKey<String>.path("rows", "the rows")
    static let each = OptionKey<Int>.integer("each", in: 1...10, "per row").requiring(
        "rows", because: "it counts rows", hint: "add `rows:`")
    static let inline = OptionKey<String>.text("inline", "inline").excluding(["rows", "file"], hint: "keep one")
    static let specs = [
        count.spec, rate.spec, window.spec, colour.spec, rows.spec, each.spec, inline.spec,
        OptionSpec("file", .path, "a file"),
    ]

    private func read(_ pairs: [(String, ConfigNode)]) -> (OptionReader, DiagnosticCollector) {
        let collector = DiagnosticCollector()
        return (
            OptionReader(
                Build.mapping(pairs, 2, 3), specs: Self.specs, step: "probe", what: "probe options",
                diagnostics: collector), collector
        )
    }

    @Test func absentKeysTakeTheirDeclaredDefaults() {
        let (reader, collector) = read([])
        #expect(reader.value(Self.count) == 16)
        #expect(reader.value(Self.window) == 3600)
        #expect(reader.value(Self.colour) == .red)
        #expect(reader.value(Self.rate) == nil)
        #expect(collector.diagnostics.isEmpty)
    }

    @Test func valuesAreReadWithinTheirBounds() {
        let (reader, collector) = read([
            ("count", Build.scalar("4")), ("rate", Build.scalar("2.5")), ("window", Build.scalar("0")),
            ("colour", Build.scalar("green")),
        ])
        #expect(reader.value(Self.count) == 4)
        #expect(reader.value(Self.rate) == 2.5)
        #expect(reader.value(Self.window) == 0, "a bare 0 turns a window that may be 0 off")
        #expect(reader.value(Self.colour) == .green)
        #expect(collector.diagnostics.isEmpty)
    }

    @Test func valuesOutsideTheirBoundsAreErrorsAtTheValue() {
        let (reader, collector) = read([
            ("count", Build.scalar("300", 3, 10)), ("rate", Build.scalar("0.1", 4, 9)),
            ("window", Build.scalar("2d", 5, 11)), ("colour", Build.scalar("gren", 6, 11)),
        ])
        #expect(
            reader.value(Self.count) == nil && reader.value(Self.rate) == nil && reader.value(Self.window) == nil
                && reader.value(Self.colour) == nil)
        #expect(
            collector.diagnostics.map(\.message) == [
                "'count' must be a whole number from 1 to 256, found '300'",
                "'rate' must be a number from 0.5 to 100 (e.g. 20), found '0.1'",
                "'window' must be between 0s and 1d, found '2d'",
                "'colour' must be one of red, green, found 'gren'; did you mean 'green'?",
            ])
        #expect(
            collector.diagnostics.map(\.location) == [
                Build.at(3, 10), Build.at(4, 9), Build.at(5, 11), Build.at(6, 11),
            ])
    }

    @Test func exclusionsAndRequirementsAreCheckedWhenTheMappingIsRead() {
        let (_, collector) = read([
            ("inline", Build.scalar("x", 3, 11)), ("rows", Build.scalar("r.csv", 4, 9)),
            ("file", Build.scalar("f", 5, 9)), ("each", Build.scalar("2", 6, 9)),
        ])
        #expect(
            collector.diagnostics.map(\.message) == [
                "give either 'inline' or 'rows', not both", "give either 'inline' or 'file', not both",
            ])
        #expect(collector.diagnostics.map(\.hint) == ["keep one", "keep one"])
        let (_, missing) = read([("each", Build.scalar("2", 3, 3))])
        #expect(missing.diagnostics.map(\.message) == ["'each' applies only with 'rows': it counts rows"])
        #expect(missing.diagnostics.first?.hint == "add `rows:`")
        // An empty key is absent: it neither excludes nor satisfies.
        let (_, empty) = read([("inline", Build.scalar("x")), ("rows", Build.scalar(""))])
        #expect(empty.diagnostics.isEmpty)
    }

    @Test func theDeclarationDocumentsItsBoundsAndDefault() {
        #expect(Self.count.spec.typeDocumentation == "integer, 1 to 256")
        #expect(Self.count.spec.defaultValue == "16")
        #expect(Self.rate.spec.typeDocumentation == "number, 0.5 to 100")
        #expect(Self.window.spec.typeDocumentation == "duration, 0s to 1d")
        #expect(Self.window.spec.defaultValue == "1h")
        #expect(Self.colour.spec.type == .oneOf(["red", "green"]))
        #expect(Self.each.spec.requirement?.key == "rows")
        #expect(Self.inline.spec.exclusion?.keys == ["rows", "file"])
    }
}
