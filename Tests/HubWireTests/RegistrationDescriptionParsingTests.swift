import HubWire
import Testing

@Suite("RegistrationDescription parsing")
struct RegistrationDescriptionParsingTests {
    typealias Samples = RegistrationSamples

    @Test("parses the §4.2 request example")
    func requestExample() throws {
        let description = try RegistrationDescription(parsing: Samples.requestExample)
        #expect(
            description
                == RegistrationDescription(
                    kind: .apple, isTemplate: false, handle: Samples.token,
                    tags: ["tagA", "tagB"]))
        #expect(description.platform == .apns)
        #expect(description.handleElementName == "DeviceToken")
    }

    @Test("reads the .NET SDK's form: the base element with the concrete type in i:type (prefixed or not)")
    func typedByAttribute() throws {
        let native = try RegistrationDescription(
            parsing: #"<RegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance" "#
                + #"i:type="AppleRegistrationDescription"><Tags>x</Tags><DeviceToken>abc</DeviceToken></RegistrationDescription>"#
        )
        #expect(native == RegistrationDescription(kind: .apple, isTemplate: false, handle: "abc", tags: ["x"]))
        let template = try RegistrationDescription(
            parsing: #"<RegistrationDescription i:type="d:FcmV1TemplateRegistrationDescription">"#
                + "<FcmV1RegistrationId>f</FcmV1RegistrationId><BodyTemplate>{}</BodyTemplate></RegistrationDescription>"
        )
        #expect(template.kind == .fcmV1 && template.isTemplate && template.bodyTemplate == "{}")
        #expect(throws: RegistrationXMLError.self) {
            try RegistrationDescription(
                parsing: "<RegistrationDescription><DeviceToken>a</DeviceToken></RegistrationDescription>")
        }
    }

    @Test("parses the real Apple template response body in an entry, and writes it back unchanged")
    func realAppleTemplate() throws {
        let entry =
            #"<entry a:etag="W/&quot;1&quot;" xmlns="http://www.w3.org/2005/Atom" "#
            + #"xmlns:a="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><id>https://ns/hub/registra"#
            + #"tions/4497…-3?api-version=2017-04</id><title type="text">4497…-3</title><published>2018-11-07T00:18:"#
            + #"24Z</published><updated>2018-11-07T00:18:24Z</updated><link rel="self" href="https://ns/hub/registrati"#
            + #"ons/4497…-3?api-version=2017-04"/><content type="application/xml">"#
            + Samples.appleTemplateDescription + "</content></entry>"
        let description = try RegistrationDescription(parsing: entry)
        var expected = RegistrationDescription(
            kind: .apple, isTemplate: true, handle: "62BC…A8FA", tags: ["tag1"],
            bodyTemplate: #"{"aps":{"alert":"alert!"}}"#,
            templateName: "Template Name")
        expected.etag = "1"
        expected.expirationTime = "9999-12-31T23:59:59.999"
        expected.registrationId = "4497…-3"
        expected.pushVariables = #"{"var1":"value1"}"#
        #expect(description == expected)
        #expect(description.descriptionXML() == Samples.appleTemplateDescription)
    }

    @Test("recorded service documents round-trip byte for byte")
    func recordedDocuments() throws {
        let apple = try RegistrationDescription(parsing: Samples.recordedAppleEntry)
        #expect(
            apple.responseEntryXML(
                selfURL: "https://sdk-sample-namespace.servicebus.windows.net/sdk-sample-nh/registrations/"
                    + "3198129520782546842-5934554123377093628-2?api-version=2017-04",
                published: "2018-11-07T00:18:24Z", updated: "2018-11-07T00:18:24Z") == Samples.recordedAppleEntry)
        let mpns = try RegistrationDescription(parsing: Samples.recordedMpnsTemplate)
        #expect(mpns.secondaryFields == ["SecondaryTileName": "Tile name"])
        #expect(
            mpns.headers == [
                RegistrationHeader(name: "X-NotificationClass", value: "1"),
                RegistrationHeader(name: "X-WindowsPhone-Target", value: "token"),
            ])
        #expect(mpns.descriptionXML() == Samples.recordedMpnsTemplate)
    }

    @Test("prefixes, comments, declarations, entities, order and whitespace are tolerated")
    func lenientForms() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- sent by a hand-written client -->
            <atom:entry xmlns:atom="http://www.w3.org/2005/Atom">
              <atom:content type="application/xml">
                <nh:WindowsTemplateRegistrationDescription xmlns:nh="\(Samples.connect)">
                  <nh:TemplateName>toast &amp; co</nh:TemplateName>
                  <nh:WnsHeaders>
                    <nh:WnsHeader><nh:Value> wns/toast </nh:Value><nh:Header>X-WNS-Type</nh:Header></nh:WnsHeader>
                  </nh:WnsHeaders>
                  <nh:BodyTemplate>
                    <![CDATA[<toast><visual><binding template="ToastText01"><text id="1">$(msg)</text>]]><![CDATA[</binding></visual></toast>]]>
                  </nh:BodyTemplate>
                  <nh:ChannelUri> https://db5.notify.windows.com/?token=a&amp;b=c </nh:ChannelUri>
                  <nh:Tags> a , b,,c </nh:Tags>
                  <nh:Unknown>ignored</nh:Unknown>
                </nh:WindowsTemplateRegistrationDescription>
              </atom:content>
            </atom:entry>
            """
        let description = try RegistrationDescription(parsing: xml)
        #expect(
            description
                == RegistrationDescription(
                    kind: .windows, isTemplate: true, handle: "https://db5.notify.windows.com/?token=a&b=c",
                    tags: ["a", "b", "c"],
                    bodyTemplate:
                        #"<toast><visual><binding template="ToastText01"><text id="1">$(msg)</text></binding></visual></toast>"#,
                    templateName: "toast & co", headers: [RegistrationHeader(name: "X-WNS-Type", value: "wns/toast")]))
    }

    @Test("a bare description element, escaped body text, and FCM legacy names")
    func bareAndAliases() throws {
        let bare = try RegistrationDescription(
            parsing: "<GcmTemplateRegistrationDescription><GcmRegistrationId>g1"
                + "</GcmRegistrationId><BodyTemplate>{&quot;data&quot;:{&quot;m&quot;:&quot;$(m)&quot;}}</BodyTemplate>"
                + "</GcmTemplateRegistrationDescription>")
        #expect(
            bare
                == RegistrationDescription(
                    kind: .gcm, isTemplate: true, handle: "g1",
                    bodyTemplate: #"{"data":{"m":"$(m)"}}"#))
        let fcm = try RegistrationDescription(
            parsing: "<FcmRegistrationDescription xmlns=\"\(Samples.connect)\">"
                + "<FcmRegistrationId>f1</FcmRegistrationId></FcmRegistrationDescription>")
        #expect(fcm == RegistrationDescription(kind: .gcm, isTemplate: false, handle: "f1"))
    }

    @Test("Baidu and browser secondary fields are read")
    func secondaryFields() throws {
        let baidu = try RegistrationDescription(
            parsing: "<BaiduRegistrationDescription><BaiduUserId>u</BaiduUserId>"
                + "<BaiduChannelId>c</BaiduChannelId></BaiduRegistrationDescription>")
        #expect(baidu.handle == "c")
        #expect(baidu.secondaryFields == ["BaiduUserId": "u"])
        let browser = try RegistrationDescription(
            parsing: "<BrowserRegistrationDescription><Endpoint>https://e/1"
                + "</Endpoint><P256DH>p</P256DH><Auth>a</Auth></BrowserRegistrationDescription>")
        #expect(browser.handle == "https://e/1")
        #expect(browser.secondaryFields == ["P256DH": "p", "Auth": "a"])
    }

    static let known =
        "AppleRegistrationDescription, GcmRegistrationDescription, FcmV1RegistrationDescription, "
        + "WindowsRegistrationDescription, MpnsRegistrationDescription, AdmRegistrationDescription, "
        + "BaiduRegistrationDescription, BrowserRegistrationDescription"

    /// Input and the exact error.
    static let failures: [(String, String)] = [
        ("", "Malformed XML: line 1, column 1: the document has no root element."),
        ("<entry><content>", "Malformed XML: line 1, column 17: <content> is never closed."),
        (
            "<AppleRegistrationDescription>\n  <DeviceToken>AB</DeviceTokn>\n</AppleRegistrationDescription>",
            "Malformed XML: line 2, column 30: expected </DeviceToken> but found </DeviceTokn>."
        ),
        (
            "<AppleRegistrationDescription><Tags>a</Tags></AppleRegistrationDescription>",
            "<AppleRegistrationDescription> has no DeviceToken, or it is empty."
        ),
        (
            "<FcmV1RegistrationDescription><FcmV1RegistrationId> </FcmV1RegistrationId></FcmV1RegistrationDescription>",
            "<FcmV1RegistrationDescription> has no FcmV1RegistrationId, or it is empty."
        ),
        (
            "<XiaomiRegistrationDescription/>",
            "Unknown registration type <XiaomiRegistrationDescription>; expected "
                + "one of \(known), or their Template forms."
        ),
        (
            "<Installation/>",
            "Unknown registration type <Installation>; expected one of \(known), or their Template forms."
        ),
        ("<entry xmlns=\"http://www.w3.org/2005/Atom\"><title/></entry>", "The <entry> has no <content> element."),
        (
            "<entry><content type=\"application/xml\"> </content></entry>",
            "The entry's <content> holds no registration description."
        ),
        ("<feed><entry/></feed>", "Expected a single <entry>, found a <feed>; read feeds with AtomFeed.entries(in:)."),
    ]

    @Test("errors say what is wrong", arguments: failures)
    func failure(_ xml: String, _ message: String) {
        #expect(throws: RegistrationXMLError(message: message)) { try RegistrationDescription(parsing: xml) }
    }

    @Test("kinds map to platforms and back", arguments: RegistrationDescription.Kind.allCases)
    func kindPlatform(_ kind: RegistrationDescription.Kind) {
        let platform = RegistrationDescription(kind: kind, isTemplate: false, handle: "h").platform
        #expect(RegistrationDescription.Kind(platform: platform) == kind)
    }

    @Test("Xiaomi has no registration kind")
    func xiaomi() {
        #expect(RegistrationDescription.Kind(platform: .xiaomi) == nil)
    }

    /// The template registration NH lists for an installation (the .NET SDK's recording
    /// CreateOrUpdateRegistrationAsync_UpsertAppleNativeRegistrationWithCustomId_GetUpsertedRegistrationBack).
    @Test("a registration NH lists for an installation names it by its $InstallationId:{…} tag; others name none")
    func installationOwned() throws {
        let feed =
            #"<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Registrations</title>"#
            + #"<entry a:etag="W/&quot;1&quot;" xmlns:a="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><content type="application/xml">"#
            + #"<AppleTemplateRegistrationDescription xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">"#
            + "<ETag>1</ETag><ExpirationTime>9999-12-31T23:59:59.9999999Z</ExpirationTime><RegistrationId>7145748118279315839-4405912120491952657-3</RegistrationId>"
            + "<Tags>$InstallationId:{95e4cf2e-685f-4141-98e2-4c5f71d1a696},tag1,Template Name</Tags><PushVariables>{\"var1\":\"value1\"}</PushVariables>"
            + "<DeviceToken>62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA</DeviceToken>"
            + #"<BodyTemplate><![CDATA[{"aps":{"alert":"alert!"}}]]></BodyTemplate><Expiry>2018-11-07T16:18:32.6641371-08:00</Expiry>"#
            + "<TemplateName>Template Name</TemplateName><ApnsHeaders/></AppleTemplateRegistrationDescription></content></entry></feed>"
        let entries = AtomFeed.entries(in: feed)
        #expect(entries.count == 1)
        let description = try RegistrationDescription(parsing: try #require(entries.first))
        #expect(description.installationId == "95e4cf2e-685f-4141-98e2-4c5f71d1a696")
        #expect(
            description.tags == ["$InstallationId:{95e4cf2e-685f-4141-98e2-4c5f71d1a696}", "tag1", "Template Name"])
        #expect(description.templateName == "Template Name")
        #expect(description.pushVariables == #"{"var1":"value1"}"#)
        #expect(
            RegistrationDescription(kind: .apple, isTemplate: false, handle: "a", tags: ["username:alice"])
                .installationId == nil)
        #expect(
            RegistrationDescription(kind: .apple, isTemplate: false, handle: "a", tags: ["$InstallationId:{x"])
                .installationId == nil)
    }
}
