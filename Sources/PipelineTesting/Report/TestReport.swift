import Foundation
import HubWire
import PipelineCore

/// The results of a `pushline test` in the forms it prints: text for people, JSON, JUnit XML (a file is a test
/// suite, a case a test case, as Terraform maps them) and TAP, and GitHub Actions annotations.
package struct TestReport: Sendable {
    /// Every case's result, in file order.
    package var results: [CaseResult]
    /// How long the whole run took, in seconds.
    package var seconds: Double

    /// A report of `results`.
    package init(results: [CaseResult], seconds: Double) {
        self.results = results
        self.seconds = seconds
    }

    /// How many cases passed.
    package var passed: Int { results.filter(\.passed).count }
    /// How many cases failed.
    package var failed: Int { results.count - passed }
    /// The test files, in order.
    package var files: [String] {
        var seen = Set<String>()
        return results.map(\.file).filter { seen.insert($0).inserted }
    }

    /// For people: a line per case, each failure under its case with where its expectation is written, then a total.
    package var text: String {
        var text = ""
        for result in results {
            let time = String(format: "%.2fs", result.seconds)
            text += "\(result.passed ? "PASS" : "FAIL")  \(result.file): \(result.name) (\(time))\n"
            for failure in result.failures {
                text +=
                    "      \(failure.location): \(failure.run.isEmpty ? "" : failure.run + ": ")\(failure.message)\n"
                if let detail = failure.detail, !detail.isEmpty {
                    text += detail.split(separator: "\n", omittingEmptySubsequences: false).map { "        \($0)\n" }
                        .joined()
                }
            }
            if !result.passed, !result.output.isEmpty {
                text += "      what the runs printed:\n"
                text += result.output.split(separator: "\n").map { "        \($0)\n" }.joined()
            }
        }
        let coverage = CoverageReport(results).text
        if !coverage.isEmpty { text += "\n" + coverage }
        let files = files.count
        text +=
            "\n\(passed) passed, \(failed) failed (\(results.count) case\(results.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"), \(String(format: "%.1f", seconds))s)\n"
        return text
    }

    /// As JSON: the totals and every case with its failures.
    package var json: String {
        struct Case: Encodable {
            let file: String, name: String, location: String, status: String, seconds: Double
            let failures: [Failure]
        }
        struct Failure: Encodable {
            let run: String, location: String, message: String, detail: String?
        }
        struct Gap: Encodable {
            let location: String, text: String
        }
        struct Covered: Encodable {
            let pipeline: String, steps: Int, stepsRan: Int, branches: Int, branchesTaken: Int, templates: Int
            let templatesUsed: Int
            let gaps: [Gap]
        }
        struct Report: Encodable {
            let passed: Int, failed: Int, seconds: Double
            let cases: [Case]
            let coverage: [Covered]
        }
        let report = Report(
            passed: passed, failed: failed, seconds: Self.rounded(seconds),
            cases: results.map { result in
                Case(
                    file: result.file, name: result.name, location: result.location.description,
                    status: result.passed ? "passed" : "failed", seconds: Self.rounded(result.seconds),
                    failures: result.failures.map {
                        Failure(run: $0.run, location: $0.location.description, message: $0.message, detail: $0.detail)
                    })
            },
            coverage: CoverageReport(results).pipelines.map { pipeline in
                Covered(
                    pipeline: pipeline.pipeline, steps: pipeline.steps, stepsRan: pipeline.stepsRan,
                    branches: pipeline.branches, branchesTaken: pipeline.branchesTaken, templates: pipeline.templates,
                    templatesUsed: pipeline.templatesUsed,
                    gaps: pipeline.gaps.map { Gap(location: $0.location.description, text: $0.text) })
            })
        return JSONText.encode(report) + "\n"
    }

    /// JUnit XML: `<testsuites>` of one `<testsuite>` per test file, one `<testcase>` per case, a `<failure>` per
    /// failed case holding every failure.
    package var junit: String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"pushline test\" tests=\"\(results.count)\" failures=\"\(failed)\" time=\"\(Self.time(seconds))\">\n"
        for file in files {
            let cases = results.filter { $0.file == file }
            let failures = cases.filter { !$0.passed }.count
            let time = cases.map(\.seconds).reduce(0, +)
            xml +=
                "  <testsuite name=\"\(Self.escape(file))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(Self.time(time))\">\n"
            for result in cases {
                xml +=
                    "    <testcase name=\"\(Self.escape(result.name))\" classname=\"\(Self.escape(file))\" file=\"\(Self.escape(file))\" line=\"\(result.location.line)\" time=\"\(Self.time(result.seconds))\""
                guard let first = result.failures.first else {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n      <failure message=\"\(Self.escape(first.message))\" type=\"failure\">"
                xml += Self.escape(Self.failureText(result))
                xml += "</failure>\n"
                if !result.output.isEmpty { xml += "      <system-out>\(Self.escape(result.output))</system-out>\n" }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// TAP version 13: a test point per case, a YAML block with the failures of a failed one.
    package var tap: String {
        var text = "TAP version 13\n1..\(results.count)\n"
        for (index, result) in results.enumerated() {
            text += "\(result.passed ? "ok" : "not ok") \(index + 1) - \(result.file): \(result.name)\n"
            guard !result.passed else { continue }
            text += "  ---\n  failures:\n"
            for failure in result.failures {
                text += "    - at: \(Self.yamlQuoted(failure.location.description))\n"
                text += "      run: \(Self.yamlQuoted(failure.run))\n"
                text += "      message: \(Self.yamlQuoted(failure.message))\n"
                if let detail = failure.detail, !detail.isEmpty {
                    text += "      detail: |-\n"
                    text += detail.split(separator: "\n", omittingEmptySubsequences: false).map { "        \($0)\n" }
                        .joined()
                }
            }
            text += "  ...\n"
        }
        return text
    }

    /// GitHub Actions workflow commands: an `::error` annotation at each failure's place in its test file.
    package var githubAnnotations: String {
        results.flatMap { result in
            result.failures.map { failure in
                let location = failure.location
                let title = Self.annotationProperty("pushline test: \(result.name)")
                let message = Self.annotationData(
                    failure.message + (failure.detail.map { "\n" + $0 } ?? ""))
                return
                    "::error file=\(Self.annotationProperty(location.file)),line=\(location.line),col=\(location.column),title=\(title)::\(message)\n"
            }
        }.joined()
    }

    static func failureText(_ result: CaseResult) -> String {
        result.failures.map { failure in
            "\(failure.location): \(failure.run.isEmpty ? "" : failure.run + ": ")\(failure.message)"
                + (failure.detail.map { "\n" + $0 } ?? "")
        }.joined(separator: "\n")
    }

    static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    /// Text for an XML attribute or element.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            case "\t", "\r": escaped += "&#\(scalar.value);"
            default:
                // XML 1.0 has no way to write other control characters: they are left out.
                if scalar.value >= 0x20 { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }

    /// A YAML double-quoted string: a JSON string literal is one.
    static func yamlQuoted(_ text: String) -> String {
        JSONText.quote(text)
    }

    /// A workflow command's message (`%`, CR and LF escaped).
    static func annotationData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property (`,` and `:` escaped too).
    static func annotationProperty(_ text: String) -> String {
        annotationData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
