import Foundation
import NIOCore

/// A call bounded in time, for the store's calls and for closing what they leave behind.
enum Bounded {
    /// `body`'s result, or `StoreDeadline` once `limit` passes. With `waiting`, `body` also fails at that earlier
    /// limit if its call is still waiting for a connection then; once it runs, only `limit` bounds it.
    ///
    /// `body` runs in a task of its own that is cancelled but not awaited when a limit passes: PostgresNIO's pool
    /// may not answer a cancelled lease while it is reconnecting, and waiting for it is the hang this prevents. One
    /// timer serves both limits: every journal write passes through here, and each task it starts costs thread hops.
    /// A result that comes after a limit passed is nobody's: `late` disposes of it (a connection must be closed).
    static func within<T: Sendable>(
        _ limit: Duration, waiting: (limit: Duration, call: PooledCall)? = nil,
        late: (@Sendable (T) async -> Void)? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        let timer = TimerBox()
        let started = ContinuousClock.now
        // Both limits from the call's start (the second is not moved by when the first one's timer ran).
        let start = NIODeadline.now()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.attach(continuation)
            // On the store's loop, where its connections answer: the call's statements follow one another there.
            let work = Task(executorPreference: StoreLoop.executor) {
                do {
                    let value = try await body()
                    if !outcome.finish(.success(value)) { await late?(value) }
                } catch { outcome.finish(.failure(error)) }
                // Finished first: the timer has nothing left to do (thousands of calls must not leave timers behind).
                timer.cancel()
            }
            // A timer on the loop, not a sleeping task: each task costs thread hops, and every journal write comes here.
            let expire = { @Sendable in
                if outcome.finish(.failure(StoreDeadline(limit: limit, started: started))) { work.cancel() }
            }
            if let waiting, waiting.limit < limit {
                timer.set(
                    StoreLoop.loop.scheduleTask(deadline: start + TimeAmount(waiting.limit)) {
                        if waiting.call.giveUpWaiting() {
                            if outcome.finish(.failure(StoreDeadline(limit: waiting.limit, started: started))) {
                                work.cancel()
                            }
                            return
                        }
                        timer.set(StoreLoop.loop.scheduleTask(deadline: start + TimeAmount(limit), expire))
                    })
            } else {
                timer.set(StoreLoop.loop.scheduleTask(deadline: start + TimeAmount(limit), expire))
            }
        }
    }
}
