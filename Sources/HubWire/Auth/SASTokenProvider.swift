import Synchronization

/// A thread-safe token cache for one resource: hands out the same token until it is within
/// `renewalMargin` seconds of expiry, then signs a fresh one (the .NET SDK renews 2 minutes early).
public final class SASTokenProvider: Sendable {
    /// Lifetime of each new token, in seconds.
    public let lifetime: Int64
    /// Seconds before expiry at which the cached token is replaced.
    public let renewalMargin: Int64
    /// The resource every token is signed for.
    public let resource: String

    private let signer: SASSigner
    private let hexCase: HexCase
    private let now: @Sendable () -> Int64
    private let cached = Mutex<SASToken?>(nil)

    /// Creates a provider; `now` returns epoch seconds and is injectable so tests can drive the clock.
    ///
    /// With `lifetime <= renewalMargin` every call signs a new token, which is correct but wasteful.
    public init(
        signer: SASSigner, resource: String, lifetime: Int64, renewalMargin: Int64 = 120,
        hexCase: HexCase = .lower, now: @escaping @Sendable () -> Int64
    ) {
        self.signer = signer
        self.resource = resource
        self.lifetime = lifetime
        self.renewalMargin = renewalMargin
        self.hexCase = hexCase
        self.now = now
    }

    /// The cached token while `now < expiry - renewalMargin`, otherwise a newly signed one.
    public func token() -> SASToken {
        // Read the clock outside the lock: the closure is caller code and must not run under our mutex.
        let current = now()
        return cached.withLock { cached in
            if let token = cached, current < token.expiry - renewalMargin { return token }
            let fresh = signer.token(forResource: resource, expiry: current + lifetime, hexCase: hexCase)
            cached = fresh
            return fresh
        }
    }

    /// Drops the cached token, e.g. after the service answered 401 ExpiredToken because of clock skew.
    public func invalidate() {
        cached.withLock { $0 = nil }
    }
}

extension SASTokenProvider: CustomStringConvertible, CustomReflectable {
    /// Resource and timings; never the cached token.
    public var description: String {
        "SASTokenProvider(resource: \(resource), lifetime: \(lifetime), renewalMargin: \(renewalMargin))"
    }

    /// Mirror without the signer's key or the cached token.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "resource": resource, "lifetime": lifetime, "renewalMargin": renewalMargin,
                "signer": signer,
            ], displayStyle: .class)
    }
}
