import CommandTestSupport
import Foundation
import Testing

@testable import PushlineCLI

/// Each command's help lists the exit codes it can return, and no other, with long meanings wrapped
/// under their entry rather than back to the first column.
@Suite struct HelpTests {
    func exitCodes(_ command: [String]) async throws -> [String] {
        let output = await CommandRunner.run(command + ["--help"])
        #expect(output.status == 0)
        let section = try #require(
            output.out.components(separatedBy: "EXIT CODES:\n").dropFirst().first,
            "\(command.joined(separator: " ")) --help has no EXIT CODES section")
        let lines = section.components(separatedBy: "\n\n")[0].split(separator: "\n").map(String.init)
        for line in lines {
            #expect(line.count <= 80, "\(line)")
            // An entry starts `  CODE `; a continuation is indented under the meaning.
            #expect(
                line.hasPrefix("       ") || line.range(of: #"^  \d+ +\S"#, options: .regularExpression) != nil,
                "\(line)")
        }
        return lines.compactMap { line in
            line.range(of: #"^  \d+"#, options: .regularExpression).map {
                line[$0].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    @Test func eachCommandListsOnlyTheCodesItCanReturn() async throws {
        #expect(try await exitCodes(["run"]) == ["0", "1", "2", "3", "4", "75", "78", "130"])
        #expect(try await exitCodes(["validate"]) == ["0", "2"])
        #expect(try await exitCodes(["emulator"]) == ["0", "1", "2"])
        #expect(try await exitCodes(["explain"]) == ["0", "2"])
        #expect(try await exitCodes(["schema"]) == ["0", "2"])
        #expect(try await exitCodes(["init"]) == ["0", "2"])
        #expect(try await exitCodes(["check"]) == ["0", "1", "2", "75", "78"])
        #expect(try await exitCodes(["sas"]) == ["0", "2"])
        #expect(try await exitCodes(["render"]) == ["0", "2"])
        #expect(try await exitCodes(["demo"]) == ["0", "1", "2", "3", "4"])
        #expect(try await exitCodes(["runs"]) == ["0", "1", "2", "75", "78"])
        for hub in [["send"], ["installation"], ["registration"], ["schedule", "cancel"]] {
            #expect(try await exitCodes(hub) == ["0", "1", "2"], "\(hub)")
        }
        #expect(try await exitCodes(["notification", "show"]) == ["0", "1", "2", "3"])
        #expect(try await exitCodes(["runs", "outcomes"]) == ["0", "1", "2", "3", "4"])
        #expect(try await exitCodes(["devices", "prune"]) == ["0", "1", "2", "3"])
        #expect(try await exitCodes([]) == ["0", "1", "2", "3", "4", "75", "78", "130"])
    }

    @Test func meaningsWrapAt78ColumnsUnderTheirEntry() {
        let text = ExitStatus.help([
            .init("0", "success"),
            .init("130", Array(repeating: "word", count: 20).joined(separator: " ") + " end"),
        ])
        #expect(
            text == """
                EXIT CODES:
                  0    success
                  130  \(Array(repeating: "word", count: 14).joined(separator: " "))
                       \(Array(repeating: "word", count: 6).joined(separator: " ")) end
                """)
    }
}
