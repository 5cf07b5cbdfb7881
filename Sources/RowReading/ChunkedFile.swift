import Foundation
import PipelineCore

/// A regular file read in fixed-size chunks, so a device file of any size streams in bounded memory.
public final class ChunkedFile {
    /// Bytes read per call.
    public static let chunkSize = 64 * 1024

    private let handle: FileHandle

    /// Opens `path` for reading; anything but a readable regular file is refused (a FIFO would hang).
    public init(path: String) throws(TextFile.Failure) {
        handle = try TextFile.open(path).0
    }

    deinit { try? handle.close() }

    /// The next chunk, or nil at the end of the file.
    public func next() throws(TextFile.Failure) -> [UInt8]? {
        let data: Data?
        do { data = try handle.read(upToCount: Self.chunkSize) } catch { throw .unreadable }
        guard let data, !data.isEmpty else { return nil }
        return [UInt8](data)
    }
}
