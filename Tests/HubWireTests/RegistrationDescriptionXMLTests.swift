import HubWire
import Testing

@Suite("RegistrationDescription XML")
struct RegistrationDescriptionXMLTests {
    typealias Samples = RegistrationSamples
    static let ns = Samples.namespaces

    @Test("Apple native: common elements, then DeviceToken")
    func appleNative() {
        var apple = RegistrationDescription(kind: .apple, isTemplate: false, handle: "62BC", tags: ["tagA", "tagB"])
        apple.etag = "3"
        apple.expirationTime = "9999-12-31T23:59:59.999Z"
        apple.registrationId = "123-456-1"
        apple.pushVariables = #"{"var1":"value1"}"#
        #expect(
            apple.descriptionXML() == #"<AppleRegistrationDescription \#(Self.ns)><ETag>3</ETag>"#
                + #"<ExpirationTime>9999-12-31T23:59:59.999Z</ExpirationTime><RegistrationId>123-456-1</RegistrationId>"#
                + #"<Tags>tagA,tagB</Tags><PushVariables>{"var1":"value1"}</PushVariables><DeviceToken>62BC</DeviceToken>"#
                + "</AppleRegistrationDescription>")
        let bare = RegistrationDescription(kind: .apple, isTemplate: false, handle: "62BC")
        #expect(
            bare.descriptionXML()
                == #"<AppleRegistrationDescription \#(Self.ns)><DeviceToken>62BC</DeviceToken></AppleRegistrationDescription>"#
        )
    }

    @Test("Apple template: BodyTemplate, Expiry, TemplateName, Priority, ApnsHeaders")
    func appleTemplate() {
        var apple = RegistrationDescription(
            kind: .apple, isTemplate: true, handle: "62BC", tags: ["news"],
            bodyTemplate: #"{"aps":{"alert":"$(message)"}}"#, templateName: "alert",
            headers: [RegistrationHeader(name: "apns-push-type", value: "alert")])
        apple.priority = "10"
        #expect(
            apple.descriptionXML() == #"<AppleTemplateRegistrationDescription \#(Self.ns)><Tags>news</Tags>"#
                + #"<DeviceToken>62BC</DeviceToken><BodyTemplate><![CDATA[{"aps":{"alert":"$(message)"}}]]></BodyTemplate>"#
                + #"<Expiry i:nil="true"/><TemplateName>alert</TemplateName><Priority>10</Priority><ApnsHeaders>"#
                + "<ApnsHeader><Header>apns-push-type</Header><Value>alert</Value></ApnsHeader></ApnsHeaders>"
                + "</AppleTemplateRegistrationDescription>")
        apple.expiry = "$(expiry)"
        apple.priority = nil
        apple.headers = []
        #expect(
            apple.descriptionXML() == #"<AppleTemplateRegistrationDescription \#(Self.ns)><Tags>news</Tags>"#
                + #"<DeviceToken>62BC</DeviceToken><BodyTemplate><![CDATA[{"aps":{"alert":"$(message)"}}]]></BodyTemplate>"#
                + "<Expiry>$(expiry)</Expiry><TemplateName>alert</TemplateName><ApnsHeaders/>"
                + "</AppleTemplateRegistrationDescription>")
    }

    @Test("FcmV1 template: BodyTemplate then TemplateName; fields FCM lacks are not written")
    func fcmV1Template() {
        var fcm = RegistrationDescription(
            kind: .fcmV1, isTemplate: true, handle: "fcm-token:1", tags: ["a", "b"],
            bodyTemplate: #"{"message":{"notification":{"title":"$(title)"}}}"#,
            templateName: "news",
            headers: [RegistrationHeader(name: "ignored", value: "x")])
        fcm.expiry = "ignored"
        fcm.priority = "10"
        #expect(
            fcm.descriptionXML() == #"<FcmV1TemplateRegistrationDescription \#(Self.ns)><Tags>a,b</Tags>"#
                + "<FcmV1RegistrationId>fcm-token:1</FcmV1RegistrationId>"
                + #"<BodyTemplate><![CDATA[{"message":{"notification":{"title":"$(title)"}}}]]></BodyTemplate>"#
                + "<TemplateName>news</TemplateName></FcmV1TemplateRegistrationDescription>")
    }

    @Test("Windows template: ChannelUri, SecondaryTileName, BodyTemplate, WnsHeaders, TemplateName")
    func windowsTemplate() {
        var windows = RegistrationDescription(
            kind: .windows, isTemplate: true, handle: "https://db5.notify.windows.com/?token=AwY%2b&x=1",
            bodyTemplate:
                #"<toast><visual><binding template="ToastText01"><text id="1">$(msg)</text></binding></visual></toast>"#,
            templateName: "toast",
            headers: [
                RegistrationHeader(name: "X-WNS-Type", value: "wns/toast"),
                RegistrationHeader(name: "X-WNS-Tag", value: "a&b"),
            ])
        windows.secondaryFields = ["SecondaryTileName": "tile", "BaiduUserId": "not a Windows field"]
        #expect(
            windows.descriptionXML() == #"<WindowsTemplateRegistrationDescription \#(Self.ns)>"#
                + "<ChannelUri>https://db5.notify.windows.com/?token=AwY%2b&amp;x=1</ChannelUri>"
                + "<SecondaryTileName>tile</SecondaryTileName>"
                + #"<BodyTemplate><![CDATA[<toast><visual><binding template="ToastText01"><text id="1">$(msg)</text>"#
                + "</binding></visual></toast>]]></BodyTemplate><WnsHeaders><WnsHeader><Header>X-WNS-Type</Header>"
                + "<Value>wns/toast</Value></WnsHeader><WnsHeader><Header>X-WNS-Tag</Header><Value>a&amp;b</Value>"
                + "</WnsHeader></WnsHeaders><TemplateName>toast</TemplateName></WindowsTemplateRegistrationDescription>"
        )
    }

    @Test("multi-element handles keep DataContract order")
    func multiElementHandles() {
        var baidu = RegistrationDescription(kind: .baidu, isTemplate: false, handle: "channel")
        baidu.secondaryFields = ["BaiduUserId": "user"]
        #expect(
            baidu.descriptionXML() == #"<BaiduRegistrationDescription \#(Self.ns)><BaiduUserId>user</BaiduUserId>"#
                + "<BaiduChannelId>channel</BaiduChannelId></BaiduRegistrationDescription>")
        var browser = RegistrationDescription(kind: .browser, isTemplate: false, handle: "https://push/1")
        browser.secondaryFields = ["Auth": "a", "P256DH": "p"]
        #expect(
            browser.descriptionXML() == #"<BrowserRegistrationDescription \#(Self.ns)><Endpoint>https://push/1"#
                + "</Endpoint><P256DH>p</P256DH><Auth>a</Auth></BrowserRegistrationDescription>")
    }

    @Test("tags are trimmed on input and written without spaces")
    func tags() throws {
        let parsed = try RegistrationDescription(
            parsing: "<AdmRegistrationDescription><Tags> x ,y , z</Tags>"
                + "<AdmRegistrationId>adm</AdmRegistrationId></AdmRegistrationDescription>")
        #expect(parsed.tags == ["x", "y", "z"])
        #expect(
            parsed.descriptionXML() == #"<AdmRegistrationDescription \#(Self.ns)><Tags>x,y,z</Tags>"#
                + "<AdmRegistrationId>adm</AdmRegistrationId></AdmRegistrationDescription>")
    }

    @Test("a ]]> inside the body template is split across CDATA sections and read back")
    func cdataTerminator() throws {
        let body = "a]]>b]]>"
        let gcm = RegistrationDescription(kind: .gcm, isTemplate: true, handle: "g", bodyTemplate: body)
        let xml = gcm.descriptionXML()
        #expect(
            xml == #"<GcmTemplateRegistrationDescription \#(Self.ns)><GcmRegistrationId>g</GcmRegistrationId>"#
                + "<BodyTemplate><![CDATA[a]]]]><![CDATA[>b]]]]><![CDATA[>]]></BodyTemplate>"
                + "</GcmTemplateRegistrationDescription>")
        #expect(try RegistrationDescription(parsing: xml).bodyTemplate == body)
    }

    @Test("&, < and > are escaped in text; quotes are not")
    func escaping() throws {
        var adm = RegistrationDescription(
            kind: .adm, isTemplate: true, handle: "a&b<c>d", tags: ["t&1"],
            bodyTemplate: "{}", templateName: #"<"name"> & 'co'"#)
        adm.pushVariables = #"{"k":"<&>"}"#
        let xml = adm.descriptionXML()
        #expect(
            xml == #"<AdmTemplateRegistrationDescription \#(Self.ns)><Tags>t&amp;1</Tags>"#
                + #"<PushVariables>{"k":"&lt;&amp;&gt;"}</PushVariables><AdmRegistrationId>a&amp;b&lt;c&gt;d"#
                + "</AdmRegistrationId><BodyTemplate><![CDATA[{}]]></BodyTemplate>"
                + #"<TemplateName>&lt;"name"&gt; &amp; 'co'</TemplateName></AdmTemplateRegistrationDescription>"#)
        #expect(try RegistrationDescription(parsing: xml) == adm)
    }

    @Test("request entry wraps the description as the SDKs send it")
    func requestEntry() {
        let apple = RegistrationDescription(kind: .apple, isTemplate: false, handle: "AB", tags: ["a"])
        #expect(
            apple.requestEntryXML() == #"<entry xmlns="http://www.w3.org/2005/Atom"><content type="application/"#
                + #"xml"><AppleRegistrationDescription \#(Self.ns)><Tags>a</Tags><DeviceToken>AB</DeviceToken>"#
                + "</AppleRegistrationDescription></content></entry>")
    }

    @Test("response entry without an etag leaves out p1:etag; URLs are escaped")
    func responseEntryWithoutETag() {
        var fcm = RegistrationDescription(kind: .fcmV1, isTemplate: false, handle: "f")
        fcm.registrationId = "r-1"
        #expect(
            fcm.responseEntryXML(
                selfURL: "http://127.0.0.1:8080/hub/registrations/r-1?api-version=2020-06&x=1",
                published: "P", updated: "U")
                == #"<entry xmlns:p1="http://schemas.microsoft.com/ado/2007/08/"#
                + #"dataservices/metadata" xmlns="http://www.w3.org/2005/Atom"><id>http://127.0.0.1:8080/hub/registrations/r-1?api-version=2020-06&amp;x=1"#
                + #"</id><title type="text">r-1</title><published>P</published><updated>U</updated><link rel="self" "#
                + #"href="http://127.0.0.1:8080/hub/registrations/r-1?api-version=2020-06&amp;x=1" /><content type="#
                + #""application/xml"><FcmV1RegistrationDescription \#(Self.ns)><RegistrationId>r-1</RegistrationId>"#
                + "<FcmV1RegistrationId>f</FcmV1RegistrationId></FcmV1RegistrationDescription></content></entry>")
    }

    static let kindsAndForms = RegistrationDescription.Kind.allCases.flatMap { [($0, false), ($0, true)] }

    @Test("every kind round-trips, native and template", arguments: kindsAndForms)
    func roundTrip(_ kind: RegistrationDescription.Kind, _ template: Bool) throws {
        let description = Samples.full(kind, template: template)
        #expect(description.elementName == kind.rawValue + (template ? "Template" : "") + "RegistrationDescription")
        #expect(try RegistrationDescription(parsing: description.descriptionXML()) == description)
        #expect(try RegistrationDescription(parsing: description.requestEntryXML()) == description)
        let entry = description.responseEntryXML(
            selfURL: "https://ns/hub/registrations/111-222-3?api-version=2020-06",
            published: "2024-01-01T00:00:00Z", updated: "2024-01-02T00:00:00Z")
        #expect(try RegistrationDescription(parsing: entry) == description)
    }
}
