import HubWire
import Testing

@Suite("DirectBatchRequest")
struct DirectBatchRequestTests {
    static let contentType = #"multipart/mixed; boundary="nh-batch-multipart-boundary""#

    /// nh-rest-api.md §5.3, verbatim, with CRLF line ends.
    static let example = [
        "--nh-batch-multipart-boundary",
        "Content-Type: application/json;charset=utf-8",
        "Content-Disposition: inline; name=notification",
        "",
        #"{"aps":{"alert":"hi"}}"#,
        "--nh-batch-multipart-boundary",
        "Content-Type: application/json",
        "Content-Disposition: inline; name=devices",
        "",
        #"["TOKEN1","TOKEN2"]"#,
        "--nh-batch-multipart-boundary--",
    ].joined(separator: "\r\n")

    static let expected = DirectBatchRequest(
        notification: Array(#"{"aps":{"alert":"hi"}}"#.utf8),
        notificationContentType: "application/json;charset=utf-8",
        devices: ["TOKEN1", "TOKEN2"])

    static func parse(_ body: String, _ contentType: String = contentType) throws(DirectBatchError)
        -> DirectBatchRequest
    {
        try DirectBatchRequest(parsing: Array(body.utf8), contentType: contentType)
    }

    static func replacing(_ old: String, with new: String, in text: String = example) -> String {
        text.split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
    }

    @Test("parses the §5.3 example")
    func parsesExample() throws {
        #expect(try Self.parse(Self.example) == Self.expected)
    }

    @Test(
        "boundary forms in the Content-Type",
        arguments: [
            #"multipart/mixed; boundary="nh-batch-multipart-boundary""#,
            "multipart/mixed; boundary=nh-batch-multipart-boundary",
            #"multipart/mixed; boundary = "nh-batch-multipart-boundary""#,
            #"Multipart/Mixed;charset=utf-8;BOUNDARY="nh-batch-multipart-boundary" "#,
        ])
    func boundaryForms(_ contentType: String) throws {
        #expect(try Self.parse(Self.example, contentType) == Self.expected)
    }

    @Test(
        "body variations real clients send",
        arguments: [
            // JS: `Content-type`; .NET: a leading CRLF before the first boundary, and `Content-type`.
            replacing("Content-Type", with: "Content-type"),
            "\r\n" + replacing("Content-Type", with: "content-TYPE"),
            // Bare LF line ends.
            replacing("\r\n", with: "\n"),
            // Trailing CRLF and an epilogue after the closing boundary; padding after boundary lines.
            example + "\r\nepilogue\r\n",
            replacing("--nh-batch-multipart-boundary\r\n", with: "--nh-batch-multipart-boundary \t\r\n"),
            // Content-Disposition first, quoted names, extra parameters, a part with another name.
            [
                "preamble", "--nh-batch-multipart-boundary",
                "Content-Disposition: inline; name=\"notification\"",
                "Content-Type: application/json;charset=utf-8", "", #"{"aps":{"alert":"hi"}}"#,
                "--nh-batch-multipart-boundary",
                "Content-Disposition: inline; filename=x; name=\"DEVICES\"", "", #"  ["TOKEN1", "TOKEN2"]  "#,
                "--nh-batch-multipart-boundary", "Content-Disposition: inline; name=extra", "", "ignored",
                "--nh-batch-multipart-boundary--",
            ].joined(separator: "\r\n"),
        ])
    func bodyVariations(_ body: String) throws {
        #expect(try Self.parse(body) == Self.expected)
    }

    @Test("the notification part keeps its bytes exactly, and may be empty")
    func exactBytes() throws {
        let payload = "line1\r\nline2\n--nh-batch-multipart-boundaryX\r\n\r\n"
        let body = Self.replacing(#"{"aps":{"alert":"hi"}}"#, with: payload)
        #expect(try Self.parse(body).notification == Array(payload.utf8))
        #expect(try Self.parse(Self.replacing(#"{"aps":{"alert":"hi"}}"#, with: "")).notification == [])
    }

    @Test("more than 1000 handles still parse; the caller enforces the limit")
    func manyHandles() throws {
        let handles = (0...NHLimits.maxDirectBatchHandles).map { "token-\($0)" }
        let request = DirectBatchRequest(
            notification: Array("{}".utf8), notificationContentType: "application/json",
            devices: handles)
        let (contentType, body) = request.multipart(boundary: "b")
        let parsed = try DirectBatchRequest(parsing: body, contentType: contentType)
        #expect(parsed.devices.count == 1001)
        #expect(parsed == request)
    }

    static let example400 = "e.g. multipart/mixed; boundary=\"nh-batch-multipart-boundary\""

    /// Body, Content-Type and the exact error.
    static let failures: [(String, String, String)] = [
        (
            replacing("name=devices", with: "name=device"), contentType,
            "The body has no part named 'devices' (Content-Disposition: inline; name=devices); "
                + "found: notification, device."
        ),
        (
            replacing("Content-Disposition", with: "X-Disposition"), contentType,
            "The body has no part named 'notification' (Content-Disposition: inline; name=notification); "
                + "no part has a name."
        ),
        (
            replacing(#"["TOKEN1","TOKEN2"]"#, with: #"{"devices":["TOKEN1"]}"#), contentType,
            #"The devices part must be a JSON array of device handle strings, e.g. ["TOKEN1","TOKEN2"]."#
        ),
        (
            replacing(#"["TOKEN1","TOKEN2"]"#, with: "[1,2]"), contentType,
            #"The devices part must be a JSON array of device handle strings, e.g. ["TOKEN1","TOKEN2"]."#
        ),
        (
            replacing(#"["TOKEN1","TOKEN2"]"#, with: "TOKEN1,TOKEN2"), contentType,
            #"The devices part must be a JSON array of device handle strings, e.g. ["TOKEN1","TOKEN2"]."#
        ),
        (
            replacing("name=devices", with: "name=notification"), contentType,
            "The body has more than one part named 'notification'."
        ),
        (
            example, "application/json",
            "A direct batch send needs a multipart Content-Type (\(example400)), "
                + "got 'application/json'."
        ),
        (example, "multipart/mixed", "The Content-Type has no boundary parameter (\(example400))."),
        (example, "multipart/mixed; boundary=\"\"", "The Content-Type has no boundary parameter (\(example400))."),
        (
            example, "multipart/mixed; boundary=other",
            "The body has no boundary line --other, the boundary the Content-Type header names."
        ),
        (
            replacing("--nh-batch-multipart-boundary--", with: ""), contentType,
            "The body ends without the closing boundary line --nh-batch-multipart-boundary--."
        ),
        (
            replacing("--nh-batch-multipart-boundary--", with: "--nh-batch-multipart-boundary"), contentType,
            "The body ends without the closing boundary line --nh-batch-multipart-boundary--."
        ),
        (
            replacing("name=notification\r\n\r\n", with: "name=notification\r\n"), contentType,
            "Part 1 has a header line without ':'; is the empty line between headers and content missing?"
        ),
        (
            "--nh-batch-multipart-boundary\r\nContent-Type: x", contentType,
            "Part 1 has no empty line after its headers; an empty line must separate a part's headers from its content."
        ),
    ]

    @Test("errors say what is wrong", arguments: failures)
    func failure(_ body: String, _ contentType: String, _ message: String) {
        #expect(throws: DirectBatchError(message: message)) { try Self.parse(body, contentType) }
    }

    @Test("multipart() writes the §5.3 layout exactly")
    func writesLayout() {
        let (contentType, body) = Self.expected.multipart(boundary: "nh-batch-multipart-boundary")
        #expect(contentType == Self.contentType)
        #expect(body == Array(Self.example.utf8))
        #expect(Self.expected.multipart().body == body)
    }

    @Test("multipart() escapes handles as JSON and round-trips binary payloads")
    func multipartRoundTrip() throws {
        let request = DirectBatchRequest(
            notification: [0, 13, 10, 45, 45, 255, 10],
            notificationContentType: "application/octet-stream",
            devices: [#"https://wns/?a="b"\c"#, "ü/€", "tab\tnew\nline"])
        let (contentType, body) = request.multipart(boundary: "b0undary")
        #expect(String(decoding: body, as: UTF8.self).contains(#"["https://wns/?a=\"b\"\\c","ü/€","tab\tnew\nline"]"#))
        #expect(try DirectBatchRequest(parsing: body, contentType: contentType) == request)
    }
}
