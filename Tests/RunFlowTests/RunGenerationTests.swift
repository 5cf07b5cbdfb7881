import PipelineCore
import RunStore
import Testing

@testable import RunFlow

@Suite("Generations of a split run's starts")
struct RunGenerationTests {
    func part(_ index: Int, of count: Int = 4, generation: Int) -> RunRecord {
        RunRecord(
            id: "r\(index)-\(generation)", identity: "i", pipeline: "/p.yaml", startedAt: 1000, status: .completed,
            pid: 1,
            shard: Shard(index: index, count: count), generation: generation)
    }

    @Test func aFirstStartIsGenerationZeroAndAFreshPartJoinsTheNewest() {
        #expect(JournalledRun.generation(for: Shard(index: 0, count: 4), among: []) == 0)
        #expect(
            JournalledRun.generation(
                for: Shard(index: 2, count: 4), among: [part(0, generation: 3), part(1, generation: 2)]) == 3)
    }

    @Test func aNewRunOpensTheNextGenerationOnlyWhenThisPartRanInTheNewest() {
        let runs = [part(0, generation: 0), part(1, generation: 0), part(0, generation: 1)]
        #expect(
            JournalledRun.generation(for: Shard(index: 0, count: 4), among: runs) == 2, "part 0 ran in generation 1")
        #expect(JournalledRun.generation(for: Shard(index: 1, count: 4), among: runs) == 1, "part 1 joins generation 1")
        #expect(JournalledRun.generation(for: Shard(index: 3, count: 4), among: runs) == 1)
    }

    @Test func runsSplitAnotherWayOrWholeDoNotCount() {
        let runs = [
            part(0, of: 2, generation: 5),
            RunRecord(
                id: "w", identity: "i", pipeline: "/p.yaml", startedAt: 1, status: .completed, pid: 1, generation: 7),
        ]
        #expect(JournalledRun.generation(for: Shard(index: 0, count: 4), among: runs) == 0)
        #expect(
            JournalledRun.generation(for: nil, among: runs) == 8, "a whole run after a whole run: the next generation")
    }
}
