import PluginProtocol
import Subprocess

/// The host's side of one conversation: requests written to the plugin's stdin, messages read off its stdout one line
/// at a time (a line over the protocol's cap is refused, not buffered). Used by one task at a time.
final class PluginChannel {
    private var output: SubprocessOutputSequence.Iterator
    private let input: StandardInputWriter
    private var buffer: [UInt8] = []
    private var ended = false
    /// Lines read so far, for messages.
    private(set) var linesRead = 0
    private let failure: (PluginProtocolError) -> PluginFailure
    private let redact: PluginRedaction

    init(
        input: StandardInputWriter, output: SubprocessOutputSequence, redact: PluginRedaction,
        failure: @escaping (PluginProtocolError) -> PluginFailure
    ) {
        self.input = input
        self.output = output.makeAsyncIterator()
        self.redact = redact
        self.failure = failure
    }

    /// Writes one request line.
    func send(_ request: PluginRequest) async throws(PluginFailure) {
        do {
            _ = try await input.write(request.line + "\n")
        } catch {
            throw failure(
                PluginProtocolError(
                    "the plugin closed its stdin before the \(request.method) request could be written",
                    hint: "read requests from stdin until it closes"))
        }
    }

    /// Closes the plugin's stdin: the conversation is over and it should exit.
    func close() async {
        try? await input.finish()
    }

    /// The next message, or nil when stdout closed (after the last complete line).
    func next() async throws(PluginFailure) -> PluginMessage? {
        guard let line = try await nextLine() else { return nil }
        do {
            return try PluginMessage.parse(line) { [redact] in redact($0) }
        } catch {
            throw failure(PluginProtocolError("stdout line \(linesRead): \(error.message)", hint: error.hint))
        }
    }

    /// Reads stdout to its end once the conversation is over (stdin closed): the plugin may write nothing more. A
    /// line found is a protocol error; reading on also keeps a plugin that writes on from blocking on a full pipe.
    func expectEnd() async throws(PluginFailure) {
        guard let line = try await nextLine() else { return }
        throw failure(
            PluginProtocolError(
                "stdout line \(linesRead) came after the last answer: \(PluginValue.excerpt(redact(line)))",
                hint: "write nothing on stdout after answering the last request"))
    }

    /// The next non-empty line of stdout, without its newline; nil at the end.
    private func nextLine() async throws(PluginFailure) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                guard line.count <= PluginProtocol.maxLineBytes else { throw overlong() }
                linesRead += 1
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
                guard let text = String(validating: line, as: UTF8.self) else {
                    throw failure(
                        PluginProtocolError("stdout line \(linesRead) is not UTF-8", hint: "write UTF-8 JSON on stdout")
                    )
                }
                return text
            }
            // The cap leaves out the newline, and the carriage return of a CRLF ending.
            if buffer.count > PluginProtocol.maxLineBytes + 1 { throw overlong() }
            if ended {
                guard !buffer.isEmpty else { return nil }
                // A last line without its newline still counts.
                buffer.append(UInt8(ascii: "\n"))
                continue
            }
            let chunk: SubprocessOutputSequence.Buffer?
            do {
                chunk = try await output.next()
            } catch {
                throw failure(PluginProtocolError("reading the plugin's stdout failed: \(error)"))
            }
            if let chunk {
                chunk.withUnsafeBytes { buffer.append(contentsOf: $0) }
            } else {
                ended = true
            }
        }
    }

    private func overlong() -> PluginFailure {
        failure(
            PluginProtocolError(
                "stdout line \(linesRead + 1) is longer than \(PluginProtocol.maxLineBytes / 1024) KiB",
                hint: "send rows in several messages of a few hundred rows each; write logs on stderr"))
    }
}
