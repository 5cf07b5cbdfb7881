import PipelineCore

/// One part of a run split across processes: `--shard I/N` runs only the rows whose stable hash falls in
/// part I of N, so N processes (a Kubernetes Indexed Job's pods) send disjoint rows of the same input.
///
/// The hash is 64-bit FNV-1a over the UTF-8 of the row's shard key (the whole row's digest, or one column's
/// value with `shard-key:`), so every process on every machine and every Pushline version puts a row in the
/// same part. Swift's `Hasher` is seeded per process and could not be used.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// Which part, from 0.
    package let index: Int
    /// How many parts.
    package let count: Int

    /// The most parts a run may be split into.
    package static let maximumCount = 1024

    /// A shard; nil when `index` is not in `0..<count` or `count` is not in `1...maximumCount`.
    package init?(index: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`; nil when it is not that.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && !$0.hasPrefix("+") })
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `2/4`.
    package var description: String { "\(index)/\(count)" }

    /// Whether the row whose shard key is `key` belongs to this part.
    package func owns(_ key: String) -> Bool {
        Int(Self.hash(key) % UInt64(count)) == index
    }

    /// 64-bit FNV-1a of the UTF-8 bytes: stable across processes, machines and versions.
    package static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
