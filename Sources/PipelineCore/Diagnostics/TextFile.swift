import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads small text files safely: regular files only, never more than a limit, strict UTF-8.
///
/// Everything Pushline reads by path (pipelines, templates, data files, `${file:}` secrets) goes
/// through here, so a wrong path to a device, a FIFO or a multi-gigabyte file is an error, not a hang
/// or an out-of-memory kill.
public enum TextFile {
    /// Why a file could not be read. Messages name the path as the caller displays it.
    public enum Failure: Error, Equatable, Sendable {
        /// Nothing at the path.
        case missing
        /// A directory.
        case directory
        /// A device, FIFO or socket.
        case notRegular
        /// Larger than the limit (size in bytes, limit).
        case tooLarge(Int, Int)
        /// Exists but cannot be opened or read.
        case unreadable
        /// Not UTF-8: byte offset, line and column of the first invalid byte.
        case invalidUTF8(offset: Int, line: Int, column: Int, byte: UInt8)

        /// A sentence for `what 'name'`, e.g. "template file 'a.json' does not exist".
        public func message(what: String, name: String) -> String {
            switch self {
            case .missing: return "\(what) '\(name)' does not exist"
            case .directory: return "\(what) '\(name)' is a directory, not a file"
            case .notRegular: return "\(what) '\(name)' is not a regular file"
            case .tooLarge(let size, let limit):
                return "\(what) '\(name)' is \(size) bytes; the limit is \(limit) bytes"
            case .unreadable: return "\(what) '\(name)' cannot be read"
            case .invalidUTF8(let offset, _, _, let byte):
                return
                    "\(what) '\(name)' is not valid UTF-8: invalid byte 0x\(String(byte, radix: 16, uppercase: true)) at byte \(offset)"
            }
        }
    }

    /// The file's text with a UTF-8 byte-order mark removed and CRLF line ends turned into LF.
    public static func read(_ path: String, limit: Int) throws(Failure) -> String {
        let (handle, size) = try open(path)
        defer { try? handle.close() }
        // Read one byte past the limit: sizes reported by /proc and similar files are not to be trusted.
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else { throw .unreadable }
        if data.count > limit {
            throw .tooLarge(max(size, data.count), limit)
        }
        return try decode(data)
    }

    /// Opens a regular file for reading (with its reported size); anything else is refused, since a
    /// FIFO or device would hang or never end. Streaming readers use this too.
    public static func open(_ path: String) throws(Failure) -> (FileHandle, Int) {
        // stat(2) and open(2) directly: FileManager's attribute dictionary boxes every value as `Any`, and
        // its casts and bridging were a twentieth of a cold `pushline validate`.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw .directory
        case S_IFREG: break
        default: throw .notRegular
        }
        #if canImport(Glibc)
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
            let descriptor = Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard descriptor >= 0 else { throw .unreadable }
        return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Int(info.st_size))
    }

    /// Strict UTF-8 decoding of `data`, BOM dropped, CRLF normalised.
    public static func decode(_ data: Data) throws(Failure) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw firstInvalidByte(bytes) }
        return text.contains(bytes: "\r\n") ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
    }

    private static func firstInvalidByte(_ bytes: [UInt8]) -> Failure {
        var line = 1
        var column = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length =
                byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            guard length > 0, index + length <= bytes.count,
                String(validating: bytes[index..<index + length], as: UTF8.self) != nil
            else { return .invalidUTF8(offset: index, line: line, column: column, byte: byte) }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        let last = max(0, bytes.count - 1)
        return .invalidUTF8(offset: last, line: line, column: column, byte: bytes.isEmpty ? 0 : bytes[last])
    }
}

extension String {
    /// The lines of the text, split on LF with a CR before it dropped.
    ///
    /// Splits on the LF byte, not on Characters: Swift treats "\r\n" as one Character, so a Character
    /// split would leave a CRLF file as one line.
    public var lines: [Substring] {
        // On UTF-8 bytes: LF and CR are ASCII, so every split falls on a scalar boundary, and scanning the
        // contiguous bytes costs a fraction of walking Unicode scalars (pipelines are split on every load).
        var text = self
        let ends: [(end: Int, next: Int)] = text.withUTF8 { bytes in
            var ends: [(end: Int, next: Int)] = []
            for offset in bytes.indices where bytes[offset] == UInt8(ascii: "\n") {
                let end = offset > 0 && bytes[offset - 1] == UInt8(ascii: "\r") ? offset - 1 : offset
                ends.append((end, offset + 1))
            }
            return ends
        }
        var result: [Substring] = []
        result.reserveCapacity(ends.count + 1)
        var start = utf8.startIndex
        var startOffset = 0
        for (end, next) in ends {
            let endIndex = utf8.index(start, offsetBy: end - startOffset)
            result.append(self[start..<endIndex])
            start = utf8.index(start, offsetBy: next - startOffset)
            startOffset = next
        }
        result.append(self[start...])
        return result
    }
}
