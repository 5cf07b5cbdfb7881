import HubWire
import Testing

@Suite("PushPlatform")
struct PushPlatformTests {
    @Test(
        "case-insensitive parsing",
        arguments: [
            ("apns", PushPlatform.apns), ("APNS", .apns), ("fcmV1", .fcmv1), ("FcmV1", .fcmv1), ("fcmv1", .fcmv1),
            ("GCM", .gcm), ("Wns", .wns), ("mpns", .mpns), ("ADM", .adm), ("Baidu", .baidu), ("Browser", .browser),
            ("XIAOMI", .xiaomi), (" apns\n", .apns),
        ])
    func parses(_ text: String, _ platform: PushPlatform) {
        #expect(PushPlatform(caseInsensitive: text) == platform)
    }

    @Test(
        "unknown names are rejected", arguments: ["", "apple", "fcm", "fcm v1", "windows", "ios", "nokiax", "template"])
    func rejects(_ text: String) {
        #expect(PushPlatform(caseInsensitive: text) == nil)
    }

    /// Platform, payload limit, format header, XML, display name.
    static let table: [(PushPlatform, Int?, String, Bool, String)] = [
        (.apns, 4096, "apple", false, "APNs"),
        (.fcmv1, 4096, "fcmv1", false, "FCM v1"),
        (.gcm, 4096, "gcm", false, "FCM legacy (GCM)"),
        (.wns, 5120, "windows", true, "WNS"),
        (.mpns, nil, "windowsphone", true, "MPNS"),
        (.adm, nil, "adm", false, "Amazon ADM"),
        (.baidu, nil, "baidu", false, "Baidu"),
        (.browser, nil, "browser", false, "Web Push"),
        (.xiaomi, nil, "xiaomi", false, "Xiaomi"),
    ]

    @Test("properties", arguments: table)
    func properties(_ row: (PushPlatform, Int?, String, Bool, String)) {
        let (platform, limit, format, xml, name) = row
        #expect(platform.payloadLimit == limit)
        #expect(platform.notificationFormat == format)
        #expect(platform.usesXML == xml)
        #expect(platform.displayName == name)
        #expect(PushPlatform(caseInsensitive: platform.rawValue) == platform)
    }

    @Test("the table covers every platform")
    func complete() {
        #expect(Self.table.map(\.0) == PushPlatform.allCases)
    }

    @Test("limits")
    func limits() {
        #expect(NHLimits.maxRequestBytes == 65536)
        #expect(NHLimits.maxDirectBatchHandles == 1000)
        #expect(NHLimits.maxTagsPerInstallation == 60)
        #expect(NHLimits.maxScheduleAheadSeconds == 604_800)
        #expect(NHLimits.maxTemplateNameLength == 200)
    }
}
