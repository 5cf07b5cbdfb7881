import HubWire
import Testing

/// Handle shapes per platform, as NH's PNSs issue them (nh-rest-api.md §3).
@Suite struct PushPlatformHandleTests {
    @Test(
        "well-formed handles pass",
        arguments: [
            (PushPlatform.apns, "62BCD3484834B7E2A0A2F8C3F64A8E5C2D2A4F6E8B0C1D3E5F7A9B1C3D5E7F90"),
            (.fcmv1, "dGVzdC10b2tlbg:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"),
            (.gcm, "APA91bHun4MxP5egoKMwt2KZFBaFUH"),
            (.wns, "https://db5.notify.windows.com/?token=AwYAAAB%2f"),
            (.adm, "amzn1.adm-registration.v2.Y29tLmFtYXpvbi5EZXZpY2VNZXNzYWdpbmcuUmVnaXN0cmF0aW9uSWQ"),
            (.apns, "62bcd3484834b7e2a0a2f8c3f64a8e5c"),
            (.fcmv1, "tökén-ünicode:ok"),
        ])
    func wellFormed(platform: PushPlatform, handle: String) {
        #expect(platform.handleProblem(handle) == nil)
    }

    @Test(
        "malformed handles say what is wrong, naming invisible characters",
        arguments: [
            (PushPlatform.apns, "62BCZ3", "handle '62BCZ3' is not an APNs device token: 'Z' is not a hex digit"),
            (.apns, "ABC", "handle 'ABC' is not an APNs device token: it has an odd number of hex digits (3)"),
            (.fcmv1, "abc def", "handle 'abc def' is not an FCM registration token: it contains a space"),
            (
                .wns, "http://db5.notify.windows.com/?token=x",
                "handle 'http://db5.notify.wi…' is not a WNS channel URI: it must be an https:// URL"
            ),
            (
                .wns, "https://db5.notify.windows.com/?token=\tx",
                "handle 'https://db5.notify.w…' is not a WNS channel URI: it contains a tab"
            ),
            (.adm, "amzn1 adm", "handle 'amzn1 adm' contains a space"),
            (.gcm, "", "handle is empty"),
            (.apns, "62BC\u{0301}D3", "handle '62BĆD3' is not an APNs device token: 'Ć' is not a hex digit"),
            (.apns, "６２", "handle '６２' is not an APNs device token: '６' is not a hex digit"),
            (
                .fcmv1, "abc\u{00A0}def",
                "handle 'abc\u{00A0}def' is not an FCM registration token: it contains '\u{00A0}'"
            ),
            (.gcm, "abc\r\ndef", "handle 'abc\r\ndef' is not an FCM registration token: it contains a line break"),
        ])
    func malformed(platform: PushPlatform, handle: String, message: String) {
        #expect(platform.handleProblem(handle) == message)
    }

    @Test func theFieldNameIsTheCallers() {
        #expect(
            PushPlatform.apns.handleProblem("xy", what: "pushChannel")
                == "pushChannel 'xy' is not an APNs device token: 'x' is not a hex digit")
    }
}
