import HubWire

/// Registration documents shared by the registration and feed tests.
enum RegistrationSamples {
    static let connect = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"
    static let instance = "http://www.w3.org/2001/XMLSchema-instance"
    static let namespaces = #"xmlns="\#(connect)" xmlns:i="\#(instance)""#
    static let token = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"

    /// nh-rest-api.md §4.2 "Request", verbatim.
    static let requestExample = """
        <entry xmlns="http://www.w3.org/2005/Atom">
          <content type="application/xml">
            <AppleRegistrationDescription xmlns:i="http://www.w3.org/2001/XMLSchema-instance"
                xmlns="http://schemas.microsoft.com/netservices/2010/10/servicebus/connect">
              <Tags>tagA,tagB</Tags>
              <DeviceToken>62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA</DeviceToken>
            </AppleRegistrationDescription>
          </content>
        </entry>
        """

    /// nh-rest-api.md §4.2 "Real Apple template response body", verbatim.
    static let appleTemplateBody =
        #"<ETag>1</ETag><ExpirationTime>9999-12-31T23:59:59.999</ExpirationTime>"#
        + #"<RegistrationId>4497…-3</RegistrationId><Tags>tag1</Tags><PushVariables>{"var1":"value1"}</PushVariables>"#
        + #"<DeviceToken>62BC…A8FA</DeviceToken><BodyTemplate><![CDATA[{"aps":{"alert":"alert!"}}]]></BodyTemplate>"#
        + #"<Expiry i:nil="true"/><TemplateName>Template Name</TemplateName><ApnsHeaders/>"#

    static let appleTemplateDescription =
        #"<AppleTemplateRegistrationDescription \#(namespaces)>"#
        + appleTemplateBody + "</AppleTemplateRegistrationDescription>"

    /// A recorded create response (DOTNET-REC, GetRegistrationsByChannelAsync…), in the form today's service writes
    /// it (the JS SDK's recordings, 2024: `p1:etag` first, `ExpirationTime` to seven places): one Apple native entry.
    static let recordedAppleEntry =
        #"<entry p1:etag="W/&quot;1&quot;" "#
        + #"xmlns:p1="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://www.w3.org/2005/Atom"><id>https://sdk-sample-namespace"#
        + #".servicebus.windows.net/sdk-sample-nh/registrations/3198129520782546842-5934554123377093628-2?api-version"#
        + #"=2017-04</id><title type="text">3198129520782546842-5934554123377093628-2</title><published>2018-11-07T0"#
        + #"0:18:24Z</published><updated>2018-11-07T00:18:24Z</updated><link rel="self" href="https://sdk-sample-names"#
        + #"pace.servicebus.windows.net/sdk-sample-nh/registrations/3198129520782546842-5934554123377093628-2?api-ver"#
        + #"sion=2017-04" /><content type="application/xml"><AppleRegistrationDescription \#(namespaces)><ETag>1</ETa"#
        + #"g><ExpirationTime>9999-12-31T23:59:59.9999999</ExpirationTime><RegistrationId>3198129520782546842-59345541233"#
        + #"77093628-2</RegistrationId><DeviceToken>\#(token)</DeviceToken></AppleRegistrationDescription></content>"#
        + "</entry>"

    /// A recorded Mpns template description (DOTNET-REC, CreateRegistrationAsync_PassValidMpnsTemplate…).
    static let recordedMpnsTemplate =
        #"<MpnsTemplateRegistrationDescription \#(namespaces)><ETag>1</ETag>"#
        + #"<ExpirationTime>9999-12-31T23:59:59.999</ExpirationTime><RegistrationId>2335707656381260644-40716113092"#
        + #"03321228-2</RegistrationId><Tags>tag1</Tags><PushVariables>{"var1":"value1"}</PushVariables><ChannelUri>"#
        + #"https://some.url/</ChannelUri><SecondaryTileName>Tile name</SecondaryTileName><BodyTemplate><![CDATA[<wp:"#
        + #"Notification xmlns:wp="WPNotification" Version="2.0"><wp:Tile Id="TileId" Template="IconicTile"><wp:Title"#
        + #" Action="Clear">Title</wp:Title></wp:Tile></wp:Notification>]]></BodyTemplate><MpnsHeaders><MpnsHeader>"#
        + #"<Header>X-NotificationClass</Header><Value>1</Value></MpnsHeader><MpnsHeader><Header>X-WindowsPhone-Targ"#
        + #"et</Header><Value>token</Value></MpnsHeader></MpnsHeaders><TemplateName>Template Name</TemplateName>"#
        + "</MpnsTemplateRegistrationDescription>"

    /// A description of `kind` with every field that kind writes.
    static func full(_ kind: RegistrationDescription.Kind, template: Bool) -> RegistrationDescription {
        var description = RegistrationDescription(
            kind: kind, isTemplate: template, handle: "handle-\(kind) & <co>",
            tags: ["t1", "t2"])
        description.etag = "2"
        description.expirationTime = "9999-12-31T23:59:59.999Z"
        description.registrationId = "111-222-3"
        description.pushVariables = #"{"a":"b & <c>"}"#
        switch kind {
        case .baidu: description.secondaryFields = ["BaiduUserId": "user-1"]
        case .browser: description.secondaryFields = ["P256DH": "BPkey", "Auth": "authkey"]
        case .windows, .mpns: description.secondaryFields = ["SecondaryTileName": "tile"]
        default: break
        }
        guard template else { return description }
        description.bodyTemplate = #"{"m":"$(message)","x":"]]>"}"#
        description.templateName = "tpl & co"
        if kind == .apple {
            description.expiry = "$(expiry)"
            description.priority = "10"
        }
        if [.apple, .windows, .mpns].contains(kind) {
            description.headers = [
                RegistrationHeader(name: "h1", value: "v1"),
                RegistrationHeader(name: "h2", value: "$(v) & <w>"),
            ]
        }
        return description
    }
}
