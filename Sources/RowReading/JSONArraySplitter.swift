import PipelineCore

/// Splits a top-level JSON array into its elements as the file streams by, so a `.json` list of
/// any length is decoded one element at a time.
///
/// It only tracks strings, escapes and nesting depth to find the commas and the `]` that end elements;
/// each element's own syntax is left to `JSONDecoder`. An element over the byte limit is reported and
/// skipped, never held whole.
public final class JSONArraySplitter {
    /// One element (its bytes), or a problem; `line` is where the element or problem starts.
    public enum Element: Equatable {
        case bytes([UInt8], line: Int)
        case problem(String, line: Int)
    }

    private enum Phase {
        case beforeArray
        case beforeElement(first: Bool)
        case inElement, afterArray, finished
    }

    private let file: ChunkedFile
    private let maxBytes: Int
    /// What the elements are, for messages (`devices`, `rows`).
    private let elements: String
    private var phase = Phase.beforeArray
    private var line = 1
    private var ready: [Element] = []
    private var readyIndex = 0
    private var isFirstChunk = true
    // The element being collected.
    private var element: [UInt8] = []
    private var elementLine = 1
    private var elementTooLong = false
    private var depth = 0
    private var inString = false
    private var escaped = false

    public init(file: ChunkedFile, maxBytes: Int, elements: String = "objects") {
        self.file = file
        self.maxBytes = maxBytes
        self.elements = elements
    }

    /// The next element or problem, or nil when the array (and the file) is done.
    public func next() throws(TextFile.Failure) -> Element? {
        while readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            if case .finished = phase { return nil }
            guard var chunk = try file.next() else {
                finishAtEndOfFile()
                continue
            }
            if isFirstChunk, chunk.starts(with: [0xEF, 0xBB, 0xBF]) { chunk.removeFirst(3) }
            isFirstChunk = false
            for byte in chunk {
                consume(byte)
                if byte == 0x0A { line += 1 }
                if case .finished = phase { break }
            }
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }

    private func consume(_ byte: UInt8) {
        let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        switch phase {
        case .beforeArray:
            if isSpace { return }
            if byte == UInt8(ascii: "[") {
                phase = .beforeElement(first: true)
                return
            }
            fail("the file must hold a JSON array of \(elements), starting with '['")
        case .beforeElement(let first):
            if isSpace { return }
            if byte == UInt8(ascii: "]") {
                if first { phase = .afterArray } else { fail("a ',' is followed by ']' (trailing comma)") }
                return
            }
            if byte == UInt8(ascii: ",") {
                fail("two ',' in a row (an element is missing)")
                return
            }
            (element, elementLine, elementTooLong, depth, inString, escaped) = ([], line, false, 0, false, false)
            phase = .inElement
            collect(byte)
        case .inElement:
            collect(byte)
        case .afterArray:
            if !isSpace { fail("there is text after the closing ']'") }
        case .finished:
            return
        }
    }

    private func collect(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
        } else {
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth > 0 {
                    depth -= 1
                } else if byte == UInt8(ascii: "]") {
                    emitElement()
                    phase = .afterArray
                    return
                }
            // A stray '}' at depth 0 stays in the element; the decoder then reports it as invalid.
            case UInt8(ascii: ","):
                if depth == 0 {
                    emitElement()
                    phase = .beforeElement(first: false)
                    return
                }
            default:
                break
            }
        }
        if element.count < maxBytes { element.append(byte) } else { elementTooLong = true }
    }

    private func emitElement() {
        ready.append(
            elementTooLong
                ? .problem("the element is longer than \(maxBytes) bytes", line: elementLine)
                : .bytes(element, line: elementLine))
        element = []
    }

    private func finishAtEndOfFile() {
        switch phase {
        case .beforeArray:
            ready.append(.problem("the file is empty; it must hold a JSON array of \(elements)", line: line))
        case .beforeElement: ready.append(.problem("the JSON array is not closed (missing ']')", line: line))
        case .inElement:
            ready.append(.problem("the file ends inside this element (missing '}' or ']')", line: elementLine))
        case .afterArray, .finished: break
        }
        phase = .finished
    }

    /// A structural problem: nothing after it can be trusted, so reading stops here.
    private func fail(_ message: String) {
        ready.append(.problem(message, line: line))
        phase = .finished
    }
}
