import Foundation
import HubWire
import Testing

/// The operations a client writes read back, through the emulator's own patch code, as what was meant.
@Suite struct InstallationPatchBuilderTests {
    private let token = "62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA"

    @Test func aPatchedTemplateIsTheTemplateAsStringifiedJSON() throws {
        // The value must decode to the template the service stores (nh-rest-api.md §3.1).
        let template = InstallationTemplate(
            body: #"{"aps":{"alert":"$(message)"}}"#, headers: ["apns-push-type": "alert"], tags: ["news"])
        let operation = InstallationPatchOperation.addTemplate("alert", template)
        let decoded = try JSONDecoder().decode(InstallationTemplate.self, from: Data((operation.value ?? "").utf8))
        #expect(decoded == template)
        #expect(operation.value?.contains(#"\/"#) == false, "slashes are not escaped")
        var installation = Installation(installationId: "i", platform: "apns", pushChannel: .handle(token))
        try installation.apply([operation])
        #expect(installation.templates?["alert"] == template)
    }

    @Test func pathsAreEscapedJSONPointersThatReadBackToTheName() throws {
        #expect(InstallationPatchOperation.pointer("a/b~c") == "a~1b~0c")
        var installation = Installation(
            installationId: "i", platform: "apns", pushChannel: .handle(token), tags: ["team/red~1", "keep"])
        try installation.apply([.removeTag("team/red~1"), .addTag("new"), .setUserId("alice"), .setPushChannel("AB12")])
        #expect(installation.tags == ["keep", "new"])
        #expect(installation.userId == "alice")
        #expect(installation.pushChannel == .handle("AB12"))
        let template = InstallationTemplate(body: "{}")
        try installation.apply([.addTemplate("a/b", template)])
        #expect(installation.templates?["a/b"] == template)
    }
}
