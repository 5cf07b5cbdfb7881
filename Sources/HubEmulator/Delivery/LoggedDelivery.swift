import HubWire

/// A delivery as the side-channel log keeps it, turned into a `Delivery` only when the log is read.
///
/// A large fan-out logs a thousand deliveries per send; keeping the target by reference and the send's
/// shared fields once per send makes each entry four fields instead of eleven.
struct LoggedDelivery: Sendable {
    /// What every delivery of one send shares.
    final class Send: Sendable {
        let notificationId: String
        let hub: String
        /// When it was delivered (ISO 8601, UTC, milliseconds).
        let time: String
        /// The request's platform headers, which native deliveries carry.
        let headers: [String: String]

        init(notificationId: String, hub: String, time: String, headers: [String: String]) {
            self.notificationId = notificationId
            self.hub = hub
            self.time = time
            self.headers = headers
        }
    }

    /// Who received it: a registered target, or a bare handle (direct sends).
    enum Recipient: Sendable {
        case target(Target)
        case handle(PushPlatform, String)
    }

    let id: Int
    let send: Send
    let recipient: Recipient
    /// The payload the device receives (rendered for template targets).
    let payload: String
    /// A template target's headers rendered for this send, when they hold expressions.
    var renderedHeaders: [String: String]? = nil

    /// The side channel's view.
    var delivery: Delivery {
        switch recipient {
        case .handle(let platform, let handle):
            return Delivery(
                id: id, notificationId: send.notificationId, hub: send.hub, platform: platform.rawValue,
                pushChannel: handle,
                installationId: nil, registrationId: nil, template: nil, payload: payload, headers: send.headers,
                time: send.time)
        case .target(let target):
            var installationId: String?
            var registrationId: String?
            switch target.key.owner {
            case .installation(let id): installationId = id
            case .registration(let id): registrationId = id
            }
            // Template deliveries carry the headers registered with the template; native ones the request's.
            return Delivery(
                id: id, notificationId: send.notificationId, hub: send.hub, platform: target.platform.rawValue,
                pushChannel: target.pushChannel, installationId: installationId, registrationId: registrationId,
                template: target.templateName, payload: payload,
                headers: renderedHeaders ?? (target.isTemplate ? target.headers : send.headers),
                time: send.time)
        }
    }
}
