/// Bounds the requests in flight; waiters are served in arrival order.
actor ConcurrencyLimit {
    private let limit: Int
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) {
        self.limit = max(1, limit)
    }

    func acquire() async {
        if inFlight < limit {
            inFlight += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            inFlight -= 1
        } else {
            // The slot passes straight to the next waiter; inFlight stays the same.
            waiters.removeFirst().resume()
        }
    }
}
