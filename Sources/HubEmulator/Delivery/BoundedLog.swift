/// Entries in arrival order where dropping the oldest is cheap: a window over an array whose dropped head is
/// compacted away only once it is as long as what is kept, so each append and drop costs amortised O(1)
/// (shifting the whole log on every send at a 100,000-delivery limit made each send copy it).
struct BoundedLog<Element>: Sequence {
    private var storage: [Element] = []
    /// Index of the oldest kept entry.
    private var head = 0

    /// Entries kept.
    var count: Int { storage.count - head }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(head + capacity) }

    /// Drops and returns the oldest entry; the log must not be empty.
    @discardableResult
    mutating func removeFirst() -> Element {
        let first = storage[head]
        removeFirst(1)
        return first
    }

    /// Drops the `k` oldest entries (at most `count`).
    mutating func removeFirst(_ k: Int) {
        head += Swift.min(k, count)
        if head >= count {
            storage.removeFirst(head)
            head = 0
        }
    }

    mutating func removeAll() {
        storage = []
        head = 0
    }

    func makeIterator() -> ArraySlice<Element>.Iterator { storage[head...].makeIterator() }
}
