import Foundation
import RunStore
import SQLiteRunStore
import Testing

@testable import StoreBenchmark

@Suite struct StoreWorkloadTests {
    @Test("a pass commits every item as accepted in a finished run, and measures it")
    func everyItemIsCommitted() async throws {
        let directory = FileManager.default.temporaryDirectory.path + "/store-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try Journal(path: directory + "/journal.sqlite")
        let measurement = try await StoreWorkload(store: journal).measure(items: 130, pipeline: "/bench/p.yaml")
        #expect(measurement.items == 130 && measurement.seconds > 0 && measurement.itemsPerSecond > 0)
        let run = try #require(try await journal.runs(limit: 1).first)
        #expect(run.status == .completed)
        #expect(try await journal.counts(run: run.id).map(\.count) == [130])
        #expect(!journal.isLocked(pipeline: "/bench/p.yaml"))
    }
}
