import HTTPServing
import HTTPTypes
import HubClient
import HubWire
import PipelineCore
import ServiceMetrics

/// One request to the hub and what the service answers when it fails. The hub's key, token and signature never
/// reach a caller: a refusal of the service's own credentials is a 502 that says to check the service.
struct HubCall: Sendable {
    let session: HubSession
    let metrics: ServiceMetrics

    /// The response to `request`; statuses in `allowing` count as answered.
    func perform(_ request: HubRequest, allowing: Set<Int> = []) async throws(Problem) -> HubResponse {
        let exchange = await session.exchange(request, allowing: allowing)
        switch exchange {
        case .answered(let result), .refused(_, let result):
            let status = result.response.status
            let throttled = status == 429 || (status == 403 && result.response.header("Retry-After") != nil)
            metrics.hubRequest(outcome: throttled ? "throttled" : "\(status / 100)xx")
        case .noAnswer(let error):
            // A request that could not be written never reached the hub: it is not a hub request.
            if error.kind != .unsendable { metrics.hubRequest(outcome: "no-answer") }
        }
        switch exchange {
        case .answered(let result):
            return result.response
        case .noAnswer(let error) where error.kind == .unsendable:
            // A value the app sent (a handle, a tag) would have broken a header of the hub's request.
            throw Problem(
                .badRequest, "Bad Request",
                "a value in this request cannot be sent to the notification hub: it holds a line break or another control character"
            )
        case .noAnswer(let error):
            throw Problem(
                .badGateway, "Bad Gateway",
                "the notification hub did not answer (\(error.kind == .ambiguous ? "no answer after the request was sent" : "unreachable")); try again later"
            )
        case .refused(let failure, let result):
            let status = result.response.status
            if status == 429 || (status == 403 && result.response.header("Retry-After") != nil) {
                let wait = result.response.header("Retry-After").flatMap { Int($0) } ?? 10
                throw Problem(
                    .serviceUnavailable, "Service Unavailable",
                    "the notification hub is throttling this service; try again in \(wait) s",
                    headers: [.retryAfter: String(wait)])
            }
            if status == 401 || status == 403 {
                throw Problem(
                    .badGateway, "Bad Gateway",
                    "the notification hub refused this service's credentials; the operator should check the hub's connection string"
                )
            }
            throw Problem(.badGateway, "Bad Gateway", "the notification hub answered \(status): \(failure.message)")
        }
    }
}
