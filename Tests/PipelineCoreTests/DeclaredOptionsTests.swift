import Testing

@testable import PipelineCore

/// Options declared as one type: the key list, the values, their places and the checks all come from the
/// `@Key` declarations.
@Suite struct DeclaredOptionsTests {
    enum Colour: String, CaseIterable, Sendable { case red, green }

    struct Limits: DeclaredOptions {
        @Key(.integer("low", in: 0...100, default: 10, "the low mark")) var low: Int
        @Key(.integer("high", in: 0...100, default: 90, "the high mark")) var high: Int
        init() {}

        func check(_ reader: OptionReader) {
            guard !$low.isRefused, !$high.isRefused, high < low else { return }
            reader.error("'high' (\(high)) is below 'low' (\(low))", at: $high.node ?? $low.node ?? reader.node)
        }
    }

    struct Inner: DeclaredOptions {
        @Key(.duration("wait", in: 1...3600, required: true, "how long")) var wait: Int64?
        @Key(.integer("tries", in: 1...5, default: 3, "how often")) var tries: Int
        init() {}
    }

    struct Probe: DeclaredOptions {
        @Key(.text("name", required: true, "who")) var name: String?
        @Key(.choice("colour", default: .red, "which")) var colour: Colour
        @Key(.flag("loud", "shout")) var loud: Bool
        @KeyGroup var limits: Limits
        @Key(.mapping("retry", examples: ["{ wait: 5s }"], "retrying")) var retry: Inner?
        init() {}

        func check(_ reader: OptionReader) {
            if name == "twice", limits.low == limits.high { reader.error("marks are equal", at: reader.node) }
        }
    }

    private func read(_ pairs: [(String, ConfigNode)]) -> (Probe, DiagnosticCollector) {
        let collector = DiagnosticCollector()
        let reader = OptionReader(
            Build.mapping(pairs, 2, 3), specs: Probe.specs, step: "probe", what: "probe options", diagnostics: collector
        )
        return (Probe(reading: reader), collector)
    }

    @Test func theKeyListIsTheDeclarationsInOrderWithGroupsInline() {
        #expect(Probe.specs.map(\.key) == ["name", "colour", "loud", "low", "high", "retry"])
        #expect(Probe.specs[0].isRequired && Probe.specs[1].defaultValue == "red" && Probe.specs[3].bounds == 0...100)
        guard case .mapping(let inner) = Probe.specs[5].type else {
            Issue.record("a nested mapping documents its keys")
            return
        }
        #expect(inner.map(\.key) == ["wait", "tries"])
    }

    struct Entry: DeclaredOptions {
        @Key(OptionKey.node(OptionSpec("when", .string, "when")).asWritten().described("when, narrowed")) var when:
            ConfigNode?
        @Key(.node(OptionSpec("other", .string, "other"))) var other: ConfigNode?
        init() {}
    }

    @Test(
        "a key read as written gets a value that waits for a step's output, which other keys take as absent, through its other modifiers too"
    )
    func keysReadAsWritten() {
        let pending = ConfigNode(
            .scalar(ConfigScalar(text: "", sourceText: "${steps.a.b} > 0", isUnresolved: true)), at: Build.at(2, 7))
        let reader = OptionReader(
            Build.mapping([("when", pending), ("other", pending)]), specs: Entry.specs, step: nil, what: "entry",
            diagnostics: DiagnosticCollector())
        let entry = Entry(reading: reader)
        #expect(entry.when?.location == Build.at(2, 7))
        #expect(entry.other == nil)
        #expect(Entry.specs.first?.summary == "when, narrowed")
    }

    @Test func absentKeysTakeTheirDefaultsAndHaveNoPlace() {
        let (probe, collector) = read([("name", Build.scalar("ann", 3, 9))])
        #expect(
            probe.name == "ann" && probe.colour == .red && probe.loud == false && probe.limits.low == 10
                && probe.retry == nil)
        #expect(probe.$name.node?.location == Build.at(3, 9) && probe.$name.isRead)
        #expect(probe.$colour.node == nil && !probe.$colour.isRefused && !probe.$colour.isRead)
        #expect(collector.diagnostics.isEmpty)
    }

    @Test func givenValuesAreReadIntoTheirPropertiesAndGroups() {
        let (probe, collector) = read([
            ("name", Build.scalar("ann")), ("colour", Build.scalar("green")), ("loud", Build.scalar("true")),
            ("low", Build.scalar("20")), ("retry", Build.mapping([("wait", Build.scalar("90s"))])),
        ])
        #expect(probe.colour == .green && probe.loud && probe.limits.low == 20 && probe.limits.high == 90)
        #expect(probe.retry?.wait == 90 && probe.retry?.tries == 3)
        #expect(collector.diagnostics.isEmpty)
    }

    @Test func aRefusedValueIsReportedAtItsPlaceAndTheDefaultKept() {
        let (probe, collector) = read([
            ("name", Build.scalar("ann")), ("colour", Build.scalar("gren", 4, 11)), ("low", Build.scalar("900", 5, 8)),
        ])
        #expect(
            collector.diagnostics.map(\.message) == [
                "'colour' must be one of red, green, found 'gren'; did you mean 'green'?",
                "'low' must be a whole number from 0 to 100, found '900'",
            ])
        #expect(collector.diagnostics.map(\.location) == [Build.at(4, 11), Build.at(5, 8)])
        #expect(probe.colour == .red && probe.$colour.isRefused && probe.$colour.node?.location == Build.at(4, 11))
        #expect(probe.limits.low == 10 && probe.limits.$low.isRefused)
    }

    @Test func checksRunAfterReadingGroupsFirst() {
        let (_, collector) = read([
            ("name", Build.scalar("twice")), ("low", Build.scalar("50")), ("high", Build.scalar("40", 6, 9)),
        ])
        #expect(collector.diagnostics.map(\.message) == ["'high' (40) is below 'low' (50)"])
        #expect(collector.diagnostics.first?.location == Build.at(6, 9))
        let (_, equal) = read([
            ("name", Build.scalar("twice")), ("low", Build.scalar("50")), ("high", Build.scalar("50")),
        ])
        #expect(equal.diagnostics.map(\.message) == ["marks are equal"])
        let (_, refused) = read([
            ("name", Build.scalar("x")), ("low", Build.scalar("50")), ("high", Build.scalar("-1")),
        ])
        #expect(
            refused.diagnostics.map(\.message) == ["'high' must be a whole number from 0 to 100, found '-1'"],
            "a refused value is not compared again")
    }

    @Test func aNestedMappingIsReadWithItsOwnKeys() {
        let (probe, collector) = read([
            ("name", Build.scalar("ann")),
            ("retry", Build.mapping([("tries", Build.scalar("2")), ("wiat", Build.scalar("5s", 7, 12))], 7, 10)),
        ])
        #expect(
            collector.diagnostics.map(\.message) == ["unknown key 'wiat'; did you mean 'wait'?"],
            "a misspelt required key is one error, not also a missing one")
        #expect(probe.retry == nil && probe.$retry.isRefused)
        let (_, missing) = read([
            ("name", Build.scalar("ann")), ("retry", Build.mapping([("tries", Build.scalar("2"))])),
        ])
        #expect(missing.diagnostics.map(\.message) == ["missing required key 'wait'"])
        let (_, scalar) = read([("name", Build.scalar("ann")), ("retry", Build.scalar("5s"))])
        #expect(scalar.diagnostics.map(\.message) == ["'retry' must be a mapping such as { wait: 5s }, found a scalar"])
    }

    @Test func unknownKeysAreReportedAgainstTheDerivedList() {
        let (_, collector) = read([("name", Build.scalar("ann")), ("colur", Build.scalar("red", 8, 3))])
        #expect(collector.diagnostics.map(\.message) == ["unknown key 'colur'; did you mean 'colour'?"])
    }
}
