import Testing

@testable import PipelineCore

@Suite struct OptionReaderTests {
    let specs = [
        OptionSpec("hub", .reference("hub"), required: true, "the hub"),
        OptionSpec("lifetime", .duration, default: "1h", "token lifetime"),
        OptionSpec("tags", .stringList, "tags"),
        OptionSpec("dry", .boolean, "dry"),
        OptionSpec("count", .integer, "count"),
        OptionSpec("headers", .stringMap, "headers"),
    ]

    @Test func unknownKeySuggestsAndListsKnownKeys() {
        let collector = DiagnosticCollector()
        let node = Build.mapping([("hub", Build.scalar("sports", 2, 10)), ("tgas", Build.scalar("a", 3, 10))])
        _ = OptionReader(node, specs: specs, step: "send", what: "send options", diagnostics: collector)
        #expect(
            collector.diagnostics == [
                Diagnostic(
                    .error, "unknown key 'tgas'; did you mean 'tags'?", at: Build.at(3, 10), step: "send",
                    hint: "known keys: hub, lifetime, tags, dry, count, headers")
            ])
    }

    @Test func missingRequiredKey() {
        let collector = DiagnosticCollector()
        _ = OptionReader(
            Build.mapping([], 4, 5), specs: specs, step: "sign", what: "sign options", diagnostics: collector)
        #expect(collector.diagnostics.map(\.message) == ["missing required key 'hub'"])
        #expect(collector.diagnostics.first?.location == Build.at(4, 5))
    }

    @Test("a required key written misspelled is one error, the unknown key's, not a second 'missing' one")
    func misspelledRequiredKeyIsOneError() {
        let collector = DiagnosticCollector()
        let reader = OptionReader(
            Build.mapping([("hbu", Build.scalar("sports", 2, 10))], 1, 5), specs: specs, step: "sign",
            what: "sign options", diagnostics: collector)
        #expect(collector.diagnostics.map(\.message) == ["unknown key 'hbu'; did you mean 'hub'?"])
        #expect(reader.isMisspelled("hub") && !reader.isMisspelled("tags"))
    }

    @Test func nonMappingIsAnError() {
        let collector = DiagnosticCollector()
        _ = OptionReader(
            Build.scalar("sports", 2, 9), specs: specs, step: "sign", what: "sign options", diagnostics: collector)
        #expect(collector.diagnostics.map(\.message) == ["sign options must be a mapping of keys, found a scalar"])
    }

    @Test func typedAccessorsReportWrongTypes() {
        let collector = DiagnosticCollector()
        let node = Build.mapping([
            ("hub", Build.mapping([], 2, 8)),
            ("lifetime", Build.scalar("forever", 3, 13)),
            ("dry", Build.scalar("yes", 4, 8)),
            ("count", Build.scalar("1000", 5, 10)),
            ("headers", Build.sequence([], 6, 12)),
        ])
        let reader = OptionReader(node, specs: specs, step: "x", what: "x options", diagnostics: collector)
        #expect(reader.string("hub") == nil)
        #expect(reader.duration("lifetime", in: 60...3600) == nil)
        #expect(reader.bool("dry") == nil)
        #expect(reader.integer("count", in: 1...100) == nil)
        #expect(reader.stringMap("headers") == nil)
        #expect(
            collector.diagnostics.map(\.message) == [
                "'hub' must be a string, found a mapping",
                "'lifetime' must be a duration such as 90s, 20m, 1h or 1h30m, found 'forever'",
                "'dry' must be true or false, found 'yes'",
                "'count' must be a whole number from 1 to 100, found '1000'",
                "'headers' must be a mapping, found a list",
            ])
        #expect(
            collector.diagnostics.map(\.location) == [
                Build.at(2, 8), Build.at(3, 13), Build.at(4, 8), Build.at(5, 10), Build.at(6, 12),
            ])
    }

    @Test func typedAccessorsReadValues() {
        let collector = DiagnosticCollector()
        let node = Build.mapping([
            ("hub", Build.scalar("sports")), ("lifetime", Build.scalar("20m")), ("dry", Build.scalar("true")),
            ("count", Build.scalar("7")), ("tags", Build.sequence([Build.scalar("a"), Build.scalar("b")])),
            ("headers", Build.mapping([("apns-push-type", Build.scalar("alert"))])),
        ])
        let reader = OptionReader(node, specs: specs, step: "x", what: "x options", diagnostics: collector)
        #expect(reader.string("hub")?.value == "sports")
        #expect(reader.duration("lifetime", in: 60...3600) == 1200)
        #expect(reader.bool("dry") == true)
        #expect(reader.integer("count", in: 1...100) == 7)
        #expect(reader.stringList("tags")?.map(\.value) == ["a", "b"])
        #expect(reader.stringMap("headers")?.map(\.value) == ["alert"])
        #expect(collector.diagnostics.isEmpty)
    }

    @Test func quotedTrueIsNotABoolean() {
        let collector = DiagnosticCollector()
        let node = Build.mapping([("dry", Build.scalar("true", 1, 6, plain: false))])
        let reader = OptionReader(node, specs: specs + [], step: nil, what: "x", diagnostics: collector)
        #expect(reader.bool("dry") == nil)
    }

    @Test func diagnosticsNeverQuoteResolvedSecrets() {
        let collector = DiagnosticCollector()
        let secret = ConfigScalar(text: "s3cr3t-value", sourceText: "${env:SECRET}", isPlain: false)
        let node = Build.mapping([("lifetime", ConfigNode(.scalar(secret), at: Build.at(1, 11)))])
        let optional = specs.filter { !$0.isRequired }
        let reader = OptionReader(node, specs: optional, step: nil, what: "x", diagnostics: collector)
        _ = reader.duration("lifetime", in: 60...3600)
        #expect(collector.diagnostics.count == 1)
        #expect(!collector.diagnostics[0].message.contains("s3cr3t"))
        #expect(collector.diagnostics[0].message.contains("${env:SECRET}"))
    }
}

@Suite struct RetryPolicyOptionTests {
    func read(_ pairs: [(String, ConfigNode)]) -> (RetryPolicy?, [String]) {
        let collector = DiagnosticCollector()
        let specs = RetryOptions.specs + [RetryOptions.retryAmbiguous.spec]
        let reader = OptionReader(
            Build.mapping(pairs), specs: specs, step: "send", what: "send options", diagnostics: collector)
        let keys = RetryKeys(reading: reader)
        let ambiguous = reader.value(RetryOptions.retryAmbiguous) ?? false
        return (collector.hasErrors ? nil : keys.policy(ambiguous: ambiguous), collector.diagnostics.map(\.message))
    }

    @Test func defaultsAreTheDotNetSDKs() {
        #expect(read([]).0 == RetryPolicy(maxRetries: 3, baseDelay: 1, maxDelay: 60, retryAmbiguous: false))
        #expect(
            RetryOptions.specs.map { "\($0.key)=\($0.defaultValue ?? "-")" } == [
                "retries=3", "retry-delay=1s", "retry-max-delay=1m",
            ])
    }

    @Test func givenValuesAreRead() {
        let (policy, problems) = read([
            ("retries", Build.scalar("0")), ("retry-delay", Build.scalar("5s")),
            ("retry-max-delay", Build.scalar("1h")), ("retry-ambiguous", Build.scalar("true")),
        ])
        #expect(problems.isEmpty)
        #expect(policy == RetryPolicy(maxRetries: 0, baseDelay: 5, maxDelay: 3600, retryAmbiguous: true))
    }

    @Test func outOfRangeAndInvertedDelaysAreErrors() {
        #expect(
            read([("retries", Build.scalar("-1"))]) == (
                nil, ["'retries' must be a whole number from 0 to 10, found '-1'"]
            ))
        #expect(
            read([("retry-max-delay", Build.scalar("2h"))]).1 == [
                "'retry-max-delay' must be between 1s and 1h, found '2h'"
            ])
        #expect(
            read([("retry-delay", Build.scalar("1m")), ("retry-max-delay", Build.scalar("30s"))])
                == (nil, ["'retry-max-delay' (30s) is shorter than 'retry-delay' (1m)"]))
    }
}
