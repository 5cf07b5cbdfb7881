import Foundation
import PipelineCore

/// Finding test files: `nightly.test.yaml` beside `nightly.yaml`, or every `.yaml` in a `nightly.tests/` folder.
package enum TestFiles {
    /// True for a file named as a test file, or inside a `.tests` folder.
    package static func isTestFile(_ path: String) -> Bool {
        let name = FilePath.lastComponent(of: path)
        if name.hasSuffix(".test.yaml") || name.hasSuffix(".test.yml") { return true }
        let folder = FilePath.lastComponent(of: FilePath.directory(of: path))
        return folder.hasSuffix(".tests") && (name.hasSuffix(".yaml") || name.hasSuffix(".yml"))
    }

    /// The test files `paths` name, sorted and without repeats: a test file itself; a pipeline's tests (beside it);
    /// every test file under a folder (hidden folders and `.build` left out). A path that names nothing is a problem.
    package static func find(_ paths: [String]) -> (files: [String], problems: [String]) {
        var files: [String] = []
        var problems: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
                problems.append("'\(path)' does not exist")
                continue
            }
            if isFolder.boolValue {
                files += under(path)
            } else if isTestFile(path) {
                files.append(path)
            } else {
                let found = beside(pipeline: path)
                if found.isEmpty {
                    let stem = FilePath.lastComponent(of: path).split(separator: ".").first.map(String.init) ?? path
                    problems.append(
                        "'\(path)' has no tests: write \(stem).test.yaml beside it (or test files in \(stem).tests/)")
                }
                files += found
            }
        }
        var seen = Set<String>()
        return (files.map(FilePath.normalize).filter { seen.insert($0).inserted }.sorted(), problems)
    }

    /// The tests of the pipeline at `path`: `X.test.yaml` / `X.test.yml` beside it and the files of `X.tests/`.
    static func beside(pipeline path: String) -> [String] {
        let directory = FilePath.directory(of: path)
        let name = FilePath.lastComponent(of: path)
        let stem =
            name.hasSuffix(".yaml")
            ? String(name.dropLast(5)) : name.hasSuffix(".yml") ? String(name.dropLast(4)) : name
        var found: [String] = []
        for suffix in [".test.yaml", ".test.yml"] {
            let candidate = FilePath.resolve(stem + suffix, against: directory)
            if FileManager.default.fileExists(atPath: candidate) { found.append(candidate) }
        }
        let folder = FilePath.resolve(stem + ".tests", against: directory)
        found += yamlFiles(in: folder)
        return found
    }

    /// Every test file under `folder`.
    static func under(_ folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = FilePath.lastComponent(of: relative)
            if name.hasPrefix(".") || name == ".build" {
                walker.skipDescendants()
                continue
            }
            let path = FilePath.resolve(relative, against: folder)
            if isTestFile(path) { found.append(path) }
        }
        return found
    }

    private static func yamlFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map {
            FilePath.resolve($0, against: folder)
        }
    }
}
