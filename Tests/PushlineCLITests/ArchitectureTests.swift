import Foundation
import Testing

/// ARCHITECTURE.md's target table lists exactly the targets Package.swift declares, so it cannot drift from it.
@Suite struct ArchitectureTests {
    @Test("every target of Package.swift has its row in ARCHITECTURE.md, and every row a target")
    func targetTable() throws {
        let manifest = try String(contentsOfFile: CommandRunner.root + "/Package.swift", encoding: .utf8)
        let declared = Set(manifest.matches(of: /\.(?:target|executableTarget|systemLibrary)\(name: "([A-Za-z]+)"/).map { String($0.output.1) })
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
