import HTTPServing
import HubWire

/// The routes, by method and path: the seed tutorial's device and notification routes, and operations.
enum Route: Equatable {
    case healthz, readyz
    /// `POST /api/register?handle=…`
    case createRegistrationID
    /// `PUT /api/register/{id}`
    case upsertRegistration(String)
    /// `DELETE /api/register/{id}`
    case deleteRegistration(String)
    /// `POST /api/notifications?pns=…&to_tag=…`
    case notifyUser
    /// `PUT /api/notifications/installations` (the official sample backend)
    case putInstallation
    /// `DELETE /api/notifications/installations/{id}`
    case deleteInstallation(String)
    /// `POST /api/notifications/requests`
    case notificationRequest
    /// `POST /v1/pipelines/{name}/runs`
    case startRun(String)
    /// `GET /v1/runs/{id}`
    case showRun(String)
    /// `PUT`, `GET`, `DELETE /v1/installations/{id}`
    case putVersionedInstallation(String)
    case getVersionedInstallation(String)
    case deleteVersionedInstallation(String)
    /// `GET /openapi.json`
    case openAPI
    /// `GET /metrics` (Prometheus text)
    case metrics
    case wrongMethod([HTTPMethod])
    case unknown

    init(method: HTTPMethod, path: String) {
        // Segments are decoded strictly, once: an id is what the caller meant, and a broken escape matches nothing.
        let raw = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let decoded = raw.map { PercentCoding.decode($0, plusAsSpace: false) }
        guard !decoded.contains(where: { $0 == nil }) else {
            self = .unknown
            return
        }
        let segments = decoded.map { $0 ?? "" }
        func only(_ allowed: HTTPMethod, _ route: Route) -> Route {
            method == allowed ? route : .wrongMethod([allowed])
        }
        // HEAD is answered wherever GET is (RFC 9110 §9.3.2); the server sends the head without the body.
        func read(_ route: Route) -> Route { method == .get || method == .head ? route : .wrongMethod([.get, .head]) }
        switch segments.map({ $0.lowercased() }) {
        case ["healthz"]: self = read(.healthz)
        case ["readyz"]: self = read(.readyz)
        case ["metrics"]: self = read(.metrics)
        case ["openapi.json"]: self = read(.openAPI)
        case ["api", "register"]: self = only(.post, .createRegistrationID)
        case ["api", "notifications"]: self = only(.post, .notifyUser)
        case let parts
        where parts.count == 4 && parts[0] == "v1" && parts[1] == "pipelines" && parts[3] == "runs" && !parts[2].isEmpty:
            self = only(.post, .startRun(segments[2]))
        case let parts where parts.count == 3 && parts[0] == "v1" && parts[1] == "installations" && !parts[2].isEmpty:
            switch method {
            case .put: self = .putVersionedInstallation(segments[2])
            case .get, .head: self = .getVersionedInstallation(segments[2])
            case .delete: self = .deleteVersionedInstallation(segments[2])
            default: self = .wrongMethod([.put, .get, .head, .delete])
            }
        case let parts where parts.count == 3 && parts[0] == "v1" && parts[1] == "runs" && !parts[2].isEmpty:
            self = read(.showRun(segments[2]))
        case ["api", "notifications", "installations"]: self = only(.put, .putInstallation)
        case ["api", "notifications", "requests"]: self = only(.post, .notificationRequest)
        case let parts
        where parts.count == 4 && parts[0] == "api" && parts[1] == "notifications" && parts[2] == "installations"
            && !parts[3].isEmpty:
            self = only(.delete, .deleteInstallation(segments[3]))
        case let parts where parts.count == 3 && parts[0] == "api" && parts[1] == "register" && !parts[2].isEmpty:
            let id = segments[2]
            switch method {
            case .put: self = .upsertRegistration(id)
            case .delete: self = .deleteRegistration(id)
            default: self = .wrongMethod([.put, .delete])
            }
        default: self = .unknown
        }
    }

    /// The scope a route needs; nil for the open operational routes.
    var scope: Scope? {
        switch self {
        case .createRegistrationID, .upsertRegistration, .deleteRegistration, .putInstallation, .deleteInstallation,
            .putVersionedInstallation, .getVersionedInstallation, .deleteVersionedInstallation:
            .register
        case .notifyUser, .notificationRequest: .send
        case .metrics, .startRun, .showRun: .admin
        case .healthz, .readyz, .openAPI, .wrongMethod, .unknown: nil
        }
    }

    /// The route's name in logs: its template, never the ids or handles in the path and query.
    var name: String {
        switch self {
        case .healthz: "GET /healthz"
        case .readyz: "GET /readyz"
        case .metrics: "GET /metrics"
        case .openAPI: "GET /openapi.json"
        case .putVersionedInstallation: "PUT /v1/installations/{id}"
        case .getVersionedInstallation: "GET /v1/installations/{id}"
        case .deleteVersionedInstallation: "DELETE /v1/installations/{id}"
        case .startRun: "POST /v1/pipelines/{name}/runs"
        case .showRun: "GET /v1/runs/{id}"
        case .createRegistrationID: "POST /api/register"
        case .upsertRegistration: "PUT /api/register/{id}"
        case .deleteRegistration: "DELETE /api/register/{id}"
        case .notifyUser: "POST /api/notifications"
        case .putInstallation: "PUT /api/notifications/installations"
        case .deleteInstallation: "DELETE /api/notifications/installations/{id}"
        case .notificationRequest: "POST /api/notifications/requests"
        case .wrongMethod, .unknown: "unmatched"
        }
    }
}
