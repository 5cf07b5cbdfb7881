import Synchronization

/// Random-looking (version 4) UUIDs in Foundation's `uuidString` form (upper-case hex, 8-4-4-4-12), for
/// tracking ids and notification ids: unique, not secret.
///
/// Each is a counter mixed (SplitMix64's finaliser, a bijection) with a seed drawn once from the system
/// generator, so no two in one process are equal and two processes' differ by their seeds. Foundation's
/// `UUID()` opens and reads `/dev/urandom` for each one on Linux, and the system generator makes a
/// `getrandom` call per 8 bytes: a system call or two per request of a batch. Never use these for a secret.
public enum RandomID {
    private static let digits = Array("0123456789ABCDEF".utf8)
    private static let lowerDigits = Array("0123456789abcdef".utf8)
    private static let seed: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A new UUID, e.g. `9F2C4E1A-7B3D-4C8E-A1F0-3D5B6C7E8F90`.
    /// With `lowercase`, in the form NH's own ids take (`e0b5d7f8-a3b0-443b-9e3b-aa91e6d54603`).
    public static func uuidString(lowercase: Bool = false) -> String {
        let digits = lowercase ? Self.lowerDigits : Self.digits
        let step = counter.wrappingAdd(1, ordering: .relaxed).oldValue &* 0x9E37_79B9_7F4A_7C15
        var bytes = (mix(seed.0 &+ step), mix(seed.1 &+ step))
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return String(unsafeUninitializedCapacity: 36) { out in
                var written = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[written] = UInt8(ascii: "-")
                        written += 1
                    }
                    out[written] = digits[Int(raw[index] >> 4)]
                    out[written + 1] = digits[Int(raw[index] & 0x0F)]
                    written += 2
                }
                return written
            }
        }
    }

    /// SplitMix64's output function.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
