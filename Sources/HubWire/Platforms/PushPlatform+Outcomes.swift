extension PushPlatform {
    /// The prefix of this platform's `…OutcomeCounts` element in `<NotificationDetails>`: `Apns`, `FcmV1`, `Gcm`, ….
    public var outcomeCountsPrefix: String {
        switch self {
        case .apns: "Apns"
        case .fcmv1: "FcmV1"
        case .gcm: "Gcm"
        case .wns: "Wns"
        case .mpns: "Mpns"
        case .adm: "Adm"
        case .baidu: "Baidu"
        case .browser: "Browser"
        case .xiaomi: "Xiaomi"
        }
    }

    /// The platform of an `…OutcomeCounts` prefix; `Fcm` (legacy FCM, which the .NET SDK reads apart) is `gcm`.
    public init?(outcomeCountsPrefix prefix: String) {
        if prefix.lowercased() == "fcm" {
            self = .gcm
            return
        }
        guard
            let platform = PushPlatform.allCases.first(where: {
                $0.outcomeCountsPrefix.lowercased() == prefix.lowercased()
            })
        else {
            return nil
        }
        self = platform
    }
}
