import CommandTestSupport
import Foundation
import Testing

@testable import PushlineCLI

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
        for file in [
            "pipelines/digest.yaml", "pipelines/digest.test.yaml", "pipelines/pipeline.schema.json",
            "pipelines/test.schema.json", "templates/alert.apns.json", "data/rows.csv", ".env.example",
        ] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file)")
            #expect(created.out.contains(file))
        }
        #expect(created.out.contains("validate pipelines/ --env-file .env.example"))

        let pipeline = try String(contentsOfFile: directory + "/pipelines/digest.yaml", encoding: .utf8)
        #expect(pipeline.hasPrefix("# yaml-language-server: $schema=./pipeline.schema.json\n"))
        let schema = await CommandRunner.run(["schema"])
        #expect(
            try String(contentsOfFile: directory + "/pipelines/pipeline.schema.json", encoding: .utf8)
                .trimmingCharacters(in: .newlines) == schema.out.trimmingCharacters(in: .newlines))
        // .env.example names every variable the pipeline reads.
        let example = try String(contentsOfFile: directory + "/.env.example", encoding: .utf8)
        let read = Set(pipeline.matches(of: /\$\{env:([A-Z_]+)\}/).map { String($0.1) })
        let named = Set(
            example.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                $0.split(separator: "=").first.map(String.init)
            })
        #expect(!read.isEmpty && read == named)

        let validated = await CommandRunner.run([
            "validate", directory + "/pipelines/", "--env-file", directory + "/.env.example",
        ])
        #expect(validated.status == 0)
        #expect(validated.err == "", "no warnings: \(validated.err)")
        #expect(validated.out.contains("digest.yaml: ok"), "\(validated.out)")
        let dryRun = await CommandRunner.run([
            "run", directory + "/pipelines/digest.yaml", "--dry-run", "--env-file", directory + "/.env.example",
        ])
        #expect(dryRun.status == 0, "\(dryRun.out)\(dryRun.err)")
        #expect(dryRun.out.contains("2 records in"), "\(dryRun.out)")
        #expect(dryRun.out.contains("would send"))
        #expect(!dryRun.out.contains("replace-with-your-key"))
        // Its tests pass as written, offline.
        let tested = await CommandRunner.run(["test", directory + "/pipelines/"])
        #expect(tested.status == 0, "\(tested.out)\(tested.err)")
        #expect(tested.out.contains("2 passed, 0 failed (2 cases in 1 file"), "\(tested.out)")
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

/// The seed tutorial travels inside the binary: `demo` runs it from any folder, and `init` writes it out as the checkout has it.
@Suite struct SeedTutorialTests {
    @Test("the copy inside the binary is the checkout's pipelines/seed-tutorial.yaml")
    func sameText() throws {
        #expect(
            try String(contentsOfFile: CommandRunner.root + "/" + SeedTutorial.path, encoding: .utf8)
                == SeedTutorial.text)
    }

    @Test("demo runs the built-in tutorial from an empty folder, and init writes it there")
    func demoAnywhere() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushline-anywhere-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let demo = try PushlineProcess(["demo"], directory: folder)
        #expect(try await demo.waitForExit() == 0, "\(demo.stdout)")
        #expect(
            demo.stdout.contains(
                "Pushline demo: the seed tutorial (built in; `pushline init` writes it to pipelines/seed-tutorial.yaml)"
            ))
        #expect(
            demo.stdout.contains(
                #"installation seed-1 (apns, template genericTemplate): {"aps":{"alert":"Hello from Postman!"}}"#))
        #expect(demo.stdout.contains("write the seed tutorial and a starter project into this folder"))
        let initialised = try PushlineProcess(["init"], directory: folder)
        #expect(try await initialised.waitForExit() == 0, "\(initialised.stdout)")
        #expect(
            try String(contentsOfFile: folder + "/pipelines/seed-tutorial.yaml", encoding: .utf8) == SeedTutorial.text)
    }
}
