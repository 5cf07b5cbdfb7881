import PipelineCore

/// Reads of many devices or notifications from a hub, a bounded number in flight, for the commands that inspect a
/// run's devices after it ended (`devices prune`, `fcmv1 move`).
enum HubReads {
    /// Reads in flight at once.
    static let concurrency = 16

    /// `body` over `values`, `concurrency` at a time, results in no particular order without the nils.
    static func concurrently<T: Sendable, R: Sendable>(
        _ values: [T], _ body: @escaping @Sendable (T) async throws(StepFailure) -> R?
    ) async throws -> [R] {
        try await withThrowingTaskGroup(of: R?.self) { group in
            var results: [R] = []
            var next = values.makeIterator()
            for _ in 0..<concurrency {
                guard let value = next.next() else { break }
                group.addTask { try await body(value) }
            }
            while let result = try await group.next() {
                if let result { results.append(result) }
                if let value = next.next() { group.addTask { try await body(value) } }
            }
            return results
        }
    }
}
