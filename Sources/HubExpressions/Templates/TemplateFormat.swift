/// The syntax of a template and of what it renders to.
public enum TemplateFormat: String, Sendable, Equatable {
    /// APNs, FCM, ADM, Baidu, browser and WNS raw/JSON payloads.
    case json
    /// WNS and MPNS toast/tile/badge payloads.
    case xml
}
