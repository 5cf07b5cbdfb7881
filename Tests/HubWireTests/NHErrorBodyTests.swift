import HubWire
import Testing

@Suite("NHErrorBody")
struct NHErrorBodyTests {
    static let recorded =
        "<Error><Code>401</Code><Detail>InvalidSignature: The token has an invalid signature.."
        + "TrackingId:6d2c1d2e-5bc1-4c06-9d2e-3b0c8e1d4f55_G19,TimeStamp:7/2/2020 6:33:21 PM</Detail></Error>"

    @Test("renders the service's shape")
    func render() {
        let body = NHErrorBody.render(
            status: 401, detail: "InvalidSignature: The token has an invalid signature.",
            trackingId: "6d2c1d2e-5bc1-4c06-9d2e-3b0c8e1d4f55_G19",
            timestamp: "7/2/2020 6:33:21 PM")
        #expect(body == Self.recorded)
    }

    @Test("escapes XML in the detail")
    func escapes() {
        let body = NHErrorBody.render(status: 400, detail: "Bad <tag> & \"quote\" 'x'", trackingId: "t", timestamp: "s")
        #expect(
            body == "<Error><Code>400</Code><Detail>Bad &lt;tag&gt; &amp; &quot;quote&quot; &apos;x&apos;"
                + ".TrackingId:t,TimeStamp:s</Detail></Error>")
    }

    @Test(
        "round trip",
        arguments: [
            (401, "ExpiredToken: The token is expired."),
            (404, "Installation not found."),
            (404, ""),
            (409, "SubCode=40900. Conflict."),
            (400, "a < b && c > \"d\" 'e' ü €"),
        ])
    func roundTrip(_ status: Int, _ detail: String) throws {
        let body = try #require(
            NHErrorBody(
                parsing: NHErrorBody.render(
                    status: status, detail: detail,
                    trackingId: "abc_G1", timestamp: "1/2/2024 3:04:05 AM")))
        #expect(body == NHErrorBody(code: status, detail: "\(detail).TrackingId:abc_G1,TimeStamp:1/2/2024 3:04:05 AM"))
        #expect(body.message == detail)
        #expect(body.trackingId == "abc_G1")
    }

    /// Body text, expected code, expected detail (nil body expected when both are nil).
    static let parses: [(String, Int?, String?)] = [
        (
            recorded, 401,
            "InvalidSignature: The token has an invalid signature..TrackingId:"
                + "6d2c1d2e-5bc1-4c06-9d2e-3b0c8e1d4f55_G19,TimeStamp:7/2/2020 6:33:21 PM"
        ),
        (
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Error>\n  <Code> 403 </Code>\n  <Detail>Quota exceeded.</Detail>\n</Error>",
            403, "Quota exceeded."
        ),
        ("<Error><Code>404</Code><Detail /></Error>", 404, ""),
        ("<Error><Code>404</Code><Detail></Detail></Error>", 404, ""),
        ("<Error><Detail>only detail</Detail></Error>", nil, "only detail"),
        ("<Error><Code>abc</Code></Error>", nil, nil),
        ("<Error><Codex>1</Codex><Code>500</Code></Error>", 500, nil),
        ("<Error><Code>500</Code><Detail><![CDATA[a <b> & c]]></Detail></Error>", 500, "a <b> & c"),
        ("<Error><Code>500</Code><Detail>&#65;&#x42;&unknown; &amp</Detail></Error>", 500, "AB&unknown; &amp"),
    ]

    @Test("tolerant parsing", arguments: parses)
    func parsing(_ text: String, _ code: Int?, _ detail: String?) throws {
        let body = try #require(NHErrorBody(parsing: text))
        #expect(body == NHErrorBody(code: code, detail: detail))
    }

    @Test(
        "empty or garbage bodies give nil",
        arguments: [
            "", "   ", "Internal Server Error", "{\"error\":\"x\"}", "<html><body>502</body></html>", "<Error></Error>",
            "<Error><Code>401", "<Detail>unterminated",
        ])
    func garbage(_ text: String) {
        #expect(NHErrorBody(parsing: text) == nil)
    }

    @Test("message and tracking id without a suffix")
    func noSuffix() {
        let body = NHErrorBody(code: 400, detail: "Bad request.")
        #expect(body.message == "Bad request.")
        #expect(body.trackingId == nil)
        #expect(NHErrorBody(code: nil, detail: nil).message == nil)
    }
}
