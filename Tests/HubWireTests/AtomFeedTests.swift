import HubWire
import Testing

@Suite("AtomFeed")
struct AtomFeedTests {
    typealias Samples = RegistrationSamples

    @Test("renders the service's feed shape, with a next link")
    func render() {
        let feed = AtomFeed.render(
            entries: ["<entry>1</entry>", "<entry>2</entry>"],
            selfURL: "https://ns/hub/registrations?api-version=2020-06&$top=2",
            nextURL: "https://ns/hub/registrations?api-version=2020-06&$top=2&continuationtoken=Mz%3D",
            updated: "2024-05-01T10:00:00Z")
        #expect(
            feed == #"<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Registrations</title>"#
                + "<id>https://ns/hub/registrations?api-version=2020-06&amp;$top=2</id><updated>2024-05-01T10:00:00Z"
                + #"</updated><link rel="self" href="https://ns/hub/registrations?api-version=2020-06&amp;$top=2" />"#
                + #"<link rel="next" href="https://ns/hub/registrations?api-version=2020-06&amp;$top=2&amp;"#
                + #"continuationtoken=Mz%3D"/><entry>1</entry><entry>2</entry></feed>"#)
        #expect(
            AtomFeed.render(entries: [], selfURL: "u", nextURL: nil, updated: "t")
                == #"<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Registrations</title><id>u</id>"#
                + #"<updated>t</updated><link rel="self" href="u" /></feed>"#)
    }

    @Test("entries(in:) returns each description of a rendered feed, in order")
    func roundTrip() throws {
        let descriptions = [
            Samples.full(.apple, template: true), Samples.full(.windows, template: false),
            Samples.full(.browser, template: true),
        ]
        let feed = AtomFeed.render(
            entries: descriptions.map {
                $0.responseEntryXML(
                    selfURL: "https://ns/hub/registrations/\($0.registrationId ?? "")",
                    published: "2024-01-01T00:00:00Z", updated: "2024-01-01T00:00:00Z")
            },
            selfURL: "https://ns/hub/registrations", nextURL: "https://ns/hub/registrations?continuationtoken=x",
            updated: "2024-01-01T00:00:00Z")
        let entries = AtomFeed.entries(in: feed)
        #expect(entries == descriptions.map { $0.descriptionXML() })
        #expect(try entries.map { try RegistrationDescription(parsing: $0) } == descriptions)
    }

    @Test("reads a recorded service feed, whose entries inherit the Atom namespace")
    func recordedFeed() throws {
        let feed =
            #"<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Registrations</title><id>https://n/h/"#
            + #"registrations?api-version=2017-04&amp;$top=100</id><updated>2018-11-07T00:18:24Z</updated><link rel="#
            + #""self" href="https://n/h/registrations?api-version=2017-04&amp;$top=100"/><entry a:etag="W/&quot;1&qu"#
            + #"ot;" xmlns:a="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><id>https://n/h/regist"#
            + #"rations/1-2-3?api-version=2017-04&amp;$top=100</id><title type="text">1-2-3</title><published>2018-"#
            + #"11-07T00:18:24Z</published><updated>2018-11-07T00:18:24Z</updated><link rel="self" href="https://n/h"#
            + #"/registrations/1-2-3?api-version=2017-04&amp;$top=100"/><content type="application/xml"><GcmRegistr"#
            + #"ationDescription xmlns="\#(Samples.connect)" xmlns:i="\#(Samples.instance)"><ETag>1</ETag><Expirati"#
            + #"onTime>9999-12-31T23:59:59.999Z</ExpirationTime><RegistrationId>1-2-3</RegistrationId><GcmRegistrat"#
            + #"ionId>amzn1.adm-registration.v2.123</GcmRegistrationId></GcmRegistrationDescription></content></entry>"#
            + "</feed>"
        let entries = AtomFeed.entries(in: feed)
        #expect(
            entries == [
                #"<GcmRegistrationDescription xmlns="\#(Samples.connect)" xmlns:i="\#(Samples.instance)">"#
                    + "<ETag>1</ETag><ExpirationTime>9999-12-31T23:59:59.999Z</ExpirationTime><RegistrationId>1-2-3"
                    + "</RegistrationId><GcmRegistrationId>amzn1.adm-registration.v2.123</GcmRegistrationId>"
                    + "</GcmRegistrationDescription>"
            ])
        var expected = RegistrationDescription(kind: .gcm, isTemplate: false, handle: "amzn1.adm-registration.v2.123")
        expected.etag = "1"
        expected.expirationTime = "9999-12-31T23:59:59.999Z"
        expected.registrationId = "1-2-3"
        #expect(try RegistrationDescription(parsing: entries[0]) == expected)
    }

    @Test("a single entry gives its description; an entry without one is returned whole")
    func singleAndEmptyEntries() {
        #expect(AtomFeed.entries(in: Samples.requestExample).count == 1)
        #expect(
            AtomFeed.entries(in: "<feed><entry><title>x</title></entry></feed>")
                == ["<entry><title>x</title></entry>"])
        #expect(AtomFeed.entries(in: "<feed></feed>") == [])
    }

    @Test("text that is not a feed gives no entries", arguments: ["", "not xml", "<feed><entry>", "<Error/>"])
    func notAFeed(_ text: String) {
        #expect(AtomFeed.entries(in: text) == [])
    }
}
