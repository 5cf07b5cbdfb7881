import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain-socket HTTP/1.1 server on loopback that holds every request for a while before answering
/// (201 unless told otherwise), and counts the connections open at once. Written without Pushline's or any HTTP
/// library's code, so it shows what the client really opens and writes.
final class SlowLoopbackServer: Sendable {
    /// How it answers each request.
    enum Answer: Sendable {
        /// This raw response; the connection stays open for the next request.
        case keepAlive(String)
        /// This raw response, then the connection is closed.
        case thenClose(String)
        /// Never: the request is read and the connection held until the client closes it.
        case never
    }

    static let created = "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"

    let port: UInt16
    private let listener: Int32
    private let hold: Double
    private let answer: Answer
    /// The heads of the requests read, lowercased, in order.
    private let heads = Mutex<[String]>([])
    /// Connections to wait for before answering anything (at most 30 s), so a slow client start cannot let an early
    /// answer free a connection for reuse before the others are opened.
    private let gather: Int
    private let counts = Mutex((open: 0, peak: 0, requests: 0, accepted: 0))

    /// Most connections that were open at the same time.
    var peakConnections: Int { counts.withLock { $0.peak } }
    /// Requests answered.
    var requests: Int { counts.withLock { $0.requests } }
    /// Connections accepted in all.
    var accepted: Int { counts.withLock { $0.accepted } }
    /// The heads of the requests read so far, lowercased.
    var requestHeads: [String] { heads.withLock { $0 } }

    init(holdSeconds: Double = 0, gather: Int = 0, answer: Answer = .keepAlive(created)) throws {
        hold = holdSeconds
        self.gather = gather
        self.answer = answer
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting; connections still open end when the client closes them.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            counts.withLock {
                $0.open += 1
                $0.accepted += 1
                $0.peak = max($0.peak, $0.open)
            }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    /// Answers requests on one keep-alive connection until the client closes it.
    private func serve(_ connection: Int32) {
        defer {
            close(connection)
            counts.withLock { $0.open -= 1 }
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // Read one request: the head, then Content-Length bytes of body.
            var headEnd: Int?
            while headEnd == nil {
                headEnd = Self.endOfHead(buffer)
                if headEnd != nil { break }
                let count = read(connection, &chunk, chunk.count)
                guard count > 0 else { return }
                buffer.append(contentsOf: chunk[0..<count])
            }
            let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self).lowercased()
            let bodyLength =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            while buffer.count < headEnd! + bodyLength {
                let count = read(connection, &chunk, chunk.count)
                guard count > 0 else { return }
                buffer.append(contentsOf: chunk[0..<count])
            }
            buffer.removeFirst(headEnd! + bodyLength)
            heads.withLock { $0.append(head) }
            let deadline = Date().addingTimeInterval(30)
            while counts.withLock({ $0.open }) < gather, Date() < deadline { usleep(5_000) }
            Thread.sleep(forTimeInterval: hold)
            let text: String
            switch answer {
            case .keepAlive(let response), .thenClose(let response): text = response
            case .never:
                // Held until the client gives up and closes.
                while read(connection, &chunk, chunk.count) > 0 {}
                return
            }
            let bytes = Array(text.utf8)
            guard write(connection, bytes, bytes.count) == bytes.count else { return }
            counts.withLock { $0.requests += 1 }
            if case .thenClose = answer { return }
        }
    }

    /// The index just past the blank line that ends an HTTP head, if the buffer holds one.
    private static func endOfHead(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 3..<buffer.count
        where buffer[index - 3] == 13 && buffer[index - 2] == 10 && buffer[index - 1] == 13 && buffer[index] == 10 {
            return index + 1
        }
        return nil
    }
}
