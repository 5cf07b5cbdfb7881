import Crypto
import Foundation

/// SHA-256 digests in hex, for a run's identity: the pipeline, its resolved options and its input
/// files. Files are hashed in chunks, never read whole.
public enum ContentDigest {
    /// The digest of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        var text = text
        return hex(text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) })
    }

    /// The digest of `bytes`; only its first `digits` hex digits when given (a batch keys every row this way).
    public static func hex(bytes: [UInt8], digits: Int? = nil) -> String {
        hex(bytes.withUnsafeBytes { SHA256.hash(data: $0) }, digits: digits)
    }

    /// The digest of the file at `path`, or nil when it cannot be read.
    public static func hex(fileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            // Foundation answers nil or empty data at the end of the file, depending on the platform.
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return hex(hasher.finalize())
    }

    /// A SHA-256 fed piece by piece (a spool's rows, a million of them), in constant memory.
    public struct Running: Sendable {
        private var hasher = SHA256()

        /// An empty digest.
        public init() {}

        /// Adds `text`'s UTF-8 bytes and a newline (so `["ab","c"]` and `["a","bc"]` differ).
        public mutating func add(line text: String) {
            var text = text
            text.withUTF8 { hasher.update(data: UnsafeRawBufferPointer($0)) }
            hasher.update(data: [0x0A])
        }

        /// The hex digest of everything added.
        public func finish() -> String { ContentDigest.hex(hasher.finalize()) }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// Lower-case hex, two digits a byte (a batch digests every row's request, so no string per byte).
    private static func hex(_ digest: SHA256.Digest, digits count: Int? = nil) -> String {
        digest.withUnsafeBytes { bytes in
            let length = min(count ?? bytes.count * 2, bytes.count * 2) & ~1
            return String(unsafeUninitializedCapacity: length) { out in
                for (index, byte) in bytes.prefix(length / 2).enumerated() {
                    out[2 * index] = digits[Int(byte >> 4)]
                    out[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
                return length
            }
        }
    }
}
