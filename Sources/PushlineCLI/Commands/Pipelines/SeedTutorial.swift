/// The NH seed tutorial as a pipeline, inside the binary: `pushline demo` runs it wherever it is started, and
/// `pushline init` writes it out. The same text as `pipelines/seed-tutorial.yaml` (a test holds them equal).
enum SeedTutorial {
    /// Where a checkout keeps it, and where `init` writes it.
    static let path = "pipelines/seed-tutorial.yaml"

    static let text = """
        # yaml-language-server: $schema=./pipeline.schema.json
        version: 1
        description: >
          The Notification Hubs REST seed tutorial as a pipeline: sign a SAS token for the hub, register the
          tutorial's installation (tag 12345, the generic APNs template), preview what the device receives,
          and send it "Hello from Postman!". Reads the hub from NH_CONNECTION and NH_HUB, so the same file
          runs against the local emulator or a real hub. The message is written once, as a parameter
          (`--param message=…` changes it), and both the preview and the send use it.

        parameters:
          message:
            default: Hello from Postman!
            description: the alert the device shows

        hubs:
          tutorial:
            connection: ${env:NH_CONNECTION}
            hub: ${env:NH_HUB}

        audiences:
          seed-device: "12345"

        templates:
          genericTemplate:
            platform: apns
            body: '{"aps":{"alert":"$(message)"}}'

        steps:
          - sign: { hub: tutorial, lifetime: 20m }
          - register:
              hub: tutorial
              templates: [genericTemplate]
              installations:
                - installationId: seed-1
                  platform: apns
                  pushChannel: 62BCD3484834B7E2DC56733AC5509259230CC1BA82BA1AE7D06E91908A05A8FA
                  tags: ["12345"]
          - id: preview
            render:
              template: genericTemplate
              properties: { message: "${param:message}" }
          - send:
              hub: tutorial
              audience: seed-device
              properties: { message: "${param:message}" }

        """
}
