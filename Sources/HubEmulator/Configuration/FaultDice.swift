import Synchronization

/// Decides which requests a fault with a rate below 1 hits: the system's randomness, or a generator seeded by the
/// caller (`pushline test` seeds one per case, so a case that sends one request at a time meets the same faults in
/// every run).
package final class FaultDice: Sendable, Equatable {
    private let seeded: Bool
    private let state: Mutex<UInt64>

    /// The system's randomness.
    package static let system = FaultDice(seed: nil)

    /// A generator seeded with `seed` (SplitMix64); nil for the system's randomness.
    package init(seed: UInt64?) {
        seeded = seed != nil
        state = Mutex(seed ?? 0)
    }

    /// The same dice, not dice that roll alike.
    package static func == (lhs: FaultDice, rhs: FaultDice) -> Bool { lhs === rhs }

    /// A number in 0..<1.
    package func roll() -> Double {
        guard seeded else { return Double.random(in: 0..<1) }
        let next = state.withLock { value -> UInt64 in
            value &+= 0x9E37_79B9_7F4A_7C15
            var mixed = value
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
        return Double(next >> 11) / Double(UInt64(1) << 53)
    }
}
