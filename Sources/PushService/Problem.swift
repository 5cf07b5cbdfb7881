import Foundation
import HTTPTypes
import Hummingbird

/// An error answer as RFC 9457 `application/problem+json`: a status, a short title and a detail a developer can
/// act on. Details never carry a secret (no key, password, token or hub signature).
struct Problem: Error, Sendable, Equatable {
    let status: HTTPResponse.Status
    let title: String
    let detail: String
    /// Extra header fields (`WWW-Authenticate`, `Retry-After`, `Allow`).
    var headers: HTTPFields = [:]
    /// The request field at fault (`parameters.user`), when one is.
    var field: String?

    init(_ status: HTTPResponse.Status, _ title: String, _ detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.title = title
        self.detail = detail
        self.headers = headers
    }

    static func == (lhs: Problem, rhs: Problem) -> Bool {
        lhs.status == rhs.status && lhs.title == rhs.title && lhs.detail == rhs.detail
    }

    var response: Response {
        struct Body: Encodable {
            let type = "about:blank"
            let title: String
            let status: Int
            let detail: String
            let field: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body =
            (try? encoder.encode(Body(title: title, status: status.code, detail: detail, field: field))) ?? Data()
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// 422 about one field of the request.
    static func field(_ field: String, _ detail: String) -> Problem {
        var problem = Problem(.unprocessableContent, "Unprocessable Content", detail)
        problem.field = field
        return problem
    }

    static func badRequest(_ detail: String) -> Problem { Problem(.badRequest, "Bad Request", detail) }
    static func unprocessable(_ detail: String) -> Problem {
        Problem(.unprocessableContent, "Unprocessable Content", detail)
    }
    static func forbidden(_ detail: String) -> Problem { Problem(.forbidden, "Forbidden", detail) }
    static func notFound(_ detail: String) -> Problem { Problem(.notFound, "Not Found", detail) }
    static func tooManyRequests(retryAfter: Int, _ detail: String) -> Problem {
        Problem(.tooManyRequests, "Too Many Requests", detail, headers: [.retryAfter: String(retryAfter)])
    }
}
