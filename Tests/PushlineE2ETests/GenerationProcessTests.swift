import CommandTestSupport
import Foundation
import Testing

/// `--again` on the parts of a split run: the parts started again form a generation of their own, and
/// `runs show` lists one generation's parts, never the last start of one part beside an older start of another.
extension BatchRunProcessTests {
    @Test func partsStartedAgainFormANewGenerationThatRunsShowKeepsApartFromTheFirst() async throws {
        let scratch = try await Scratch(users: 30)
        let (emulator, base, connection) = try await emulator()
        try await register(scratch, connection)
        let env = environment(scratch, connection)
        func run(_ arguments: [String]) async throws {
            let process = try PushlineProcess(["run", digest, "--quiet"] + arguments, environment: env)
            #expect(try await process.waitForExit() == 0, "\(arguments): \(process.stdout)")
        }
        func newest(_ part: String) async throws -> String {
            let list = try PushlineProcess(["runs", "list"], environment: env)
            #expect(try await list.waitForExit() == 0)
            return try #require(
                list.stdout.split(separator: "\n").first { $0.hasSuffix("shard \(part)") }.map { String($0.prefix(22)) }
            )
        }
        func show(_ id: String) async throws -> String {
            let show = try PushlineProcess(["runs", "show", id], environment: env)
            #expect(try await show.waitForExit() == 0)
            return show.stdout
        }
        try await run(["--shard", "0/2"])
        try await run(["--shard", "1/2"])
        let first = try await newest("0/2")
        #expect(try await deliveries(base).count == 30)

        try await run(["--shard", "0/2", "--again"])
        let second = try await newest("0/2")
        #expect(second != first)
        let half = try await show(second)
        #expect(half.contains("not started: shard 1/2"), "the first start's part 1 is not this start's: \(half)")
        let firstPartOne = try await newest("1/2")
        #expect(!half.contains(firstPartOne), "\(half)")

        try await run(["--shard", "1/2", "--again"])
        let whole = try await show(second)
        let secondPartOne = try await newest("1/2")
        #expect(
            !whole.contains("not started") && whole.contains(secondPartOne), "part 1 joined the new start: \(whole)")
        let earlier = try await show(first)
        #expect(
            !earlier.contains("not started") && !earlier.contains(second),
            "the first start keeps its own parts: \(earlier)")
        #expect(try await deliveries(base).values.allSatisfy { $0 == 2 }, "each start sent every row once")
        #expect(try await emulator.stop() == 0)
    }
}
