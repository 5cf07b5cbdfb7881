import HubWire
import Testing

@Suite("RetryAfter and HTTPDate")
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    static let rfcExample: Double = 784_111_777

    @Test(
        "delay-seconds",
        arguments: [
            ("2", 2.0), ("120", 120.0), (" 30 ", 30.0), ("0", 0.0), ("1.5", 1.5),
            ("86400", 86_400.0),
        ])
    func seconds(_ header: String, _ expected: Double) {
        #expect(RetryAfter.seconds(header, now: 1_700_000_000) == expected)
    }

    @Test("HTTP dates, in all three forms, relative to now")
    func dates() {
        let now = Self.rfcExample - 90
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 90)
        #expect(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 90)
        #expect(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now) == 90)
        #expect(RetryAfter.seconds("sun, 06 nov 1994 08:49:37 gmt", now: now) == 90)
    }

    @Test("a date in the past means retry now")
    func pastDate() {
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.rfcExample + 3600) == 0)
    }

    @Test(
        "absent, empty and junk values give nil",
        arguments: [
            nil, "", "   ", "-5", "soon", "1e3", "2 s", "1.", ".5", "1.2.3", "+3", "0x10",
            "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 94 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "2024-01-01T00:00:00Z",
        ] as [String?])
    func junk(_ header: String?) {
        #expect(RetryAfter.seconds(header, now: 1_700_000_000) == nil)
    }

    @Test("HTTPDate parses and formats IMF-fixdate")
    func httpDate() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Self.rfcExample)
        #expect(HTTPDate.format(Self.rfcExample) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(1_700_000_300) == "Tue, 14 Nov 2023 22:18:20 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 12:00:00 GMT") == 1_709_208_000)
        #expect(HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT") == 0)
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT") == 946_684_800)
        for epoch in stride(from: -86_400.0 * 400, through: 86_400 * 20_000, by: 86_400 * 37 + 3_661) {
            #expect(HTTPDate.parse(HTTPDate.format(epoch)) == epoch)
        }
    }
}
