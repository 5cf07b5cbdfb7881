import HubWire
import Testing

@Suite struct ReceivedQueryTests {
    @Test func itemsAreDecodedInOrderAndFlagsHaveNoValue() {
        let query = ReceivedQuery("api-version=2015-01&direct&%24filter=ChannelUri+eq+%27a%20b%27&to_tag=al%C3%AFce")
        #expect(query.isValid)
        #expect(query.items.map(\.name) == ["api-version", "direct", "$filter", "to_tag"])
        #expect(query["$filter"] == "ChannelUri eq 'a b'")
        #expect(query["to_tag"] == "alïce")
        #expect(query["direct"] == "")
        #expect(query.has("DIRECT") && !query.has("test"))
        #expect(query["API-Version"] == nil, "the subscript matches names exactly")
        #expect(query.value(ignoringCase: "API-Version") == "2015-01")
        #expect(ReceivedQuery(nil).items.isEmpty && ReceivedQuery(nil).isValid)
    }

    @Test func aBrokenEscapeMakesTheQueryInvalidAndKeepsItsTextAsWritten() {
        let broken = ReceivedQuery("handle=ab%zz&x=%FF&ok=1")
        #expect(!broken.isValid)
        #expect(broken["handle"] == "ab%zz")
        #expect(broken["x"] == "%FF", "%FF alone is not UTF-8")
        #expect(broken["ok"] == "1")
        #expect(ReceivedQuery("a%2=1").isValid == false)
    }

    @Test func theFirstOfARepeatedNameWins() {
        let query = ReceivedQuery("pns=apns&pns=fcmv1&PNS=wns")
        #expect(query["pns"] == "apns")
        #expect(query.value(ignoringCase: "Pns") == "apns")
    }
}
