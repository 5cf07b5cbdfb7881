import HubWire
import Testing

@Suite("HubRequests: registrations")
struct HubRequestsRegistrationTests {
    @Test("POST registrationIDs: empty body, no headers, Listen, idempotent (an unused id is harmless)")
    func createRegistrationID() {
        #expect(
            HubRequests.createRegistrationID(at: Hub.endpoint)
                == HubRequest(
                    method: .post, url: Hub.base + "registrationIDs?api-version=2020-06", headers: [],
                    body: [], isIdempotent: true, summary: "POST registrationIDs", right: .listen))
    }

    @Test("PUT registration: atom entry content type and body, no If-Match")
    func upsert() {
        let description = RegistrationDescription(
            kind: .apple, isTemplate: false,
            handle: "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA",
            tags: ["tagA", "tagB"])
        let request = HubRequests.upsertRegistration(
            description, id: "7260336227650468927-4200236381151834034-1",
            at: Hub.endpoint)
        #expect(request.method == .put)
        #expect(
            request.url
                == Hub.base + "registrations/7260336227650468927-4200236381151834034-1?api-version=2020-06")
        #expect(request.headers == [HubHeader("Content-Type", "application/atom+xml;type=entry;charset=utf-8")])
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == #"<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/xml">"#
                + #"<AppleRegistrationDescription xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect" "#
                + #"xmlns:i="http://www.w3.org/2001/XMLSchema-instance">"#
                + "<Tags>tagA,tagB</Tags>"
                + "<DeviceToken>62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA</DeviceToken>"
                + "</AppleRegistrationDescription></content></entry>")
        #expect(request.header("If-Match") == nil)
        #expect(request.isIdempotent)
        #expect(request.right == .listen)
        #expect(request.summary == "PUT registration '7260336227650468927-4200236381151834034-1'")
    }

    @Test("a client-chosen registration id is encoded as one path segment")
    func upsertOddId() {
        let description = RegistrationDescription(kind: .fcmV1, isTemplate: false, handle: "tok")
        #expect(
            HubRequests.upsertRegistration(description, id: "reg 1/{x}:y", at: Hub.endpoint).url
                == Hub.base + "registrations/reg%201%2F%7Bx%7D%3Ay?api-version=2020-06")
    }

    @Test("GET and DELETE registration; DELETE sends If-Match: *")
    func getAndDelete() {
        #expect(
            HubRequests.getRegistration(id: "r-1", at: Hub.endpoint)
                == HubRequest(
                    method: .get, url: Hub.base + "registrations/r-1?api-version=2020-06", headers: [],
                    body: [], isIdempotent: true, summary: "GET registration 'r-1'", right: .listen))
        #expect(
            HubRequests.deleteRegistration(id: "r 1", at: Hub.endpoint)
                == HubRequest(
                    method: .delete, url: Hub.base + "registrations/r%201?api-version=2020-06",
                    headers: [HubHeader("If-Match", "*")], body: [], isIdempotent: true,
                    summary: "DELETE registration 'r 1'", right: .listen))
    }

    @Test("by handle: form-encoded ChannelUri filter, quotes doubled, Listen")
    func byHandle() {
        let request = HubRequests.registrations(
            handle: "https://wns/?token=a b&c'd", tag: "ignored", top: 100,
            continuation: nil, at: Hub.endpoint)
        #expect(
            request
                == HubRequest(
                    method: .get,
                    url: Hub.base + "registrations?api-version=2020-06"
                        + "&$filter=ChannelUri+eq+%27https%3A%2F%2Fwns%2F%3Ftoken%3Da+b%26c%27%27d%27&$top=100",
                    headers: [], body: [], isIdempotent: true,
                    summary: "GET registrations for handle 'https://wns/?token=a b&c'd'", right: .listen))
    }

    @Test("by tag: tags/{tag}/registrations with the tag percent-encoded, Manage")
    func byTag() {
        let request = HubRequests.registrations(
            handle: nil, tag: "$InstallationId:{seed 1/x}", top: 10,
            continuation: nil, at: Hub.endpoint)
        #expect(
            request
                == HubRequest(
                    method: .get,
                    url: Hub.base
                        + "tags/%24InstallationId%3A%7Bseed%201%2Fx%7D/registrations?api-version=2020-06&$top=10",
                    headers: [], body: [], isIdempotent: true,
                    summary: "GET registrations tagged '$InstallationId:{seed 1/x}'", right: .manage))
    }

    @Test("all: no $top when top is 0; the continuation token goes back as the service encoded it")
    func all() {
        #expect(
            HubRequests.registrations(handle: nil, tag: nil, top: 0, continuation: nil, at: Hub.endpoint)
                == HubRequest(
                    method: .get, url: Hub.base + "registrations?api-version=2020-06", headers: [], body: [],
                    isIdempotent: true, summary: "GET all registrations", right: .manage))
        #expect(
            HubRequests.registrations(
                handle: nil, tag: nil, top: 100, continuation: "MzEobik7Mg%3D%3D",
                at: Hub.endpoint
            ).url
                == Hub.base + "registrations?api-version=2020-06&$top=100&continuationtoken=MzEobik7Mg%3D%3D")
    }

    @Test("a continuation token's query-breaking characters are escaped, its escapes kept")
    func continuationEscaping() {
        #expect(
            HubRequests.registrations(
                handle: "AB", tag: nil, top: -1, continuation: "a+b c&d#e%3D=",
                at: Hub.endpoint
            ).url
                == Hub.base + "registrations?api-version=2020-06&$filter=ChannelUri+eq+%27AB%27"
                + "&continuationtoken=a%2Bb%20c%26d%23e%3D=")
        #expect(
            HubRequests.registrations(handle: nil, tag: nil, top: 5, continuation: "", at: Hub.endpoint).url
                == Hub.base + "registrations?api-version=2020-06&$top=5")
    }
}
