import Foundation
import Synchronization

/// Token buckets by key (a user, a key name, an IP address): `perMinute` requests a minute, refilled smoothly,
/// with a burst of the same size. Answers how long to wait when a key has none left.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let perMinute: Double
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Most keys remembered; full buckets are forgotten first, so a flood of addresses cannot grow memory.
    private let maxKeys: Int

    init(perMinute: Int, maxKeys: Int = 100_000) {
        self.perMinute = Double(perMinute)
        self.maxKeys = maxKeys
    }

    /// Takes one token for `key`; nil when allowed, else the whole seconds until one is back.
    func take(_ key: String, now: Double) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: perMinute, updated: now)
            bucket.tokens = min(perMinute, bucket.tokens + (now - bucket.updated) * perMinute / 60)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return max(1, Int(((1 - bucket.tokens) * 60 / perMinute).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            if buckets.count > maxKeys { forgetFull(&buckets, now: now) }
            return nil
        }
    }

    /// Returns a token taken for `key` (a sign-in that turned out right).
    func giveBack(_ key: String) {
        buckets.withLock { buckets in
            guard var bucket = buckets[key] else { return }
            bucket.tokens = min(perMinute, bucket.tokens + 1)
            buckets[key] = bucket
        }
    }

    /// Whether `key` has a token left, without taking one.
    func isExhausted(_ key: String, now: Double) -> Int? {
        buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return nil }
            let tokens = min(perMinute, bucket.tokens + (now - bucket.updated) * perMinute / 60)
            return tokens >= 1 ? nil : max(1, Int(((1 - tokens) * 60 / perMinute).rounded(.up)))
        }
    }

    private func forgetFull(_ buckets: inout [String: Bucket], now: Double) {
        buckets = buckets.filter { _, bucket in bucket.tokens + (now - bucket.updated) * perMinute / 60 < perMinute }
    }
}
