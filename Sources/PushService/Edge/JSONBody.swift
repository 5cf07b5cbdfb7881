import Foundation
import HTTPTypes
import Hummingbird

/// Request bodies as every route reads them: JSON only (`application/json` or `…+json`) — a form or text body is
/// what a browser may send cross-site without asking, so it is refused (415) before it is read — and at most the
/// service's limit (413).
struct JSONBody: Sendable {
    /// The most bytes a body may have.
    let limit: Int

    /// The body's bytes.
    func bytes(of request: Request) async throws(Problem) -> [UInt8] {
        let type =
            (request.headers[.contentType] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard type == "application/json" || type.hasSuffix("+json") else {
            throw Problem(
                .unsupportedMediaType, "Unsupported Media Type",
                "send the body as JSON with `Content-Type: application/json`")
        }
        do {
            var request = request
            return Array(buffer: try await request.collectBody(upTo: limit))
        } catch {
            // Collecting fails only past the limit (or when the peer has gone, when no answer reaches anyone).
            throw Problem(.contentTooLarge, "Content Too Large", "the request body is larger than \(limit) bytes")
        }
    }

    /// The body decoded as JSON `T`; anything else is a 400 that shows the expected `shape`.
    func decode<T: Decodable>(_ request: Request, as type: T.Type, shape: String) async throws(Problem) -> T {
        let bytes = try await bytes(of: request)
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw .badRequest("the body must be \(shape) as JSON")
        }
    }
}

extension Response {
    /// A JSON answer.
    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        .text(status, contentType: "application/json; charset=utf-8", text)
    }

    /// An answer with a text body, sent as UTF-8.
    static func text(_ status: HTTPResponse.Status, contentType: String, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
