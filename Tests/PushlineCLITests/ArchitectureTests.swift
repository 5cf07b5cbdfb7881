import Foundation
import Testing

/// ARCHITECTURE.md's target table lists exactly the targets Package.swift declares, so it cannot drift from it.
@Suite struct ArchitectureTests {
    @Test("every target of Package.swift has its row in ARCHITECTURE.md, and every row a target")
    func targetTable() throws {
        let manifest = try String(contentsOfFile: CommandRunner.root + "/Package.swift", encoding: .utf8)
        let declared = Set(
            manifest.matches(of: /\.(?:target|executableTarget|systemLibrary)\(\s*name: "([A-Za-z]+)"/).map {
                String($0.output.1)
            })
        #expect(declared.count >= 25)
        let page = try String(contentsOfFile: CommandRunner.root + "/ARCHITECTURE.md", encoding: .utf8)
        // The first table: rows up to the first blank line after its header.
        let rows = page.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("| target |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        var listed: Set<String> = []
        for row in rows {
            let first = row.split(separator: "|").first.map(String.init) ?? ""
            // Backticked names, not the folders in parentheses after them.
            let names = first.components(separatedBy: "(").first ?? first
            listed.formUnion(names.matches(of: /`([A-Za-z]+)`/).map { String($0.output.1) })
        }
        #expect(declared.subtracting(listed).isEmpty, "targets without a row: \(declared.subtracting(listed).sorted())")
        #expect(listed.subtracting(declared).isEmpty, "rows without a target: \(listed.subtracting(declared).sorted())")
    }
}

/// Option keys are read through their declarations (`@Key` properties of a `DeclaredOptions` type, or an
/// `OptionKey`), never by a string spelt again where the value is read: a key spelt twice can drift.
@Suite struct DeclaredKeyReadTests {
    @Test("no option is read by a string key outside the declarations (PipelineCore/Options)")
    func keysAreReadThroughDeclarations() throws {
        let root = CommandRunner.root
        let files =
            FileManager.default.enumerator(atPath: root + "/Sources")?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".swift")
            } ?? []
        #expect(files.count > 100)
        var reading: Set<String> = []
        for file in files where !file.hasPrefix("PipelineCore/Options/") {
            let text = try String(contentsOfFile: root + "/Sources/" + file, encoding: .utf8)
            if text.contains(
                /\b(reader|options|[a-z]+Reader)\.(string|integer|bool|duration|stringList|stringMap|node|contains|isGiven|oneOf|located|isUnresolved|number|value)\("/
            ) {
                reading.insert("Sources/" + file)
            }
        }
        #expect(reading.isEmpty, "read by a string key: \(reading.sorted())")
    }
}
