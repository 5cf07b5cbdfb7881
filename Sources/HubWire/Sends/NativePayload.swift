import Foundation

/// The shape NH checks a native notification body against before it accepts the send: APNs and FCM v1 bodies
/// are JSON objects (FCM v1's wrapped in `message`, which names no target: the hub adds the device's), and a WNS
/// toast, tile or badge is XML whose root element is the one its `X-WNS-Type` names. Raw WNS notifications and
/// the other platforms' bodies are passed on as they are.
public enum NativePayload {
    /// The problem NH would answer 400 with, or nil when the body has the platform's shape. `headers` are the
    /// request's platform headers (`X-WNS-Type`, looked up ignoring case).
    public static func problem(_ body: [UInt8], platform: PushPlatform, headers: [String: String]) -> String? {
        switch platform {
        case .apns:
            guard jsonObject(body) != nil else {
                return #"The APNs payload is not a JSON object; send one like {"aps":{"alert":"Hello"}}."#
            }
            return nil
        case .fcmv1:
            guard let message = jsonObject(body)?["message"] as? [String: Any] else {
                return
                    #"The FCM v1 payload must be a JSON object with a "message" object, like {"message":{"notification":{"title":"Hello"}}}."#
            }
            if let target = ["token", "topic", "condition"].first(where: { message[$0] != nil }) {
                return "The FCM v1 message names its target ('\(target)'); leave it out: the hub addresses each device."
            }
            return nil
        case .wns:
            let type = headers.first { $0.key.lowercased() == "x-wns-type" }?.value.trimmingCharacters(in: .whitespaces)
                .lowercased()
            let root: String
            switch type {
            case "wns/raw": return nil
            case "wns/toast": root = "toast"
            case "wns/tile": root = "tile"
            case "wns/badge": root = "badge"
            default: return "X-WNS-Type '\(type ?? "")' is not one of wns/toast, wns/tile, wns/badge and wns/raw."
            }
            let tree: XMLTree
            do throws(XMLSyntaxError) { tree = try XMLTree.parse(body) } catch {
                return "The Windows \(root) notification is not well-formed XML: \(error.message)."
            }
            guard tree.name == root else {
                return
                    "The Windows \(root) notification (\(type ?? "")) must have a <\(root)> root element, not <\(tree.name)>."
            }
            return nil
        case .gcm, .mpns, .adm, .baidu, .browser, .xiaomi:
            return nil
        }
    }

    private static func jsonObject(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
