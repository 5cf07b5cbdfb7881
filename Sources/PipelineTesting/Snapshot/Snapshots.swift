import Foundation
import PipelineCore

/// The snapshot files beside test files (`nightly.test.snapshot` for `nightly.test.yaml`): a section per case that keeps
/// one (`snapshot: true`), `== NAME` then its runs as `SnapshotText` writes them.
package enum Snapshots {
    /// What comparing the cases' snapshots with the files came to.
    package struct Outcome: Sendable {
        /// The results, a failure added to each case whose snapshot differs or is missing where it may not be written.
        package var results: [CaseResult]
        /// What was written, one line each (`wrote the snapshot of … to …`).
        package var notes: [String]
    }

    /// The snapshot file of the test file at `path`.
    package static func path(for testFile: String) -> String {
        for suffix in [".yaml", ".yml"] where testFile.hasSuffix(suffix) {
            return String(testFile.dropLast(suffix.count)) + ".snapshot"
        }
        return testFile + ".snapshot"
    }

    /// Compares each case's snapshot with its file: with `update`, every snapshot is written; else a snapshot that
    /// differs fails its case with a diff, and a missing one fails under `ci` (CI must not pass by writing what it
    /// should have checked) or is written otherwise.
    package static func reconcile(_ results: [CaseResult], update: Bool, ci: Bool) -> Outcome {
        var outcome = Outcome(results: results, notes: [])
        let files = Dictionary(grouping: results.indices.filter { results[$0].snapshot != nil }) { results[$0].file }
        for (file, indices) in files.sorted(by: { $0.key < $1.key }) {
            let path = path(for: file)
            let existing = (try? String(contentsOfFile: path, encoding: .utf8)).map(sections(of:)) ?? []
            var kept = existing
            var changed = false
            for index in indices {
                let result = results[index]
                guard let made = result.snapshot else { continue }
                let found = existing.first { $0.name == result.name }?.body
                if found == made { continue }
                if update || (found == nil && !ci) {
                    if let at = kept.firstIndex(where: { $0.name == result.name }) {
                        kept[at].body = made
                    } else {
                        kept.append((result.name, made))
                    }
                    changed = true
                    outcome.notes.append("wrote the snapshot of '\(result.name)' to \(path)")
                    continue
                }
                outcome.results[index].failures.append(
                    found.map { found in
                        TestFailure(
                            run: "", location: result.location,
                            message: "the runs differ from the snapshot in \(path)",
                            detail: TextDiff.unified(
                                expected: String(found.dropLast()), actual: String(made.dropLast()))
                                + "\n(if the change is meant: pushline test --update, then commit the snapshot)")
                    }
                        ?? TestFailure(
                            run: "", location: result.location,
                            message: "the case has no snapshot in \(path), and under CI none is written",
                            detail: "run `pushline test --update` where you work and commit \(path)"))
            }
            if changed {
                do {
                    try text(of: kept, testFile: file).write(toFile: path, atomically: true, encoding: .utf8)
                } catch {
                    outcome.notes.append("could not write \(path): \(error.localizedDescription)")
                }
            }
        }
        return outcome
    }

    /// The sections of a snapshot file, in order (the empty line before each `== ` line separates; it is no body's).
    static func sections(of text: String) -> [(name: String, body: String)] {
        var sections: [(name: String, lines: [Substring])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("== ") {
                sections.append((String(line.dropFirst(3)), []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].lines.append(line)
            }
        }
        return sections.map { section in
            var lines = section.lines
            while lines.last == "" { lines.removeLast() }
            return (section.name, lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n")
        }
    }

    /// The file's text: a line saying what it is, then each section.
    static func text(of sections: [(name: String, body: String)], testFile: String) -> String {
        "# Snapshots of \(FilePath.lastComponent(of: testFile)), written by `pushline test --update`: the requests each "
            + "case's runs made and what each device received.\n"
            + sections.map { "\n== \($0.name)\n\($0.body)" }.joined()
    }
}
