/// A uniform sample of the notification ids the hub gave a step's items, as the run journal holds them: what reading
/// delivery outcomes asks about when a step sent more than it reads.
package struct NotificationSample: Sendable, Equatable {
    /// The ids sampled, in the order of the items.
    package var ids: [String]
    /// How many of the step's items have an id.
    package var total: Int

    /// A sample.
    package init(ids: [String], total: Int) {
        self.ids = ids
        self.total = total
    }

    /// The positions, from 0, of the items a sample of `size` out of `total` takes: evenly spaced from the first,
    /// every item when there are no more than `size`. The same rows whichever store is asked, so a sample is repeatable.
    package static func picks(of total: Int, size: Int) -> [Int] {
        guard total > size, size > 0 else { return Array(0..<max(0, total)) }
        return (0..<size).map { $0 * total / size }
    }
}
