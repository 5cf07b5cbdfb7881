import Foundation

/// The files `pushline init` writes: what a first project needs, and nothing that runs without being asked.
enum StarterProject {
    /// One file of the project.
    struct File {
        /// Relative to the project's directory.
        let path: String
        /// One line for the listing `init` prints.
        let purpose: String
        let content: String
    }

    static let pipeline = """
        # yaml-language-server: $schema=./pipeline.schema.json
        version: 1
        description: >
          A personalised notification per row of data/rows.csv (columns userId,message), to each user's
          devices by their $UserId tag: NH renders every device's registered template with the row's
          properties. The render step previews what an APNs device registered with templates/alert.apns.json
          receives. The hub comes from NH_CONNECTION and NH_HUB (see .env.example).

        hubs:
          main:
            connection: ${env:NH_CONNECTION}
            hub: ${env:NH_HUB}

        templates:
          alert:
            platform: apns
            body: ../templates/alert.apns.json

        steps:
          - render: { template: alert, properties: { message: "Hello from Pushline" } }
          - send:
              hub: main
              for-each: ../data/rows.csv
              audience: "$UserId:{$(userId)}"
              properties: { message: "$(message)" }
              bad-rows: stop          # a malformed row stops the run before anything is sent
              dedupe-window: 12h      # what a run sent in the last 12 hours is not sent again

        """

    /// The pipeline's tests, run offline by `pushline test pipelines/`.
    static let tests = """
        # yaml-language-server: $schema=./test.schema.json
        # Tests of digest.yaml, each case against an emulator inside `pushline test pipelines/`: no hub, no secret.
        cases:
          - name: each user's devices receive their row's message, once
            idempotent: true
            devices: &devices
              - installationId: alice-iphone
                platform: apns
                pushChannel: A11CE00000000000000000000000000000000000000000000000000000000001
                userId: alice
                templates: { alert: { body: '{"aps":{"alert":"$(message)","sound":"default"}}' } }
              - installationId: carol-iphone
                platform: apns
                pushChannel: CA201000000000000000000000000000000000000000000000000000000000C1
                userId: carol
                templates: { alert: { body: '{"aps":{"alert":"$(message)","sound":"default"}}' } }
            rows:
              send:
                - { userId: alice, message: Your order has shipped }
            expect:
              exit: 0
              outputs: { render.payload.aps.alert: Hello from Pushline }
              received:
                - device: alice-iphone
                  payload: '{"aps":{"alert":"Your order has shipped","sound":"default"}}'
              received-nothing: [carol-iphone]

          - name: the sample rows send one notification per user
            devices: *devices
            expect:
              exit: 0
              items: { send.accepted: 2 }
              received: [{ device: alice-iphone, values: { aps.alert: "Your order has shipped, track it in the app" } }]

        """

    static let template = """
        {"aps":{"alert":"$(message)","sound":"default"}}

        """

    static let rows = """
        userId,message
        alice,"Your order has shipped, track it in the app"
        bob,Your weekly summary is ready

        """

    /// Every `${env:NAME}` the pipeline reads, in order of first use.
    static var variables: [String] {
        var seen: [String] = []
        var rest = pipeline[...]
        while let start = rest.range(of: "${env:") {
            let name = rest[start.upperBound...].prefix { $0 != "}" }
            if !seen.contains(String(name)) { seen.append(String(name)) }
            rest = rest[start.upperBound...]
        }
        return seen
    }

    /// Example values that parse, so a dry run works with this file as it is; they reach no real hub.
    static let exampleValues = [
        "NH_CONNECTION":
            "\"Endpoint=sb://your-namespace.servicebus.windows.net/;SharedAccessKeyName=DefaultFullSharedAccessSignature;"
            + "SharedAccessKey=replace-with-your-key\"",
        "NH_HUB": "your-hub",
    ]

    static var environmentExample: String {
        var text = """
            # The variables pipelines/digest.yaml reads. Copy to .env, fill in, keep .env out of git:
            #   pushline run pipelines/digest.yaml --env-file .env
            # With these example values a dry run works as it is (nothing is sent):
            #   pushline run pipelines/digest.yaml --dry-run --env-file .env.example

            """
        for name in variables { text += "\(name)=\(exampleValues[name] ?? "")\n" }
        return text
    }

    /// The project's files, `schema` being the JSON Schema `pushline schema` prints and `testSchema` the one of
    /// test files.
    static func files(schema: String, testSchema: String) -> [File] {
        [
            File(
                path: "pipelines/digest.yaml", purpose: "a personalised send per row of data/rows.csv (edit me)",
                content: pipeline),
            File(
                path: "pipelines/digest.test.yaml", purpose: "its tests: what each device receives (pushline test)",
                content: tests),
            File(
                path: "pipelines/pipeline.schema.json", purpose: "the JSON Schema your editor completes keys from",
                content: schema.hasSuffix("\n") ? schema : schema + "\n"),
            File(
                path: "pipelines/test.schema.json", purpose: "the JSON Schema of test files",
                content: testSchema.hasSuffix("\n") ? testSchema : testSchema + "\n"),
            File(
                path: "templates/alert.apns.json", purpose: "the APNs template the pipeline previews", content: template
            ),
            File(path: "data/rows.csv", purpose: "sample rows: userId,message", content: rows),
            File(
                path: ".env.example", purpose: "every variable the pipeline reads; copy to .env and fill in",
                content: environmentExample),
            File(
                path: SeedTutorial.path, purpose: "NH's seed tutorial, the pipeline `pushline demo` runs",
                content: SeedTutorial.text),
        ]
    }
}
