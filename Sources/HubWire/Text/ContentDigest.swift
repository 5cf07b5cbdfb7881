import Crypto
import Foundation

/// SHA-256 digests in hex, for a run's identity: the pipeline, its resolved options and its input
/// files. Files are hashed in chunks, never read whole.
public enum ContentDigest {
    /// The digest of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
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

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
