import CommandTestSupport
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

/// The dependency rule (ARCHITECTURE.md): a leaf library is imported by one edge target, never by the core; the core
/// imports only the Swift and logging/tracing APIs every target shares. Files stay small enough to read whole.
@Suite struct DependencyRuleTests {
    /// Each leaf library's module, and the one target that may import it. The system's SQLite is one too: the
    /// journal and the `query` step's SQLite reads share one binding, in the SQLite store.
    static let leaves = [
        "Yams": "PipelineConfig", "JWTKit": "TokenVerification", "Prometheus": "ServiceMetrics",
        "PostgresNIO": "PostgresRunStore", "OTel": "Telemetry", "CSQLite": "SQLiteRunStore",
    ]
    /// The core: expressions, wire formats, the step API, the engine, row reading, the run store.
    static let core = ["HubExpressions", "HubWire", "PipelineCore", "Engine", "RowReading", "RunStore"]
    /// What the core may import besides its own targets: the standard libraries, swift-log's and
    /// swift-distributed-tracing's APIs, and swift-crypto for SAS signatures.
    static let coreMayImport: Set<String> = ["Foundation", "Synchronization", "Logging", "Tracing", "Crypto"]

    /// Every Swift file under Sources, by the target that holds it (`Sources/X/…`, or `Sources/Steps/X/…`).
    static func sourceFiles() throws -> [(target: String, path: String, text: String)] {
        let root = CommandRunner.root + "/Sources/"
        let paths = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
        return try paths.sorted().map { path in
            let parts = path.split(separator: "/")
            let target = String(parts[0] == "Steps" ? parts[1] : parts[0])
            return (target, "Sources/" + path, try String(contentsOfFile: root + path, encoding: .utf8))
        }
    }

    static func imports(_ text: String) -> Set<String> {
        Set(text.matches(of: /(?m)^(?:@\w+ )?import ([A-Za-z_]+)/).map { String($0.output.1) })
    }

    @Test("each leaf library is imported by its one edge target only")
    func leavesStayAtTheirEdge() throws {
        let files = try Self.sourceFiles()
        #expect(files.count > 500)
        var importers: [String: Set<String>] = [:]
        for file in files {
            for module in Self.imports(file.text) where Self.leaves[module] != nil {
                importers[module, default: []].insert(file.target)
            }
        }
        for (module, edge) in Self.leaves {
            #expect(importers[module] == [edge], "\(module) is imported by \(importers[module]?.sorted() ?? [])")
        }
    }

    @Test("the core imports nothing but its own targets and the shared APIs")
    func coreImportsNoLibrary() throws {
        var found: [String] = []
        for file in try Self.sourceFiles() where Self.core.contains(file.target) {
            let foreign = Self.imports(file.text).subtracting(Self.coreMayImport).subtracting(Self.core)
            if !foreign.isEmpty { found.append("\(file.path): \(foreign.sorted())") }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test("no source file is over 300 lines")
    func filesAreSmall() throws {
        let long = try Self.sourceFiles().compactMap { file -> String? in
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            return lines > 300 ? "\(file.path): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "\(long)")
    }
}
