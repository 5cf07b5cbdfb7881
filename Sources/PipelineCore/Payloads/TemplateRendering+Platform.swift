import HubExpressions
import HubWire

extension TemplateRendering {
    /// Renders `template` for a device of `platform`: its size limit, and for FCM v1 what Google would refuse in
    /// a payload NH accepts (the legacy shape, non-string `data`, a `ttl` that is not a duration string).
    package init(_ template: CompiledTemplate, properties: TemplateProperties, platform: PushPlatform?) {
        self.init(
            template, properties: properties, byteLimit: platform?.payloadLimit,
            shapeProblems: { platform?.shapeProblems(in: $0) ?? [] })
    }
}

extension PushPlatform {
    /// What the platform's push service would refuse in a payload NH accepts; none for most platforms.
    package func shapeProblems(in payload: String) -> [String] {
        switch self {
        case .fcmv1: FcmV1Shape.problems(Array(payload.utf8))
        default: []
        }
    }
}
