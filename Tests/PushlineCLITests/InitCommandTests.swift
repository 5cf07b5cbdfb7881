import Foundation
import Testing

/// `pushline init`: a starter project that validates clean and dry-runs at once, and never overwrites.
@Suite struct InitCommandTests {
    func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pushline-init-\(UUID().uuidString)/project").path
    }

    @Test func theStarterProjectValidatesCleanAndDryRunsAtOnce() async throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let created = await CommandRunner.run(["init", directory])
        #expect(created.status == 0, "\(created.err)")
        for file in ["pipelines/digest.yaml", "pipelines/pipeline.schema.json", "templates/alert.apns.json", "data/rows.csv", ".env.example"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file)")
            #expect(created.out.contains(file))
        }
        #expect(created.out.contains("validate pipelines/ --env-file .env.example"))

        let pipeline = try String(contentsOfFile: directory + "/pipelines/digest.yaml", encoding: .utf8)
        #expect(pipeline.hasPrefix("# yaml-language-server: $schema=./pipeline.schema.json\n"))
        let schema = await CommandRunner.run(["schema"])
        #expect(try String(contentsOfFile: directory + "/pipelines/pipeline.schema.json", encoding: .utf8)
                    .trimmingCharacters(in: .newlines) == schema.out.trimmingCharacters(in: .newlines))
        // .env.example names every variable the pipeline reads.
        let example = try String(contentsOfFile: directory + "/.env.example", encoding: .utf8)
        let read = Set(pipeline.matches(of: /\$\{env:([A-Z_]+)\}/).map { String($0.1) })
        let named = Set(example.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: "=").first.map(String.init) })
        #expect(!read.isEmpty && read == named)

        let validated = await CommandRunner.run(["validate", directory + "/pipelines/", "--env-file", directory + "/.env.example"])
        #expect(validated.status == 0)
        #expect(validated.err == "", "no warnings: \(validated.err)")
        #expect(validated.out.contains("digest.yaml: ok"), "\(validated.out)")
        let dryRun = await CommandRunner.run(["run", directory + "/pipelines/digest.yaml", "--dry-run", "--env-file", directory + "/.env.example"])
        #expect(dryRun.status == 0, "\(dryRun.out)\(dryRun.err)")
        #expect(dryRun.out.contains("2 records in"), "\(dryRun.out)")
        #expect(dryRun.out.contains("would send"))
        #expect(!dryRun.out.contains("replace-with-your-key"))
    }

    @Test func itNeverOverwritesAndWritesNothingWhenAFileExists() async throws {
        let directory = scratch()
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try "mine\n".write(toFile: directory + "/data/rows.csv", atomically: true, encoding: .utf8)
        let refused = await CommandRunner.run(["init", directory])
        #expect(refused.status == 2)
        #expect(refused.err.contains("data/rows.csv' exists already; nothing was written"), "\(refused.err)")
        #expect(try String(contentsOfFile: directory + "/data/rows.csv", encoding: .utf8) == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/pipelines/digest.yaml"))
    }

    @Test func anEmptyDirectoryIsRefusedRatherThanTakenAsTheRoot() async {
        let output = await CommandRunner.run(["init", ""])
        #expect(output.status == 2)
        #expect(output.err.contains("DIR is empty"))
        #expect(!FileManager.default.fileExists(atPath: "/pipelines/digest.yaml"))
    }
}
