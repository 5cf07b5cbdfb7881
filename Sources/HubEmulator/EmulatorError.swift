/// A request the emulator answers with an NH error: status and the `<Detail>` text.
struct EmulatorError: Error, Equatable {
    let status: Int
    let detail: String
    var retryAfter: Int?

    init(_ status: Int, _ detail: String, retryAfter: Int? = nil) {
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
    }

    static func badRequest(_ detail: String) -> EmulatorError { EmulatorError(400, detail) }
    static func notFound(_ detail: String) -> EmulatorError { EmulatorError(404, detail) }
}
