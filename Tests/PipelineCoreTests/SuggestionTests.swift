import Testing

@testable import PipelineCore

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("tgas", "tags"), ("hbu", "hub"), ("lifetim", "lifetime"), ("Template", "template"),
        ("propertes", "properties"),
    ])
    func suggestsCloseCandidate(typo: String, expected: String) {
        #expect(Suggestion.closest(to: typo, in: ["tags", "hub", "lifetime", "template", "properties"]) == expected)
    }

    @Test func noSuggestionForUnrelatedWords() {
        #expect(Suggestion.closest(to: "x", in: ["hub", "tags"]) == nil)
        #expect(Suggestion.closest(to: "banana", in: ["hub", "lifetime"]) == nil)
        #expect(Suggestion.didYouMean("banana", in: ["hub"]) == "")
        #expect(Suggestion.didYouMean("hbu", in: ["hub"]) == "; did you mean 'hub'?")
    }

    @Test func transpositionIsOneEdit() {
        #expect(Suggestion.editDistance("tgas", "tags") == 1)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }
}

@Suite struct ConfigDurationTests {
    @Test(arguments: [("90s", Int64(90)), ("20m", 1200), ("1h", 3600), ("1h30m", 5400), ("2d", 172_800), (" 5m ", 300)])
    func parses(text: String, seconds: Int64) {
        #expect(ConfigDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["", "20", "m", "1x", "1.5h", "-5m", "h1", "99999999999999999999d"])
    func rejects(text: String) {
        #expect(ConfigDuration.seconds(text) == nil)
    }

    @Test func formats() {
        #expect(ConfigDuration.format(5400) == "1h30m")
        #expect(ConfigDuration.format(1200) == "20m")
        #expect(ConfigDuration.format(0) == "0s")
        #expect(ConfigDuration.format(90061) == "1d1h1m1s")
    }
}

@Suite struct FilePathTests {
    @Test func resolvesAgainstDirectory() {
        #expect(FilePath.resolve("../templates/a.json", against: "pipelines") == "templates/a.json")
        #expect(FilePath.resolve("data/x.csv", against: "pipelines") == "pipelines/data/x.csv")
        #expect(FilePath.resolve("x.csv", against: ".") == "x.csv")
        #expect(FilePath.resolve("/abs/x.csv", against: "pipelines") == "/abs/x.csv")
        #expect(FilePath.resolve("../../x", against: "a") == "../x")
        #expect(FilePath.resolve("../x", against: "/") == "/x")
    }

    @Test("a path is shown from the current directory when it lies inside it, else as it is")
    func shownFromTheCurrentDirectory() {
        #expect(FilePath.shown("/srv/app/pipelines/data/x.csv", currentDirectory: "/srv/app") == "pipelines/data/x.csv")
        #expect(FilePath.shown("/srv/app/x.csv", currentDirectory: "/srv/app/") == "x.csv")
        #expect(
            FilePath.shown("/srv/application/x.csv", currentDirectory: "/srv/app") == "/srv/application/x.csv",
            "a sibling, not inside")
        #expect(
            FilePath.shown("/var/lib/pushline/journal.sqlite", currentDirectory: "/srv/app")
                == "/var/lib/pushline/journal.sqlite")
        #expect(
            FilePath.shown("pipelines/x.csv", currentDirectory: "/srv/app") == "pipelines/x.csv",
            "relative: from there already")
        #expect(FilePath.shown("/srv/app", currentDirectory: "/srv/app") == "/srv/app")
    }

    @Test func directoryOf() {
        #expect(FilePath.directory(of: "pipelines/a.yaml") == "pipelines")
        #expect(FilePath.directory(of: "a.yaml") == ".")
        #expect(FilePath.directory(of: "/a.yaml") == "/")
    }
}
