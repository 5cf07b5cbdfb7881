/// UTF-8 output written straight into a string's storage, sized beforehand from an upper bound of what
/// will be written, so a render allocates exactly once and never re-checks capacity in the String API.
///
/// Every write is bounds-checked: a wrong bound stops the process instead of writing past the storage.
struct RenderBuffer {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    private init(_ storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        capacity = storage.count
    }

    /// Runs `write` into storage for at most `bound` bytes and returns what it wrote as a String.
    @inline(__always)
    static func string(bound: Int, _ write: (inout RenderBuffer) -> Void) -> String {
        guard bound > 0 else { return "" }
        return String(unsafeUninitializedCapacity: bound) { storage in
            var buffer = RenderBuffer(storage)
            write(&buffer)
            return buffer.count
        }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "render bound exceeded")
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(bytes.count <= capacity - count, "render bound exceeded")
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        // withUTF8Buffer, not utf8Start: a one-scalar literal such as "\u{FFFD}" has no pointer form.
        text.withUTF8Buffer { append($0) }
    }

    /// Appends text as is.
    @inline(__always)
    mutating func append(_ text: Substring) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends text as is.
    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }
}
