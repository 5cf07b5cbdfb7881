import HubWire
import Testing

@Suite("NotificationOutcome")
struct NotificationOutcomeTests {
    static let head =
        #"<NotificationOutcome xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/"#
        + #"connect" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">"#

    @Test("writes the §5.5 shape")
    func xml() throws {
        let outcome = NotificationOutcome(
            success: 1, failure: 1,
            results: [
                .init(
                    platform: "apple", pnsHandle: "62BC", registrationId: "7260-1",
                    outcome: "The Notification was successfully sent to the Push Notification System"),
                .init(platform: "gcm", pnsHandle: "tok&1", registrationId: "7260-2", outcome: "InvalidToken <x>"),
            ])
        #expect(
            outcome.xml() == Self.head + "<Success>1</Success><Failure>1</Failure><Results><RegistrationResult>"
                + "<ApplicationPlatform>apple</ApplicationPlatform><PnsHandle>62BC</PnsHandle><RegistrationId>7260-1"
                + "</RegistrationId><Outcome>The Notification was successfully sent to the Push Notification System"
                + "</Outcome></RegistrationResult><RegistrationResult><ApplicationPlatform>gcm</ApplicationPlatform>"
                + "<PnsHandle>tok&amp;1</PnsHandle><RegistrationId>7260-2</RegistrationId><Outcome>InvalidToken &lt;x&gt;"
                + "</Outcome></RegistrationResult></Results></NotificationOutcome>")
        #expect(try NotificationOutcome(parsing: outcome.xml()) == outcome)
    }

    @Test("no results is an empty Results element")
    func empty() throws {
        let outcome = NotificationOutcome(success: 0, failure: 0, results: [])
        #expect(outcome.xml() == Self.head + "<Success>0</Success><Failure>0</Failure><Results/></NotificationOutcome>")
        #expect(try NotificationOutcome(parsing: outcome.xml()) == outcome)
    }

    @Test("parses the §5.5 example as printed, and other prefixes")
    func lenient() throws {
        let example = """
            <NotificationOutcome xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
              <Success>1</Success><Failure>0</Failure>
              <Results>
                <RegistrationResult><ApplicationPlatform>apple</ApplicationPlatform><PnsHandle>62BC…</PnsHandle>
                  <RegistrationId>7260…-1</RegistrationId><Outcome>…text…</Outcome></RegistrationResult>
              </Results>
            </NotificationOutcome>
            """
        #expect(
            try NotificationOutcome(parsing: example)
                == NotificationOutcome(
                    success: 1, failure: 0,
                    results: [
                        .init(platform: "apple", pnsHandle: "62BC…", registrationId: "7260…-1", outcome: "…text…")
                    ]))
        let prefixed =
            #"<?xml version="1.0"?><n:NotificationOutcome xmlns:n="urn:x"><n:Failure> 2 </n:Failure>"#
            + "</n:NotificationOutcome>"
        #expect(try NotificationOutcome(parsing: prefixed) == NotificationOutcome(success: 0, failure: 2, results: []))
    }

    @Test(
        "errors",
        arguments: [
            ("<Outcome/>", "Expected <NotificationOutcome>, found <Outcome>."),
            (
                "<NotificationOutcome><Success>one</Success></NotificationOutcome>",
                "<Success> in <NotificationOutcome> is not a whole number: 'one'."
            ),
            ("<NotificationOutcome>", "Malformed XML: line 1, column 22: <NotificationOutcome> is never closed."),
        ])
    func failure(_ xml: String, _ message: String) {
        #expect(throws: RegistrationXMLError(message: message)) { try NotificationOutcome(parsing: xml) }
    }
}
