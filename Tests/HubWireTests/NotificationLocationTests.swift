import HubWire
import Testing

@Suite("NotificationLocation")
struct NotificationLocationTests {
    @Test(
        "takes the last path segment",
        arguments: [
            // §5.1 send.
            (
                "https://contoso-nh.servicebus.windows.net/myhub/messages/73622a22797441e4b434e8c2c14112ce-20181107001834"
                    + "-33331921-18?api-version=2017-04", "73622a22797441e4b434e8c2c14112ce-20181107001834-33331921-18"
            ),
            // §5.3 direct batch: the id follows an extra $batch segment.
            (
                "https://contoso-nh.servicebus.windows.net/myhub/messages/$batch/5e1b2c3d-20181107001834-1"
                    + "?api-version=2017-04&direct", "5e1b2c3d-20181107001834-1"
            ),
            // §5.4 scheduled send.
            (
                "https://contoso-nh.servicebus.windows.net/myhub/schedulednotifications/af14e491…_20181107001832_33331921_17"
                    + "_QNHQueue930a…-S68116944391983712?api-version=2017-04",
                "af14e491…_20181107001832_33331921_17_QNHQueue930a…-S68116944391983712"
            ),
            // Hub paths, the emulator, trailing slash, fragment, relative references.
            ("https://ns.servicebus.windows.net/a/b/c/messages/id-1?api-version=2020-06", "id-1"),
            ("http://127.0.0.1:8080/hub/messages/id-2/", "id-2"),
            ("https://ns/hub/messages/id-3#frag", "id-3"),
            ("/hub/messages/id-4?x=1", "id-4"),
            (" messages/id-5 ", "id-5"),
            // Whitespace of every ASCII kind, repeated slashes, a query holding a slash, a second scheme in the path.
            ("\t\r\nhttps://h/x/id-6\r\n", "id-6"),
            ("hub//messages//id-7//", "id-7"),
            ("https://h/a/id-8?next=/b/c", "id-8"),
            ("x://y/z://w/id-9", "id-9"),
            // Not ASCII: read by characters (a no-break space is whitespace there).
            ("\u{A0}https://h/messages/idé\u{A0}", "idé"),
        ])
    func lastSegment(_ location: String, _ id: String) {
        #expect(NotificationLocation.notificationId(fromLocation: location) == id)
    }

    @Test(
        "no path segment gives nil",
        arguments: [
            "", "https://ns.servicebus.windows.net", "https://ns.servicebus.windows.net/", "https://ns/?api-version=1",
            "/",
        ])
    func noSegment(_ location: String) {
        #expect(NotificationLocation.notificationId(fromLocation: location) == nil)
    }
}
