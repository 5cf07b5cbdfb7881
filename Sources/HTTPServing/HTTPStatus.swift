/// A response status code.
public struct HTTPStatus: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int

    /// A status by code.
    public init(_ code: Int) { self.code = code }
    /// A status by literal code.
    public init(integerLiteral value: Int) { code = value }

    public var description: String { String(code) }

    /// 200.
    public static let ok: HTTPStatus = 200
    /// 201.
    public static let created: HTTPStatus = 201
    /// 202.
    public static let accepted: HTTPStatus = 202
    /// 204.
    public static let noContent: HTTPStatus = 204
    /// 400.
    public static let badRequest: HTTPStatus = 400
    /// 401.
    public static let unauthorized: HTTPStatus = 401
    /// 403.
    public static let forbidden: HTTPStatus = 403
    /// 404.
    public static let notFound: HTTPStatus = 404
    /// 405.
    public static let methodNotAllowed: HTTPStatus = 405
    /// 409.
    public static let conflict: HTTPStatus = 409
    /// 410.
    public static let gone: HTTPStatus = 410
    /// 413.
    public static let contentTooLarge: HTTPStatus = 413
    /// 415.
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 422.
    public static let unprocessableContent: HTTPStatus = 422
    /// 429.
    public static let tooManyRequests: HTTPStatus = 429
    /// 500.
    public static let internalServerError: HTTPStatus = 500
    /// 502.
    public static let badGateway: HTTPStatus = 502
    /// 503.
    public static let serviceUnavailable: HTTPStatus = 503
}
