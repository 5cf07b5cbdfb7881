import HubWire
import Synchronization
import Testing

/// A clock the test moves by hand; also counts reads so tests can see how often the provider asked.
final class TestClock: Sendable {
    private let seconds: Atomic<Int64>
    private let readCount = Atomic<Int>(0)

    init(_ start: Int64) { seconds = Atomic(start) }

    func set(_ value: Int64) { seconds.store(value, ordering: .sequentiallyConsistent) }
    var reads: Int { readCount.load(ordering: .sequentiallyConsistent) }

    func now() -> Int64 {
        readCount.add(1, ordering: .sequentiallyConsistent)
        return seconds.load(ordering: .sequentiallyConsistent)
    }
}

@Suite("SASTokenProvider")
struct SASTokenProviderTests {
    static let signer = SASSigner(keyName: Sample.keyName, key: Sample.key)
    static let resource = "https://contoso-nh.servicebus.windows.net/myhub"

    static func provider(
        _ clock: TestClock, lifetime: Int64 = 1200, margin: Int64 = 120,
        hexCase: HexCase = .lower
    ) -> SASTokenProvider {
        SASTokenProvider(
            signer: signer, resource: resource, lifetime: lifetime, renewalMargin: margin,
            hexCase: hexCase
        ) { clock.now() }
    }

    @Test(
        "caches until expiry minus margin, then renews",
        arguments: [
            // Clock value, expected expiry of the returned token. Start 1000, lifetime 1200 ⇒ expiry 2200, renew at 2080.
            [
                (Int64(1000), Int64(2200)), (1500, 2200), (2079, 2200), (2080, 3280), (2100, 3280), (3159, 3280),
                (3160, 4360),
            ],
            // A clock jump far past expiry renews at once.
            [(Int64(1000), Int64(2200)), (9000, 10200), (9001, 10200)],
        ])
    func renews(_ steps: [(Int64, Int64)]) {
        let clock = TestClock(0)
        let provider = Self.provider(clock)
        for (now, expiry) in steps {
            clock.set(now)
            let token = provider.token()
            #expect(token.expiry == expiry, "at \(now)")
            #expect(token == Self.signer.token(forResource: Self.resource, expiry: expiry))
        }
    }

    @Test("returns the very same token while cached")
    func cached() {
        let clock = TestClock(1000)
        let provider = Self.provider(clock)
        let first = provider.token()
        clock.set(1001)
        #expect(provider.token() == first)
        #expect(provider.lifetime == 1200)
        #expect(provider.renewalMargin == 120)
        #expect(provider.resource == Self.resource)
    }

    @Test("hex case is passed to the signer", arguments: HexCase.allCases)
    func hexCase(_ hexCase: HexCase) {
        let provider = Self.provider(TestClock(0), hexCase: hexCase)
        #expect(provider.token() == Self.signer.token(forResource: Self.resource, expiry: 1200, hexCase: hexCase))
    }

    @Test("invalidate forces a new token")
    func invalidate() {
        let clock = TestClock(1000)
        let provider = Self.provider(clock)
        _ = provider.token()
        clock.set(1010)
        #expect(provider.token().expiry == 2200)
        provider.invalidate()
        #expect(provider.token().expiry == 2210)
    }

    @Test("a lifetime within the margin signs every time")
    func tinyLifetime() {
        let clock = TestClock(1000)
        let provider = Self.provider(clock, lifetime: 60, margin: 120)
        #expect(provider.token().expiry == 1060)
        clock.set(1001)
        #expect(provider.token().expiry == 1061)
    }

    @Test("concurrent callers all get one valid token")
    func concurrent() async {
        let clock = TestClock(1000)
        let provider = Self.provider(clock)
        let expected = Self.signer.token(forResource: Self.resource, expiry: 2200)
        let tokens = await withTaskGroup(of: SASToken.self) { group in
            for _ in 0..<200 { group.addTask { provider.token() } }
            return await group.reduce(into: [SASToken]()) { $0.append($1) }
        }
        #expect(tokens.count == 200)
        #expect(tokens.allSatisfy { $0 == expected })
        #expect(clock.reads == 200)
    }

    @Test("concurrent callers across a renewal only see current tokens")
    func concurrentRenewal() async {
        let clock = TestClock(1000)
        let provider = Self.provider(clock)
        let expiries = await withTaskGroup(of: Int64.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index == 100 { clock.set(2080) }
                    return provider.token().expiry
                }
            }
            return await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        // Renewal at 2080 yields 3280; nothing else may appear, however the tasks interleave.
        #expect(expiries.isSubset(of: [2200, 3280]))
        #expect(expiries.contains(3280))
        #expect(provider.token().expiry == 3280)
    }
}
