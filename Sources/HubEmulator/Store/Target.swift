import HubExpressions
import HubWire

/// Something a send can reach: an installation's native channel, one of its templates, or a registration.
///
/// A class, immutable once built: a large fan-out copies, sorts and logs a thousand targets per send, and
/// a reference costs one retain where the struct's seven fields each cost their own.
final class Target: Sendable {
    /// Identifies a target within a hub.
    struct Key: Hashable, Sendable {
        /// The installation or registration the target belongs to.
        enum Owner: Hashable, Sendable {
            case installation(String)
            case registration(String)
        }

        let owner: Owner
        /// The template name for an installation template; nil for native targets and registrations.
        let template: String?
    }

    let key: Key
    let platform: PushPlatform
    /// The PNS handle (device token, FCM token, channel URI, browser endpoint).
    let pushChannel: String
    /// Tags the target matches on: owner tags, plus template tags and name, plus the special
    /// `$InstallationId:{…}` / `$UserId:{…}` forms for installations.
    let tags: Set<String>
    /// The compiled template for template targets; nil for native ones.
    let template: CompiledTemplate?
    /// The template's name as NH reports it (installation template name or registration TemplateName).
    let templateName: String?
    /// Headers registered with the template (APNs/WNS headers).
    let headers: [String: String]
    /// The template headers whose values hold expressions (`X-WNS-Tag: $(tagv)`): NH evaluates them with the send's
    /// properties, as it does the body. Empty for most targets, whose headers are delivered as registered.
    let headerTemplates: [String: TextTemplate]

    init(
        key: Key, platform: PushPlatform, pushChannel: String, tags: Set<String>, template: CompiledTemplate?,
        templateName: String?, headers: [String: String]
    ) {
        self.key = key
        self.platform = platform
        self.pushChannel = pushChannel
        self.tags = tags
        self.template = template
        self.templateName = templateName
        self.headers = headers
        var headerTemplates: [String: TextTemplate] = [:]
        if template != nil {
            for (name, value) in headers {
                // A value that does not compile is delivered as written; registration checked what it could.
                if let compiled = try? TextTemplate(compiling: value), !compiled.propertyNames.isEmpty {
                    headerTemplates[name] = compiled
                }
            }
        }
        self.headerTemplates = headerTemplates
    }

    /// The template headers rendered with a send's properties; nil when none holds an expression.
    func renderedHeaders(_ properties: TemplateProperties) -> [String: String]? {
        guard !headerTemplates.isEmpty else { return nil }
        var rendered = headers
        for (name, template) in headerTemplates { rendered[name] = template.render(properties) }
        return rendered
    }

    /// True for targets that receive template sends.
    var isTemplate: Bool { template != nil }
}
