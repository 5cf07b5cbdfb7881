import HubWire
import Testing

/// Which headers can be written: a value with a line break (which a row or a config value can carry) would end the
/// header early and could add one of its own making.
@Suite struct HubHeaderTests {
    @Test("values with tabs, spaces, punctuation and non-ASCII text are written as they are")
    func writable() {
        for value in ["alert", "10", "a\tb c", "Zürich 🚀", "tag:a && !tag:b", "", "x;y=\"z\""] {
            #expect(HubHeader("apns-collapse-id", value).unwritable == nil, "\(value)")
        }
        #expect(HubRequest.unwritableHeaderFree.unwritableHeader == nil)
    }

    @Test("a line break, NUL, DEL or another control character in a value makes the header unwritable, naming it")
    func controlCharactersInValues() {
        for (value, what) in [
            ("a\r\nX-Injected: 1", "a line break"), ("a\nb", "a line break"), ("a\rb", "a line break"),
            ("a\u{0}b", "a control character"), ("a\u{7F}", "a control character"),
            ("\u{1B}[31m", "a control character"),
        ] {
            #expect(
                HubHeader("apns-collapse-id", value).unwritable
                    == "the value of header apns-collapse-id holds \(what), which a header cannot carry", "\(value)")
        }
    }

    @Test("a name that is not an HTTP token is unwritable")
    func names() {
        for name in ["", "a b", "X-Key:", "Ünicode", "a\nb"] {
            #expect(HubHeader(name, "v").unwritable == "the header name '\(name)' is not a valid HTTP header name")
        }
        #expect(HubHeader("ServiceBusNotification-Format", "apple").unwritable == nil)
        #expect(HubHeader("x-ms-version!#$%&'*+.^_`|~", "v").unwritable == nil)
    }

    @Test("a request names its first unwritable header")
    func request() {
        var request = HubRequest.unwritableHeaderFree
        request.headers.append(HubHeader("apns-topic", "ok"))
        request.headers.append(HubHeader("apns-collapse-id", "a\nb"))
        request.headers.append(HubHeader("bad name", "v"))
        #expect(
            request.unwritableHeader
                == "the value of header apns-collapse-id holds a line break, which a header cannot carry")
    }
}

extension HubRequest {
    fileprivate static var unwritableHeaderFree: HubRequest {
        HubRequest(
            method: .post, url: "https://ns.servicebus.windows.net/hub/messages/?api-version=2015-01",
            headers: [HubHeader("Content-Type", "application/json;charset=utf-8")], body: [], isIdempotent: false,
            summary: "send",
            right: .send)
    }
}
