/// Told by the transport as soon as the hub throttles (429, or 403 with Retry-After), before it waits to
/// retry, so every request of a batch — and, through the run store, every process sending to the hub — can
/// hold back too instead of each meeting the throttling on its own.
package protocol ThrottleObserver: Sendable {
    /// The hub throttled; the transport waits `seconds` (the hub's Retry-After, else its backoff) before retrying.
    func throttled(for seconds: Double) async
}
